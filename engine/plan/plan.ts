/**
 * plan(desired, actual, owned, policy) → Plan. Pure: no clock, no network, no database; the same
 * inputs always give the same plan. Every source item and every target row ends up in exactly one
 * line (added, kept, moved, removed, rated or skipped with a reason). Each target kind has its own
 * planner over a shared core (core.ts, draft.ts, finish.ts); this picks the one the recipe names.
 */
import { planLibrary } from "./library.js";
import { planPlaylist } from "./playlist.js";
import { planRatings } from "./ratings.js";
import { planSavedEpisodes } from "./saved-episodes.js";
import { planSubscriptions } from "./subscriptions.js";
import type { ActualTarget, Desired, Owned, Plan, PlanPolicy } from "./types.js";

export { targetKey } from "./core.js";

export function plan(desired: Desired, actual: ActualTarget, owned: Owned, policy: PlanPolicy): Plan {
  const input = { desired, actual, owned, policy };
  const target = desired.recipe.target;
  switch (target.type) {
    case "playlist":
      return planPlaylist(input, target);
    case "saved_episodes":
      return planSavedEpisodes(input);
    case "likes":
      return planRatings(input, target);
    case "library":
      return planLibrary(input, target);
    case "subscriptions":
      return planSubscriptions(input);
  }
}
