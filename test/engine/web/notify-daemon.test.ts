/**
 * The status page and notifications end to end: a person starts the compiled daemon with --http, opens the page, sees the
 * recipe's state, runs it from the page, and gets a notification when the credentials expire (here
 * the emulator stops accepting the cookie's signatures). The notification carries no credential.
 */
import { appendFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { ensureBuilt } from "../../support/cli-process.js";
import { type ChildDaemon, spawnDaemon, waitUntil, writeRecipes } from "../../support/daemon-harness.js";
import { catalogueSongs, type Harness, playlistsTitled, startHarness } from "../../support/sync-harness.js";
import { type Receivers, startReceivers } from "../support/notify-receivers.js";

let h: Harness | null = null;
let d: ChildDaemon | null = null;
let rx: Receivers | null = null;
afterEach(async () => {
  if (d && d.child.exitCode === null) d.child.kill("SIGKILL");
  await h?.stop();
  await rx?.close();
  h = d = rx = null;
});

/** Follows the page's "run now" for a recipe: the confirmation page, then its form. */
async function runFromPage(url: string, recipe: string): Promise<Response> {
  const confirm = await (await fetch(`${url}/actions/run/${recipe}`)).text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(confirm)?.[1] ?? "";
  return fetch(`${url}/actions/run/${recipe}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: url },
    body: `csrf=${encodeURIComponent(csrf)}`,
  });
}

describe("the daemon's page and its notifications", () => {
  it("runs a recipe from the page, then notifies when the credentials expire", async () => {
    await ensureBuilt();
    h = await startHarness();
    rx = await startReceivers();
    await appendFile(
      h.projectFile,
      [
        "notify:",
        `  - { type: webhook, name: home, url: "${rx.url}/hook", events: [applied, credentials_expired, recipe_suspended] }`,
        "",
      ].join("\n"),
    );
    await writeRecipes(h.dir, [
      { id: "nightly", ids: catalogueSongs(h, 4), cron: "0 3 * * *", title: "Nightly" },
    ]);
    d = spawnDaemon(h.projectFile, ["--http", "127.0.0.1:0"]);
    const url = String((await d.waitForLog((l) => l.msg === "status page listening", "the page")).url);
    await waitUntil(async () => (await fetch(`${url}/readyz`)).status === 200 || undefined, "ready");
    expect(await (await fetch(`${url}/`)).text()).toContain("nightly");

    const events = () => rx!.received.map((r) => JSON.parse(r.body) as { event: string; account?: string });
    const named = (kind: string) => events().filter((e) => e.event === kind);
    expect((await runFromPage(url, "nightly")).status).toBe(202);
    await waitUntil(() => named("applied").length > 0 || undefined, "the applied notification");
    expect(await playlistsTitled(h, "Nightly")).toHaveLength(1);

    // Every signature now looks too old: the service refuses the cookie.
    await fetch(`${h.emulator.url}/_emulator/config`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ auth: { maxHashAgeSeconds: -100_000 } }),
    });
    expect((await runFromPage(url, "nightly")).status).toBe(202);
    await waitUntil(
      () => named("credentials_expired").length > 0 || undefined,
      () =>
        `credentials_expired (got ${events()
          .map((e) => e.event)
          .join(", ")})`,
      60_000,
    );
    expect(named("credentials_expired")[0]).toMatchObject({ account: "default" });
    // The page shows the suspension too.
    expect(await (await fetch(`${url}/`)).text()).toMatch(/suspended/i);
    // Nothing the receiver got carries a piece of the cookie.
    const cookie = String(h.headers.cookie ?? h.headers.Cookie ?? "");
    const sapisid = /SAPISID=([^;]+)/.exec(cookie)?.[1] ?? "";
    expect(sapisid.length).toBeGreaterThan(8);
    for (const r of rx.received) {
      expect(r.body).not.toContain(sapisid.slice(0, 8));
      expect(JSON.stringify(r.headers)).not.toContain(sapisid.slice(0, 8));
    }
    d.child.kill("SIGTERM");
    expect((await d.exited).code).toBe(0);
  }, 180_000);
});
