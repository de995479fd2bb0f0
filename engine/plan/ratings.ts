/** Likes: each desired song gets the recipe's rating; a song no longer desired goes back to none. */
import type { LikesTarget } from "../recipe/types.js";
import { addsOf, lineOf, type PlanInput, removalsOf } from "./core.js";
import { draftPlan } from "./draft.js";
import { finishPlan } from "./finish.js";
import type { Plan, PlanAction } from "./types.js";

export function planRatings(input: PlanInput, target: LikesTarget): Plan {
  const draft = draftPlan(input);
  const actions: PlanAction[] = [];
  for (const entry of addsOf(draft)) {
    entry.line.op = "rate";
    entry.line.reason = `rating ${target.rating}`;
    actions.push({ kind: "rate_song", videoId: entry.key, rating: target.rating });
  }
  // A removal is a rating too: the line says so, with the reason the song stopped being desired.
  for (const row of removalsOf(draft)) {
    const key = row.key!;
    actions.push({ kind: "rate_song", videoId: key, rating: "INDIFFERENT" });
    const reason = `rating INDIFFERENT (${row.line.reason ?? "not desired"})`;
    row.line = lineOf(row.item, "rate", key, reason, false);
  }
  return finishPlan(draft, actions, []);
}
