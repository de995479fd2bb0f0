import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The package's version, from its package.json: the nearest one named "musicapi" above this module
 * (src/, dist/src/, or the bundled commands' dist/bin/chunks/).
 */
export function packageVersion(from: string = import.meta.url): string {
  for (let dir = dirname(fileURLToPath(from)); ; dir = dirname(dir)) {
    try {
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        name?: unknown;
        version?: unknown;
      };
      if (manifest.name === "musicapi" && typeof manifest.version === "string") return manifest.version;
    } catch {
      // None here: look one folder up.
    }
    if (dirname(dir) === dir) return "unknown";
  }
}
