/**
 * Writes examples/recipe-repo/package-lock.json from the repository's own lockfile.
 *
 * Why: the recipe repository depends on this package (`file:../..`, installed packed: see its
 * .npmrc), so its tree is this package plus the runtime part of ours, at the versions our `npm ci`
 * installs and the tests run. Derived rather than resolved by `npm install`, it never picks a newer
 * version than we test, and `.ci/after-tests` installs it offline from the npm cache that our
 * `npm ci` filled. Run it after changing package.json's dependencies; with `--check` it only says
 * whether the committed file is up to date (exit 1 if not).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const EXAMPLE = join(ROOT, "examples", "recipe-repo");

/** The example's lockfile: its own entry, this package as `file:../..`, and our runtime packages. */
export function recipeRepoLock(rootLock, rootPackage, examplePackage) {
  const spec = examplePackage.dependencies.musicapi;
  const self = {
    version: rootPackage.version,
    resolved: spec,
    license: rootPackage.license,
    dependencies: rootPackage.dependencies,
    bin: rootPackage.bin,
    engines: rootPackage.engines,
  };
  const installed = { "node_modules/musicapi": self };
  for (const [path, entry] of Object.entries(rootLock.packages)) {
    // dev and devOptional entries are installed for our development only.
    if (path !== "" && !entry.dev && !entry.devOptional) installed[path] = entry;
  }
  const packages = {
    "": {
      name: examplePackage.name,
      dependencies: examplePackage.dependencies,
      engines: examplePackage.engines,
    },
  };
  // npm writes the paths sorted so; the same order keeps its rewrites of the file empty.
  for (const path of Object.keys(installed).sort((a, b) => a.localeCompare(b, "en")))
    packages[path] = installed[path];
  return { name: examplePackage.name, lockfileVersion: 3, requires: true, packages };
}

function readJson(path) {
  return JSON.parse(readFileSync(path, "utf8"));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const lock = recipeRepoLock(
    readJson(join(ROOT, "package-lock.json")),
    readJson(join(ROOT, "package.json")),
    readJson(join(EXAMPLE, "package.json")),
  );
  const text = `${JSON.stringify(lock, null, 2)}\n`;
  const file = join(EXAMPLE, "package-lock.json");
  if (process.argv.includes("--check")) {
    let committed = "";
    try {
      committed = readFileSync(file, "utf8");
    } catch {}
    if (committed !== text) {
      process.stderr.write(
        `${file} is not derived from package-lock.json: run node scripts/recipe-repo-lock.mjs\n`,
      );
      process.exit(1);
    }
  } else {
    writeFileSync(file, text);
  }
}
