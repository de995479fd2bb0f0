/**
 * The oldest Node.js the package runs on, and the one line a command prints on an older one. npm
 * refuses to install on an older Node, but a command can still be started by one (another Node first
 * on the PATH, a copied node_modules), and there it fails far from the cause: better-sqlite3 13 ends
 * Node 22.12 and 20 with a segmentation fault at its first statement (its binary needs N-API 10).
 */

/** package.json's engines.node, as a version (a test keeps the two the same). */
export const OLDEST_NODE = "22.19.0";

/** Whether `version` ("20.19.2", "v24.1.0") comes before `oldest`, compared part by part as numbers. */
function isOlder(version: string, oldest: string): boolean {
  const have = version.replace(/^v/, "").split(".").map(Number);
  const need = oldest.split(".").map(Number);
  for (let i = 0; i < need.length; i++) {
    const [a, b] = [have[i] ?? 0, need[i] ?? 0];
    if (a !== b) return a < b;
  }
  return false;
}

/** Why `command` cannot run on Node `version`, in one line; null when it can. */
export function unsupportedNode(command: string, version: string = process.versions.node): string | null {
  if (!isOlder(version, OLDEST_NODE)) return null;
  return (
    `${command} needs Node.js ${OLDEST_NODE} or later, and this is Node.js ${version.replace(/^v/, "")}: ` +
    "run it with a newer Node (the README says how to get one)"
  );
}
