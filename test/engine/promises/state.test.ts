/**
 * The state's promises: concurrent first opens migrate once, a missing folder is created and every
 * open or migration error names the file, runs whose process is gone are closed as `interrupted` by
 * the next open and `history` says so, and `unlock` refuses while the lock's holder is alive.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { unlockRefusal } from "../../../cli/musicsync/unlock.js";
import { abandonedRunReason } from "../../../engine/state/holder.js";
import { openSqliteState } from "../../../engine/state/sqlite.js";
import { collectHistory, renderHistoryText } from "../../../engine/status/history.js";
import { builtModule } from "../../support/cli-process.js";
import { musicsync, writeRecipes } from "../../support/daemon-harness.js";
import { catalogueSongs, type Harness, startHarness } from "../../support/sync-harness.js";
import { AWAIT_START, runTogether } from "../../support/together.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "promises-state-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A pid of this machine that no longer runs: a child that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", ""]);
  if (r.pid === undefined) throw new Error("no child pid");
  return r.pid;
}

/**
 * Starts `workers` node processes that each open `rounds` fresh databases (the engine's state and
 * the emulator's store) at the same moments, and resolves with what each open reported.
 */
async function openTogether(workers: number, rounds: number): Promise<string[]> {
  const script = join(dir, "open-worker.mjs");
  writeFileSync(
    script,
    `import { openSqliteState } from ${await builtModule("engine/state/sqlite.js")};
import { openDb } from ${await builtModule("emulator/store/db.js")};
const [dir, rounds, gap] = process.argv.slice(2);
${AWAIT_START}
for (let r = 0; r < Number(rounds); r++) {
  const at = start + r * Number(gap);
  while (Date.now() < at) await new Promise((res) => setTimeout(res, Math.min(5, at - Date.now())));
  try {
    const state = openSqliteState(dir + "/state-" + r + ".db");
    await state.close();
    openDb(dir + "/emulator-" + r + ".db").$client.close();
    console.log("ok");
  } catch (e) {
    console.log("error " + r + ": " + (e instanceof Error ? e.message : String(e)));
  }
}
`,
  );
  // Every worker starts at once, then one round every 100 ms.
  const outs = await runTogether(
    script,
    Array.from({ length: workers }, () => [dir, String(rounds), "100"]),
  );
  return outs.flatMap((out) => out.split("\n"));
}

describe("concurrent first open", () => {
  // docs/ARCHITECTURE.md#the-state
  it("several processes opening the same new file at once all succeed, round after round", async () => {
    const workers = 4;
    const rounds = 20;
    const lines = await openTogether(workers, rounds);
    expect(lines.filter((l) => l !== "ok")).toEqual([]);
    expect(lines).toHaveLength(workers * rounds);
    // Each database was migrated once: one row per migration, whatever the number of openers.
    const db = new Database(join(dir, "state-0.db"), { readonly: true });
    const applied = db.prepare("SELECT hash FROM __drizzle_migrations").all() as { hash: string }[];
    db.close();
    expect(new Set(applied.map((a) => a.hash)).size).toBe(applied.length);
  });

  // docs/ARCHITECTURE.md#the-state
  it("keeps drizzle's table of applied migrations: a database migrated before opens unchanged", async () => {
    const file = join(dir, "state.db");
    const first = openSqliteState(file);
    const id = await first.startRun({ recipeId: "r", account: "a", kind: "sync", recipeHash: "h", at: 1 });
    await first.close();
    const db = new Database(file);
    const before = db.prepare("SELECT hash, created_at FROM __drizzle_migrations ORDER BY created_at").all();
    db.close();
    const second = openSqliteState(file);
    expect((await second.runs("r")).map((r) => r.id)).toEqual([id]);
    await second.close();
    const after = new Database(file);
    expect(
      after.prepare("SELECT hash, created_at FROM __drizzle_migrations ORDER BY created_at").all(),
    ).toEqual(before);
    after.close();
  });
});

describe("the state folder and errors that name the file", () => {
  // docs/ENGINE.md#bad-input
  it("creates a missing state folder", async () => {
    const file = join(dir, "not", "yet", "state.db");
    const state = openSqliteState(file);
    expect(await state.runs("r")).toEqual([]);
    await state.close();
  });

  // docs/ENGINE.md#bad-input
  it("names the path when the database cannot be opened", () => {
    const blocker = join(dir, "a-file");
    writeFileSync(blocker, "not a folder");
    const file = join(blocker, "state.db");
    expect(() => openSqliteState(file)).toThrow(file);
  });

  // docs/ENGINE.md#bad-input
  it("names the path when a migration fails", () => {
    const file = join(dir, "odd.db");
    // A table the first migration creates, without drizzle's record of it: the migration fails.
    const db = new Database(file);
    db.exec("CREATE TABLE runs (x integer)");
    db.close();
    expect(() => openSqliteState(file)).toThrow(
      new RegExp(`cannot migrate the state database ${file}.*migration 0000`),
    );
  });

  // docs/ENGINE.md#bad-input
  it("the CLI names the path too", async () => {
    const blocker = join(dir, "a-file");
    writeFileSync(blocker, "x");
    const project = join(dir, "musicsync.yaml");
    writeFileSync(
      project,
      [
        "apiVersion: musicsync/v1",
        "kind: Project",
        "accounts: { default: {} }",
        "recipes: []",
        "state: a-file/state.db",
        "",
      ].join("\n"),
    );
    const r = await musicsync(["unlock", "some-id", "-p", project]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(join(blocker, "state.db"));
  });
});

describe("runs left running", () => {
  const start = (state: ReturnType<typeof openSqliteState>, holder: string | undefined, at: number) =>
    state.startRun({
      recipeId: "r",
      account: "a",
      kind: "sync",
      recipeHash: "h",
      at,
      ...(holder ? { holder } : {}),
    });

  // docs/ENGINE.md#reconciling-an-interrupted-run
  it("a run whose process is gone is closed as interrupted by the next open, and history says so", async () => {
    const file = join(dir, "state.db");
    const gone = `${hostname()}:${deadPid()}`;
    const first = openSqliteState(file);
    const run = await start(first, gone, Date.now() - 1000);
    // Killed after its first write was confirmed and while the second was on the wire.
    await first.journalPlanned(
      run,
      [1, 2, 3].map((seq) => ({
        seq,
        kind: "add_playlist_items",
        target: "t",
        payload: { kind: "add_playlist_items", playlistId: "PLx", videoIds: [`v${seq}`] },
      })),
      Date.now(),
    );
    await first.journalMark(run, 1, "sent", Date.now());
    await first.journalMark(run, 1, "confirmed", Date.now());
    await first.journalMark(run, 2, "sent", Date.now());
    // This process's own running run (alive) and one killed before its first journal entry.
    const mine = await start(first, `${hostname()}:${process.pid}`, Date.now());
    const early = await start(first, gone, Date.now());
    await first.close();

    const second = openSqliteState(file);
    const runs = new Map((await second.runs("r")).map((r) => [r.id, r]));
    expect(runs.get(run)).toMatchObject({
      result: "interrupted",
      error: `interrupted: its process ${gone} is gone`,
      counts: { actions: 3, confirmed: 1, failed: 0, unknown: 1, notSent: 1 },
    });
    expect(runs.get(early)).toMatchObject({ result: "interrupted", counts: { actions: 0 } });
    expect(runs.get(mine)?.result).toBe("running");
    const text = renderHistoryText(await collectHistory(second, { recipeId: "r" }));
    expect(text).toContain(`sync: interrupted`);
    expect(text).toContain(`interrupted: its process ${gone} is gone`);
    expect(text).toContain("1 confirmed, 1 unanswered, 1 not sent");
    await second.close();
  });

  // docs/ENGINE.md#reconciling-an-interrupted-run
  it("another machine's run is closed only when old and without a fresh heartbeat of its holder", () => {
    const now = 10_000_000;
    const stale = 300_000;
    const run = { id: 1, account: "a", holder: "far:77", startedAt: now - 2 * stale };
    const lock = (holder: string, beat: number) => ({
      account: "a",
      lockId: "L",
      holder,
      acquiredAt: now - 2 * stale,
      heartbeatAt: beat,
    });
    // A daemon on another machine, still beating its lock: never closed.
    expect(abandonedRunReason(run, lock("far:77", now - 1000), now, stale, "here")).toBeNull();
    // Young: it may not have beaten yet.
    expect(abandonedRunReason({ ...run, startedAt: now - 1000 }, undefined, now, stale, "here")).toBeNull();
    expect(abandonedRunReason(run, lock("far:77", now - 2 * stale), now, stale, "here")).toMatch(
      /no lock heartbeat/,
    );
    expect(abandonedRunReason(run, lock("other:1", now), now, stale, "here")).toMatch(/no lock heartbeat/);
    expect(abandonedRunReason(run, undefined, now, stale, "here")).toMatch(
      /^interrupted: its process far:77/,
    );
  });

  // docs/ENGINE.md#reconciling-an-interrupted-run
  it("a daemon's running run on this machine is never closed by another process's open", async () => {
    const file = join(dir, "state.db");
    const first = openSqliteState(file);
    // Started long ago, heartbeat long stale: its pid is alive, so it is still running.
    const run = await start(first, `${hostname()}:${process.pid}`, 1);
    await first.close();
    const second = openSqliteState(file, { lockStaleMs: 1 });
    expect((await second.runs("r"))[0]).toMatchObject({ id: run, result: "running" });
    await second.close();
  });
});

describe("unlock", () => {
  let h: Harness | null = null;
  afterEach(async () => {
    await h?.stop();
    h = null;
  });

  // docs/ENGINE.md#locks
  it("refuses while the holder is alive and says which process holds it; --force removes it", async () => {
    h = await startHarness();
    await writeRecipes(h.dir, [{ id: "r", ids: catalogueSongs(h, 1) }]);
    const state = openSqliteState(h.stateFile);
    // This process holds it, with a heartbeat long stale: the pid still says it is alive.
    const taken = await state.acquireLock("default", `${hostname()}:${process.pid}`, 1_000, 60_000);
    await state.close();
    const id = taken.acquired ? taken.lock.lockId : "";
    const refused = await musicsync(["unlock", id, "-p", h.projectFile]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain(
      `lock ${id} of account "default" is held by process ${process.pid} on ${hostname()} since 1970-01-01T00:00:01.000Z, last heartbeat 1970-01-01T00:00:01.000Z; that process is still running`,
    );
    expect(refused.stderr).toContain(`musicsync unlock --force ${id}`);
    const check = openSqliteState(h.stateFile);
    expect((await check.lock("default"))?.lockId).toBe(id);
    await check.close();
    expect(await musicsync(["unlock", "--force", id, "-p", h.projectFile])).toMatchObject({ code: 0 });
  });

  // docs/ENGINE.md#locks
  it("removes a lock whose holder on this machine is gone, without --force", async () => {
    h = await startHarness();
    await writeRecipes(h.dir, [{ id: "r", ids: catalogueSongs(h, 1) }]);
    const state = openSqliteState(h.stateFile);
    const taken = await state.acquireLock("default", `${hostname()}:${deadPid()}`, Date.now(), 60_000);
    await state.close();
    const id = taken.acquired ? taken.lock.lockId : "";
    expect(await musicsync(["unlock", id, "-p", h.projectFile])).toMatchObject({
      code: 0,
      stdout: `Lock ${id} removed.\n`,
    });
  });

  // docs/ENGINE.md#locks
  it("another machine's lock: refused while its heartbeat is fresh, allowed once stale", () => {
    const lock = { account: "a", lockId: "L", holder: "far:9", acquiredAt: 0, heartbeatAt: 1_000_000 };
    expect(unlockRefusal(lock, 1_000_000 + 10_000, 300_000, "here")).toMatch(
      /held by process 9 on far .*its heartbeat is 10 s old, fresher than 300 s/,
    );
    expect(unlockRefusal(lock, 1_000_000 + 400_000, 300_000, "here")).toBeNull();
  });
});
