/**
 * `musicsync status` and `musicsync history`, text and `--json`, from what runs (one-shot and the
 * daemon's) left in the state: next run, last run and result, counts, the four conditions with
 * reasons, suspension; past runs with their journaled writes.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadRecipePaths } from "../../../engine/recipe/load.js";
import { syncRecipe } from "../../../engine/run/runner.js";
import type { HistoryRun } from "../../../engine/status/history.js";
import type { StatusReport } from "../../../engine/status/status.js";
import {
  type InProcessDaemon,
  musicsync,
  startDaemon,
  waitUntil,
  writeRecipes,
} from "../../support/daemon-harness.js";
import { catalogueSongs, type Harness, startHarness } from "../../support/sync-harness.js";

let h: Harness | null = null;
let d: InProcessDaemon | null = null;
afterEach(async () => {
  await d?.stop();
  d = null;
  await h?.stop();
  h = null;
});

async function status(harness: Harness): Promise<StatusReport> {
  const r = await musicsync(["status", "--json", "-p", harness.projectFile]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as StatusReport;
}

describe("musicsync status / history", () => {
  it("before any run: every recipe with its schedule and no last run; no state file is created", async () => {
    h = await startHarness();
    await writeRecipes(h.dir, {
      "a.yaml": [
        "apiVersion: musicsync/v1",
        "kind: Recipe",
        "id: timed",
        'schedule: { cron: "15 7 * * *", timezone: Europe/Berlin, jitter: 10m }',
        "sources: [{ id: s, type: static, videoIds: [aaaaaaaaaaa] }]",
        'target: { type: playlist, playlist: { title: "T" } }',
        "---",
        "apiVersion: musicsync/v1",
        "kind: Recipe",
        "id: manual",
        "sources: [{ id: s, type: static, videoIds: [aaaaaaaaaaa] }]",
        'target: { type: playlist, playlist: { title: "M" } }',
        "",
      ].join("\n"),
    });
    const report = await status(h);
    expect(existsSync(h.stateFile)).toBe(false);
    const timed = report.recipes.find((r) => r.recipe === "timed")!;
    expect(timed.schedule).toEqual({ cron: "15 7 * * *", timezone: "Europe/Berlin", jitterSeconds: 600 });
    // 07:15 in Berlin is 06:15 or 05:15 UTC depending on the season; in any case within a day.
    const next = Date.parse(timed.nextRun!.at);
    expect(next).toBeGreaterThan(Date.now());
    expect(next - Date.now()).toBeLessThanOrEqual(86_400_000);
    expect(new Date(next).getUTCMinutes()).toBe(15);
    expect(timed.nextRun).toMatchObject({ reason: "schedule", plannedBy: null });
    expect(timed).toMatchObject({ lastRun: null, suspended: null, consecutiveFailures: 0 });
    expect(timed.conditions.map((c) => [c.type, c.status, c.reason])).toEqual([
      ["Ready", "Unknown", "NotObserved"],
      ["Degraded", "Unknown", "NotObserved"],
      ["AuthValid", "Unknown", "NotObserved"],
      ["SourceComplete", "Unknown", "NotObserved"],
    ]);
    const manual = report.recipes.find((r) => r.recipe === "manual")!;
    expect(manual).toMatchObject({ schedule: null, nextRun: null });
    const text = await musicsync(["status", "-p", h.projectFile]);
    expect(text.stdout).toMatch(
      /^timed \(account default\)\n {2}schedule {5}15 7 \* \* \* Europe\/Berlin, jitter 10 min\n/m,
    );
    expect(text.stdout).toMatch(/manual \(account default\)\n {2}schedule {5}none \(runs by hand only\)/);
    expect(text.stdout).toContain("  last run     never");
    expect((await musicsync(["history", "-p", h.projectFile])).stdout).toBe("No runs yet.\n");
  });

  it("after runs: last result, counts, conditions with reasons, the daemon's next run, suspension; history with writes", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 7);
    await writeRecipes(h.dir, [
      { id: "good", cron: "* * * * * *", ids: songs.slice(0, 5), batch: 2 },
      {
        id: "bad",
        cron: "* * * * * *",
        ids: songs.slice(5),
        sources: ["{ id: gone, type: playlist, playlistId: PLdoesnotexist000000000000000000 }"],
      },
    ]);
    d = await startDaemon(h, { retries: 0, suspendAfter: 2 });
    await waitUntil(
      async () => (await d!.daemon.state.recipeHealth("bad")).suspendedAt !== null,
      "bad suspended",
    );
    await waitUntil(
      () => d!.events.some((e) => e.recipeId === "good" && e.outcome === "converged"),
      "good run",
    );

    const report = await status(h);
    const good = report.recipes.find((r) => r.recipe === "good")!;
    expect(good.lastRun).toMatchObject({ kind: "sync", error: null });
    expect(["converged", "no_changes"]).toContain(good.lastRun!.result);
    // The daemon has planned the next run and says so.
    expect(good.nextRun).toMatchObject({ reason: "schedule", plannedBy: d.daemon.holder });
    expect(Date.parse(good.nextRun!.at) - Date.now()).toBeLessThanOrEqual(2000);
    expect(good.conditions.map((c) => [c.type, c.status, c.reason])).toEqual([
      ["Ready", "True", "Converged"],
      ["Degraded", "False", "Healthy"],
      ["AuthValid", "True", "Accepted"],
      ["SourceComplete", "True", "SourcesRead"],
    ]);
    const bad = report.recipes.find((r) => r.recipe === "bad")!;
    expect(bad).toMatchObject({ nextRun: null, consecutiveFailures: 2, lastRun: { result: "failed" } });
    expect(bad.suspended).toMatchObject({ scope: "recipe" });
    expect(bad.suspended!.reason).toMatch(/^2 consecutive failed runs; the last: .*404/);
    expect(bad.conditions.find((c) => c.type === "Ready")).toMatchObject({
      status: "False",
      reason: "Suspended",
    });
    expect(bad.conditions.find((c) => c.type === "Degraded")).toMatchObject({
      status: "True",
      reason: "RunFailed",
    });

    const text = (await musicsync(["status", "-p", h.projectFile])).stdout;
    expect(text).toMatch(/good \(account default\)[\s\S]*next run {5}\S+ \S+ in \d+ (ms|s), planned by /);
    expect(text).toMatch(
      /bad \(account default\)[\s\S]*next run {5}suspended since .*\n {15}lift with: musicsync resume bad/,
    );
    expect(text).toMatch(/ {4}Ready {10}False {3}Suspended since /);

    const first = d.events.find((e) => e.recipeId === "good" && e.outcome === "converged")!;
    const hist = await musicsync(["history", "-r", "good", "--json", "-p", h.projectFile]);
    const runs = (JSON.parse(hist.stdout) as { runs: HistoryRun[] }).runs;
    expect(runs.every((r) => r.recipe === "good")).toBe(true);
    const created = runs.find((r) => r.id === first.runId)!;
    expect(created.result).toBe("converged");
    expect(created.actions.map((a) => [a.kind, a.status])).toEqual([
      ["create_playlist", "confirmed"],
      ["add_playlist_items", "confirmed"],
      ["add_playlist_items", "confirmed"],
    ]);
    expect(created.actions[0]!.summary).toBe('create playlist "good" (PRIVATE) with 2 items');
    expect(created.counts).toMatchObject({ actions: 3, confirmed: 3, failed: 0 });
    const histText = (await musicsync(["history", "-r", "bad", "-p", h.projectFile])).stdout;
    expect(histText.match(/^#\d+ .* bad( "[^"]*")? \(default\) sync: failed/gm)).toHaveLength(2);
    expect(histText).toMatch(
      / {4}source "gone": playlist \S+ was not found \(get_playlist answered HTTP 404\)/,
    );
    const all = (await musicsync(["history", "-n", "3", "--json", "-p", h.projectFile])).stdout;
    expect((JSON.parse(all) as { runs: HistoryRun[] }).runs).toHaveLength(3);
  });

  it("a one-shot sync's run shows as well", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 3);
    await writeRecipes(h.dir, [{ id: "once", ids: songs }]);
    const { recipes } = await loadRecipePaths([join(h.dir, "recipes")], { project: h.project });
    const env = h.env({ stateFile: h.stateFile });
    await syncRecipe(recipes[0]!, env);
    const [once] = (await status(h)).recipes;
    expect(once).toMatchObject({ recipe: "once", nextRun: null, lastRun: { result: "converged" } });
    expect(once!.lastRun!.counts).toMatchObject({ actions: 1, requests: 1 });
  });
});
