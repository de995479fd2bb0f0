/**
 * `sync` against the emulator: the shipped recipes converge, planning writes nothing, a sync sends
 * exactly the planned requests, faults do not stop convergence, guards keep targets from emptying.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  findSubstitutes,
  fitRecipe,
  readsOtherServices,
  shippedRecipesFolder,
} from "../../../engine/demo/demo.js";
import { loadRecipePaths } from "../../../engine/recipe/load.js";
import { planRecipe, syncRecipe } from "../../../engine/run/runner.js";
import {
  catalogueSongs,
  type Harness,
  mirrorOfPlaylist,
  playlistRows,
  playlistsTitled,
  recipe,
  startHarness,
} from "../../support/sync-harness.js";

let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

function staticRecipe(id: string, title: string, ids: readonly string[], extra = ""): string {
  return `apiVersion: musicsync/v1
kind: Recipe
id: ${id}
sources:
  - { id: list, type: static, videoIds: [${ids.join(", ")}] }
target:
  type: playlist
  playlist: { title: "${title}", privacy: PRIVATE }
${extra}`;
}

describe("the shipped recipes against the emulator", () => {
  it("each converges: a second plan has no changes, and a sync sends exactly its planned requests", async () => {
    h = await startHarness({ catalogueSize: 400 });
    const env = h.env();
    const loaded = await loadRecipePaths([shippedRecipesFolder()], { project: h.project });
    expect(loaded.issues).toEqual([]);
    // The other services' recipes need their stand-ins' settings: the demo's test and
    // test/engine/sources/service-sources-run.test.ts run those.
    const own = loaded.recipes.filter((r) => !readsOtherServices(r.recipe));
    expect(own).toHaveLength(5);
    const subs = await findSubstitutes(env.clientFor("default"));
    for (const r of own) {
      const fitted = fitRecipe(r, subs).loaded;
      // plan and dry-run write nothing
      const before = await h.writes();
      const { plan: first } = await planRecipe(fitted, env);
      const dry = await syncRecipe(fitted, env, { dryRun: true });
      expect(await h.writes(), `${r.recipe.id}: plan and dry-run write nothing`).toBe(before);
      expect(dry.plan?.actions).toEqual(first.actions);

      const run = await syncRecipe(fitted, env);
      expect(run.outcome, `${r.recipe.id}: ${run.error}`).toMatch(/^(converged|no_changes)$/);
      expect(await h.writes(), `${r.recipe.id}: writes = planned requests`).toBe(
        before + run.plan!.summary.requests,
      );
      expect(run.plan!.summary.requests).toBe(run.plan!.actions.length);
      const again = await planRecipe(fitted, env);
      expect(again.plan.actions, `${r.recipe.id} converges`).toEqual([]);
    }
    // Recipes that create playlists made exactly one each.
    expect(await playlistsTitled(h, "US Daily Top 100")).toHaveLength(1);
    expect(await playlistsTitled(h, "Artist mix")).toHaveLength(1);
  });
});

describe("sync", () => {
  it("mirrors, then follows a changed source with removes, adds and moves in the fewest requests", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 40);
    const first = recipe(
      h.project,
      staticRecipe("mix", "Mix", songs.slice(0, 30), "mode: mirror\npolicy: { batch_size: 10 }"),
    );
    const r1 = await syncRecipe(first, env);
    expect(r1.outcome).toBe("converged");
    expect(r1.plan!.summary.requests).toBe(3); // create with 10, then two adds of 10
    const pid = r1.apply!.playlistId!;
    expect((await playlistRows(h, pid)).map((r) => r.videoId)).toEqual(songs.slice(0, 30));

    // New order: drop 5, add 5 new in the middle, swap two.
    const next = [...songs.slice(5, 15), ...songs.slice(30, 35), ...songs.slice(15, 30)];
    [next[0], next[1]] = [next[1]!, next[0]!];
    const second = recipe(
      h.project,
      staticRecipe("mix", "Mix", next, "mode: mirror\npolicy: { batch_size: 10 }"),
    );
    const before = await h.writes();
    const r2 = await syncRecipe(second, env);
    expect(r2.outcome).toBe("converged");
    expect(r2.plan!.summary).toMatchObject({ add: 5, remove: 5 });
    expect(await h.writes()).toBe(before + r2.plan!.summary.requests);
    expect((await playlistRows(h, pid)).map((r) => r.videoId)).toEqual(next);
    expect((await planRecipe(second, env)).plan.actions).toEqual([]);
  });

  it("in sync mode keeps rows the person added and removes only its own", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 30);
    const r1 = await syncRecipe(
      recipe(h.project, staticRecipe("s", "S", songs.slice(0, 10), "mode: sync")),
      env,
    );
    const pid = r1.apply!.playlistId!;
    await h.person.addPlaylistItems(pid, [songs[20]!, songs[21]!]);
    const r2 = await syncRecipe(
      recipe(h.project, staticRecipe("s", "S", songs.slice(2, 12), "mode: sync")),
      env,
    );
    expect(r2.outcome).toBe("converged");
    const ids = (await playlistRows(h, pid)).map((r) => r.videoId);
    expect(ids).toEqual(expect.arrayContaining([songs[20], songs[21], ...songs.slice(2, 12)]));
    expect(ids).not.toContain(songs[0]);
    expect(ids).toHaveLength(12);
  });

  it("converges under 20 % injected 429/503 answers with Retry-After", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 60);
    await h.faults({ config: { rate: 0.2, seed: 7, kinds: ["rate-limit", "unavailable"], retryAfter: 1 } });
    const loaded = recipe(
      h.project,
      staticRecipe("f", "Faulty", songs.slice(0, 40), "mode: mirror\npolicy: { batch_size: 5 }"),
    );
    const run = await syncRecipe(loaded, env);
    expect(run.outcome, run.error ?? "").toBe("converged");
    // Throttled attempts were retried by the engine: more requests than planned reached the emulator.
    expect(run.apply!.requests).toBeGreaterThan(run.plan!.summary.requests);
    await h.faults({ config: null });
    const again = await planRecipe(loaded, env);
    expect(again.plan.actions).toEqual([]);
    const rows = await playlistRows(h, run.apply!.playlistId!);
    expect(rows.map((r) => r.videoId)).toEqual(songs.slice(0, 40));
  });
});

describe("guards", () => {
  it("a source that comes back empty never empties the target", async () => {
    h = await startHarness();
    const env = h.env();
    const library = await h.person.getLibraryPlaylists({ limit: null });
    const source = library.find((p) => p.title === "Morning Coffee")!.playlistId!;
    const loaded = recipe(h.project, mirrorOfPlaylist(source));
    const r1 = await syncRecipe(loaded, env);
    expect(r1.outcome).toBe("converged");
    const copy = r1.apply!.playlistId!;
    const filled = await playlistRows(h, copy);
    expect(filled.length).toBeGreaterThan(10);
    // The person empties the source playlist.
    const rows = (await h.person.getPlaylist(source, { limit: null })).tracks;
    await h.person.removePlaylistItems(
      source,
      rows.map((t) => ({ videoId: t.videoId!, setVideoId: t.setVideoId! })),
    );
    const before = await h.writes();
    const r2 = await syncRecipe(loaded, env);
    expect(r2.plan!.guards.map((g) => g.guard)).toContain("empty_desired");
    expect(await h.writes()).toBe(before);
    expect(await playlistRows(h, copy)).toEqual(filled);
  });
});
