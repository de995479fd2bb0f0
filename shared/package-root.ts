/**
 * Files the package ships (recipes/, migrations/), found from the running module: the nearest folder
 * above it that holds package.json, so it works from `shared/` under tsx, from `dist/shared/` and from the bundled commands in `dist/bin/`.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export function packageRoot(from: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    if (existsSync(join(dir, "package.json"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error("no package.json above the shared module");
    dir = parent;
  }
}
