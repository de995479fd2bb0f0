import { readFileSync } from "node:fs";

/**
 * The package's version, from its package.json: the nearest one above this module, which is
 * `../package.json` from src/ and `../../package.json` from dist/src/.
 */
export function packageVersion(): string {
  for (const up of ["../package.json", "../../package.json"]) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8")) as {
        name?: unknown;
        version?: unknown;
      };
      if (manifest.name === "musicapi" && typeof manifest.version === "string") return manifest.version;
    } catch {
      // Not there at this depth: try the next.
    }
  }
  return "unknown";
}
