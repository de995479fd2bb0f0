/**
 * Notifications delivered for real (docs/ENGINE.md#the-status-page-and-metrics), by `musicsync sync` run in this process against the
 * emulator: a webhook, an ntfy-like topic and a command get what they asked for; a receiver that is
 * down and one slower than the timeout cost the sync its short drain at most, change nothing of its
 * result, and are logged and counted.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { enableMetrics, metricsText } from "../../../engine/metrics/index.js";
import type { NotifyEvent } from "../../../engine/notify/events.js";
import { catalogueSongs, type Harness, startHarness } from "../../support/sync-harness.js";
import {
  commandRuns,
  commandWriting,
  notifyProject,
  type Receivers,
  runMain,
  startReceivers,
  writeRecipes,
} from "../support/notify-receivers.js";

let h: Harness | null = null;
let rx: Receivers | null = null;
afterEach(async () => {
  await rx?.close();
  await h?.stop();
  h = rx = null;
});

describe("musicsync sync with notify targets", () => {
  it("delivers to webhook, ntfy and command; a down and a slow receiver change nothing but are logged and counted", async () => {
    await enableMetrics();
    h = await startHarness();
    rx = await startReceivers();
    await writeRecipes(h, catalogueSongs(h, 3));
    const commandFile = join(h.dir, "command-out.jsonl");
    const command = JSON.stringify(commandWriting(commandFile));
    const file = await notifyProject(h, "notify.yaml", "headers.json", h.emulator.url, [
      `  - { type: webhook, name: hook, url: "${rx.url}/hook", headers: { Authorization: "Bearer hook-secret-42" }, events: [run_failed, applied] }`,
      `  - { type: ntfy, name: topic, url: "${rx.url}/ntfy/music", tags: [home], events: [run_failed] }`,
      `  - { type: command, name: script, command: ${command}, events: [applied] }`,
      `  - { type: webhook, name: down, url: "${rx.downUrl}", events: [run_failed] }`,
      `  - { type: webhook, name: slow, url: "${rx.url}/slow", events: [applied] }`,
    ]);

    const sync = await runMain(["sync", "--json", "-p", file]);
    // The sync has returned while the slow receiver still holds its request.
    expect(rx.slow.taken).toBeGreaterThan(0);
    expect(rx.slow.answered).toBe(false);

    // Its result is what it would be without notifications: one converged, one failed.
    const runs = (JSON.parse(sync.stdout) as { runs: { recipe: string; outcome: string }[] }).runs;
    expect(Object.fromEntries(runs.map((r) => [r.recipe, r.outcome]))).toEqual({
      fine: "converged",
      broken: "failed",
    });
    // Exit 3: one recipe wrote, one failed (as without notify:).
    expect(sync.code).toBe(3);

    // The webhook: the events as JSON, with the receiver's own Authorization.
    const hook = rx.received.filter((r) => r.path === "/hook");
    const hookEvents = hook.map((r) => JSON.parse(r.body) as NotifyEvent);
    expect(hookEvents.map((e) => `${e.event}:${e.recipe}`).sort()).toEqual([
      "applied:fine",
      "run_failed:broken",
    ]);
    expect(hook.every((r) => r.headers.authorization === "Bearer hook-secret-42")).toBe(true);
    expect(hook.every((r) => r.headers["content-type"] === "application/json")).toBe(true);
    const appliedEvent = hookEvents.find((e) => e.event === "applied")!;
    expect(appliedEvent).toMatchObject({ account: "default", details: { add: 3, outcome: "converged" } });

    // ntfy: plain text, its title, priority and tags in headers.
    const topic = rx.received.filter((r) => r.path === "/ntfy/music");
    expect(topic).toHaveLength(1);
    expect(topic[0]!.headers).toMatchObject({
      title: "musicsync: broken failed",
      priority: "4",
      tags: "warning,musicsync,home",
    });
    expect(topic[0]!.headers["content-type"]).toMatch(/^text\/plain/);
    expect(topic[0]!.body).toMatch(/^Recipe broken \(account default\): /);

    // The command: the event on its stdin and in MUSICSYNC_EVENT.
    const ran = commandRuns(commandFile);
    expect(ran).toHaveLength(1);
    expect(ran[0]!.event).toBe("applied");
    expect(JSON.parse(ran[0]!.stdin)).toMatchObject({ event: "applied", recipe: "fine" });

    // The down and slow receivers: logged by name (never with the headers), and counted.
    const logs = sync.stderr
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const failed = logs.filter((l) => l.msg === "notification not delivered");
    expect(failed.map((l) => l.target).sort()).toEqual(["down", "slow"]);
    expect(String(failed.find((l) => l.target === "down")?.error)).toMatch(/ECONNREFUSED/);
    expect(sync.stderr).not.toContain("hook-secret-42");
    const metrics = (await metricsText()).body;
    expect(metrics).toMatch(/musicsync_notifications_total\{target="down",result="failed"\} 1/);
    expect(metrics).toMatch(/musicsync_notifications_total\{target="slow",result="failed"\} 1/);
    expect(metrics).toMatch(/musicsync_notifications_total\{target="hook",result="ok"\} 2/);
  });
});
