/**
 * Guards before deletes: rows a write cannot name stay, a target read that looks truncated blocks
 * everything, and a source that looks cut short (or too many removals) blocks every removal.
 */
import { type Draft, lineOf, type Row, removalsOf, type TargetRules } from "./core.js";
import { shrinkMessage } from "./shrinkage.js";
import type { GuardNote } from "./types.js";

/** Rows the target's remove request cannot name stay, each with the reason. */
export function holdUnremovable(draft: Draft, rules: TargetRules): void {
  const cannotRemove = rules.cannotRemove;
  if (!cannotRemove) return;
  for (const row of draft.rows) {
    if (!row.remove) continue;
    const why = cannotRemove(row.item);
    if (why !== null) hold(row, why);
  }
}

/** Notes a truncated target read, and holds every removal when a guard says the sources look short. */
export function guardRemovals(draft: Draft): void {
  if (draft.actual.truncated) {
    draft.guards.push({
      guard: "target_truncated",
      message: "the target read looks truncated: nothing is written",
      blocks: "all",
    });
  }
  const removals = removalsOf(draft);
  if (removals.length === 0) return;
  const blockers = removalBlockers(draft, removals.length);
  if (blockers.length === 0) return;
  draft.guards.push(...blockers);
  const why = `removal blocked: ${blockers.map((b) => b.guard).join(", ")}`;
  for (const row of removals) hold(row, why);
}

/** The guards that would hold `removals` removals back (cap.ts asks it before rotating rows out). */
export function removalBlockers({ desired, policy }: Draft, removals: number): GuardNote[] {
  const blockers: GuardNote[] = [];
  const block = (guard: GuardNote["guard"], message: string) =>
    blockers.push({ guard, message, blocks: "removals" });
  if (desired.truncatedSources.length > 0) {
    block("source_truncated", `source read looks truncated (${desired.truncatedSources.join(", ")})`);
  }
  const shrunk = shrinkMessage(desired.sources ?? [], policy.min_source_ratio);
  if (shrunk !== null) block("source_shrunk", shrunk);
  if (desired.sourceTotal < policy.min_source_items) {
    block(
      "too_few_items",
      `sources returned ${desired.sourceTotal} items, fewer than min_source_items (${policy.min_source_items})`,
    );
  }
  if (desired.items.length === 0 && !policy.allow_empty) {
    block("empty_desired", "nothing is desired and allow_empty is false");
  }
  if (removals > policy.max_removals) {
    block("max_removals", `${removals} removals exceed max_removals (${policy.max_removals})`);
  }
  return blockers;
}

/** Takes a row out of the removals, with the reason it stays. */
function hold(row: Row, reason: string): void {
  row.remove = false;
  row.line = lineOf(row.item, "skip", row.key, reason, false);
}
