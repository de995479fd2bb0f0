/**
 * planUndo read against each fate a journal entry can record for a playlist write: confirmed by the
 * applier, refused (wholly or part way), unanswered (killed, lost), and judged later by a run's
 * reconciliation. The promise under test: undo never takes away a row the person may have added,
 * and never puts back a row the run did not take.
 */
import { afterAll, describe, expect, it } from "vitest";
import type { EngineClient } from "../../../engine/apply/client.js";
import type { ActualTarget, Plan, PlanAction } from "../../../engine/plan/types.js";
import type { TargetBefore } from "../../../engine/run/before.js";
import { syncRecipe } from "../../../engine/run/runner.js";
import { makeItem } from "../../../engine/sources/item.js";
import type { JournalEntry, JournalStatus, RunRecord } from "../../../engine/state/types.js";
import { applyUndo, prepareUndo } from "../../../engine/undo/index.js";
import { planUndo } from "../../../engine/undo/plan-undo.js";
import {
  catalogueSongs,
  type Harness,
  playlistRows,
  recipe,
  startHarness,
} from "../../support/sync-harness.js";

const PID = "PLfates";
const spec = {
  type: "playlist",
  playlist: { id: PID, title: "Fates", description: null, privacy: null },
} as TargetBefore["spec"];

const row = (videoId: string, setVideoId: string) =>
  makeItem({ videoId, setVideoId, source: "target", rank: 0 });

/** Before the run: rows a (A1), b (B1), c (C1). */
const before: TargetBefore = {
  version: 1,
  spec,
  exists: true,
  playlistId: PID,
  title: "Fates",
  description: "",
  privacy: "PRIVATE",
  rows: [
    { videoId: "a", setVideoId: "A1", label: "a" },
    { videoId: "b", setVideoId: "B1", label: "b" },
    { videoId: "c", setVideoId: "C1", label: "c" },
  ],
  items: [],
};

const run: RunRecord = {
  id: 7,
  recipeId: "fates",
  account: "default",
  kind: "sync",
  recipeHash: "h",
  startedAt: 0,
  finishedAt: 1,
  result: "failed",
  counts: null,
  error: null,
  holder: null,
};

function entry(
  seq: number,
  payload: PlanAction,
  status: JournalStatus,
  result: unknown,
  attempt = 1,
): JournalEntry {
  return {
    runId: 7,
    seq,
    kind: payload.kind,
    target: `playlist/${PID}`,
    payload,
    status,
    attempt,
    result,
    updatedAt: 1,
  };
}

const add = (videoIds: string[]): PlanAction => ({ kind: "add_playlist_items", playlistId: PID, videoIds });
const remove = (...rows: [string, string][]): PlanAction => ({
  kind: "remove_playlist_items",
  playlistId: PID,
  videos: rows.map(([videoId, setVideoId]) => ({ videoId, setVideoId })),
});

function undo(journal: JournalEntry[], rows: ReturnType<typeof row>[]) {
  const now: ActualTarget = {
    exists: true,
    playlistId: PID,
    title: "Fates",
    description: "",
    privacy: "PRIVATE",
    rows,
    truncated: false,
  };
  const plan = planUndo({
    run,
    before: {
      runId: 7,
      recipeId: "fates",
      account: "default",
      target: "t",
      takenAt: 0,
      plan: { mode: "mirror", lines: [] } as unknown as Plan,
      before,
    },
    journal,
    now,
    owned: { playlist: false, rows: new Set(), tombstones: new Set() },
  });
  const removed = plan.actions.flatMap((a) =>
    a.kind === "remove_playlist_items" ? a.videos.map((v) => v.setVideoId) : [],
  );
  const added = plan.actions.flatMap((a) => (a.kind === "add_playlist_items" ? a.videoIds : []));
  const reason = (videoId: string) =>
    plan.lines.filter((l) => l.videoId === videoId).map((l) => `${l.op}: ${l.reason}`);
  return { removed, added, reason };
}

const abc = [row("a", "A1"), row("b", "B1"), row("c", "C1")];

describe("undo of a playlist run, by journal fate", () => {
  it("a confirmed add: the row its answer names goes, a copy the person added stays", () => {
    const j = [entry(1, add(["d"]), "confirmed", { playlistId: PID, requests: 1, added: { d: "D1" } })];
    const u = undo(j, [...abc, row("d", "D1"), row("d", "D2")]);
    expect(u.removed).toEqual(["D1"]);
  });

  it("an answer that names a row that was there before never takes that row", () => {
    const j = [entry(1, add(["a"]), "confirmed", { playlistId: PID, requests: 1, added: { a: "A1" } })];
    expect(undo(j, abc).removed).toEqual([]);
  });

  it("an add never answered (killed, or lost): its video's new row stays, and the plan says why", () => {
    for (const [status, result] of [
      ["sent", null],
      ["unknown", { error: "connection failed" }],
    ] as const) {
      const u = undo([entry(1, add(["d"]), status, result)], [...abc, row("d", "D9")]);
      expect(u.removed, status).toEqual([]);
      expect(u.reason("d")[0], status).toMatch(
        /^skip: kept: run #7's add of it was never answered, so this copy may be yours/,
      );
    }
  });

  it("an unanswered add a later run reconciled as confirmed is still not an answer", () => {
    // Reconciliation only sets the status: the result stays what it was (no request count, no rows).
    const u = undo(
      [entry(1, add(["d"]), "confirmed", { error: "connection failed" })],
      [...abc, row("d", "D9")],
    );
    expect(u.removed).toEqual([]);
    expect(u.reason("d")[0]).toMatch(/never answered/);
    const killed = undo([entry(1, add(["d"]), "confirmed", null)], [...abc, row("d", "D9")]);
    expect(killed.removed).toEqual([]);
  });

  it("a refused remove took nothing: a row the person removed since stays out", () => {
    const j = [entry(1, remove(["c", "C1"]), "failed", { error: "1 of 1 rows not removed" })];
    const u = undo(j, [row("a", "A1"), row("b", "B1")]);
    expect(u.added).toEqual([]);
  });

  it("a remove refused part way: the rows its journal names as gone come back, no others", () => {
    const j = [
      entry(1, remove(["b", "B1"], ["c", "C1"]), "failed", {
        error: "1 of 2 rows not removed",
        removed: ["B1"],
      }),
    ];
    // The person removed c by hand afterwards.
    const u = undo(j, [row("a", "A1")]);
    expect(u.added).toEqual(["b"]);
  });

  it("a remove whose answer was lost: the rows gone now come back, and the line says the answer was lost", () => {
    const u = undo(
      [entry(1, remove(["c", "C1"]), "unknown", { error: "connection failed" })],
      abc.slice(0, 2),
    );
    expect(u.added).toEqual(["c"]);
    expect(u.reason("c")[0]).toMatch(/^add: removed by run #7, whose answer was lost .*back at #3/);
  });

  it("a confirmed remove: the row comes back at its place", () => {
    const j = [entry(1, remove(["b", "B1"]), "confirmed", { playlistId: PID, requests: 1 })];
    const u = undo(j, [row("a", "A1"), row("c", "C1")]);
    expect(u.added).toEqual(["b"]);
    expect(u.reason("b")[0]).toBe("add: removed by run #7; back at #2");
  });

  it("a write that never left (pending, later reconciled failed) counts for nothing", () => {
    const j = [entry(1, remove(["c", "C1"]), "failed", null, 0), entry(2, add(["d"]), "failed", null, 0)];
    const u = undo(j, [...abc.slice(0, 2), row("d", "D9")]);
    expect(u.added).toEqual([]);
    expect(u.reason("d")[0]).toMatch(/not there before run #7; left alone/);
  });
});

describe("a remove the service took part of (against the emulator)", () => {
  let h: Harness;
  afterAll(async () => {
    await h?.stop();
  });

  it("the journal names the rows that did go; undo puts back those, not the ones the person removed since", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 4);
    const pid = await h.person.createPlaylist("Partial", "", { privacyStatus: "PRIVATE", videoIds: songs });
    if (typeof pid !== "string") throw new Error("no playlist");
    // The service removes only the first row it is asked to, and answers with a failed status.
    const partly = (c: EngineClient): EngineClient =>
      new Proxy(c, {
        get(target, name, receiver) {
          const real = Reflect.get(target, name, receiver);
          if (name !== "removePlaylistItems") return typeof real === "function" ? real.bind(target) : real;
          return async (playlistId: string, videos: { videoId: string; setVideoId: string | null }[]) => {
            await target.removePlaylistItems(playlistId, videos.slice(0, 1));
            return { status: "STATUS_FAILED" };
          };
        },
      });
    const env = h.env({ wrap: partly });
    const run = await syncRecipe(recipe(h.project, mirror(pid, songs.slice(0, 2))), env);
    expect(run.outcome).toBe("partial");
    const runId = (await env.state.recentRuns({ recipeId: "partial", limit: 1 }))[0]!.id;
    const entry = (await env.state.journal(runId))[0]!;
    expect(entry.status).toBe("failed");
    const gone = (entry.payload as Extract<PlanAction, { kind: "remove_playlist_items" }>).videos[0]!;
    expect(entry.result).toMatchObject({ removed: [gone.setVideoId] });
    expect((await playlistRows(h, pid)).map((r) => r.videoId)).toEqual([songs[0], songs[1], songs[3]]);
    // The person then removes the row the service refused to.
    const left = (await playlistRows(h, pid)).find((r) => r.videoId === songs[3])!;
    await h.person.removePlaylistItems(pid, [left]);
    const undone = await applyUndo(await prepareUndo(runId, h.env()), h.env());
    expect(undone.outcome, undone.error ?? "").toBe("converged");
    expect((await playlistRows(h, pid)).map((r) => r.videoId)).toEqual(songs.slice(0, 3));
  });
});

function mirror(playlistId: string, ids: readonly string[]): string {
  return `apiVersion: musicsync/v1
kind: Recipe
id: partial
sources:
  - { id: list, type: static, videoIds: [${ids.join(", ")}] }
target:
  type: playlist
  playlist: { id: ${playlistId}, title: "Partial" }
mode: mirror
`;
}
