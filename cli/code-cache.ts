/**
 * How the bundled commands load their own code (dist/bin/chunks/*.cjs, scripts/bundle-commands.mjs):
 * each chunk compiled through vm.Script with V8's code cache made *after* the run, so that it holds
 * every function the command called, not only the code compiled when the chunk loaded.
 *
 * Why: Node's compile cache (cli/compile-cache.ts) keeps what V8 compiles with a module, its top
 * level and the few functions compiled eagerly; the functions V8 compiles lazily, when they are first
 * called, are compiled again by every run, and for a short command that is most of its compiling.
 * V8 can serialize a script's code at any later moment, functions compiled since included
 * (`script.createCachedData()`): a command that found no cache, or whose cache V8 refused, writes
 * one at exit, and the next run of that command reads it back.
 *
 * An entry is a chunk's for one command (`sync`, `validate`, `--help`…: the first word of the command
 * line that names one of the program's commands), since each command calls different functions of
 * the same chunks; its name holds the chunk's name (esbuild puts a hash of its content there), its
 * size and modification time, and Node's version, so another build, a changed file or
 * another Node never reads it. V8 checks an entry again before using it (its format version, flags
 * and the source's length) and compiles afresh when it refuses one; a missing or unreadable entry is
 * compiled afresh too. Entries are written to a temporary file and renamed into place, so commands
 * started together never read half of one.
 *
 * Where: the folder cli/compile-cache.ts names (the user's cache folder, never the temporary folder
 * other users share, for the reason given there), in a folder of its own; NODE_DISABLE_COMPILE_CACHE
 * turns it off like Node's own cache.
 *
 * This file is bundled on its own as dist/bin/load.cjs, which the commands' entry files require.
 */
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Script } from "node:vm";
import { compileCacheFolder } from "./compile-cache.js";
import { keepWasmBaseline } from "./wasm-tiering.js";

/** What a chunk's code is wrapped in (one line, so that its source map's lines stay where they were). */
const WRAPPER_PARAMS = "exports, require, module, __filename, __dirname, __importMetaUrl";
const WRAPPER_START = `(function (${WRAPPER_PARAMS}) {`;
const WRAPPER_END = "\n})";

/**
 * A chunk's code inside its wrapper, as one flat string, with the file's size and time.
 *
 * Why not `start + code + end`: that string is a concatenation, which V8 first copies into one
 * piece before it takes the code cache, and with a cache that copy was most of the compiling: 8-12
 * CPU-ms for undici's 1.4 MB chunk against 2 when the wrapped text is decoded from one buffer (at
 * a load of about 20). The file is read into the buffer between the two ends, so the code is read
 * and copied once, as before.
 */
function wrappedChunk(file: string): { text: string; size: number; mtimeMs: number } {
  const fd = openSync(file, "r");
  try {
    const { size, mtimeMs } = fstatSync(fd);
    const buffer = Buffer.allocUnsafe(WRAPPER_START.length + size + WRAPPER_END.length);
    let at = buffer.write(WRAPPER_START, 0, "latin1");
    const end = at + size;
    while (at < end) {
      const read = readSync(fd, buffer, at, end - at, null);
      if (read === 0) break;
      at += read;
    }
    at += buffer.write(WRAPPER_END, at, "latin1");
    // The chunks are ASCII (scripts/ascii-only.mjs); as UTF-8, any other file reads as it did.
    return { text: buffer.toString("utf8", 0, at), size, mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** The word that names the run's command: the first of `argv` that is one of `commands`, else `none`. */
export function commandKey(argv: readonly string[], commands: readonly string[]): string {
  const named = argv.find((a) => commands.includes(a));
  return named ?? (argv.includes("--help") || argv.includes("-h") ? "help" : "none");
}

/**
 * The folder of this Node's entries inside the cache folder, or undefined when caching is off. Names
 * hold no dot (a temporary file is named by its `-tmp-` part). V8's options are not in the name: V8
 * refuses an entry made under other flags, and the run then writes it anew.
 */
export function entriesFolder(env: NodeJS.ProcessEnv, home: string): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE !== undefined) return undefined;
  const root = compileCacheFolder(env, home) ?? env.NODE_COMPILE_CACHE!;
  return join(root, `musicsync-code-${process.version}-${process.arch}`.replace(/\./g, "_"));
}

/** An entry's file name: the chunk, its size and time, the command. */
export function entryName(chunk: string, size: number, mtimeMs: number, command: string): string {
  return `${basename(chunk).replace(/\.c?js$/, "")}-${size}-${Math.trunc(mtimeMs)}-${command}`;
}

interface Loaded {
  script: Script;
  entry: string | undefined;
  /** The entry was missing or V8 refused it: write one at exit. */
  stale: boolean;
}

/** The chunks of a run: each loaded once, its `module.exports` kept, its script for the exit's cache. */
export class ChunkLoader {
  private readonly exportsOf = new Map<string, unknown>();
  private readonly scripts: Loaded[] = [];

  constructor(
    private readonly folder: string | undefined,
    private readonly command: string,
  ) {}

  /** The chunks this run loaded (bench/loaded-modules.ts lists them). */
  get files(): string[] {
    return [...this.exportsOf.keys()];
  }

  /** The entries this run found missing or V8 refused, which it writes at exit. */
  get toWrite(): string[] {
    return this.scripts.flatMap((s) => (s.stale && s.entry ? [s.entry] : []));
  }

  /** Loads `file` (once) and returns its exports; `url` is what its `import.meta.url` says. */
  load(file: string, url = pathToFileURL(file).href): unknown {
    const known = this.exportsOf.get(file);
    if (known !== undefined) return known;
    const { text, size, mtimeMs } = wrappedChunk(file);
    const entry = this.folder && join(this.folder, entryName(file, size, mtimeMs, this.command));
    const cachedData = entry ? readOrNothing(entry) : undefined;
    const script = new Script(text, {
      filename: file,
      ...(cachedData ? { cachedData } : {}),
    });
    this.scripts.push({ script, entry, stale: !cachedData || script.cachedDataRejected === true });
    const module = { exports: {} as unknown };
    // Set before it runs: two chunks that require each other get the part already made, as in CommonJS.
    this.exportsOf.set(file, module.exports);
    const fn = script.runInThisContext() as (...a: unknown[]) => void;
    fn.call(module.exports, module.exports, this.requireFor(file), module, file, dirname(file), url);
    this.exportsOf.set(file, module.exports);
    return module.exports;
  }

  /** `require` inside a chunk: another chunk through this loader, anything else through Node's. */
  private requireFor(file: string): NodeRequire {
    const nodes = createRequire(file);
    const req = ((spec: string) =>
      /^\.\.?\/.*\.cjs$/.test(spec) ? this.load(resolve(dirname(file), spec)) : nodes(spec)) as NodeRequire;
    return Object.assign(req, { resolve: nodes.resolve, cache: nodes.cache, main: nodes.main });
  }

  /** Writes the entries this run found missing or refused (called at exit; a failure only costs speed). */
  saveStale(): void {
    const stale = this.scripts.filter((s) => s.stale && s.entry);
    if (stale.length === 0 || !this.folder) return;
    try {
      mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    } catch {
      return;
    }
    for (const s of stale) {
      const tmp = `${s.entry}-tmp-${process.pid}`;
      try {
        writeFileSync(tmp, s.script.createCachedData(), { mode: 0o600 });
        renameSync(tmp, s.entry!);
      } catch {
        rmSync(tmp, { force: true });
      }
    }
  }
}

function readOrNothing(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Where a run's loader is kept, for bench/loaded-modules.ts to list what it loaded. */
export const LOADER_KEY = Symbol.for("musicapi.chunk-loader");

/**
 * Starts a command: its entry chunk `entry`, whose `import.meta.url` is `url` (the command's own
 * file, so that it knows itself as the main module); `commands` names the program's commands.
 */
export function startCommand(entry: string, url: string, commands: readonly string[]): void {
  const command = commandKey(process.argv.slice(2), commands);
  // Before any chunk is compiled: the flags are part of what a cache entry is checked against.
  keepWasmBaseline(command);
  const loader = new ChunkLoader(entriesFolder(process.env, homedir()), command);
  (globalThis as Record<symbol, unknown>)[LOADER_KEY] = loader;
  process.on("exit", () => loader.saveStale());
  loader.load(entry, url);
}
