/** What playlist and saved-episodes targets share: rows named by their own ids, edited in batches. */
import { chunk } from "../../shared/chunk.js";
import { addsOf, type Draft, refOf, removalsOf, type TargetRules } from "./core.js";
import type { PlanAction } from "./types.js";

export const playlistRules: TargetRules = {
  // remove_playlist_items needs both ids of a row; a row the service lists without them stays.
  cannotRemove: (row) =>
    row.videoId && row.setVideoId ? null : "cannot be removed: the service gave no row id",
};

/** The removes, then the adds, of an existing playlist in batches. */
export function rowEdits(draft: Draft, playlistId: string): PlanAction[] {
  const batch = draft.policy.batch_size;
  const actions: PlanAction[] = [];
  for (const part of chunk(removalsOf(draft), batch)) {
    actions.push({ kind: "remove_playlist_items", playlistId, videos: part.map((r) => refOf(r.item)) });
  }
  for (const part of chunk(addsOf(draft), batch)) {
    actions.push({ kind: "add_playlist_items", playlistId, videoIds: part.map((e) => e.key) });
  }
  return actions;
}
