import type { Policy } from "./types.js";

/** Built-in policy, overridden by the project's `defaults.policy`, then by the recipe's own `policy`. */
export const DEFAULT_POLICY: Policy = Object.freeze({
  max_removals: 100,
  min_source_items: 0,
  // Under half of the last complete read: a cut list (the service's truncation keeps about half).
  min_source_ratio: 0.5,
  allow_empty: false,
  order: "source",
  on_drift: "adopt",
  overflow: "truncate",
  batch_size: 100,
  // A rating the person set by hand is theirs: a recipe does not undo it unless it says so.
  override_ratings: false,
});

/** A radio is endless: without a limit the engine reads this many tracks of it. */
export const DEFAULT_RADIO_LIMIT = 50;

/** Runs older than this many days are not undone unless the project (`undo.max_age_days`) or the command says otherwise. */
export const DEFAULT_UNDO_MAX_AGE_DAYS = 90;

/**
 * A person's song matches for the `file` sources of the recipes beside it (engine/files/overrides.ts);
 * the loader passes over it when it reads a folder of recipes.
 */
export const OVERRIDES_FILE = "matches.yaml";
