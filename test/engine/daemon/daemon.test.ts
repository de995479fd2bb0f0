/**
 * The daemon in this process against the emulator, on schedules of seconds: runs at their times,
 * one account's recipes one at a time, a failing recipe retried then suspended while the others go
 * on, expired credentials suspending the whole account, `musicsync resume`, and SIGHUP reloads.
 * The tests that check when runs start run alone; the others, which wait on their schedules using
 * little of a core, run side by side, each with a harness and a daemon of its own.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { AttemptEvent } from "../../../engine/daemon/daemon.js";
import {
  type InProcessDaemon,
  musicsync,
  recipeYaml,
  startDaemon,
  waitUntil,
  writeRecipes,
} from "../../support/daemon-harness.js";
import { stretched } from "../../support/load.js";
import {
  catalogueSongs,
  type Harness,
  playlistRows,
  playlistsTitled,
  startHarness,
} from "../../support/sync-harness.js";

let h: Harness | null = null;
let d: InProcessDaemon | null = null;
afterEach(async () => {
  await d?.stop();
  d = null;
  await h?.stop();
  h = null;
});

const of = (events: readonly AttemptEvent[], id: string) => events.filter((e) => e.recipeId === id);

describe("musicsync daemon: schedules", () => {
  it("runs a recipe at each time of its schedule, through the same path as sync", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 9);
    await writeRecipes(h.dir, [{ id: "every2", cron: "*/2 * * * * *", ids: songs, reshuffle: true }]);
    d = await startDaemon(h);
    expect(d.daemon.nextRun("every2")!.getTime() % 2000).toBe(0);
    const done = await waitUntil(
      () => (of(d!.events, "every2").length >= 3 ? of(d!.events, "every2") : null),
      "3 runs",
    );
    const starts = done.slice(0, 3).map((e) => e.startedAt);
    for (const s of starts) expect(s % 2000, `run at ${new Date(s).toISOString()}`).toBeLessThan(800);
    // Each run at the schedule's next time, unless the run before was still going then (a busy
    // machine): a time that comes during a run is skipped, and the next run is at the first time
    // after it (noOverlap). A run that had ended well before a time never explains its skip.
    for (let i = 1; i < starts.length; i++) {
      const periods = Math.round((starts[i]! - starts[i - 1]!) / 2000);
      expect(periods, `runs ${i} and ${i + 1}`).toBeGreaterThanOrEqual(1);
      const lastSkipped = starts[i - 1]! - (starts[i - 1]! % 2000) + (periods - 1) * 2000;
      if (periods > 1)
        expect(done[i - 1]!.finishedAt, `run ${i} still going at the time skipped`).toBeGreaterThan(
          lastSkipped - 1000,
        );
    }
    expect(done.slice(0, 3).map((e) => e.outcome)).toEqual(["converged", "converged", "converged"]);
    // Each run is a sync run in the state, with its writes journaled and confirmed.
    const runs = await d.daemon.state.runs("every2");
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(runs.every((r) => r.kind === "sync")).toBe(true);
    const journal = await d.daemon.state.journal(done[1]!.runId!);
    expect(journal.length).toBeGreaterThan(0);
    expect(journal.every((j) => j.status === "confirmed")).toBe(true);
    const [pid] = await playlistsTitled(h, "every2");
    expect((await playlistRows(h, pid!)).map((r) => r.videoId).sort()).toEqual([...songs].sort());
  });

  it("starts each run up to the recipe's jitter after its time", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 3);
    await writeRecipes(h.dir, {
      "j.yaml": recipeYaml({ id: "jittery", cron: "*/2 * * * * *", ids: songs }).replace(
        'schedule: { cron: "*/2 * * * * *" }',
        'schedule: { cron: "*/2 * * * * *", jitter: 1s }',
      ),
    });
    // The delay is the scheduler's draw (Math.random) times the jitter. Drawn here near its top, each
    // run's delay is known instead of hoped for over many runs (six runs, 12 s, made "not all at the
    // very start" only likely): 900 ms, so each run starts at least that long after its time and
    // still within the second after it.
    const random = vi.spyOn(Math, "random").mockReturnValue(0.9);
    try {
      d = await startDaemon(h);
      expect(d.daemon.loaded()[0]!.recipe.schedule?.jitter_seconds).toBe(1);
      const runs = await waitUntil(
        () => (d!.events.length >= 2 ? d!.events.slice(0, 2) : null),
        "2 runs",
        30_000,
      );
      const offsets = runs.map((e) => e.startedAt % 2000);
      expect(random).toHaveBeenCalled();
      // (The slack after the second is for starting the run, more on a busy machine.)
      for (const o of offsets) {
        expect(o, `offsets ${offsets.join(", ")}`).toBeGreaterThanOrEqual(900);
        expect(o, `offsets ${offsets.join(", ")}`).toBeLessThan(Math.min(1900, 1000 + stretched(300)));
      }
    } finally {
      random.mockRestore();
    }
  });
});

/**
 * The harness and daemon of a test that runs beside others (`describe.concurrent`): its own, stopped
 * as it ends. These tests wait on their recipes' schedules of seconds, using little of a core.
 */
function ownTest(onTestFinished: (f: () => Promise<void>) => void) {
  let harness: Harness | null = null;
  let daemon: InProcessDaemon | null = null;
  onTestFinished(async () => {
    await daemon?.stop();
    await harness?.stop();
  });
  return {
    async harness(): Promise<Harness> {
      harness = await startHarness();
      return harness;
    },
    async daemon(...args: Parameters<typeof startDaemon>): Promise<InProcessDaemon> {
      daemon = await startDaemon(...args);
      return daemon;
    },
  };
}

// Beside the failures' tests: what it asserts is the order of its own runs, not their times.
describe.concurrent("musicsync daemon: one account's schedules", () => {
  it("runs the recipes of one account one at a time, the others waiting their turn", async ({
    expect,
    onTestFinished,
  }) => {
    const own = ownTest(onTestFinished);
    const h = await own.harness();
    const songs = catalogueSongs(h, 24);
    await writeRecipes(h.dir, [
      { id: "one", cron: "* * * * * *", ids: songs.slice(0, 12), reshuffle: true, batch: 2 },
      { id: "two", cron: "* * * * * *", ids: songs.slice(12), reshuffle: true, batch: 2 },
    ]);
    let inFlight = 0;
    let most = 0;
    // Slow writes make overlapping runs likely, were they allowed.
    const d = await own.daemon(
      h,
      {},
      (client) =>
        new Proxy(client, {
          get(target, p, r) {
            const v = Reflect.get(target, p, r);
            if (typeof v !== "function") return v;
            if (p !== "editPlaylist" && p !== "addPlaylistItems" && p !== "createPlaylist")
              return v.bind(target);
            return async (...args: unknown[]) => {
              inFlight += 1;
              most = Math.max(most, inFlight);
              try {
                await new Promise((res) => setTimeout(res, 60));
                return await v.apply(target, args);
              } finally {
                inFlight -= 1;
              }
            };
          },
        }),
    );
    await waitUntil(
      () => of(d.events, "one").length >= 3 && of(d.events, "two").length >= 3,
      "three runs of each recipe",
      30_000,
    );
    const spans = d.events.filter((e) => e.outcome !== "suspended").sort((a, b) => a.startedAt - b.startedAt);
    for (let i = 1; i < spans.length; i++) {
      expect(spans[i]!.startedAt, "a run started before the previous one ended").toBeGreaterThanOrEqual(
        spans[i - 1]!.finishedAt,
      );
    }
    expect(most).toBe(1);
    expect(d.events.every((e) => e.outcome === "converged")).toBe(true);
  });
});

describe.concurrent("musicsync daemon: failures", () => {
  it("retries a failing recipe with backoff, suspends it after N failures, keeps the others going; resume lifts it", async ({
    expect,
    onTestFinished,
  }) => {
    const own = ownTest(onTestFinished);
    const h = await own.harness();
    const songs = catalogueSongs(h, 6);
    const broken = {
      id: "broken",
      cron: "* * * * * *",
      ids: songs.slice(3),
      sources: ["{ id: gone, type: playlist, playlistId: PLdoesnotexist000000000000000000 }"],
    };
    await writeRecipes(h.dir, [{ id: "fine", cron: "* * * * * *", ids: songs.slice(0, 3) }, broken]);
    const d = await own.daemon(h, { retries: 1, retryDelayMs: 400, suspendAfter: 3 });
    const state = d.daemon.state;
    await waitUntil(async () => (await state.recipeHealth("broken")).suspendedAt !== null, "the suspension");
    const failures = of(d.events, "broken");
    expect(failures.map((e) => [e.trigger, e.outcome])).toEqual([
      ["schedule", "failed"],
      ["retry", "failed"],
      ["schedule", "failed"],
    ]);
    // The retry waited its backoff after the first failure.
    expect(failures[1]!.startedAt - failures[0]!.finishedAt).toBeGreaterThanOrEqual(380);
    const health = await state.recipeHealth("broken");
    expect(health.consecutiveFailures).toBe(3);
    expect(health.suspendedReason).toMatch(
      /^3 consecutive failed runs; the last: source "gone": playlist \S+ was not found \(get_playlist answered HTTP 404\)/,
    );
    const conditions = await state.conditions("broken");
    expect(conditions.find((c) => c.type === "Ready")).toMatchObject({
      status: "False",
      reason: "Suspended",
    });
    expect(conditions.find((c) => c.type === "Ready")!.message).toMatch(/musicsync resume broken$/);
    expect(conditions.find((c) => c.type === "Degraded")).toMatchObject({
      status: "True",
      reason: "RunFailed",
    });
    // Each failed attempt is a run in the history.
    expect((await state.runs("broken")).map((r) => r.result)).toEqual(["failed", "failed", "failed"]);

    // Suspended: its times come and go without a run, while the other recipe keeps running.
    const fineBefore = of(d.events, "fine").length;
    await waitUntil(
      () => of(d.events, "broken").length >= 5 && of(d.events, "fine").length > fineBefore,
      "two of broken's times while suspended, and a run of fine",
    );
    expect(
      of(d.events, "broken")
        .slice(3)
        .every((e) => e.outcome === "suspended"),
    ).toBe(true);
    expect((await state.runs("broken")).length).toBe(3);
    expect(of(d.events, "fine").length).toBeGreaterThan(fineBefore);
    expect(of(d.events, "fine").every((e) => e.outcome === "converged" || e.outcome === "no_changes")).toBe(
      true,
    );

    // The person fixes the recipe (SIGHUP): still suspended until resumed by hand.
    await writeRecipes(h.dir, [{ id: "broken", cron: "* * * * * *", ids: songs.slice(3) }]);
    const reload = await d.daemon.reload();
    expect(reload.changed).toEqual(["broken"]);
    const reloadedAt = of(d.events, "broken").length;
    await waitUntil(() => of(d.events, "broken").length > reloadedAt, "a time of broken after the reload");
    expect(
      of(d.events, "broken")
        .slice(reloadedAt)
        .every((e) => e.outcome === "suspended"),
    ).toBe(true);
    expect((await state.runs("broken")).length).toBe(3);
    const resumed = await musicsync(["resume", "broken", "-p", h.projectFile]);
    expect(resumed).toMatchObject({ code: 0, stdout: "Recipe broken resumed.\n" });
    await waitUntil(
      () => of(d.events, "broken").some((e) => e.outcome === "converged"),
      "a run after resume",
    );
    expect((await state.recipeHealth("broken")).consecutiveFailures).toBe(0);
    // Its failures counted on the account too; a success clears them (the daemon reads the
    // account's health as each attempt begins, and a run that found none counted writes none).
    expect((await state.health("default")).consecutiveFailures).toBe(0);
    expect((await state.conditions("broken")).find((c) => c.type === "Ready")).toMatchObject({
      status: "True",
    });
    const again = await musicsync(["resume", "broken", "-p", h.projectFile]);
    expect(again.stdout).toBe("Recipe broken was not suspended.\n");
    expect((await musicsync(["resume", "nosuch", "-p", h.projectFile])).code).toBe(1);
  });

  it("suspends every recipe of the account at once when its credentials expire; resume <account> lifts it", async ({
    expect,
    onTestFinished,
  }) => {
    const own = ownTest(onTestFinished);
    const h = await own.harness();
    const songs = catalogueSongs(h, 6);
    await writeRecipes(h.dir, [
      { id: "first", cron: "* * * * * *", ids: songs.slice(0, 3) },
      { id: "second", cron: "* * * * * *", ids: songs.slice(3) },
    ]);
    const d = await own.daemon(h, { retries: 3, retryDelayMs: 200, suspendAfter: 10 });
    const state = d.daemon.state;
    await waitUntil(
      () => of(d.events, "first").length > 0 && of(d.events, "second").length > 0,
      "first runs",
    );
    const config = (await (await fetch(`${h.emulator.url}/_emulator/config`)).json()) as {
      auth: { maxHashAgeSeconds: number };
    };
    const setHashAge = (seconds: number) =>
      fetch(`${h.emulator.url}/_emulator/config`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ auth: { maxHashAgeSeconds: seconds } }),
      });
    // Every signature now looks too old: the service refuses the credentials (HTTP 401).
    await setHashAge(-100_000);
    const failedAt = d.events.length;
    await waitUntil(
      async () => (await state.health("default")).suspendedAt !== null,
      "the account's suspension",
    );
    // Each recipe's times come after it: the failed attempt's, then suspended ones.
    await waitUntil(
      () =>
        ["first", "second"].every((id) =>
          d.events.slice(failedAt).some((e) => e.recipeId === id && e.outcome === "suspended"),
        ),
      "a suspended time of each recipe",
    );
    const after = d.events.slice(failedAt);
    // One failed attempt, no retries: the rest of the account's runs are skipped.
    expect(after.filter((e) => e.outcome === "failed")).toHaveLength(1);
    expect(after.some((e) => e.trigger === "retry")).toBe(false);
    expect(after.filter((e) => e.outcome !== "failed").every((e) => e.outcome === "suspended")).toBe(true);
    const health = await state.health("default");
    expect(health.suspendedReason).toMatch(/refused the credentials/);
    for (const id of ["first", "second"]) {
      const c = await state.conditions(id);
      expect(c.find((x) => x.type === "AuthValid")).toMatchObject({ status: "False", reason: "Expired" });
      expect(c.find((x) => x.type === "Ready")).toMatchObject({
        status: "False",
        reason: "AccountSuspended",
      });
    }
    // Suspended means silent: no request at all reaches the service.
    const stats = async () =>
      ((await (await fetch(`${h.emulator.url}/_emulator/stats`)).json()) as { total: number }).total;
    const before = await stats();
    const quietFrom = d.events.length;
    await waitUntil(
      () => ["first", "second"].every((id) => of(d.events.slice(quietFrom), id).length > 0),
      "a time of each recipe",
    );
    expect(
      d.events.slice(quietFrom).every((e) => e.outcome === "suspended"),
      "no attempt while the account is suspended",
    ).toBe(true);
    expect(await stats()).toBe(before);

    await setHashAge(config.auth.maxHashAgeSeconds);
    const resumed = await musicsync(["resume", "default", "-p", h.projectFile]);
    expect(resumed).toMatchObject({ code: 0, stdout: "Account default resumed.\n" });
    const resumedAt = d.events.length;
    await waitUntil(
      () =>
        ["first", "second"].every((id) =>
          d.events
            .slice(resumedAt)
            .some((e) => e.recipeId === id && (e.outcome === "no_changes" || e.outcome === "converged")),
        ),
      "runs of both recipes after resume",
    );
    for (const id of ["first", "second"]) {
      const c = await state.conditions(id);
      expect(c.find((x) => x.type === "AuthValid")).toMatchObject({ status: "True" });
      expect(c.find((x) => x.type === "Ready")).toMatchObject({ status: "True" });
    }
  });
});

describe.concurrent("musicsync daemon: SIGHUP", () => {
  it("reloads recipes; a file that no longer loads keeps its previous version running", async ({
    expect,
    onTestFinished,
  }) => {
    const own = ownTest(onTestFinished);
    const h = await own.harness();
    const songs = catalogueSongs(h, 8);
    await writeRecipes(h.dir, [
      { id: "keeper", cron: "* * * * * *", ids: songs.slice(0, 3) },
      { id: "changer", cron: "* * * * * *", ids: songs.slice(3, 5) },
      { id: "leaver", ids: songs.slice(5, 6) },
    ]);
    const d = await own.daemon(h);
    const keeper = d.daemon.loaded().find((r) => r.recipe.id === "keeper")!;
    await waitUntil(() => of(d.events, "changer").some((e) => e.outcome === "converged"), "a first run");

    await writeFile(
      join(h.dir, "recipes", "keeper.yaml"),
      "apiVersion: musicsync/v1\nkind: Recipe\nid: keeper\n",
    );
    await writeFile(
      join(h.dir, "recipes", "changer.yaml"),
      recipeYaml({ id: "changer", cron: "* * * * * *", ids: songs.slice(5, 8) }),
    );
    const { rm } = await import("node:fs/promises");
    await rm(join(h.dir, "recipes", "leaver.yaml"));
    const r = await d.daemon.reload();
    expect(r.kept).toEqual(["keeper"]);
    expect(r.changed).toEqual(["changer"]);
    expect(r.removed).toEqual(["leaver"]);
    expect(r.issues.length).toBeGreaterThan(0);
    expect(r.issues[0]!.file).toMatch(/keeper\.yaml$/);
    expect(d.daemon.loaded().find((x) => x.recipe.id === "keeper")).toBe(keeper);
    expect(
      d.daemon
        .loaded()
        .map((x) => x.recipe.id)
        .sort(),
    ).toEqual(["changer", "keeper"]);

    // The new version of `changer` is what runs from now on; `keeper` runs on as it was.
    const [pid] = await playlistsTitled(h, "changer");
    await waitUntil(
      async () => (await playlistRows(h, pid!)).map((x) => x.videoId).join() === songs.slice(5, 8).join(),
      "the new version applied",
    );
    const keeperRuns = of(d.events, "keeper").length;
    await waitUntil(() => of(d.events, "keeper").length > keeperRuns, "keeper running on");

    // A cron expression node-cron refuses is reported like any invalid recipe.
    await writeFile(
      join(h.dir, "recipes", "changer.yaml"),
      recipeYaml({ id: "changer", cron: "99 * * * *", ids: songs.slice(5, 8) }),
    );
    const bad = await d.daemon.reload();
    expect(bad.kept).toContain("changer");
    expect(bad.issues.map((i) => i.message).join("\n")).toMatch(
      /"99 \* \* \* \*" is not a valid cron expression/,
    );
  });
});
