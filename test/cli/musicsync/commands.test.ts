/**
 * The commands a newcomer meets first, against the compiled `musicsync` (test/support/cli-process.ts
 * builds dist/ when the sources are newer): --version, what --help loads, validate --json,
 * plan --quiet, titles in history and drift, -p <folder>, history -r <unknown>, readable logs on a
 * terminal, and sync printing each plan before its writes. Where the process is not the point, a
 * test runs the command's `main` in this process instead (a compiled command costs most of a
 * CPU-second to start), as other tests run the compiled one.
 */

import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { modulesOf } from "../../../bench/loaded-modules.js";
import { main } from "../../../cli/musicsync/main.js";
import { DEFAULT_DAEMON_OPTIONS } from "../../../engine/daemon/daemon.js";
import { ensureBuilt, MAIN, musicsync, ROOT, screen } from "../../support/cli-process.js";
import { recipeYaml } from "../../support/daemon-harness.js";
import { musicsyncMain } from "../../support/musicsync-inproc.js";
import { catalogueSongs, type Harness, startHarness } from "../../support/sync-harness.js";

// After a source edit the first command builds dist/ (tens of seconds on a busy machine).
beforeAll(() => ensureBuilt(), 180_000);

let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

function recipe(id: string, title: string, ids: readonly string[]): string {
  return recipeYaml({ id, title, ids, batch: 4 });
}

describe("start-up", () => {
  it("--version prints the package's version", async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
    expect(await musicsync(["--version"])).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  it("--help loads none of the emulator, the HTTP client, SQLite, the logger, the progress bar or the metrics", async () => {
    await ensureBuilt();
    const loaded = modulesOf([MAIN, "--help"]);
    expect(loaded).toContain("commander");
    for (const heavy of [
      "emulator",
      "undici",
      "drizzle-orm",
      "better-sqlite3",
      "pino",
      "cli-progress",
      "ajv",
      "prom-client",
    ])
      expect(loaded).not.toContain(heavy);
    // The daemon's default shown in --help is written out there; it must stay the daemon's own.
    const help = await musicsync(["daemon", "--help"]);
    expect(help.stdout).toMatch(
      new RegExp(`--retries <n>[^(]+\\(default:\\s+"${DEFAULT_DAEMON_OPTIONS.retries}"\\)`),
    );
  });
});

// In this process (the command's `main`): cli.test.ts runs the compiled validate.
describe("validate", () => {
  it("--json reports each problem with file, line, col and message, exit 1", async () => {
    const file = join(ROOT, "test/engine/recipe/broken-recipes/schema-several-errors.yaml");
    const r = await musicsyncMain(["validate", "--json", file]);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as { valid: boolean; issues: Record<string, unknown>[] };
    expect(doc.valid).toBe(false);
    expect(doc.issues.length).toBeGreaterThan(1);
    for (const i of doc.issues) {
      expect(Object.keys(i).sort()).toEqual(["col", "file", "line", "message"]);
      expect(i.file).toMatch(/schema-several-errors\.yaml$/);
    }
    const ok = await musicsyncMain(["validate", "--json", join(ROOT, "recipes")]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ valid: true });
  });

  it("warns of items that cannot go into the target, on stderr and in --json, exit 0", async () => {
    const dir = await mkdtemp(join(tmpdir(), "musicsync-warn-"));
    try {
      const file = join(dir, "follow.yaml");
      await writeFile(
        file,
        "apiVersion: musicsync/v1\nkind: Recipe\nid: follow\nsources: [{ id: pl, type: playlist, playlistId: PLx }]\ntarget: { type: subscriptions }\n",
      );
      const r = await musicsyncMain(["validate", file]);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/follow\.yaml:\d+:\d+ warning: .*expand: artists/);
      const json = JSON.parse((await musicsyncMain(["validate", "--json", file])).stdout);
      expect(json).toMatchObject({
        valid: true,
        warnings: [{ file, message: expect.stringMatching(/subscriptions/) }],
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("-p <folder> finds musicsync.yaml inside it", async () => {
    const r = await musicsyncMain(["validate", "-p", join(ROOT, "examples")]);
    expect(r).toMatchObject({ code: 0, stdout: "8 recipes valid.\n" });
  });
});

describe("against the emulator", () => {
  it("plan --quiet lists only the recipes with changes", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 6);
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    await writeFile(join(h.dir, "recipes", "settled.yaml"), recipe("settled", "Settled", songs.slice(0, 3)));
    expect((await musicsync(["sync", "-p", h.projectFile])).code).toBe(0);
    await writeFile(join(h.dir, "recipes", "fresh.yaml"), recipe("fresh", "Fresh", songs.slice(3)));
    const all = await musicsync(["plan", "-p", h.projectFile]);
    expect(all.stdout).toMatch(/^settled: /m);
    const quiet = await musicsync(["plan", "--quiet", "-p", h.projectFile]);
    expect(quiet.code).toBe(2);
    expect(quiet.stdout).toMatch(/^fresh: /m);
    expect(quiet.stdout).not.toMatch(/settled/);
  });

  // In this process; the guides run the compiled history and drift.
  it("history and drift name the playlist by its title; history -r <unknown> is an error", async () => {
    h = await startHarness();
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    await writeFile(
      join(h.dir, "recipes", "mine.yaml"),
      recipe("mine", "Morning Tunes", catalogueSongs(h, 3)),
    );
    const p = ["-p", h.projectFile];
    expect((await musicsyncMain(["sync", ...p])).code).toBe(0);
    const history = await musicsyncMain(["history", ...p]);
    expect(history.stdout).toMatch(/^#\d+ .* mine "Morning Tunes" \(default\) sync: converged/m);
    const json = JSON.parse((await musicsyncMain(["history", "--json", ...p])).stdout);
    expect(json.runs[0]).toMatchObject({ recipe: "mine", title: "Morning Tunes" });
    const drift = await musicsyncMain(["drift", ...p]);
    expect(drift.stdout).toMatch(/^mine "Morning Tunes": no changes outside the engine/m);
    const unknown = await musicsyncMain(["history", ...p, "-r", "nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe("error: no recipe with id nope\n");
  });

  it("on a terminal, logs are readable lines, never JSON mixed into the text", async () => {
    h = await startHarness();
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    await writeFile(join(h.dir, "recipes", "mine.yaml"), recipe("mine", "CLI", catalogueSongs(h, 8)));
    await h.faults({ queue: [{ kind: "rate-limit", endpoint: "playlist/create", retryAfter: 1 }] });
    const out = screen(true);
    const err = screen(true);
    const code = await main(["sync", "-p", h.projectFile], {
      stdout: out.stream,
      stderr: err.stream,
      env: { MUSICSYNC_LOG_LEVEL: "info", NO_COLOR: "1" },
    });
    expect(code, err.text()).toBe(0);
    expect(err.text()).toMatch(/write throttled; retrying/);
    expect(err.text()).not.toMatch(/^\s*\{/m);
    expect(out.text()).not.toMatch(/^\s*\{/m);
  });

  it("without a terminal, sync prints each recipe's plan before its first write", async () => {
    h = await startHarness();
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    const songs = catalogueSongs(h, 8);
    await writeFile(join(h.dir, "recipes", "a.yaml"), recipe("a", "First", songs.slice(0, 4)));
    await writeFile(join(h.dir, "recipes", "b.yaml"), recipe("b", "Second", songs.slice(4)));
    await ensureBuilt();
    // stdout and stderr into one file: each write lands in the order it was made.
    const dir = await mkdtemp(join(tmpdir(), "musicsync-stream-"));
    const file = join(dir, "out.txt");
    const fd = openSync(file, "w");
    try {
      const code = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, [MAIN, "sync", "-p", h!.projectFile], {
          cwd: ROOT,
          env: { ...process.env, NO_COLOR: "1", MUSICSYNC_LOG_LEVEL: "debug" },
          stdio: ["ignore", fd, fd],
        });
        child.on("error", reject);
        child.on("exit", resolve);
      });
      expect(code).toBe(0);
      const text = readFileSync(file, "utf8");
      const planOf = (recipeId: string) => text.search(new RegExp(`^${recipeId}: playlist`, "m"));
      const firstSent = (recipeId: string) =>
        text
          .split("\n")
          .findIndex((l) => l.includes('"msg":"action sent"') && l.includes(`"recipe":"${recipeId}"`));
      const lineOf = (index: number) => text.slice(0, index).split("\n").length - 1;
      for (const id of ["a", "b"]) {
        expect(planOf(id), text).toBeGreaterThanOrEqual(0);
        expect(firstSent(id), text).toBeGreaterThanOrEqual(0);
        expect(lineOf(planOf(id)), text).toBeLessThan(firstSent(id));
      }
    } finally {
      closeSync(fd);
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("a state whose folder does not exist", () => {
  it("the commands that read past runs refuse it, make nothing, and name it; sync creates it", async () => {
    h = await startHarness();
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    await writeFile(join(h.dir, "recipes", "mine.yaml"), recipe("mine", "Mine", catalogueSongs(h, 3)));
    const p = ["-p", h.projectFile];
    expect((await musicsync(["sync", ...p])).code).toBe(0);
    const folder = join(h.dir, "no-such-folder");
    const missing = join(folder, "state.db");
    const readers = [
      ["status"],
      ["history"],
      ["drift"],
      ["undo", "1"],
      ["undo", "1", "--dry-run"],
      ["approve", "1"],
      ["resume", "mine"],
      ["unlock", "some-lock"],
      ["accounts", "list"],
      ["serve", "--http", "127.0.0.1:0"],
    ];
    // In this process, but for the two commands no other test runs compiled.
    for (const args of readers) {
      const run = ["resume", "unlock"].includes(args[0]!) ? musicsync : musicsyncMain;
      const r = await run([...args, ...p, "--state", missing]);
      const label = args.join(" ");
      expect(r.code, `${label}: ${r.stdout}${r.stderr}`).toBe(1);
      expect(r.stderr, label).toBe(`error: no state at ${missing}: the folder ${folder} does not exist\n`);
      expect(existsSync(folder), label).toBe(false);
    }
    // A folder that exists without the file: a project that has not run yet, and nothing is made.
    const fresh = join(h.dir, "fresh.db");
    const status = await musicsyncMain(["status", "--json", ...p, "--state", fresh]);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).recipes[0]).toMatchObject({ recipe: "mine", lastRun: null });
    expect(existsSync(fresh)).toBe(false);
    // Planning reads as the sync it previews would start: from nothing.
    expect((await musicsyncMain(["plan", ...p, "--state", missing])).code).toBe(0);
    expect(existsSync(folder)).toBe(false);
    const sync = await musicsync(["sync", ...p, "--state", missing]);
    expect(sync.code, sync.stderr).toBe(0);
    expect(existsSync(missing)).toBe(true);
    expect((await musicsyncMain(["history", ...p, "--state", missing])).stdout).toMatch(/^#1 .* mine/m);
  });
});
