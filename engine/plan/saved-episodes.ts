/** Saved episodes: a playlist the service names "SE", edited but never created, renamed or reordered. */

import { applyCap } from "./cap.js";
import type { PlanInput } from "./core.js";
import { draftPlan } from "./draft.js";
import { finishPlan } from "./finish.js";
import { playlistRules, rowEdits } from "./playlist-rows.js";
import type { Plan } from "./types.js";

export function planSavedEpisodes(input: PlanInput): Plan {
  const draft = draftPlan(input, playlistRules);
  applyCap(draft);
  return finishPlan(draft, rowEdits(draft, input.actual.playlistId ?? "SE"), []);
}
