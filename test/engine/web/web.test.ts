/**
 * The status page (docs/ENGINE.md#the-status-page-and-metrics) over a state made by real syncs on the emulator: what its pages show,
 * and its actions — each behind a confirmation and a CSRF token — changing the emulator's playlists
 * through the same runner, lock and journal as the command line.
 */
import { afterEach, describe, expect, it } from "vitest";
import { html } from "../../../engine/web/html.js";
import { musicsync, writeRecipes } from "../../support/daemon-harness.js";
import {
  catalogueSongs,
  type Harness,
  playlistRows,
  playlistsTitled,
  startHarness,
} from "../../support/sync-harness.js";
import { startWebOn, type WebUnderTest } from "./harness.js";

let h: Harness | null = null;
let w: WebUnderTest | null = null;
afterEach(async () => {
  await w?.web.close();
  await h?.stop();
  h = w = null;
});

function mirror(id: string, title: string, ids: readonly string[], policy = "{ batch_size: 10 }"): string {
  return [
    "apiVersion: musicsync/v1",
    "kind: Recipe",
    `id: ${id}`,
    "sources:",
    `  - { id: list, type: static, videoIds: [${ids.join(", ")}] }`,
    "target:",
    "  type: playlist",
    `  playlist: { title: "${title}", privacy: PRIVATE }`,
    "mode: mirror",
    `policy: ${policy}`,
    "",
  ].join("\n");
}

async function rowsOf(harness: Harness, title: string): Promise<string[]> {
  const [pid] = await playlistsTitled(harness, title);
  return (await playlistRows(harness, pid!)).map((r) => r.videoId);
}

/** Two recipes synced: a mirror of fixed songs and a copy of the person's playlist (songs with titles). */
async function synced() {
  h = await startHarness();
  const songs = catalogueSongs(h, 12);
  const source = await h.person.createPlaylist("Source", "", { videoIds: songs.slice(6, 9) });
  const copy = mirror("evening-copy", "Evening Copy", []).replace(
    "{ id: list, type: static, videoIds: [] }",
    `{ id: src, type: playlist, playlistId: ${String(source)} }`,
  );
  await writeRecipes(h.dir, {
    "mix.yaml": mirror("morning-mix", "Morning Mix", songs.slice(0, 4)),
    "copy.yaml": copy,
  });
  expect((await musicsync(["sync", "-p", h.projectFile])).code).toBe(0);
  w = await startWebOn(h.dir, h.project, h.projectFile, h.env());
  return { harness: h, web: w, songs };
}

describe("the status page's pages", () => {
  it("index lists recipes with conditions; a run's page names songs by title; an account's page its state", async () => {
    const { web, harness } = await synced();
    const index = await web.get("/");
    expect(index.status).toBe(200);
    expect(index.text).toContain("morning-mix");
    expect(index.text).toContain("Morning Mix");
    expect(index.text).toContain('<meta name="viewport"');
    expect(index.text).toMatch(/<main[^>]*>/);
    expect(index.text).toContain("AuthValid");
    expect(index.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(index.text).toContain("Evening Copy");
    const copySection = index.text.slice(index.text.indexOf('id="recipe-evening-copy"'));
    const runId = Number(/href="\/runs\/(\d+)"/.exec(copySection)?.[1]);
    const run = await web.get(`/runs/${runId}`);
    expect(run.status).toBe(200);
    expect(run.text).toContain("create playlist");
    // The songs by the titles the source read, not only by id.
    const tracks = (
      await harness.person.getPlaylist((await playlistsTitled(harness, "Evening Copy"))[0]!, { limit: null })
    ).tracks;
    expect(tracks.length).toBe(3);
    for (const t of tracks) expect(run.text).toContain(html`${t.title}`.text);
    const account = await web.get("/accounts/default");
    expect(account.status).toBe(200);
    expect(account.text).toContain("browser headers");
    expect(account.text).toMatch(/class="good">valid</);
    for (const value of Object.values(harness.headers).filter((v) => v.length > 12))
      expect(account.text).not.toContain(value);
  });

  it("answers unknown paths 404, malformed ones 400, never with a stack; healthz and readyz", async () => {
    const { web } = await synced();
    expect((await web.get("/nowhere")).status).toBe(404);
    expect((await web.get("/runs/999999")).status).toBe(404);
    expect((await web.get("/accounts/nobody")).status).toBe(404);
    const bad = await web.get("/runs/abc");
    expect(bad.status).toBe(400);
    const malformed = await web.get("/accounts/%E0%A4%A");
    expect(malformed.status).toBe(400);
    expect(malformed.text).not.toMatch(/at .*\.ts:\d+/);
    const notForm = await web.get("/actions/plan/morning-mix", {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json", origin: web.web.url },
    });
    expect(notForm.status).toBe(400);
    expect((await web.get("/", { method: "DELETE" })).status).toBe(405);
    expect((await web.get("/healthz")).text).toBe("ok\n");
    expect((await web.get("/readyz")).status).toBe(200);
    const metrics = await web.get("/metrics");
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain("# HELP musicsync_");
  });
});

describe("the status page's actions", () => {
  it("run now needs the form's CSRF token (403 without) and then syncs the recipe on the emulator", async () => {
    const { web, harness, songs } = await synced();
    await writeRecipes(harness.dir, { "mix.yaml": mirror("morning-mix", "Morning Mix", songs.slice(0, 6)) });
    await web.reload();
    const post = (csrf?: string) =>
      web.get("/actions/run/morning-mix", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: web.web.url },
        body: csrf === undefined ? "" : `csrf=${csrf}`,
      });
    expect((await post()).status).toBe(403);
    expect((await post("forged")).status).toBe(403);
    expect(await rowsOf(harness, "Morning Mix")).toEqual(songs.slice(0, 4));
    const confirm = await web.get("/actions/run/morning-mix");
    expect(confirm.text).toContain('<form method="post"');
    const done = await web.act("run", "morning-mix");
    expect(done.status).toBe(200);
    expect(done.text).toContain("converged");
    expect(await rowsOf(harness, "Morning Mix")).toEqual(songs.slice(0, 6));

    // Undo takes that run back.
    const runId = Number(/href="\/runs\/(\d+)"/.exec(done.text)?.[1]);
    const runPage = await web.get(`/runs/${runId}`);
    expect(runPage.text).toContain(`/actions/undo/${runId}`);
    const undone = await web.act("undo", runId);
    expect(undone.status).toBe(200);
    expect(await rowsOf(harness, "Morning Mix")).toEqual(songs.slice(0, 4));
  });

  it("undo answers 409 with the reason when the service will not be read, writes nothing, and can be tried again", async () => {
    const { web, harness, songs } = await synced();
    await writeRecipes(harness.dir, { "mix.yaml": mirror("morning-mix", "Morning Mix", songs.slice(0, 6)) });
    await web.reload();
    const done = await web.act("run", "morning-mix");
    expect(done.status).toBe(200);
    const runId = Number(/href="\/runs\/(\d+)"/.exec(done.text)?.[1]);
    const runs = (await web.host.env.state.runs("morning-mix", 50)).length;
    const writes = await harness.writes();
    // The undo's read of the playlist throttled with a 400, which the client does not retry.
    await harness.faults({ queue: [{ kind: "throttled", endpoint: "browse", retryAfter: 0 }] });
    const failed = await web.act("undo", runId);
    expect(failed.status).toBe(409);
    expect(failed.text).toContain("Not undone:");
    expect(failed.text).toContain("Quota exceeded");
    expect(failed.text).toContain("Nothing was written.");
    expect(await harness.writes()).toBe(writes);
    expect((await web.host.env.state.runs("morning-mix", 50)).length).toBe(runs);
    expect(await rowsOf(harness, "Morning Mix")).toEqual(songs.slice(0, 6));
    // Once the service answers, the same undo is made.
    const undone = await web.act("undo", runId);
    expect(undone.status).toBe(200);
    expect(await rowsOf(harness, "Morning Mix")).toEqual(songs.slice(0, 4));
  });

  it("plan shows the plan and writes nothing; resume lifts a suspension", async () => {
    const { web, harness, songs } = await synced();
    await writeRecipes(harness.dir, { "mix.yaml": mirror("morning-mix", "Morning Mix", songs.slice(0, 5)) });
    await web.reload();
    const writes = await harness.writes();
    const plan = await web.act("plan", "morning-mix");
    expect(plan.status).toBe(200);
    expect(plan.text).toMatch(/Plan: 1 to add/);
    expect(await harness.writes()).toBe(writes);

    const state = web.host.env.state;
    await state.recordRecipeFailure("morning-mix", "default", Date.now(), "broken", { suspendAfter: 1 });
    expect((await state.recipeHealth("morning-mix")).suspendedAt).not.toBeNull();
    expect((await web.get("/")).text).toContain("/actions/resume/morning-mix");
    const resumed = await web.act("resume", "morning-mix");
    expect(resumed.text).toContain("Recipe morning-mix resumed.");
    expect((await state.recipeHealth("morning-mix")).suspendedAt).toBeNull();
  });

  it("approve applies a plan held for approval", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 30);
    const held = (ids: readonly string[]) =>
      mirror("held", "Held", ids, "{ batch_size: 10, require_approval: { removals: 20 } }");
    await writeRecipes(h.dir, { "held.yaml": held(songs) });
    expect((await musicsync(["sync", "-p", h.projectFile])).code).toBe(0);
    await writeRecipes(h.dir, { "held.yaml": held(songs.slice(0, 5)) });
    expect((await musicsync(["sync", "-p", h.projectFile])).code).toBe(5);
    w = await startWebOn(h.dir, h.project, h.projectFile, h.env());
    const index = await w.get("/");
    const runId = /\/actions\/approve\/(\d+)/.exec(index.text)?.[1];
    expect(runId).toBeDefined();
    expect(await rowsOf(h, "Held")).toEqual(songs);
    const approved = await w.act("approve", runId!);
    expect(approved.status).toBe(200);
    expect(await rowsOf(h, "Held")).toEqual(songs.slice(0, 5));
    // Decided once: a second approval is refused with a page, not applied again.
    expect((await w.act("approve", runId!)).status).toBe(409);
  });

  it("limits actions per kind: 429 beyond", async () => {
    h = await startHarness();
    await writeRecipes(h.dir, { "mix.yaml": mirror("morning-mix", "Morning Mix", catalogueSongs(h, 2)) });
    w = await startWebOn(h.dir, h.project, h.projectFile, h.env(), { actionsPerMinute: 2 });
    expect((await w.act("plan", "morning-mix")).status).toBe(200);
    expect((await w.act("plan", "morning-mix")).status).toBe(200);
    const third = await w.get("/actions/plan/morning-mix").then(async (page) => {
      const csrf = /value="([^"]+)"/.exec(page.text)?.[1] ?? "";
      return fetch(`${w!.web.url}/actions/plan/morning-mix`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: w!.web.url },
        body: `csrf=${csrf}`,
      });
    });
    expect(third.status).toBe(429);
    expect(third.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
