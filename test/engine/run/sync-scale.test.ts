/**
 * A 5,000-item mirror with 10 % churn: the requests a sync sends equal its plan's, and the figures
 * (requests sent, the fewest the service would need) are printed for the report.
 */
import { afterAll, describe, expect, it } from "vitest";
import { planRecipe, syncRecipe } from "../../../engine/run/runner.js";
import {
  catalogueSongs,
  type Harness,
  bigMirror as mirror,
  playlistRows,
  recipe,
  startHarness,
} from "../../support/sync-harness.js";

let h: Harness | null = null;
afterAll(async () => {
  await h?.stop();
});

describe("a 5,000-item mirror", () => {
  it("follows 10 % churn with exactly the planned requests", async () => {
    h = await startHarness({ catalogueSize: 6000 });
    const env = h.env();
    const songs = catalogueSongs(h, 5500);
    const first = songs.slice(0, 5000);
    const t0 = performance.now();
    const r1 = await syncRecipe(recipe(h.project, mirror(first)), env);
    expect(r1.outcome).toBe("converged");
    expect(r1.plan!.summary.requests).toBe(50);

    // 10 % churn: every tenth item is replaced, in place, by a song not in the playlist.
    const next = first.map((id, i) => (i % 10 === 3 ? songs[5000 + Math.floor(i / 10)]! : id));
    const loaded = recipe(h.project, mirror(next));
    const before = await h.writes();
    const t1 = performance.now();
    const r2 = await syncRecipe(loaded, env);
    const t2 = performance.now();
    expect(r2.outcome, r2.error ?? "").toBe("converged");
    const sent = (await h.writes()) - before;
    const s = r2.plan!.summary;
    expect(s).toMatchObject({ add: 500, remove: 500 });
    expect(sent).toBe(s.requests);
    // The fewest requests: batches of 100 removes, 100 adds and 100 moves (editPlaylist's moveItems).
    const minimum = Math.ceil(s.remove / 100) + Math.ceil(s.add / 100) + Math.ceil(s.move / 100);
    expect(sent).toBe(minimum);
    console.log(
      `5,000-item mirror, 10 % churn: ${s.remove} removes, ${s.add} adds, ${s.move} moves; ` +
        `${sent} write requests sent (planned ${s.requests}); minimum possible ${minimum} ` +
        `(${Math.ceil(s.remove / 100) + Math.ceil(s.add / 100)} without moves); ` +
        `first sync ${Math.round(t1 - t0)} ms, churn sync ${Math.round(t2 - t1)} ms`,
    );
    expect((await playlistRows(h, r2.apply!.playlistId!)).map((r) => r.videoId)).toEqual(next);
    expect((await planRecipe(loaded, env)).plan.actions).toEqual([]);
  }, 180_000);
});
