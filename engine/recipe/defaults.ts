import type { Policy } from "./types.js";

/** Built-in policy, overridden by the project's `defaults.policy`, then by the recipe's own `policy`. */
export const DEFAULT_POLICY: Policy = Object.freeze({
  max_removals: 100,
  min_source_items: 0,
  allow_empty: false,
  order: "source",
  on_drift: "adopt",
  overflow: "truncate",
  batch_size: 100,
});

/** A radio is endless: without a limit the engine reads this many tracks of it. */
export const DEFAULT_RADIO_LIMIT = 50;
