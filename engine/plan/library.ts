/**
 * Library targets. Songs are added and removed with the feedback tokens the service gave each
 * item; albums, playlists and podcasts are saved by rating their playlist LIKE (and unsaved by
 * INDIFFERENT).
 */
import { chunk } from "../../shared/chunk.js";
import type { LibraryTarget } from "../recipe/types.js";
import { addsOf, type PlanInput, removalsOf, type TargetRules } from "./core.js";
import { draftPlan } from "./draft.js";
import { finishPlan } from "./finish.js";
import type { Plan, PlanAction } from "./types.js";

const songRules: TargetRules = {
  cannotAdd: (item) => (item.feedbackTokens?.add ? null : "no library token to add it with"),
  cannotRemove: (row) => (row.feedbackTokens?.remove ? null : "no library token to remove it with"),
};

/** A song to put in or take out of the library, and the token that does it. */
export interface LibrarySong {
  token: string;
  videoId: string;
}

/**
 * Library edits of one direction, `batch` songs each, naming their songs so that apply's read-back
 * (engine/apply/handlers/library-status.ts) and undo know exactly what each one does.
 */
export function libraryEdits(
  direction: "add" | "remove",
  songs: readonly LibrarySong[],
  batch: number,
): PlanAction[] {
  return chunk(songs, batch).map((part) => ({
    kind: "edit_song_library_status",
    feedbackTokens: part.map((s) => s.token),
    videoIds: part.map((s) => s.videoId),
    direction,
  }));
}

export function planLibrary(input: PlanInput, target: LibraryTarget): Plan {
  const draft = draftPlan(input, target.kind === "songs" ? songRules : {});
  const adds = addsOf(draft);
  const removals = removalsOf(draft);
  const actions: PlanAction[] = [];
  if (target.kind === "songs") {
    const batch = input.policy.batch_size;
    const songsIn = adds.map((e) => ({ token: e.item.feedbackTokens!.add!, videoId: e.key }));
    const songsOut = removals.map((r) => ({
      token: r.item.feedbackTokens!.remove!,
      videoId: r.item.videoId ?? r.key!,
    }));
    actions.push(...libraryEdits("add", songsIn, batch), ...libraryEdits("remove", songsOut, batch));
  } else {
    for (const e of adds) actions.push({ kind: "rate_playlist", playlistId: e.key, rating: "LIKE" });
    for (const r of removals)
      actions.push({ kind: "rate_playlist", playlistId: r.key!, rating: "INDIFFERENT" });
  }
  return finishPlan(draft, actions, []);
}
