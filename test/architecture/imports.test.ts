/**
 * Floors that only go down: shared at the bottom, the client (src) on it, emulator and engine on the
 * client's public entry, the command-line programs on top, and only they parse command lines; no
 * circle of files importing each other, and no loop of folders. The same checks
 * run over small planted trees, so a check that finds nothing is known to look.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  FLOOR_FOLDERS,
  floorBreach,
  folderLoops,
  type ImportEdge,
  importCircles,
  type PackageImport,
  packageBreach,
  readImportGraph,
  readImports,
  specifiersOf,
} from "./import-graph.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function breaches(edges: readonly ImportEdge[], packages: readonly PackageImport[] = []): string[] {
  return [...edges.map(floorBreach), ...packages.map(packageBreach)].filter((b): b is string => b !== null);
}

/** Each loop as one line: its folders, then the imports that close it. */
function loopLines(edges: readonly ImportEdge[]): string[] {
  return folderLoops(edges).map((l) => `${l.folders.join(" ↔ ")}: ${l.through.join(", ")}`);
}

describe("the project's imports", () => {
  const { edges, packages } = readImports(ROOT, FLOOR_FOLDERS);

  it("reads the graph (a scan that finds nothing would pass anything)", () => {
    expect(edges.length).toBeGreaterThan(1000);
    expect(edges).toContainEqual({
      from: "engine/run/emulator-account.ts",
      to: "emulator/index.ts",
      lazy: true,
    });
  });

  it("has no circle of files importing each other", () => {
    expect(importCircles(edges).map((c) => c.join(" ↔ "))).toEqual([]);
  });

  it("never imports up a floor, nor across from emulator to engine or back, nor commander below cli/", () => {
    expect(packages).toContainEqual({ from: "cli/musicapi/emulator.ts", name: "commander" });
    expect(breaches(edges, packages)).toEqual([]);
  });

  it("has no loop of folders importing each other", () => {
    expect(loopLines(edges)).toEqual([]);
  });
});

describe("the check, over a planted tree", () => {
  let root = "";
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function plant(files: Record<string, string>): ImportEdge[] {
    root = mkdtempSync(join(tmpdir(), "floors-"));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return readImportGraph(root, FLOOR_FOLDERS);
  }

  const clean = {
    "shared/retry.ts": "export const x = 1;\n",
    "src/index.ts": 'export { x } from "../shared/retry.js";\nexport * from "./client.js";\n',
    "src/client.ts": 'import { x } from "../shared/retry.js";\nexport const c = x;\n',
    "engine/run/a.ts":
      'import { c } from "../../src/index.js";\nimport { x } from "../../shared/retry.js";\n',
    "engine/demo/demo.ts": 'export async function demo() {\n  await import("../../emulator/index.js");\n}\n',
    "emulator/index.ts": 'import type { c } from "../src/index.js";\n',
    "cli/musicsync/main.ts": 'import "../../engine/run/a.js";\nimport "../../src/client.js";\n',
  };

  it("passes a tree whose floors go down", () => {
    const edges = plant(clean);
    expect(edges).toHaveLength(9);
    expect(importCircles(edges)).toEqual([]);
    expect(breaches(edges)).toEqual([]);
  });

  it("names the files of a planted circle, however long, and a file importing itself", () => {
    const edges = plant({
      ...clean,
      "engine/run/a.ts": 'import { b } from "./b.js";\nexport const a = 1;\n',
      "engine/run/b.ts": "export {\n  c,\n} from './c.js';\n",
      "engine/run/c.ts": 'export async function f() {\n  return import("./a.js");\n}\n',
      "src/client.ts": 'import type { c } from "./client.js";\n',
    });
    expect(importCircles(edges)).toEqual([
      ["engine/run/a.ts", "engine/run/b.ts", "engine/run/c.ts"],
      ["src/client.ts"],
    ]);
  });

  it("names each planted upward or sideways import", () => {
    const edges = plant({
      ...clean,
      "shared/retry.ts": 'import "../src/index.js";\n',
      "src/client.ts": 'import { a } from "../engine/run/a.js";\n',
      "engine/run/a.ts":
        'import { parse } from "../../src/parsers/text.js";\nimport "../../cli/musicsync/main.js";\n',
      "src/parsers/text.ts": "export const parse = 1;\n",
      "emulator/index.ts": 'import { a } from "../engine/run/a.js";\n',
      "engine/demo/demo.ts": 'import { startEmulator } from "../../emulator/index.js";\n',
      "engine/state/b.ts": 'const e = await import("../../emulator/index.js");\n',
    });
    expect(breaches(edges)).toEqual([
      "emulator/index.ts (emulator) imports engine/run/a.ts (engine): emulator and engine do not import each other",
      "engine/demo/demo.ts imports emulator/index.ts eagerly: the emulator may only be loaded lazily, with import()",
      "engine/run/a.ts (engine) imports src/parsers/text.ts: engine uses the client only through src/index.ts",
      "engine/run/a.ts (engine) imports cli/musicsync/main.ts: nothing imports the programs",
      "engine/state/b.ts (engine) imports emulator/index.ts (emulator): emulator and engine do not import each other",
      "shared/retry.ts (shared) imports src/index.ts: the shared module imports nothing above it",
      "src/client.ts (client) imports engine/run/a.ts (engine): the client imports nothing above it",
    ]);
  });

  it("names commander imported below cli/, and lets the programs import it", () => {
    root = mkdtempSync(join(tmpdir(), "floors-"));
    const files = {
      "cli/musicsync/main.ts": 'import { Command } from "commander";\n',
      "engine/daemon/options.ts": 'import type { Option } from "commander";\nimport "node:fs";\n',
      "src/args.ts": 'const c = await import("commander/esm.mjs");\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const { edges, packages } = readImports(root, FLOOR_FOLDERS);
    expect(breaches(edges, packages)).toEqual([
      "engine/daemon/options.ts (engine) imports commander: only the programs in cli/ parse command lines",
      "src/args.ts (src) imports commander/esm.mjs: only the programs in cli/ parse command lines",
    ]);
  });

  it("names a planted loop of folders, however long, but not a folder leaning on its parts and back", () => {
    const edges = plant({
      ...clean,
      "engine/run/a.ts": 'import { s } from "../state/pg/s.js";\nexport const a = 1;\n',
      "engine/state/pg/s.ts": 'import type { R } from "../../recipe/r.js";\nexport const s = 1;\n',
      "engine/recipe/r.ts": 'export type R = typeof import("../run/b.js");\n',
      "engine/run/b.ts": "export const b = 1;\n",
      // engine/state's own file and its subfolder import each other: a folder and its parts, no loop.
      "engine/state/open.ts": 'import { s } from "./pg/s.js";\nexport const o = 1;\n',
      "engine/state/pg/t.ts": 'import { o } from "../open.js";\n',
    });
    expect(importCircles(edges)).toEqual([]);
    expect(loopLines(edges)).toEqual([
      "engine/recipe ↔ engine/run ↔ engine/state: engine/recipe/r.ts → engine/run/b.ts, engine/run/a.ts → engine/state/pg/s.ts, engine/state/pg/s.ts → engine/recipe/r.ts",
    ]);
    // One import taken away breaks the ring: nothing else is named.
    expect(loopLines(edges.filter((e) => e.from !== "engine/run/a.ts"))).toEqual([]);
  });

  it("names a loop of folders that runs through a file of the folder above them", () => {
    // engine/run leans on engine/state through engine/relay.ts, and engine/state on engine/run:
    // the file in between hides no loop.
    const edges = plant({
      ...clean,
      "engine/run/a.ts": 'import { r } from "../relay.js";\nexport const a = 1;\n',
      "engine/relay.ts": 'import { s } from "./state/s.js";\nexport const r = 1;\n',
      "engine/state/s.ts": 'import type { b } from "../run/b.js";\nexport const s = 1;\n',
      "engine/run/b.ts": "export const b = 1;\n",
    });
    expect(importCircles(edges)).toEqual([]);
    expect(loopLines(edges)).toEqual([
      "engine/relay.ts ↔ engine/run ↔ engine/state: engine/relay.ts → engine/state/s.ts, engine/run/a.ts → engine/relay.ts, engine/state/s.ts → engine/run/b.ts",
    ]);
  });
});

describe("reading specifiers", () => {
  it("finds static, re-exported, side-effect and dynamic imports, and skips those in comments", () => {
    const text = [
      "// import { no } from './line-comment.js';",
      "/* export * from './block-comment.js'; */",
      'const url = "http://example.test/"; import { a } from "./a.js";',
      "import type {",
      "  B,",
      "  C,",
      '} from "./b.js";',
      'export * as d from "./d.js";',
      'import "./side.js";',
      'const e = await import("./e.js");',
      'const s = "import { z } from";',
    ].join("\n");
    expect(specifiersOf(text)).toEqual([
      { specifier: "./a.js", lazy: false },
      { specifier: "./b.js", lazy: false },
      { specifier: "./d.js", lazy: false },
      { specifier: "./side.js", lazy: false },
      { specifier: "./e.js", lazy: true },
    ]);
  });
});
