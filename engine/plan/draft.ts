/** The shared first half of every plan, in order: entries, rows, adds, then the guards. */
import type { Draft, PlanInput, TargetRules } from "./core.js";
import { cleanRows, decideAdds, desiredEntries, matchRows, skippedLines } from "./entries.js";
import { guardRemovals, holdUnremovable } from "./guards.js";

export function draftPlan(input: PlanInput, rules: TargetRules = {}): Draft {
  const draft: Draft = {
    ...input,
    entries: [],
    entryByKey: new Map(),
    held: [],
    rows: [],
    skipLines: [],
    guards: [],
    errors: [],
    tombstones: [],
  };
  if (input.policy.mode === "clean") cleanRows(draft);
  else {
    desiredEntries(draft);
    matchRows(draft);
    decideAdds(draft, rules);
  }
  // After the rows are matched: a dropped item the target holds is that row's line (entries.ts).
  skippedLines(draft);
  holdUnremovable(draft, rules);
  guardRemovals(draft);
  return draft;
}
