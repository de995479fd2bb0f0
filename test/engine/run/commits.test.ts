/**
 * What a run commits to a SQLite state, counted under better-sqlite3 (test/support/sqlite-commits.ts):
 * a run that changes nothing waits for the disk once, for its end; a converging run once per write
 * before it leaves (the journal's promise) and once when it is confirmed with the rows it made
 * the engine's, plus its end — never once per row of bookkeeping.
 */
import { afterEach, describe, expect, it } from "vitest";
import { syncRecipe } from "../../../engine/run/runner.js";
import { countCommits } from "../../support/sqlite-commits.js";
import { catalogueSongs, type Harness, recipe, startHarness } from "../../support/sync-harness.js";

const counter = countCommits();
let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

function staticMirror(ids: readonly string[]): string {
  return [
    "apiVersion: musicsync/v1",
    "kind: Recipe",
    "id: m",
    "sources:",
    `  - { id: list, type: static, videoIds: [${ids.join(", ")}] }`,
    "target:",
    "  type: playlist",
    '  playlist: { title: "Mirror", privacy: PRIVATE }',
    "mode: mirror",
    "",
  ].join("\n");
}

describe("a run's commits", () => {
  it("waits for the disk once when nothing changed, and once per write batch and its confirmation when it converges", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 16);
    expect((await syncRecipe(recipe(h.project, staticMirror(songs.slice(0, 15))), env)).outcome).toBe(
      "converged",
    );

    counter.reset();
    const quiet = await syncRecipe(recipe(h.project, staticMirror(songs.slice(0, 15))), env);
    expect(quiet.outcome).toBe("no_changes");
    expect(counter.read().durable).toBe(1);

    counter.reset();
    const grown = await syncRecipe(recipe(h.project, staticMirror(songs)), env);
    expect(grown.outcome).toBe("converged");
    expect(grown.apply?.outcomes.map((o) => o.status)).toEqual(["confirmed"]);
    // The planned journal with its first write marked sent and the run's before-record, the write's
    // confirmation with the row owned, the run's end.
    expect(counter.read().durable).toBe(3);
  });
});
