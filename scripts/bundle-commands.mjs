/**
 * Bundles the two commands (`musicsync`, `musicapi`) into dist/bin/, after tsc has built dist/.
 *
 * Why: Node 20 spends most of a short command's start-up finding, reading and compiling modules
 * one file at a time (yaml alone is about 60 CommonJS files: 28 ms to import, 12 ms bundled), and it
 * has no compile cache (module.enableCompileCache is Node 22). Our code and the three small
 * packages every command loads (commander, yaml, node-cron) go into a few files; everything else
 * stays an ordinary import from node_modules (better-sqlite3 is native, pino starts worker threads
 * by module name, and what a command does not need must stay unloaded).
 * drizzle-orm is bundled too: its package.json lists some 600 exports (180 KB), which Node 22 and
 * 24 parse again for each of its modules they load — `status` took 2.3 s of CPU on Node 24.21
 * with drizzle-orm loaded from node_modules, 0.7 s bundled.
 * undici is bundled too: its index loads some 110 CommonJS files for any command that talks HTTP
 * (about 7 % of a no-change `sync`'s CPU went to finding and reading them). It is plain JavaScript
 * that requires only Node's builtins (which stay imports), its llhttp parser is WebAssembly held
 * in a JS string, not a file beside it, and the bundled client imports no other copy: a command
 * has one undici, as before (the library, tsc's dist/, still imports node_modules' own).
 *
 * Each command's lazily imported actions become chunks of their own (splitting), so `--help` still
 * loads none of the engine. Source maps let bench/loaded-modules.ts name what a chunk holds; they
 * are written beside the chunks without a `sourceMappingURL` comment, since the package does not ship
 * them (nor the sources they name).
 * The library (`import "musicapi"`) is tsc's dist/ as before; only the two bins change.
 */
import { existsSync, renameSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const BUNDLED = new Set(["commander", "yaml", "node-cron", "drizzle-orm", "undici"]);

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageOf(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/**
 * Our code's `import … from "undici"` gets the part of undici the commands use (what and why: that
 * file). Its own requires, and the `request` it takes from the index, resolve as ever.
 */
const UNDICI_FOR_COMMANDS = fileURLToPath(new URL("./undici-for-commands.cjs", import.meta.url));

/**
 * Two of commander's imports, made cheap. `import process from "node:process"`: an ES module's import
 * of a builtin reads every export it has, so the lazy ones load at once — for `process` some 45 of
 * Node's internal modules (streams, worker threads, readline …), compiled before `--help` prints a
 * line; commander wants the global `process` object, which is what it gets. And `node:child_process`
 * (networking and streams) serves the one thing we never ask of commander, subcommands that are
 * separate executables: it loads when first used, if ever.
 */
const COMMANDER_SHIMS = {
  "node:process": "export default globalThis.process;",
  "node:child_process":
    'import { createRequire } from "node:module";\n' +
    "let m;\n" +
    'export default new Proxy({}, { get: (_, k) => (m ??= createRequire(import.meta.url)("node:child_process"))[k] });',
};
const commanderShims = {
  name: "commander-shims",
  setup(b) {
    b.onResolve({ filter: /^node:(child_)?process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: args.path, namespace: "commander-shim" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "commander-shim" }, ({ path }) => ({
      loader: "js",
      contents: COMMANDER_SHIMS[path],
      resolveDir: fileURLToPath(new URL(".", import.meta.url)),
    }));
  },
};

const keepExternal = {
  name: "keep-packages-external",
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, (args) =>
      args.importer.endsWith(".ts") ? { path: UNDICI_FOR_COMMANDS } : undefined,
    );
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("node:") || !BUNDLED.has(packageOf(args.path)) ? { external: true } : undefined,
    );
  },
};

// Chunk names carry a hash, so each build goes to a fresh folder that then takes dist/bin's place:
// no chunk of an older build stays beside the new ones, and a command started during the build
// finds either the old bundle or the new one whole, never a half-written or missing one.
const NEXT = "dist/bin.next";
const OLD = "dist/bin.old";
rmSync(NEXT, { recursive: true, force: true });

await build({
  entryPoints: { musicsync: "cli/musicsync/main.ts", musicapi: "cli/musicapi/main.ts" },
  outdir: NEXT,
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "external",
  // The bundled CommonJS packages call require(); an ES module has none of its own.
  banner: {
    js: 'import { createRequire as bundleRequire } from "node:module";\nconst require = bundleRequire(import.meta.url);',
  },
  plugins: [commanderShims, keepExternal],
  logLevel: "warning",
});

rmSync(OLD, { recursive: true, force: true });
if (existsSync("dist/bin")) renameSync("dist/bin", OLD);
renameSync(NEXT, "dist/bin");
rmSync(OLD, { recursive: true, force: true });
