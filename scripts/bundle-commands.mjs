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
 * The chunks are then turned into CommonJS (`.cjs`), which cli/code-cache.ts loads with a V8 code
 * cache made after the run (why: that file); each command's own file, `<name>.js`, only starts it
 * through dist/bin/load.cjs. They are not minified: a `--debug` stack then names a line a person
 * can open in the installed package, and taking the whitespace out saved no measurable start-up
 * time (bench/startup.ts, side by side: `--help` 80 against 88 CPU-ms, a no-change `sync` 561
 * against 573; the code cache spares the parsing either way).
 * The library (`import "musicapi"`) is tsc's dist/ as before; only the two bins change.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { build, transform } from "esbuild";
import { asciiOnly } from "./ascii-only.mjs";

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

/** A module that loads the builtin `name` when one of its `exports` is first used, if ever. */
const lazily = (name) =>
  'import { createRequire } from "node:module";\n' +
  "let m;\n" +
  `export const builtin = () => (m ??= createRequire(import.meta.url)(${JSON.stringify(name)}));\n`;

/**
 * Builtins that bundled packages import as they load but use only on paths the commands seldom or
 * never take, made cheap, per package:
 * - commander's `import process from "node:process"`: an ES module's import of a builtin reads every
 *   export it has, so the lazy ones load at once — for `process` some 45 of Node's internal modules
 *   (streams, worker threads, readline …), compiled before `--help` prints a line; commander wants the
 *   global `process` object, which is what it gets. And its `node:child_process` (networking and
 *   streams) serves the one thing we never ask of commander, subcommands that are separate
 *   executables: it loads when first used, if ever.
 * - node-cron's `child_process`: only its background tasks (a forked process) use it; we schedule
 *   inline tasks.
 * - undici's `node:assert` (with its error formatting and diffing, a dozen internal modules): undici
 *   only calls `assert(value)`, which throws only for a falsy value; Node's assert is loaded then,
 *   to throw what it throws.
 */
const SHIMS = {
  commander: {
    "node:process": "export default globalThis.process;",
    "node:child_process": `${lazily("node:child_process")}export default new Proxy({}, { get: (_, k) => builtin()[k] });`,
  },
  "node-cron": {
    child_process: `${lazily("child_process")}export const fork = (...a) => builtin().fork(...a);`,
  },
  undici: {
    "node:assert":
      'let real;\nmodule.exports = function assert(value, message) { if (!value) (real ??= require("node:assert"))(value, message); };',
  },
};
const SHIMMED = new RegExp(`[\\\\/]node_modules[\\\\/](${Object.keys(SHIMS).join("|")})[\\\\/]`);
const builtinShims = {
  name: "builtin-shims",
  setup(b) {
    b.onResolve({ filter: /^(node:)?((child_)?process|assert)$/ }, (args) => {
      const pkg = SHIMMED.exec(args.importer)?.[1];
      return pkg && SHIMS[pkg][args.path]
        ? { path: `${pkg}:${args.path}`, namespace: "builtin-shim" }
        : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: "builtin-shim" }, ({ path }) => {
      const [pkg, ...name] = path.split(":");
      return {
        loader: "js",
        contents: SHIMS[pkg][name.join(":")],
        resolveDir: fileURLToPath(new URL(".", import.meta.url)),
      };
    });
  },
};

/**
 * undici's client loads its HTTP/2 half as it loads, and with it `node:http2` and `node:tls` (some
 * 40 internal modules, about a tenth of a no-change `sync`'s CPU), though HTTP/2 is only spoken when
 * a TLS server offers it: that half is loaded at its first use. Fails the build when undici's line
 * changes, so that a new undici cannot quietly take the saving away.
 */
const UNDICI_H2_LINE = "const connectH2 = require('./client-h2.js')";
const undiciH2Lazily = {
  name: "undici-h2-lazily",
  setup(b) {
    b.onLoad(
      { filter: /[\\/]node_modules[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/ },
      ({ path }) => {
        const text = readFileSync(path, "utf8");
        if (!text.includes(UNDICI_H2_LINE)) throw new Error(`${path}: no \`${UNDICI_H2_LINE}\` to make lazy`);
        return {
          loader: "js",
          contents: text.replace(
            UNDICI_H2_LINE,
            "const connectH2 = (client, socket) => require('./client-h2.js')(client, socket)",
          ),
          resolveDir: dirname(path),
        };
      },
    );
  },
};

/**
 * drizzle's core reaches into its PostgreSQL half for two things, and with them loads all of it:
 * `sql/sql.js` imports `isPgEnum` (a test of one symbol) from pg-core's enum column, and
 * `relations.js` imports pg-core's `PrimaryKeyBuilder` only to ask `is(entry, PrimaryKeyBuilder)`.
 * Each import brings pg-core's table and every column type with it, some 40 modules that are ES
 * modules and so run as the chunk holding them loads: a `sync` on SQLite ran them on every start.
 * Here the test is written out as drizzle writes it, and the class is a stand-in carrying the same
 * entity kind, which is all `is` compares (entity.js); pg-core itself then loads only with a
 * PostgreSQL state. Fails the build when either line changes, so that a new drizzle cannot quietly
 * bring pg-core back or leave a test that no longer matches its own.
 */
const DRIZZLE_PG_IMPORTS = {
  "sql/sql.js": {
    line: 'import { isPgEnum } from "../pg-core/columns/enum.js";',
    // As pg-core/columns/enum.js defines it.
    instead:
      'const isPgEnumSym = Symbol.for("drizzle:isPgEnum");\n' +
      'function isPgEnum(obj) { return !!obj && typeof obj === "function" && isPgEnumSym in obj && obj[isPgEnumSym] === true; }',
    check: { file: "pg-core/columns/enum.js", text: 'const isPgEnumSym = Symbol.for("drizzle:isPgEnum");' },
  },
  "relations.js": {
    line: 'import { PrimaryKeyBuilder } from "./pg-core/primary-keys.js";',
    instead: 'class PrimaryKeyBuilder { static [entityKind] = "PgPrimaryKeyBuilder"; }',
    check: { file: "pg-core/primary-keys.js", text: 'static [entityKind] = "PgPrimaryKeyBuilder";' },
  },
};
const drizzleWithoutPg = {
  name: "drizzle-without-pg",
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]drizzle-orm[\\/](sql[\\/]sql|relations)\.js$/ }, ({ path }) => {
      const root = path.replace(/[\\/](sql[\\/]sql|relations)\.js$/, "");
      const { line, instead, check } = DRIZZLE_PG_IMPORTS[path.slice(root.length + 1).replaceAll("\\", "/")];
      const text = readFileSync(path, "utf8");
      if (!text.includes(line) || !readFileSync(`${root}/${check.file}`, "utf8").includes(check.text))
        throw new Error(`${path}: no \`${line}\` to replace, or ${check.file} changed`);
      return { loader: "js", contents: text.replace(line, instead), resolveDir: dirname(path) };
    });
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

const bundled = await build({
  entryPoints: { musicsync: "cli/musicsync/main.ts", musicapi: "cli/musicapi/main.ts" },
  outdir: NEXT,
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "external",
  plugins: [builtinShims, undiciH2Lazily, drizzleWithoutPg, keepExternal],
  logLevel: "warning",
  write: false,
});

/**
 * Each ES module esbuild wrote, as CommonJS for cli/code-cache.ts's loader (why: that file): its
 * imports become requires (another chunk's `./chunk-….cjs` through the loader, the rest through
 * Node's), each `import()` a require made when it runs (so a command still loads only what it uses),
 * `import.meta.url` the `__importMetaUrl` the loader passes. Source maps follow through both steps.
 */
async function asCommonJs(js, map, path) {
  const withMap = `${js}\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(map).toString("base64")}\n`;
  const out = await transform(withMap, {
    format: "cjs",
    platform: "node",
    target: "node20",
    supported: { "dynamic-import": false },
    charset: "ascii",
    define: { "import.meta.url": "__importMetaUrl" },
    sourcemap: "external",
    sourcefile: basename(path),
    logLevel: "warning",
  });
  return {
    // The loader wraps the code in a function: a `#!` line would not parse there (the line stays, empty).
    code: asciiOnly(
      out.code.replace(/^#!.*/, "").replace(/require\("(\.\.?\/[^"]+)\.js"\)/g, 'require("$1.cjs")'),
      path,
    ),
    map: out.map,
  };
}

const files = new Map(bundled.outputFiles.map((f) => [f.path, f.text]));
for (const [path, text] of files) {
  if (!path.endsWith(".js")) continue;
  const { code, map } = await asCommonJs(text, files.get(`${path}.map`) ?? "{}", path);
  const out = path.replace(/\.js$/, ".cjs");
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, code);
  writeFileSync(`${out}.map`, map);
}

// The loader, bundled on its own; then each command's file: it starts the command's code through it.
await build({
  entryPoints: ["cli/code-cache.ts"],
  outfile: `${NEXT}/load.cjs`,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  logLevel: "warning",
});
const PROGRAMS = {
  musicsync: "../dist/cli/musicsync/commands/index.js",
  musicapi: "../dist/cli/musicapi/commands.js",
};
for (const [program, list] of Object.entries(PROGRAMS)) {
  const { COMMANDS } = await import(new URL(list, import.meta.url).href);
  const names = COMMANDS.map((c) => c.name);
  writeFileSync(
    `${NEXT}/${program}.js`,
    `#!/usr/bin/env node
// The \`${program}\` command: its code is ${program}.cjs and chunks/, loaded through load.cjs (cli/code-cache.ts).
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
createRequire(import.meta.url)("./load.cjs").startCommand(
  fileURLToPath(new URL("./${program}.cjs", import.meta.url)),
  import.meta.url,
  ${JSON.stringify(names)},
);
`,
    { mode: 0o755 },
  );
}

rmSync(OLD, { recursive: true, force: true });
if (existsSync("dist/bin")) renameSync("dist/bin", OLD);
renameSync(NEXT, "dist/bin");
rmSync(OLD, { recursive: true, force: true });
