/**
 * The real `musicsync daemon` process: two of them on one database never write at the same time
 * (seen in the emulator's request log, and in a proxy's log in front of each daemon that says who
 * sent what); SIGTERM in the middle of a run
 * finishes the write in flight, records the run as interrupted and exits 0, and the next run
 * converges; after SIGKILL the lock left behind is taken over once its heartbeat expires; and the
 * logs of a whole run hold no credential.
 */
import { writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { loadRecipePaths } from "../../../engine/recipe/load.js";
import { planRecipe, syncRecipe } from "../../../engine/run/runner.js";
import { openSqliteState } from "../../../engine/state/sqlite.js";
import {
  type ChildDaemon,
  type RecordedRequest,
  type Recorder,
  spawnDaemon,
  startRecorder,
  waitUntil,
  writeRecipes,
} from "../../support/daemon-harness.js";
import {
  catalogueSongs,
  type Harness,
  playlistRows,
  playlistsTitled,
  startHarness,
} from "../../support/sync-harness.js";

let h: Harness | null = null;
const children: ChildDaemon[] = [];
const recorders: Recorder[] = [];
afterEach(async () => {
  for (const c of children.splice(0))
    if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill("SIGKILL");
  for (const r of recorders.splice(0)) await r.close();
  await h?.stop();
  h = null;
});

/** A project file for the harness's account, pointed at `baseUrl`, on the harness's state file. */
async function projectVia(harness: Harness, name: string, baseUrl: string): Promise<string> {
  const file = join(harness.dir, name);
  await writeFile(
    file,
    [
      "apiVersion: musicsync/v1",
      "kind: Project",
      "accounts:",
      `  default: { auth: headers.json, base_url: "${baseUrl}" }`,
      "pacing: { min_interval_ms: 0 }",
      "recipes: [recipes]",
      "state: state.db",
      "",
    ].join("\n"),
  );
  return file;
}

async function loaded(harness: Harness, id: string) {
  const { recipes } = await loadRecipePaths([join(harness.dir, "recipes")], { project: harness.project });
  return recipes.find((r) => r.recipe.id === id)!;
}

describe("two daemons on one database", () => {
  it("never write for the same account at the same time", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 20);
    await writeRecipes(h.dir, [
      { id: "left", cron: "* * * * * *", ids: songs.slice(0, 10), reshuffle: true, batch: 2 },
      { id: "right", cron: "* * * * * *", ids: songs.slice(10), reshuffle: true, batch: 2 },
    ]);
    // Slow edits: each run's writes take a while, so the two processes do collide on the account.
    await h.faults({
      config: { rate: 1, kinds: ["slow"], endpoints: ["browse/edit_playlist"], delayMs: 40 },
    });
    const log: RecordedRequest[] = [];
    const a = await startRecorder(h.emulator.url, "a", log);
    const b = await startRecorder(h.emulator.url, "b", log);
    recorders.push(a, b);
    const da = spawnDaemon(await projectVia(h, "a.yaml", a.url), ["--lock-wait", "100ms"]);
    const db = spawnDaemon(await projectVia(h, "b.yaml", b.url), ["--lock-wait", "100ms"]);
    children.push(da, db);
    const finished = (c: ChildDaemon) => c.logs.filter((l) => l.msg === "run finished").length;
    await waitUntil(
      () => finished(da) >= 2 && finished(db) >= 2,
      () =>
        `two runs in each daemon\n--- a:\n${da.stderr().slice(-3000)}\n--- b:\n${db.stderr().slice(-3000)}`,
      25_000,
    );
    da.child.kill("SIGTERM");
    db.child.kill("SIGTERM");
    expect((await da.exited).code).toBe(0);
    expect((await db.exited).code).toBe(0);

    const writes = log.filter((r) => r.write);
    const byA = writes.filter((r) => r.via === "a");
    const byB = writes.filter((r) => r.via === "b");
    expect(byA.length).toBeGreaterThan(0);
    expect(byB.length).toBeGreaterThan(0);
    for (const x of byA) {
      for (const y of byB) {
        const apart = x.end <= y.start || y.end <= x.start;
        expect(apart, `a wrote ${x.start}–${x.end} while b wrote ${y.start}–${y.end}`).toBe(true);
      }
    }
    // The emulator's own request log says the same: no two writes to the account were ever in
    // flight at once (whoever sent them), and it saw every write the proxies passed on.
    const logged = (await (await fetch(`${h.emulator.url}/_emulator/requests?writes=1`)).json()) as {
      requests: Array<{ seq: number; startedAt: number; finishedAt: number | null }>;
    };
    const spans = logged.requests.sort((x, y) => x.startedAt - y.startedAt);
    expect(spans.length).toBe(writes.length);
    for (let i = 1; i < spans.length; i++) {
      const before = spans[i - 1]!;
      const next = spans[i]!;
      expect(before.finishedAt, `write #${before.seq} never finished`).not.toBeNull();
      expect(
        next.startedAt >= (before.finishedAt ?? Number.POSITIVE_INFINITY),
        `write #${next.seq} began while #${before.seq} was in flight`,
      ).toBe(true);
    }
    // They did contend: one waited for the other's lock at least once.
    expect([...da.logs, ...db.logs].some((l) => l.msg === "waiting for the account's lock")).toBe(true);
    // Every run of both processes is in the one database, and none is left running.
    const state = openSqliteState(h.stateFile);
    const runs = await state.recentRuns({ limit: 200 });
    await state.close();
    expect(runs.length).toBeGreaterThanOrEqual(finished(da) + finished(db));
    expect(runs.some((r) => r.result === "running")).toBe(false);
  });
});

describe("signals", () => {
  it("SIGTERM mid-run: the write in flight finishes, the run is recorded as interrupted, exit 0; the next run converges", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 30);
    await writeRecipes(h.dir, [{ id: "long", cron: "* * * * * *", ids: songs, batch: 3, title: "Long" }]);
    await h.faults({
      config: { rate: 1, kinds: ["slow"], endpoints: ["browse/edit_playlist"], delayMs: 300 },
    });
    const d = spawnDaemon(h.projectFile, [], "debug");
    children.push(d);
    const sent = await d.waitForLog((l) => l.msg === "write batch sent" && l.seq === 4, "the fourth write");
    d.child.kill("SIGTERM");
    const exit = await d.exited;
    expect(exit, d.stderr().slice(-2000)).toEqual({ code: 0, signal: null });

    const runId = sent.run as number;
    const state = openSqliteState(h.stateFile);
    const [run] = await state.recentRuns({ recipeId: "long", limit: 1 });
    expect(run).toMatchObject({ id: runId, result: "interrupted", error: "interrupted by SIGTERM" });
    const journal = await state.journal(runId);
    // The journal says exactly what happened: the write in flight (4) finished; none after it left.
    expect(journal.map((j) => j.status)).toEqual(journal.map((j) => (j.seq <= 4 ? "confirmed" : "failed")));
    expect(
      journal
        .filter((j) => j.seq > 4)
        .every((j) => (j.result as { error: string }).error === "not sent: interrupted by SIGTERM"),
    ).toBe(true);
    expect(d.logs.some((l) => l.msg === "run interrupted" && l.run === runId)).toBe(true);
    const ready = (await state.conditions("long")).find((c) => c.type === "Ready");
    expect(ready).toMatchObject({ status: "False", reason: "Interrupted" });
    await state.close();

    // On the service: the playlist holds what the confirmed writes added, in order, nothing more.
    const [pid] = await playlistsTitled(h, "Long");
    const confirmed = journal
      .filter((j) => j.status === "confirmed")
      .flatMap((j) => (j.payload as { videoIds: string[] }).videoIds);
    expect((await playlistRows(h, pid!)).map((r) => r.videoId)).toEqual(confirmed);
    expect(confirmed.length).toBeLessThan(songs.length);

    await h.faults({ config: null });
    const env = h.env({ stateFile: h.stateFile });
    const next = await syncRecipe(await loaded(h, "long"), env);
    expect(next.outcome, next.error ?? "").toBe("converged");
    expect((await playlistRows(h, pid!)).map((r) => r.videoId)).toEqual(songs);
    expect(await playlistsTitled(h, "Long")).toHaveLength(1);
    expect((await planRecipe(await loaded(h, "long"), env)).plan.actions).toEqual([]);
  });

  it("SIGKILL leaves the lock; the next daemon takes it over once its heartbeat has expired", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 30);
    await writeRecipes(h.dir, [{ id: "killed", cron: "* * * * * *", ids: songs, batch: 3, title: "Killed" }]);
    await h.faults({
      config: { rate: 1, kinds: ["slow"], endpoints: ["browse/edit_playlist"], delayMs: 300 },
    });
    const first = spawnDaemon(h.projectFile, ["--lock-stale", "2s"]);
    children.push(first);
    await first.waitForLog((l) => l.msg === "write batch confirmed" && l.seq === 2, "the first writes");
    first.child.kill("SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");

    const db = new Database(h.stateFile);
    const lock = db.prepare("SELECT lock_id AS lockId, holder FROM locks WHERE account = 'default'").get() as
      | { lockId: string; holder: string }
      | undefined;
    expect(lock?.holder).toBe(`${hostname()}:${first.child.pid}`);
    // On this machine a dead holder's pid is noticed at once; a holder on another machine cannot be
    // checked, only its heartbeat can. Make the lock look like that one's to exercise the expiry.
    // Its heartbeat is set ahead (fresh however long the second daemon takes to start), then, once
    // the second daemon waits for it, to now: from then on it expires after --lock-stale, 1 s (the
    // wait was a 4 s staleness counted from before the daemon's start, which had to cover that start).
    const setBeat = (at: number) =>
      db
        .prepare("UPDATE locks SET holder = ?, heartbeat_at = ? WHERE lock_id = ?")
        .run(`elsewhere:${first.child.pid}`, at, lock!.lockId);
    setBeat(Date.now() + 3_600_000);
    // The slow writes only served to catch the first daemon mid-run: the second one's run goes at speed.
    await h.faults({ config: null });

    const second = spawnDaemon(h.projectFile, ["--lock-stale", "1s", "--lock-wait", "200ms"]);
    children.push(second);
    await second.waitForLog((l) => l.msg === "waiting for the account's lock", "the wait for the lock");
    const beat = Date.now();
    setBeat(beat);
    db.close();
    const taken = await second.waitForLog(
      (l) => l.msg === "write batch confirmed",
      "a write by the second daemon",
    );
    expect(taken.time as number).toBeGreaterThanOrEqual(beat + 1000);
    const done = await second.waitForLog((l) => l.msg === "run finished", "the second daemon's run");
    expect(done.outcome).toBe("converged");
    second.child.kill("SIGTERM");
    expect((await second.exited).code).toBe(0);

    const [pid] = await playlistsTitled(h, "Killed");
    expect(await playlistsTitled(h, "Killed")).toHaveLength(1);
    expect((await playlistRows(h, pid!)).map((r) => r.videoId)).toEqual(songs);
    const state = openSqliteState(h.stateFile);
    expect(await state.locks()).toEqual([]);
    // The killed run is not left `running`: the next run of the recipe closed it.
    expect((await state.recentRuns({ recipeId: "killed" })).some((r) => r.result === "running")).toBe(false);
    await state.close();
  });
});

describe("logs", () => {
  it("one JSON line per run and per write batch, with recipe, account and run id, and no credential anywhere", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 8);
    await writeRecipes(h.dir, [{ id: "logged", cron: "* * * * * *", ids: songs, batch: 3 }]);
    // A throttled write and a retried read put the error paths in the log too.
    await h.faults({
      queue: [
        { kind: "rate-limit", endpoint: "browse/edit_playlist", retryAfter: 1 },
        { kind: "server-error", endpoint: "browse" },
      ],
    });
    const d = spawnDaemon(h.projectFile, [], "trace");
    children.push(d);
    const done = await d.waitForLog((l) => l.msg === "run finished", "a whole run");
    // SIGHUP with a broken recipe file: reported, and the recipe keeps running as it was.
    await writeFile(
      join(h.dir, "recipes", "logged.yaml"),
      "apiVersion: musicsync/v1\nkind: Recipe\nid: logged\n",
    );
    d.child.kill("SIGHUP");
    const reloaded = await d.waitForLog((l) => l.msg === "recipes reloaded", "the reload");
    expect(reloaded).toMatchObject({ kept: ["logged"], changed: [], removed: [] });
    expect(d.logs.some((l) => /^invalid recipe: \S+logged\.yaml:\d+:\d+ /.test(l.msg))).toBe(true);
    const runsBefore = d.logs.filter((l) => l.msg === "run finished").length;
    await d.waitForLog(
      (l) => l.msg === "run finished" && d.logs.filter((x) => x.msg === "run finished").length > runsBefore,
      "a run after the reload",
    );
    d.child.kill("SIGTERM");
    expect((await d.exited).code).toBe(0);
    expect(done).toMatchObject({ recipe: "logged", account: "default", outcome: "converged" });
    const batches = d.logs.filter((l) => l.msg === "write batch confirmed");
    expect(batches.length).toBe(done.actions);
    for (const b of batches) expect(b).toMatchObject({ recipe: "logged", account: "default", run: done.run });
    expect(d.logs.some((l) => l.msg === "write throttled; retrying")).toBe(true);

    const text = d.stderr();
    const cookie = h.headers.cookie!;
    const secrets = cookie
      .split(";")
      .map((p) => p.split("=").slice(1).join("=").trim())
      .filter((v) => v.length >= 8);
    expect(secrets.length).toBeGreaterThan(0);
    for (const s of secrets) expect(text).not.toContain(s);
    expect(text).not.toContain(h.headers.authorization!.split(" ")[1]!.split("_")[1]!);
    expect(text).not.toMatch(/SAPISIDHASH \d/);
  });
});
