/**
 * `musicsync undo` against the emulator: a run taken back exactly (rows, order, metadata), the
 * person's edits since left alone and named in the plan, an undo undone (a redo), ratings, a
 * created playlist (kept, or deleted with --delete-created) and the refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncRecipe } from "../../../engine/run/runner.js";
import { applyUndo, prepareUndo, UndoRefusedError } from "../../../engine/undo/index.js";
import { applyMoves, movesTo } from "../../../engine/undo/moves.js";
import {
  catalogueSongs,
  type Harness,
  playlistRows,
  playlistsTitled,
  recipe,
  startHarness,
} from "../../support/sync-harness.js";

const DAY = 86_400_000;

function mirrorYaml(id: string, playlistId: string, title: string, ids: readonly string[]): string {
  return `apiVersion: musicsync/v1
kind: Recipe
id: ${id}
sources:
  - { id: list, type: static, videoIds: [${ids.join(", ")}] }
target:
  type: playlist
  playlist: { id: ${playlistId}, title: "${title}", privacy: UNLISTED }
mode: mirror
`;
}

describe("undo", () => {
  let h: Harness;
  let songs: string[];
  beforeAll(async () => {
    h = await startHarness({ catalogueSize: 300 });
    songs = catalogueSongs(h, 60);
  });
  afterAll(async () => {
    await h?.stop();
  });

  /** A playlist the person made by hand, with these rows. */
  async function handMade(title: string, ids: readonly string[]): Promise<string> {
    const id = await h.person.createPlaylist(title, "mine", { privacyStatus: "PRIVATE", videoIds: [...ids] });
    if (typeof id !== "string") throw new Error("the emulator refused the playlist");
    return id;
  }

  async function meta(playlistId: string) {
    const p = await h.person.getPlaylist(playlistId, { limit: null });
    return { title: p.title, description: p.description, privacy: p.privacy };
  }

  const ids = async (pid: string) => (await playlistRows(h, pid)).map((r) => r.videoId);

  it("takes a mirror run back exactly: rows, order, setVideoIds of kept rows, metadata; undoing the undo redoes", async () => {
    const env = h.env();
    const original = songs.slice(0, 6);
    const pid = await handMade("Exact", original);
    const rowsBefore = await playlistRows(h, pid);
    const metaBefore = await meta(pid);
    const desired = [songs[4]!, songs[0]!, songs[10]!, songs[2]!, songs[11]!];
    const run = await syncRecipe(recipe(h.project, mirrorYaml("exact", pid, "Renamed", desired)), env);
    expect(run.outcome).toBe("converged");
    expect(await ids(pid)).toEqual(desired);
    const after = await ids(pid);
    const runId = (await env.state.recentRuns({ recipeId: "exact", limit: 1 }))[0]!.id;

    const planned = await prepareUndo(runId, env);
    const ops = planned.plan.lines.map((l) => `${l.op} ${l.videoId ?? ""}`);
    expect(ops).toContain(`remove ${songs[10]}`);
    expect(ops).toContain(`add ${songs[1]}`);
    expect(planned.plan.actions.some((a) => a.kind === "edit_playlist")).toBe(true);
    const undone = await applyUndo(planned, env);
    expect(undone.outcome, undone.error ?? "").toBe("converged");
    const rowsNow = await playlistRows(h, pid);
    expect(rowsNow.map((r) => r.videoId)).toEqual(original);
    // Rows the run never touched are the same rows (same setVideoIds), not copies.
    for (const v of [songs[0], songs[2], songs[4]]) {
      expect(rowsNow.find((r) => r.videoId === v)?.setVideoId).toBe(
        rowsBefore.find((r) => r.videoId === v)?.setVideoId,
      );
    }
    expect(await meta(pid)).toEqual(metaBefore);
    const undoRun = (await env.state.recentRuns({ recipeId: "exact", limit: 1 }))[0]!;
    expect(undoRun.kind).toBe("undo");

    // Undoing the undo redoes the run.
    const redo = await applyUndo(await prepareUndo(undoRun.id, env), env);
    expect(redo.outcome, redo.error ?? "").toBe("converged");
    expect(await ids(pid)).toEqual(after);
    expect((await meta(pid)).title).toBe("Renamed");
  });

  it("leaves the person's edits since the run alone, and the plan says so", async () => {
    const env = h.env();
    const original = songs.slice(12, 16);
    const pid = await handMade("Edited", original);
    const desired = [...original.slice(0, 3), songs[16]!, songs[17]!];
    await syncRecipe(recipe(h.project, mirrorYaml("edited", pid, "Edited", desired)), env);
    const runId = (await env.state.recentRuns({ recipeId: "edited", limit: 1 }))[0]!.id;
    // The person removes one row the run added and adds one of their own.
    const added = (await playlistRows(h, pid)).find((r) => r.videoId === songs[16])!;
    await h.person.removePlaylistItems(pid, [added]);
    await h.person.addPlaylistItems(pid, [songs[18]!]);

    const planned = await prepareUndo(runId, env);
    const lineOf = (v: string) => planned.plan.lines.find((l) => l.videoId === v);
    expect(lineOf(songs[16]!)).toMatchObject({
      op: "skip",
      reason: expect.stringMatching(/since run #\d+; left alone/),
    });
    expect(lineOf(songs[18]!)).toMatchObject({ op: "keep", reason: expect.stringMatching(/left alone/) });
    expect(lineOf(songs[17]!)?.op).toBe("remove");
    expect(lineOf(songs[15]!)?.op).toBe("add");
    expect((await applyUndo(planned, env)).outcome).toBe("converged");
    expect(await ids(pid)).toEqual([...original, songs[18]!]);
  });

  it("puts ratings back as they were", async () => {
    const env = h.env();
    const [kept, unliked, a, b] = [songs[20]!, songs[21]!, songs[22]!, songs[23]!];
    await h.person.rateSong(kept, "LIKE");
    await h.person.rateSong(unliked, "LIKE");
    const yaml = `apiVersion: musicsync/v1
kind: Recipe
id: likes
sources:
  - { id: list, type: static, videoIds: [${[kept, a, b].join(", ")}] }
target: { type: likes, rating: LIKE }
mode: mirror
policy: { max_removals: 1000 }
`;
    const liked = async () =>
      new Set((await h.person.getLikedSongs({ limit: null })).tracks.map((t) => t.videoId));
    const beforeRun = await liked();
    const run = await syncRecipe(recipe(h.project, yaml), env);
    expect(run.outcome, run.error ?? "").toBe("converged");
    expect((await liked()).has(a)).toBe(true);
    expect((await liked()).has(unliked)).toBe(false);
    const runId = (await env.state.recentRuns({ recipeId: "likes", limit: 1 }))[0]!.id;
    const undone = await applyUndo(await prepareUndo(runId, env), env);
    expect(undone.outcome, undone.error ?? "").toBe("converged");
    expect([...(await liked())].sort()).toEqual([...beforeRun].sort());
  });

  it("keeps a created playlist (emptied) unless --delete-created, which deletes it", async () => {
    const env = h.env();
    const yaml = (title: string) => `apiVersion: musicsync/v1
kind: Recipe
id: made-${title.toLowerCase()}
sources:
  - { id: list, type: static, videoIds: [${songs.slice(30, 34).join(", ")}] }
target:
  type: playlist
  playlist: { title: "${title}", privacy: PRIVATE }
mode: mirror
`;
    for (const [title, deleteCreated] of [
      ["Kept", false],
      ["Deleted", true],
    ] as const) {
      await syncRecipe(recipe(h.project, yaml(title)), env);
      const [pid] = await playlistsTitled(h, title);
      expect(pid).toBeTruthy();
      const runId = (await env.state.recentRuns({ recipeId: `made-${title.toLowerCase()}`, limit: 1 }))[0]!
        .id;
      const planned = await prepareUndo(runId, env, { deleteCreated });
      expect(planned.plan.lines[0]?.reason).toMatch(/created it/);
      const undone = await applyUndo(planned, env);
      expect(undone.outcome, undone.error ?? "").toBe("converged");
      if (deleteCreated) expect(await playlistsTitled(h, title)).toEqual([]);
      else expect(await ids(pid!)).toEqual([]);
    }
  });

  it("refuses, in one line: an unknown id, a run that wrote nothing, one too old, one whose playlist is gone", async () => {
    const env = h.env();
    const refusal = async (p: Promise<unknown>) => {
      const e = await p.then(
        () => null,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(UndoRefusedError);
      expect((e as Error).message).not.toContain("\n");
      return (e as Error).message;
    };
    expect(await refusal(prepareUndo(99_999, env))).toMatch(/no run #99999/);

    const pid = await handMade("Gone", songs.slice(40, 43));
    const loaded = recipe(h.project, mirrorYaml("gone", pid, "Gone", songs.slice(40, 42)));
    await syncRecipe(loaded, env);
    const wrote = (await env.state.recentRuns({ recipeId: "gone", limit: 1 }))[0]!.id;
    await syncRecipe(loaded, env);
    const idle = (await env.state.recentRuns({ recipeId: "gone", limit: 1 }))[0]!.id;
    expect(idle).not.toBe(wrote);
    expect(await refusal(prepareUndo(idle, env))).toMatch(/wrote nothing/);
    const planOnly = await env.state.startRun({
      recipeId: "gone",
      account: "default",
      kind: "plan",
      recipeHash: "h",
      at: Date.now(),
    });
    expect(await refusal(prepareUndo(planOnly, env))).toMatch(/only planned/);
    const later = { ...env, clock: { now: () => Date.now() + 91 * DAY, sleep: env.clock.sleep } };
    expect(await refusal(prepareUndo(wrote, later))).toMatch(/91 days old; .* up to 90 days/);
    expect((await prepareUndo(wrote, later, { maxAgeDays: 100 })).plan.actions.length).toBeGreaterThan(0);
    await h.person.deletePlaylist(pid);
    expect(await refusal(prepareUndo(wrote, env))).toMatch(/no longer exists/);
  });
});

describe("undo's ordering (movesTo)", () => {
  it("reaches the goal order from any order, moving appended rows rather than settled ones", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(random() * 12);
      const goal = Array.from({ length: n }, (_, i) => (random() < 0.3 ? `+${i}` : `r${i}`));
      const settled = goal.filter((id) => !id.startsWith("+")).sort(() => random() - 0.5);
      const current = [...settled, ...goal.filter((id) => id.startsWith("+"))];
      const moves = movesTo(current, goal, (id) => !id.startsWith("+"));
      expect(applyMoves(current, moves)).toEqual(goal);
    }
    // One row out of place: the appended row moves, the person's row stays.
    expect(movesTo(["a", "b", "+c"], ["a", "+c", "b"], (id) => !id.startsWith("+"))).toEqual([
      { row: "+c", before: "b" },
    ]);
  });
});
