/**
 * `overflow: split` and `overflow: rotate` against the emulator: a 10,500-item list continues into
 * "Big (2)" and "Big (3)", each with its part's marker, in order; a second sync has nothing to do;
 * a shorter list empties the last part (kept, not deleted). A rotating append playlist at the cap
 * drops its oldest rows for the new ones.
 */
import { afterAll, describe, expect, it } from "vitest";
import { ownershipMarker, partId } from "../../../engine/plan/ownership.js";
import { renderPlanText } from "../../../engine/render/text.js";
import { planRecipe, type RecipeRun, syncRecipe } from "../../../engine/run/runner.js";
import { collectStatus } from "../../../engine/status/status.js";
import { stretched } from "../../support/load.js";
import {
  catalogueSongs,
  type Harness,
  recipe,
  startHarness,
  storedVideoIds,
} from "../../support/sync-harness.js";

let h: Harness | null = null;
afterAll(async () => {
  await h?.stop();
});

const listRecipe = (
  id: string,
  ids: readonly string[],
  mode: string,
  overflow: string,
) => `apiVersion: musicsync/v1
kind: Recipe
id: ${id}
sources:
  - { id: list, type: static, videoIds: [${ids.join(", ")}] }
target:
  type: playlist
  playlist: { title: "${id === "big" ? "Big" : "Rolling"}", privacy: PRIVATE }
mode: ${mode}
policy: { batch_size: 500, max_removals: 2000, overflow: ${overflow} }
`;

const all = (r: RecipeRun) => [r, ...(r.parts ?? [])];

describe("overflow: split and rotate on the emulator", () => {
  it(
    "splits 10,500 items into three owned playlists in order, then keeps and empties them",
    async () => {
      h = await startHarness({ catalogueSize: 11_000 });
      const env = h.env();
      const songs = catalogueSongs(h, 10_500);
      const first = await syncRecipe(recipe(h.project, listRecipe("big", songs, "mirror", "split")), env);
      const runs = all(first);
      expect(runs.map((r) => [r.recipeId, r.outcome])).toEqual([
        ["big", "converged"],
        ["big.2", "converged"],
        ["big.3", "converged"],
      ]);
      const ids = runs.map((r) => r.apply!.playlistId!);
      // The header is on the first page: the rows are read once, below.
      for (const [k, id] of ids.entries()) {
        const p = await h.person.getPlaylist(id, { limit: 1 });
        expect(p.title).toBe(k === 0 ? "Big" : `Big (${k + 1})`);
        expect(p.description).toContain(ownershipMarker(partId("big", k + 1)));
      }
      // Read from the emulator's store: through the client, 10,500 rows cost seconds of CPU.
      const held = ids.map((id) => storedVideoIds(h!, id));
      expect(held.map((r) => r.length)).toEqual([5000, 5000, 500]);
      expect(held.flat()).toEqual(songs);

      const again = await planRecipe(recipe(h.project, listRecipe("big", songs, "mirror", "split")), env);
      expect([again, ...(again.parts ?? [])].map((p) => p.plan.actions)).toEqual([[], [], []]);

      // The list loses its last 1,500: part 2 gives up 1,000 rows, part 3 is emptied but kept.
      const shorter = recipe(h.project, listRecipe("big", songs.slice(0, 9000), "mirror", "split"));
      const shrink = all(await syncRecipe(shorter, env));
      expect(shrink.map((r) => r.outcome)).toEqual(["no_changes", "converged", "converged"]);
      expect(shrink.map((r) => r.plan!.summary.remove)).toEqual([0, 1000, 500]);
      expect(renderPlanText(shrink[2]!.plan!)).toContain(
        'part 3 of 3: "Big (3)" — no item of the list reaches it',
      );
      expect(storedVideoIds(h, ids[2]!)).toEqual([]);
      // Each part is a recipe run of its own for status (and drift, undo, history).
      const status = await collectStatus(env.state, [shorter], Date.now());
      expect(status.recipes.map((r) => r.recipe)).toEqual(["big", "big.2", "big.3"]);
      expect(storedVideoIds(h, ids[1]!)).toEqual(songs.slice(5000, 9000));
      await env.close();
    },
    stretched(120_000),
  );

  it("a rotating append playlist at the cap drops its oldest rows for new ones", async () => {
    const env = h!.env();
    const songs = catalogueSongs(h!, 5003);
    const full = await syncRecipe(
      recipe(h!.project, listRecipe("rolling", songs.slice(0, 5000), "append", "rotate")),
      env,
    );
    expect(full.outcome).toBe("converged");
    const next = await syncRecipe(
      recipe(h!.project, listRecipe("rolling", songs.slice(3), "append", "rotate")),
      env,
    );
    expect(next.outcome, next.error ?? "").toBe("converged");
    expect(next.plan!.summary).toMatchObject({ add: 3, remove: 3 });
    expect(next.plan!.guards.map((g) => g.guard)).toEqual(["overflow"]);
    expect(storedVideoIds(h!, next.apply!.playlistId!)).toEqual(songs.slice(3));
    // The rotated-out rows are tombstoned: a list that still names them does not bring them back.
    const replan = await planRecipe(
      recipe(h!.project, listRecipe("rolling", songs, "append", "rotate")),
      env,
    );
    expect(replan.plan.actions).toEqual([]);
    await env.close();
  });
});
