/**
 * Library targets. Songs are added and removed with the feedback tokens the service gave each
 * item; albums, playlists and podcasts are saved by rating their playlist LIKE (and unsaved by
 * INDIFFERENT).
 */
import type { LibraryTarget } from "../recipe/types.js";
import { addsOf, chunk, type PlanInput, removalsOf, type TargetRules } from "./core.js";
import { draftPlan } from "./draft.js";
import { finishPlan } from "./finish.js";
import type { Plan, PlanAction } from "./types.js";

const songRules: TargetRules = {
  cannotAdd: (item) => (item.feedbackTokens?.add ? null : "no library token to add it with"),
  cannotRemove: (row) => (row.feedbackTokens?.remove ? null : "no library token to remove it with"),
};

export function planLibrary(input: PlanInput, target: LibraryTarget): Plan {
  const draft = draftPlan(input, target.kind === "songs" ? songRules : {});
  const adds = addsOf(draft);
  const removals = removalsOf(draft);
  const actions: PlanAction[] = [];
  if (target.kind === "songs") {
    const batch = input.policy.batch_size;
    const addTokens = chunk(
      adds.map((e) => e.item.feedbackTokens!.add!),
      batch,
    );
    const removeTokens = chunk(
      removals.map((r) => r.item.feedbackTokens!.remove!),
      batch,
    );
    for (const tokens of [...addTokens, ...removeTokens])
      actions.push({ kind: "edit_song_library_status", feedbackTokens: tokens });
  } else {
    for (const e of adds) actions.push({ kind: "rate_playlist", playlistId: e.key, rating: "LIKE" });
    for (const r of removals)
      actions.push({ kind: "rate_playlist", playlistId: r.key!, rating: "INDIFFERENT" });
  }
  return finishPlan(draft, actions, []);
}
