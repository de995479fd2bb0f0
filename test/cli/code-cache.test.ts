/**
 * The bundled commands' own chunks are compiled with a code cache made after the run
 * (cli/code-cache.ts): an entry per chunk and command, written when missing or refused, read back by
 * the next run, holding the functions the run called; a damaged entry or a changed chunk is compiled
 * afresh. The commands' use of it, end to end, is in compile-cache.test.ts.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { commandKey, entriesFolder, entryName } from "../../cli/code-cache.js";
import { ensureBuilt, ROOT } from "../support/cli-process.js";

describe("what names an entry", () => {
  it("the command is the first word of the line that names one, else help or none", () => {
    const commands = ["sync", "validate", "accounts"];
    expect(commandKey(["-p", "proj", "sync", "-r", "validate"], commands)).toBe("sync");
    expect(commandKey(["accounts", "add", "x"], commands)).toBe("accounts");
    expect(commandKey(["--help"], commands)).toBe("help");
    expect(commandKey(["--version"], commands)).toBe("none");
  });

  it("the chunk, its size and time, the command; no dot anywhere", () => {
    expect(entryName("/d/chunks/chunk-AB12.cjs", 10, 1234.9, "sync")).toBe("chunk-AB12-10-1234-sync");
    const folder = entriesFolder({ XDG_CACHE_HOME: "/c" }, "/h")!;
    expect(folder.startsWith("/c/musicsync/compile-cache/musicsync-code-v")).toBe(true);
    expect(folder.replace("/c/musicsync/compile-cache/", "")).not.toContain(".");
    expect(entriesFolder({ NODE_COMPILE_CACHE: "/n" }, "/h")!.startsWith("/n/musicsync-code-")).toBe(true);
    expect(entriesFolder({ NODE_DISABLE_COMPILE_CACHE: "1", XDG_CACHE_HOME: "/c" }, "/h")).toBeUndefined();
  });
});

let dir = "";
let cache = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "code-cache-"));
  cache = join(dir, "cache");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A function whose body is long enough that compiling it shows in the entry's size. */
function longFunction(name: string): string {
  const lines = Array.from({ length: 300 }, (_, i) => `  t += x * ${i} + (x >> ${i % 31}) - ${i % 7};`);
  return `function ${name}(x) {\n  let t = 0;\n${lines.join("\n")}\n  return t;\n}\n`;
}

/** Two chunks: main requires part (a chunk) and node:path (Node's); part's `work` is compiled only when called. */
function writeChunks(): void {
  writeFileSync(
    join(dir, "part.cjs"),
    `${longFunction("work")}exports.work = work;\nexports.url = __importMetaUrl;\n`,
  );
  const main = join(dir, "main.cjs");
  writeFileSync(
    main,
    'const part = require("./part.cjs");\nconst { basename } = require("node:path");\n' +
      // Not ASCII, as the bundled chunks are: any chunk is read as UTF-8.
      'module.exports = { part, base: basename(__filename), word: "café ☕" };\n',
  );
}

interface Run {
  base: string;
  word: string;
  url: string;
  work: number | null;
  files: string[];
  /** How many entries the run found missing or refused (and wrote). */
  written: number;
}

/**
 * One run in a process of its own (V8 keeps what it compiled for the process's life, so a second
 * load in the same process would never read the entry): the commands' loader, dist/bin/load.cjs,
 * loads main.cjs for `command`, calls `work` when asked, and writes its entries as at exit.
 */
function run(command: string, callWork: boolean, folder: string | null = cache): Run {
  const code = `
const { ChunkLoader } = require(${JSON.stringify(join(ROOT, "dist/bin/load.cjs"))});
const loader = new ChunkLoader(${folder === null ? "undefined" : JSON.stringify(folder)}, ${JSON.stringify(command)});
const m = loader.load(${JSON.stringify(join(dir, "main.cjs"))});
const out = { base: m.base, word: m.word, url: m.part.url, work: ${callWork} ? m.part.work(2) : null, files: loader.files, written: loader.toWrite.length };
loader.saveStale();
process.stdout.write(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, ["-e", code], { encoding: "utf8" });
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout) as Run;
}

const entries = () => readdirSync(cache).sort();
const sizeOf = (command: string) =>
  statSync(join(cache, entries().find((f) => f.startsWith("part-") && f.endsWith(`-${command}`))!)).size;

describe("a run's chunks and their entries", () => {
  beforeAll(() => ensureBuilt(), 180_000);

  it("loads chunks and Node's modules; the next run reads the entries the first wrote", () => {
    writeChunks();
    const first = run("sync", true);
    expect(first).toMatchObject({
      base: "main.cjs",
      word: "café ☕",
      url: pathToFileURL(join(dir, "part.cjs")).href,
      written: 2,
    });
    expect(first.files).toEqual([join(dir, "main.cjs"), join(dir, "part.cjs")]);
    expect(entries()).toHaveLength(2);
    expect(entries().filter((f) => f.includes("tmp"))).toEqual([]);
    const second = run("sync", true);
    expect(second).toMatchObject({ work: first.work, written: 0 });
    // Another command's entries are its own.
    expect(run("validate", false).written).toBe(2);
    expect(entries()).toHaveLength(4);
  });

  it("an entry holds the functions the run called, not only the chunk's top level", () => {
    writeChunks();
    run("idle", false);
    run("busy", true);
    expect(sizeOf("busy")).toBeGreaterThan(sizeOf("idle") + 2_000);
  });

  it("a damaged entry is compiled afresh and written again; a changed chunk gets an entry of its own", () => {
    writeChunks();
    const first = run("sync", true);
    for (const f of entries()) writeFileSync(join(cache, f), Buffer.alloc(64, 7));
    expect(run("sync", true)).toMatchObject({ work: first.work, written: 2 });
    expect(run("sync", true)).toMatchObject({ work: first.work, written: 0 });

    // The same length, another text and time: never run with the old chunk's code.
    const part = join(dir, "part.cjs");
    writeFileSync(part, readFileSync(part, "utf8").replace("x * 1 +", "x * 9 +"));
    utimesSync(part, new Date(), new Date(Date.now() + 5_000));
    const changed = run("sync", true);
    expect(changed.written).toBe(1);
    expect(changed.work).toBe(first.work! + 16);
  });

  it("no folder: chunks load, nothing is written", () => {
    writeChunks();
    expect(run("sync", true, null)).toMatchObject({ base: "main.cjs", written: 0 });
    expect(readdirSync(dir).sort()).toEqual(["main.cjs", "part.cjs"]);
  });
});

describe("a chunk's code made ASCII (scripts/ascii-only.mjs)", () => {
  type AsciiOnly = (code: string, path: string) => string;
  const load = async () =>
    ((await import(pathToFileURL(join(ROOT, "scripts/ascii-only.mjs")).href)) as { asciiOnly: AsciiOnly })
      .asciiOnly;

  it("means what it meant: regular expressions, strings, templates; a backslash before a character kept once", async () => {
    const asciiOnly = await load();
    // What esbuild leaves as it was: comments, regular expressions (with and without `u`), templates.
    const tick = "`";
    const code = [
      "// response’s body",
      String.raw`const md = /^(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]$/;`,
      String.raw`const dash = /\s+[-–—~|]\s+|\s*[|｜]\s*/;`,
      "const tag = (s) => s.join('#');",
      "module.exports = [",
      `  md.exec("3月 4日")?.slice(1).join(","), dash.test("a – b"), dash.test("a - b"),`,
      String.raw`  /^😀+$/u.test("😀😀"), /^😀$/.test("😀"), "\é", /\é/.test("é"), /\\é/.test("\\é"),`,
      `  ${tick}· —${tick}, tag${tick}a·é${tick},`,
      "];",
    ].join("\n");
    const run = (text: string) => {
      const module = { exports: undefined as unknown };
      new Function("module", text)(module);
      return module.exports;
    };
    const ascii = asciiOnly(code, "x.cjs");
    expect(ascii).toMatch(/^[\x00-\x7f]*$/);
    expect(run(ascii)).toEqual(run(code));
    expect(run(code)).toEqual(["3,4", true, true, true, true, "é", true, true, "· —", "a·é"]);
  });

  it("stops on a line separator, which would end a `//` comment where it stands", async () => {
    const asciiOnly = await load();
    expect(() => asciiOnly("// a\u2028b = 1", "x.cjs")).toThrow(/U\+2028/);
  });
});
