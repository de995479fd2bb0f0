/**
 * A process loads what its command uses (docs/ARCHITECTURE.md#parts-and-floors), held on the compiled
 * commands without timing anything: what each one read is listed by bench/loaded-modules.ts.
 * `--help` loads no engine state, drizzle or HTTP client; `validate` no state driver; a `sync` on a
 * SQLite state never PostgreSQL's driver, its stores or the job queue, which only a `postgres:`
 * state imports, nor ajv's compiler (a saved plan's check) or the progress bar (a terminal's); its
 * HTTP client, undici, is read from the bundle, not file by file from node_modules, and pino is
 * loaded by the first log line written (a no-change run writes none).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadedBy, modulesOf, owner } from "../../../bench/loaded-modules.js";
import { ensureBuilt, MAIN, musicsync, ROOT } from "../../support/cli-process.js";

/** node-postgres and the packages only it loads, and the job queue. */
const POSTGRES = ["pg", "pg-pool", "pg-protocol", "pg-types", "pg-connection-string", "pg-boss"];

let dir = "";
let project = "";

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), "loading-"));
  // The quick start's project: the embedded emulator as its account, the state in SQLite.
  expect((await musicsync(["init", "--emulator", "p"], {}, dir)).code).toBe(0);
  project = join(dir, "p", "musicsync.yaml");
  expect((await musicsync(["sync", "-p", project])).code).toBe(0);
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("what each command loads", () => {
  it("--help: no engine state, no drizzle, no HTTP client", () => {
    const loaded = modulesOf([MAIN, "--help"]);
    expect(loaded).toContain("commander");
    for (const unused of ["engine/state", "drizzle-orm", "undici", "better-sqlite3", ...POSTGRES])
      expect(loaded).not.toContain(unused);
  });

  it("validate: the recipes' checks, and no state driver", () => {
    for (const args of [
      ["validate", "-p", project],
      ["validate", "-p", join(ROOT, "examples/musicsync.yaml"), join(ROOT, "recipes")],
    ]) {
      const loaded = modulesOf([MAIN, ...args]);
      expect(loaded).toContain("yaml");
      for (const unused of ["better-sqlite3", "drizzle-orm", "undici", ...POSTGRES])
        expect(loaded, args.join(" ")).not.toContain(unused);
    }
  });

  it("a no-change sync on SQLite: SQLite and the engine, never PostgreSQL's driver, stores or queue", async () => {
    // The same command as the one listed, so that it is known to do the whole job.
    const again = await musicsync(["sync", "-p", project]);
    expect(again).toMatchObject({ code: 0 });
    expect(again.stdout).toContain("No changes.");

    const { files, sources } = loadedBy([MAIN, "sync", "-p", project]);
    const owners = new Set(sources.map((s) => owner(s)));
    // What the run needs, seen through the lazily imported chunks: the listing does look.
    for (const used of ["better-sqlite3", "drizzle-orm", "engine/run", "engine/state", "undici"])
      expect(owners).toContain(used);
    for (const unused of POSTGRES) expect(owners).not.toContain(unused);
    // A run that writes no log line (none at the default level, warn) never loads the logger.
    expect(again.stderr).toBe("");
    expect(owners).not.toContain("pino");
    const ours = sources.map((s) => relative(ROOT, s));
    // drizzle's PostgreSQL half too: its source maps name pg-core's files `…/src/pg-core/…`, not by package.
    expect(ours.filter((s) => /^engine\/(state\/pg|worker\/)|(^|\/)pg-core\//.test(s))).toEqual([]);
    // ajv's compiler only reads a saved plan (the recipes' checks need its small runtime), and the
    // progress bar is for a terminal: this run has neither.
    expect(files.filter((f) => /node_modules\/(ajv\/dist\/(ajv|core)\.js|cli-progress\/)/.test(f))).toEqual(
      [],
    );
    // undici comes with the bundle (scripts/bundle-commands.mjs): none of its hundred-odd files is
    // read one by one from node_modules.
    expect(files.filter((f) => f.includes("node_modules/undici/"))).toEqual([]);
  });

  it("every chunk a command reads is ASCII, so that it loads as a one-byte string", () => {
    // A single character outside ASCII, even in a comment, makes the whole chunk a two-byte string:
    // twice the memory (scripts/ascii-only.mjs says what that cost a sync).
    const { files } = loadedBy([MAIN, "sync", "-p", project]);
    const chunks = files.filter((f) => f.startsWith(join(ROOT, "dist/bin/")));
    expect(chunks.length).toBeGreaterThan(10);
    for (const f of chunks) expect(readFileSync(f, "latin1"), relative(ROOT, f)).toMatch(/^[\x00-\x7f]*$/);
  });

  it("a sync's HTTP parser stays on V8's baseline WebAssembly code (cli/wasm-tiering.ts)", () => {
    // V8 says which compiler compiled each WebAssembly function; the old budget sent llhttp's
    // parser to the optimising one within the first answer.
    const r = spawnSync(process.execPath, ["--trace-wasm-compilation-times", MAIN, "sync", "-p", project], {
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("No changes.");
    expect(r.stdout).toMatch(/using Liftoff/);
    expect(r.stdout).not.toMatch(/using TurboFan/);
  });
});
