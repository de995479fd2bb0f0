/**
 * A batch the state runs again: on PostgreSQL a transaction cut by a lost connection is rolled back
 * and its work run again from the start (engine/postgres/reconnect.ts). An action's confirmation
 * records the rows its write made the engine's in that batch, so a second run of its work must
 * record them all again.
 */
import { afterEach, expect, it } from "vitest";
import { stateTargetKey } from "../../../engine/plan/owned.js";
import { syncRecipe } from "../../../engine/run/runner.js";
import type { EngineState, Stores } from "../../../engine/state/types.js";
import { recipeYaml } from "../../support/recipe-yaml.js";
import { catalogueSongs, type Harness, recipe, startHarness } from "../../support/sync-harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

class CutOff extends Error {}

/** `state` whose every batch runs its work once in a transaction that is then rolled back, then for real. */
function retryingBatches(state: EngineState): { state: EngineState; cut: () => number } {
  let cut = 0;
  const batch = async <T>(work: (stores: Stores) => Promise<T>): Promise<T> => {
    await state
      .batch(async (stores) => {
        await work(stores);
        cut++;
        throw new CutOff();
      })
      .catch((e: unknown) => {
        if (!(e instanceof CutOff)) throw e;
      });
    return state.batch(work);
  };
  const wrapped = new Proxy(state, {
    get: (target, property, receiver) =>
      property === "batch" ? batch : Reflect.get(target, property, receiver),
  });
  return { state: wrapped, cut: () => cut };
}

it("an action's confirmation run twice (its first transaction rolled back) still owns every row it added", async () => {
  h = await startHarness();
  const env = h.env();
  const retrying = retryingBatches(env.state);
  env.state = retrying.state;
  const songs = catalogueSongs(h, 6);
  // Two write batches of three: two confirmations, each with the rows it added.
  const run = await syncRecipe(recipe(h.project, recipeYaml({ id: "m", ids: songs, title: "Mirror" })), env);
  expect(run.outcome).toBe("converged");
  expect(retrying.cut()).toBeGreaterThan(0);

  const owned = await env.state.ownedPlaylist("default", "m");
  expect(owned).not.toBeNull();
  const target = stateTargetKey(
    { type: "playlist", playlist: { title: "Mirror" } } as never,
    owned!.playlistId,
  );
  const rows = await env.state.ownedRows("default", target);
  expect(rows.map((r) => r.itemKey).sort()).toEqual([...songs].sort());
});
