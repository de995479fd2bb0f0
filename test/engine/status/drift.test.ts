/**
 * `musicsync drift` against the emulator: each kind of change a person makes outside the engine
 * (rows added, removed or moved, title and privacy changed, the playlist deleted, a like taken back)
 * is reported against the snapshot of the last apply, with exit 2; none, or no apply yet, exit 0.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadRecipePaths } from "../../../engine/recipe/load.js";
import { syncRecipe } from "../../../engine/run/runner.js";
import type { DriftChange, DriftReport } from "../../../engine/status/drift.js";
import { musicsync, writeRecipes } from "../../support/daemon-harness.js";
import {
  catalogueSongs,
  type Harness,
  playlistRows,
  playlistsTitled,
  startHarness,
} from "../../support/sync-harness.js";

let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

async function drift(
  harness: Harness,
  id: string,
): Promise<{ code: number; report: DriftReport; text: string }> {
  const json = await musicsync(["drift", "-r", id, "--json", "-p", harness.projectFile]);
  const text = await musicsync(["drift", "-r", id, "-p", harness.projectFile]);
  expect(text.code).toBe(json.code);
  return {
    code: json.code,
    report: (JSON.parse(json.stdout) as { recipes: DriftReport[] }).recipes[0]!,
    text: text.stdout,
  };
}

async function sync(harness: Harness, id: string) {
  const { recipes } = await loadRecipePaths([join(harness.dir, "recipes")], { project: harness.project });
  const env = harness.env({ stateFile: harness.stateFile });
  const run = await syncRecipe(recipes.find((r) => r.recipe.id === id)!, env);
  expect(run.outcome, run.error ?? "").toMatch(/^(converged|no_changes)$/);
  await env.close();
}

const kinds = (changes: readonly DriftChange[]) => changes.map((c) => c.kind).sort();

describe("musicsync drift", () => {
  it("reports rows added, removed and moved, title and privacy changed, then a deleted playlist", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 10);
    await writeRecipes(h.dir, [{ id: "watched", ids: songs.slice(0, 6), title: "Watched" }]);

    const never = await drift(h, "watched");
    expect(never.code).toBe(0);
    expect(never.report.baseline).toBeNull();
    expect(never.text).toMatch(/^watched "Watched": never applied/m);

    await sync(h, "watched");
    const clean = await drift(h, "watched");
    expect(clean.code).toBe(0);
    expect(clean.report).toMatchObject({ drifted: false, changes: [] });
    expect(clean.text).toMatch(/No drift\./);

    // The person edits the playlist by hand.
    const [pid] = await playlistsTitled(h, "Watched");
    const rows = await playlistRows(h, pid!);
    await h.person.addPlaylistItems(pid!, [songs[8]!, songs[9]!]);
    await h.person.removePlaylistItems(pid!, [rows[2]!]);
    await h.person.editPlaylist(pid!, { title: "Renamed by hand", privacyStatus: "PUBLIC" });
    await h.person.editPlaylist(pid!, { moveItem: [rows[5]!.setVideoId, rows[0]!.setVideoId] });

    const changed = await drift(h, "watched");
    expect(changed.code).toBe(2);
    expect(kinds(changed.report.changes)).toEqual([
      "order_changed",
      "privacy_changed",
      "rows_added",
      "rows_removed",
      "title_changed",
    ]);
    const by = <K extends DriftChange["kind"]>(k: K) =>
      changed.report.changes.find((c) => c.kind === k) as Extract<DriftChange, { kind: K }>;
    expect(by("rows_added").rows.map((r) => r.key)).toEqual([songs[8], songs[9]]);
    expect(by("rows_added").rows.every((r) => r.title !== null)).toBe(true);
    expect(by("rows_removed").rows.map((r) => r.key)).toEqual([rows[2]!.videoId]);
    expect(by("title_changed")).toEqual({ kind: "title_changed", from: "Watched", to: "Renamed by hand" });
    expect(by("privacy_changed")).toEqual({ kind: "privacy_changed", from: "PRIVATE", to: "PUBLIC" });
    expect(changed.text).toContain('~ title changed: "Watched" → "Renamed by hand"');
    expect(changed.text).toContain("~ privacy changed: PRIVATE → PUBLIC");
    expect(changed.text).toMatch(/\+ 2 rows added outside the engine: /);
    expect(changed.text).toMatch(new RegExp(`- 1 row removed outside the engine: ${rows[2]!.videoId}`));
    expect(changed.text).toContain("~ rows reordered outside the engine");
    expect(changed.text).toMatch(/Drift in 1 recipe\./);

    // An apply puts it back (mirror) and is the new baseline.
    await sync(h, "watched");
    expect((await drift(h, "watched")).code).toBe(0);

    await h.person.deletePlaylist(pid!);
    const deleted = await drift(h, "watched");
    expect(deleted.code).toBe(2);
    expect(deleted.report.changes).toEqual([{ kind: "playlist_deleted", playlistId: pid }]);
    expect(deleted.text).toContain(`! playlist ${pid} was deleted`);
  });

  it("reports a like the person took back on a likes target", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 3);
    await writeRecipes(h.dir, {
      "likes.yaml": [
        "apiVersion: musicsync/v1",
        "kind: Recipe",
        "id: liker",
        "sources:",
        `  - { id: list, type: static, videoIds: [${songs.join(", ")}] }`,
        "target: { type: likes, rating: LIKE }",
        "mode: sync",
        "",
      ].join("\n"),
    });
    await sync(h, "liker");
    expect((await drift(h, "liker")).code).toBe(0);
    await h.person.rateSong(songs[1]!, "INDIFFERENT");
    const r = await drift(h, "liker");
    expect(r.code).toBe(2);
    expect(r.report.target).toBe("likes");
    expect(r.report.changes).toEqual([
      { kind: "rows_removed", rows: [{ key: songs[1], setVideoId: null, title: null }] },
    ]);
  });
});
