/**
 * `/metrics` after known runs: a daemon in this process runs recipes on the emulator, then the
 * Prometheus text from `metricsText()` is parsed and its counts compared with what happened — runs
 * by result, actions by kind, requests, a 429's retry, a suspension, credentials refused, lock waits.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { modulesOf } from "../../../bench/loaded-modules.js";
import { countNotification, enableMetrics, metricsText } from "../../../engine/metrics/index.js";
import { registry } from "../../../engine/metrics/prometheus.js";
import { ensureBuilt, MAIN } from "../../support/cli-process.js";
import { type InProcessDaemon, startDaemon, writeRecipes } from "../../support/daemon-harness.js";
import { catalogueSongs, type Harness, startHarness, WRITE_ENDPOINTS } from "../../support/sync-harness.js";

let h: Harness | null = null;
let d: InProcessDaemon | null = null;

beforeAll(async () => {
  await enableMetrics();
});

afterEach(async () => {
  await d?.stop();
  d = null;
  await h?.stop();
  h = null;
  registry.resetMetrics();
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped; label values unescaped). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[l[1]!] = l[2]!.replace(/\\n/g, "\n").replace(/\\(["\\])/g, "$1");
    }
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** A scrape, read: `value(name, labels)` sums the samples of that name carrying those labels. */
async function scrape() {
  const { contentType, body } = await metricsText();
  expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  const samples = parseExposition(body);
  const value = (name: string, labels: Record<string, string> = {}) =>
    samples
      .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
      .reduce((n, s) => n + s.value, 0);
  const has = (name: string, labels: Record<string, string> = {}) =>
    samples.some((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return { samples, value, has };
}

async function emulatorRequests(): Promise<Record<string, number>> {
  const stats = (await (await fetch(`${h!.emulator.url}/_emulator/stats`)).json()) as {
    requests: Record<string, number>;
  };
  return stats.requests;
}

const writesIn = (r: Record<string, number>) => WRITE_ENDPOINTS.reduce((n, e) => n + (r[e] ?? 0), 0);

describe("/metrics after known runs", () => {
  it("counts runs by result, actions by kind, write requests, durations and the last success", async () => {
    h = await startHarness();
    await writeRecipes(h.dir, [{ id: "good", ids: catalogueSongs(h, 7), batch: 3 }]);
    d = await startDaemon(h);
    const writesBefore = writesIn(await emulatorRequests());
    const [first] = await d.daemon.trigger("good");
    const [second] = await d.daemon.trigger("good");
    expect([first!.outcome, second!.outcome]).toEqual(["converged", "no_changes"]);
    const m = await scrape();
    expect(m.value("musicsync_runs_total", { recipe: "good", result: "converged" })).toBe(1);
    expect(m.value("musicsync_runs_total", { recipe: "good", result: "no_changes" })).toBe(1);
    expect(m.value("musicsync_runs_total", { result: "failed" })).toBe(0);
    expect(m.value("musicsync_run_duration_seconds_count", { recipe: "good" })).toBe(2);
    expect(m.value("musicsync_run_duration_seconds_sum", { recipe: "good" })).toBeGreaterThan(0);

    // Each action of the journal, confirmed, counted under its kind.
    const journal = await d.daemon.state.journal(first!.runId!);
    const kinds = new Map<string, number>();
    for (const j of journal) kinds.set(j.kind, (kinds.get(j.kind) ?? 0) + 1);
    // The create carries the first batch of three; the other four songs go in two adds.
    expect(Object.fromEntries(kinds)).toEqual({ create_playlist: 1, add_playlist_items: 2 });
    for (const [kind, n] of kinds) {
      expect(m.value("musicsync_actions_total", { kind, fate: "confirmed" }), kind).toBe(n);
    }
    expect(m.value("musicsync_actions_total")).toBe(journal.length);

    // Every write the emulator received was counted as one; the reads were counted too.
    const writes = writesIn(await emulatorRequests()) - writesBefore;
    expect(writes).toBeGreaterThan(0);
    expect(m.value("musicsync_requests_total", { account: "default", kind: "write" })).toBe(writes);
    expect(m.value("musicsync_requests_total", { account: "default", kind: "read" })).toBeGreaterThan(0);

    const runs = await d.daemon.state.runs("good");
    const last = runs.find((r) => r.result === "no_changes")!;
    expect(m.value("musicsync_last_success_timestamp_seconds", { recipe: "good" })).toBe(
      last.finishedAt! / 1000,
    );
    expect(m.value("musicsync_recipe_suspended", { recipe: "good" })).toBe(0);
    expect(m.value("musicsync_credentials_valid", { account: "default" })).toBe(1);
    // The process's own figures come under the same prefix.
    expect(m.has("musicsync_process_resident_memory_bytes")).toBe(true);
    expect(m.samples.every((s) => s.name.startsWith("musicsync_"))).toBe(true);
  });

  it("shows a recipe suspended after its failures, and its skipped attempts as suspended", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 6);
    await writeRecipes(h.dir, [
      { id: "fine", ids: songs.slice(0, 3) },
      {
        id: "broken",
        ids: songs.slice(3),
        sources: ["{ id: gone, type: playlist, playlistId: PLdoesnotexist000000000000000000 }"],
      },
    ]);
    d = await startDaemon(h, { retries: 1, retryDelayMs: 50, suspendAfter: 2 });
    const failures = await d.daemon.trigger("broken");
    expect(failures.map((e) => e.outcome)).toEqual(["failed", "failed"]);
    await d.daemon.trigger("fine");
    let m = await scrape();
    expect(m.value("musicsync_runs_total", { recipe: "broken", result: "failed" })).toBe(2);
    expect(m.value("musicsync_recipe_suspended", { recipe: "broken", account: "default" })).toBe(1);
    expect(m.value("musicsync_recipe_suspended", { recipe: "fine" })).toBe(0);
    // No success yet, no timestamp; the other recipe has one.
    expect(m.has("musicsync_last_success_timestamp_seconds", { recipe: "broken" })).toBe(false);
    expect(m.has("musicsync_last_success_timestamp_seconds", { recipe: "fine" })).toBe(true);

    expect((await d.daemon.trigger("broken")).map((e) => e.outcome)).toEqual(["suspended"]);
    m = await scrape();
    expect(m.value("musicsync_runs_total", { recipe: "broken", result: "suspended" })).toBe(1);
    // A skipped attempt is no run: no duration.
    expect(m.value("musicsync_run_duration_seconds_count", { recipe: "broken" })).toBe(2);

    // Lifted by another process (`musicsync resume`): the next scrape says so, before any run.
    await d.daemon.state.resumeRecipe("broken", Date.now());
    m = await scrape();
    expect(m.value("musicsync_recipe_suspended", { recipe: "broken" })).toBe(0);
  });

  it("counts a 429 as a rate-limit answer and a retry, the write still confirmed", async () => {
    h = await startHarness();
    await writeRecipes(h.dir, [{ id: "paced", ids: catalogueSongs(h, 6), batch: 3 }]);
    d = await startDaemon(h);
    await h.faults({ queue: [{ kind: "rate-limit", endpoint: "browse/edit_playlist", retryAfter: 0 }] });
    const [event] = await d.daemon.trigger("paced");
    expect(event!.outcome).toBe("converged");
    const m = await scrape();
    expect(m.value("musicsync_rate_limited_total", { account: "default" })).toBe(1);
    expect(m.value("musicsync_write_retries_total", { account: "default" })).toBe(1);
    // The create carries the first three songs; the add after it met the 429, then went through.
    expect(m.value("musicsync_actions_total", { kind: "add_playlist_items", fate: "confirmed" })).toBe(1);
    expect(m.value("musicsync_requests_total", { kind: "write" })).toBe(3);
    expect(m.value("musicsync_actions_total", { fate: "failed" })).toBe(0);
  });

  it("says the credentials are no longer valid once the service refuses them", async () => {
    h = await startHarness();
    await writeRecipes(h.dir, [{ id: "signed", ids: catalogueSongs(h, 3) }]);
    d = await startDaemon(h, { retries: 2 });
    await d.daemon.trigger("signed");
    expect((await scrape()).value("musicsync_credentials_valid", { account: "default" })).toBe(1);
    // Every signature now looks too old: the cookie is refused (HTTP 401).
    await fetch(`${h.emulator.url}/_emulator/config`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ auth: { maxHashAgeSeconds: -100_000 } }),
    });
    expect((await d.daemon.trigger("signed")).map((e) => e.outcome)).toEqual(["failed"]);
    const m = await scrape();
    expect(m.value("musicsync_credentials_valid", { account: "default" })).toBe(0);
    expect(m.value("musicsync_recipe_suspended", { recipe: "signed" })).toBe(1);
    expect(m.value("musicsync_runs_total", { recipe: "signed", result: "failed" })).toBe(1);
  });

  it("counts a wait for the account's lock held by another process, and how long it lasted", async () => {
    h = await startHarness();
    await writeRecipes(h.dir, [{ id: "waits", ids: catalogueSongs(h, 3) }]);
    d = await startDaemon(h, { lockWaitMs: 50 });
    const state = d.daemon.state;
    const held = await state.acquireLock("default", "elsewhere:1", Date.now(), 60_000);
    if (!held.acquired) throw new Error("the lock was not free");
    const run = d.daemon.trigger("waits");
    await new Promise((r) => setTimeout(r, 300));
    expect((await scrape()).value("musicsync_lock_waits_total", { account: "default" })).toBe(1);
    await state.releaseLock(held.lock.lockId);
    expect((await run).map((e) => e.outcome)).toEqual(["converged"]);
    const m = await scrape();
    expect(m.value("musicsync_lock_waits_total", { account: "default" })).toBe(1);
    expect(m.value("musicsync_lock_wait_seconds_count", { account: "default" })).toBe(1);
    expect(m.value("musicsync_lock_wait_seconds_sum", { account: "default" })).toBeGreaterThan(0.1);
  });

  it("counts notification deliveries by target and result", async () => {
    countNotification("ops-webhook", true);
    countNotification("ops-webhook", false);
    countNotification("ops-webhook", false);
    const m = await scrape();
    expect(m.value("musicsync_notifications_total", { target: "ops-webhook", result: "ok" })).toBe(1);
    expect(m.value("musicsync_notifications_total", { target: "ops-webhook", result: "failed" })).toBe(2);
  });
});

describe("metrics cost nothing where they are not served", () => {
  it("the daemon's code loads the recorder but not prom-client", async () => {
    await ensureBuilt();
    // The daemon command loads the whole daemon, then stops at the missing project file.
    const loaded = modulesOf([MAIN, "daemon", "-p", "/nonexistent/musicsync.yaml"]);
    expect(loaded).toContain("engine/daemon");
    expect(loaded).toContain("engine/metrics");
    expect(loaded).not.toContain("prom-client");
  });
});
