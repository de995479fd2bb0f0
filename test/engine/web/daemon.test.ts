/**
 * The real, compiled `musicsync daemon --http`: the page comes up with the daemon, /readyz says
 * ready once the schedules are loaded, "run now" from the page syncs through the daemon's own
 * environment, and SIGTERM stops the page with the daemon.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ensureBuilt } from "../../support/cli-process.js";
import { type ChildDaemon, spawnDaemon, waitUntil, writeRecipes } from "../../support/daemon-harness.js";
import {
  catalogueSongs,
  type Harness,
  playlistRows,
  playlistsTitled,
  startHarness,
} from "../../support/sync-harness.js";

let h: Harness | null = null;
let d: ChildDaemon | null = null;
afterEach(async () => {
  if (d && d.child.exitCode === null) d.child.kill("SIGKILL");
  await h?.stop();
  h = d = null;
});

describe("musicsync daemon --http", () => {
  it("serves the page while it schedules; run now syncs; SIGTERM stops both", async () => {
    await ensureBuilt();
    h = await startHarness();
    const songs = catalogueSongs(h, 3);
    await writeRecipes(h.dir, [{ id: "nightly", ids: songs, cron: "0 3 * * *", title: "Nightly" }]);
    d = spawnDaemon(h.projectFile, ["--http", "127.0.0.1:0"]);
    const line = await d.waitForLog((l) => l.msg === "status page listening", "the page's start");
    const url = String(line.url);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await waitUntil(
      async () => (await fetch(`${url}/readyz`)).status === 200 || undefined,
      () => "readyz never 200",
    );
    expect(await (await fetch(`${url}/`)).text()).toContain("nightly");
    const confirm = await (await fetch(`${url}/actions/run/nightly`)).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(confirm)?.[1] ?? "";
    const done = await fetch(`${url}/actions/run/nightly`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: url },
      body: `csrf=${csrf}`,
    });
    // The daemon queues it as its own manual run and the page answers at once.
    expect(done.status).toBe(202);
    expect(await done.text()).toContain("queued");
    await waitUntil(
      async () => (await playlistsTitled(h!, "Nightly")).length > 0 || undefined,
      () => "the queued run never made the playlist",
    );
    const [pid] = await playlistsTitled(h, "Nightly");
    await waitUntil(
      async () => (await playlistRows(h!, pid!)).length === songs.length || undefined,
      () => "the queued run never filled the playlist",
    );
    expect((await playlistRows(h, pid!)).map((r) => r.videoId)).toEqual(songs);
    // The compiled command carries the metrics module: the page's run shows in its counts.
    const metrics = await fetch(`${url}/metrics`);
    expect(metrics.status).toBe(200);
    const body = await metrics.text();
    expect(body).toContain("# TYPE musicsync_runs_total counter");
    expect(body).toMatch(/musicsync_requests_total\{account="default",kind="write"\} [1-9]/);
    d.child.kill("SIGTERM");
    expect((await d.exited).code).toBe(0);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  }, 180_000);
});
