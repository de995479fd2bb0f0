/**
 * The daemon's notifications (docs/ENGINE.md#the-status-page-and-metrics): a converged run announces what it applied; when the
 * emulator stops accepting the credentials, the webhook gets credentials_expired for the account
 * and recipe_suspended for each of its recipes, once; a token about to expire is announced once.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Daemon } from "../../../engine/daemon/daemon.js";
import { DaemonNotifications } from "../../../engine/notify/daemon-events.js";
import type { NotifyEvent } from "../../../engine/notify/events.js";
import { Notifier } from "../../../engine/notify/notifier.js";
import { loadRecipePaths } from "../../../engine/recipe/load.js";
import type { Project } from "../../../engine/recipe/types.js";
import { createLogger } from "../../../engine/run/logger.js";
import { waitUntil, writeRecipes } from "../../support/daemon-harness.js";
import { catalogueSongs, type Harness, startHarness } from "../../support/sync-harness.js";
import { type Receivers, startReceivers } from "../support/notify-receivers.js";

let h: Harness | null = null;
let rx: Receivers | null = null;
let stop: (() => Promise<void>) | null = null;
afterEach(async () => {
  await stop?.();
  await rx?.close();
  await h?.stop();
  h = rx = stop = null;
});

describe("the daemon's notifications", () => {
  it("sends applied, then credentials_expired and recipe_suspended when the credentials expire", async () => {
    h = await startHarness();
    rx = await startReceivers();
    const songs = catalogueSongs(h, 6);
    await writeRecipes(h.dir, [
      { id: "first", cron: "* * * * * *", ids: songs.slice(0, 3) },
      { id: "second", cron: "* * * * * *", ids: songs.slice(3) },
    ]);
    const project: Project = {
      ...h.project,
      notify: [
        {
          type: "webhook",
          name: "hook",
          url: `${rx.url}/hook`,
          headers: {},
          events: ["applied", "recipe_suspended", "credentials_expired", "credentials_expiring"],
        },
      ],
    };
    const logger = createLogger(process.env.MUSICSYNC_TEST_LOG ?? "silent");
    const notifier = new Notifier({ targets: project.notify, logger });
    const expiresAt = Date.now() + 3_600_000;
    const notes = new DaemonNotifications(notifier, {
      project,
      projectFile: h.projectFile,
      logger,
      expiryOf: () => ({ expiresAt, refreshable: false }),
    });
    const daemon = new Daemon({
      envOptions: {
        project,
        projectFile: h.projectFile,
        logger,
        stateFile: h.stateFile,
        pacing: { minIntervalMs: 0, maxPerMinute: 0, baseDelayMs: 50 },
      },
      logger,
      options: { retries: 3, retryDelayMs: 200, lockWaitMs: 100, suspendAfter: 10 },
      load: () => loadRecipePaths([join(h!.dir, "recipes")], { project }),
      onAttempt: notes.onAttempt,
    });
    notes.attach(daemon);
    stop = async () => {
      await daemon.stop("test");
      await notes.close(2_000);
      await daemon.close();
    };
    await daemon.start();
    const events = () => rx!.received.map((r) => JSON.parse(r.body) as NotifyEvent);
    const named = (kind: string) => events().filter((e) => e.event === kind);
    await waitUntil(() => named("applied").length >= 2, "both recipes applied");
    expect(
      named("applied")
        .map((e) => e.recipe)
        .sort(),
    ).toEqual(["first", "second"]);

    // Every signature now looks too old: the service refuses the credentials.
    await fetch(`${h.emulator.url}/_emulator/config`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ auth: { maxHashAgeSeconds: -100_000 } }),
    });
    await waitUntil(
      () => named("credentials_expired").length > 0 && named("recipe_suspended").length >= 2,
      () =>
        `the expiry's notifications (got ${events()
          .map((e) => e.event)
          .join(", ")})`,
    );
    // A few more schedule ticks: the suspended recipes are skipped, and nothing is announced twice.
    const ticks = await daemon.trigger("first");
    expect(ticks.map((t) => t.outcome)).toEqual(["suspended"]);
    await daemon.stop("test");
    await notes.close(2_000);
    stop = () => daemon.close();

    const expired = named("credentials_expired");
    expect(expired).toHaveLength(1);
    expect(expired[0]).toMatchObject({ account: "default", recipe: null });
    expect(expired[0]!.message).toContain("musicsync resume default");
    expect(
      named("recipe_suspended")
        .map((e) => e.recipe)
        .sort(),
    ).toEqual(["first", "second"]);
    // The token about to expire: announced once, though every attempt looks again.
    const expiring = named("credentials_expiring");
    expect(expiring).toHaveLength(1);
    expect(expiring[0]!.details.expiresAt).toBe(new Date(expiresAt).toISOString());
  });
});
