/**
 * The target as an apply left it, worked out from what the run already knows — the plan's read of
 * it and the confirmed actions' answers (the setVideoIds each add returned, as the journal keeps
 * them) — so that saving the drift baseline needs no second read of the target. Pure.
 *
 * Known only for a playlist that existed when planned and was read in full, when every action was
 * confirmed and each is one whose effect is exact: rows removed by row id, rows added at the end in
 * the order sent (with the ids the service gave), moves applied in order, a title (trimmed, as the
 * service stores it) or privacy set. Null — read the target again — otherwise: other targets (the
 * service orders liked songs, library items and subscriptions by its own rules), a playlist this run
 * created or deleted (its rows and details as the service stored them), a description edited
 * (whether the service trims it is not known), an add whose answer named an old row or none, any
 * action not confirmed (what the service holds then is not known).
 */
import type { ActualTarget, Plan, PlanAction, RowRef } from "../plan/types.js";
import { serviceTitle } from "../recipe/service-text.js";
import { type Item, makeItem } from "../sources/item.js";
import type { ApplyResult } from "./context.js";
import { afterMoves } from "./handlers/playlist-order.js";

/** The playlist being worked out: its rows in order and its details. */
interface Known {
  rows: Item[];
  title: string | null;
  privacy: ActualTarget["privacy"];
  /** setVideoIds of the rows this run added, by videoId (moves planned before the rows existed). */
  added: Map<string, string>;
}

export function targetAfterApply(plan: Plan, before: ActualTarget, result: ApplyResult): ActualTarget | null {
  if (plan.target.spec.type !== "playlist" || !before.exists || before.truncated) return null;
  if (result.result !== "converged" || result.playlistId !== before.playlistId) return null;
  if (result.outcomes.some((o) => o.status !== "confirmed")) return null;
  const known: Known = {
    rows: [...before.rows],
    title: before.title,
    privacy: before.privacy,
    added: new Map(),
  };
  for (const [i, action] of plan.actions.entries()) {
    const outcome = result.outcomes.find((o) => o.seq === i + 1);
    if (outcome?.status !== "confirmed" || !step(known, action, result.answers.get(i + 1))) return null;
  }
  return { ...before, rows: known.rows, title: known.title, privacy: known.privacy };
}

/** Applies one confirmed action to what is known; false when its effect cannot be known exactly. */
function step(known: Known, action: PlanAction, answer: unknown): boolean {
  switch (action.kind) {
    case "add_playlist_items":
      return added(known, action.videoIds, answer);
    case "remove_playlist_items": {
      if (action.videos.some((v) => !v.setVideoId)) return false;
      const gone = new Set(action.videos.map((v) => v.setVideoId));
      known.rows = known.rows.filter((r) => !gone.has(r.setVideoId));
      return true;
    }
    case "move_playlist_items":
      return moved(known, action.moves);
    case "edit_playlist":
      if (action.description !== undefined) return false;
      if (action.title !== undefined) known.title = serviceTitle(action.title);
      if (action.privacy !== undefined) known.privacy = action.privacy;
      return true;
    default:
      return false;
  }
}

/** Rows an add put at the end, in the order sent, with the row ids its answer named. */
function added(known: Known, videoIds: readonly string[], answer: unknown): boolean {
  const ids = (answer as { added?: Record<string, unknown> } | null)?.added ?? {};
  const present = new Set(known.rows.map((r) => r.setVideoId));
  for (const videoId of videoIds) {
    const setVideoId = ids[videoId];
    // An id read back from an older row (a copy already there) is not this add's row.
    if (typeof setVideoId !== "string" || present.has(setVideoId)) return false;
    present.add(setVideoId);
    known.added.set(videoId, setVideoId);
    known.rows.push(makeItem({ videoId, setVideoId, source: "target", rank: known.rows.length + 1 }));
  }
  return true;
}

function moved(known: Known, moves: readonly { row: RowRef; before: RowRef | null }[]): boolean {
  // Rows are placed by row id: a row the service listed without one cannot be placed.
  if (known.rows.some((r) => !r.setVideoId)) return false;
  const idOf = (ref: RowRef) => ref.setVideoId ?? known.added.get(ref.videoId) ?? null;
  const items: (string | [string, string])[] = [];
  for (const m of moves) {
    const row = idOf(m.row);
    const before = m.before ? idOf(m.before) : null;
    if (row === null || (m.before && before === null)) return false;
    items.push(before === null ? row : [row, before]);
  }
  const order = afterMoves(
    known.rows.map((r) => r.setVideoId!),
    items,
  );
  if (order === null) return false;
  const bySetVideoId = new Map(known.rows.map((r) => [r.setVideoId!, r]));
  known.rows = order.map((id) => bySetVideoId.get(id)!);
  return true;
}
