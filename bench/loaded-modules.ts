/**
 * What a command loads: the repository's folders and the packages under node_modules whose files
 * it read. ES modules are seen by a loader hook (module.register, on its own thread, appending
 * each URL to a file); CommonJS files (pino, better-sqlite3 and undici are CommonJS) by a preload
 * that lists `require.cache` at exit, and the bundled commands' chunks, which their own loader
 * compiles (cli/code-cache.ts), by the list that loader keeps. A file of the bundled commands
 * (dist/bin/) stands for the sources its source map lists, so a chunk holding engine/run counts as
 * engine/run. Used by bench/startup.ts and the CLI tests.
 *
 * `root` is the checkout whose commands run (bench/startup.ts times another one beside this).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { LOADER_KEY } from "../cli/code-cache.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** A file's place as a person names it: `pino` for node_modules/pino/…, `engine/run` for engine/run/x.js. */
export function owner(path: string, root = ROOT): string | null {
  // A package by its path, wherever node_modules really is: a checkout whose node_modules links to
  // another's loads its packages from there.
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (nm) return nm[1]!;
  const rel = relative(root, path);
  if (rel.startsWith("..")) return null;
  const parts = rel.replace(/^dist\//, "").split("/");
  return parts.length > 2 ? parts.slice(0, 2).join("/") : parts[0]!;
}

/** The files a loaded file stands for: the sources it was bundled from when it has a source map in dist/bin/. */
function sourcesOf(path: string, root: string): string[] {
  const map = `${path}.map`;
  if (!relative(join(root, "dist/bin"), path).startsWith("..") && existsSync(map)) {
    const { sources } = JSON.parse(readFileSync(map, "utf8")) as { sources: string[] };
    return sources.map((s) => resolve(dirname(map), s));
  }
  return [path];
}

/** What one command run read: the module files themselves, and the sources they stand for. */
export interface Loaded {
  /** The module files Node read (a bundle's chunk counts once). */
  files: string[];
  /** Each file's sources, absolute: a chunk's from its source map, any other file itself. */
  sources: string[];
}

/** Runs `node <args>` in `root` with a loader hook and a require.cache listing; what it loaded. */
export function loadedBy(args: readonly string[], root = ROOT): Loaded {
  const dir = mkdtempSync(join(tmpdir(), "startup-"));
  const log = join(dir, "loaded.txt");
  const hooks = join(dir, "hooks.mjs");
  const register = join(dir, "register.mjs");
  const cjs = join(dir, "cjs.cjs");
  writeFileSync(
    hooks,
    `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  if (url.startsWith("file:")) appendFileSync(${JSON.stringify(log)}, url + "\\n");
  return next(url, context);
}`,
  );
  writeFileSync(
    register,
    `import { register } from "node:module"; register(${JSON.stringify(pathToFileURL(hooks).href)});`,
  );
  writeFileSync(
    cjs,
    `process.on("exit", () => {
  const chunks = globalThis[Symbol.for(${JSON.stringify(LOADER_KEY.description)})]?.files ?? [];
  require("node:fs").appendFileSync(${JSON.stringify(log)}, [...Object.keys(require.cache), ...chunks].map((f) => "file://" + f + "\\n").join(""));
});`,
  );
  try {
    spawnSync(process.execPath, ["--import", pathToFileURL(register).href, "--require", cjs, ...args], {
      cwd: root,
      stdio: "ignore",
    });
    const urls = existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : [];
    // The hook's own files are not the command's.
    const files = [...new Set(urls.map((u) => fileURLToPath(u)))].filter((f) =>
      relative(dir, f).startsWith(".."),
    );
    return { files, sources: [...new Set(files.flatMap((f) => sourcesOf(f, root)))] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The folders and packages these files belong to, sorted. */
export function ownersOf(sources: readonly string[], root = ROOT): string[] {
  const owners = new Set(sources.map((s) => owner(s, root)));
  owners.delete(null);
  return [...(owners as Set<string>)].sort();
}

/** The folders and packages one command reads, sorted. */
export function modulesOf(args: readonly string[], root = ROOT): string[] {
  return ownersOf(loadedBy(args, root).sources, root);
}
