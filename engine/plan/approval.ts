/**
 * `policy.require_approval`: whether a plan removes so much that a person must approve it before it
 * is applied. Pure: the plan and the policy in, the reason (or null) out.
 */
import type { Policy } from "../recipe/types.js";
import type { Plan } from "./types.js";

/**
 * What the plan takes away: rows removed from a playlist, library entries and subscriptions dropped
 * (each a `remove` line), and ratings taken back — a likes target's removal is a `rate` line (the
 * song is rated INDIFFERENT), so it is counted from its actions instead.
 */
export function removalsOf(plan: Plan): number {
  const unrated = plan.actions.filter((a) => a.kind === "rate_song" && a.rating === "INDIFFERENT").length;
  return plan.summary.remove + unrated;
}

/** `33.3`: a share in percent, to one decimal. */
function percent(part: number, whole: number): string {
  return String(Math.round((part / whole) * 1000) / 10);
}

/**
 * Why the plan must wait for a person, or null when it may be applied as it is: its removals are
 * above `require_approval.removals`, or above `removals_percent` of the target's rows as read.
 * A plan that removes nothing is never held.
 */
export function approvalNeeded(plan: Plan, policy: Pick<Policy, "require_approval">): string | null {
  const rule = policy.require_approval;
  const removals = removalsOf(plan);
  if (!rule || removals === 0) return null;
  const reasons: string[] = [];
  if (rule.removals !== undefined && removals > rule.removals) {
    reasons.push(`over require_approval.removals ${rule.removals}`);
  }
  const rows = plan.target.rows;
  if (rule.removals_percent !== undefined && rows > 0 && (removals / rows) * 100 > rule.removals_percent) {
    reasons.push(
      `${percent(removals, rows)}% of the target's ${rows} rows, over require_approval.removals_percent ${rule.removals_percent}`,
    );
  }
  if (reasons.length === 0) return null;
  return `${removals} removal${removals === 1 ? "" : "s"}, ${reasons.join("; ")}`;
}

/** The plan as shown by `plan` and `sync --dry-run`: with the reason applying it would be held, if any. */
export function withApprovalNote(plan: Plan, policy: Pick<Policy, "require_approval">): Plan {
  const reason = approvalNeeded(plan, policy);
  return reason === null ? plan : { ...plan, heldForApproval: reason };
}
