/**
 * "Not there" in a list without a count. The library's lists and the subscriptions carry no count
 * (docs/ENGINE.md#sources), so a read the service cut short (a lost continuation, a half page)
 * looks complete and every row it left out looks absent: the plan then "adds" items already there,
 * says it added them, and records them as out of the target before the run, so that undoing the run
 * would take the person's own songs out of the library (soak seed 2427: 12 of 62 songs read, two
 * of the hidden ones "added"). As when looking for a recipe's playlist in the library
 * (targets/read.ts), an absence is believed only when a second read agrees: a plan that adds to such
 * a target reads it again, and two reads that list different rows leave the target held as cut
 * short (nothing written, the run partial; the next run reads again).
 */
import { targetKey } from "../plan/plan.js";
import type { Plan } from "../plan/types.js";
import type { TargetSpec } from "../recipe/types.js";
import type { TargetRead } from "../targets/read.js";

/** Targets whose read has no count to tell a list cut short by. */
export function countless(target: TargetSpec): boolean {
  return target.type === "library" || target.type === "subscriptions";
}

/** Whether the plan's adds rest on the absence of rows from one read of a countless target. */
export function needsSecondRead(plan: Plan, read: TargetRead): boolean {
  return countless(plan.target.spec) && !read.actual.truncated && plan.lines.some((l) => l.op === "add");
}

function keys(target: TargetSpec, read: TargetRead): string[] {
  return read.actual.rows.map((r) => targetKey(target, r) ?? r.videoId ?? r.playlistId ?? "").sort();
}

/** Two reads that list the same rows (in any order: the service orders these lists its own way). */
export function sameRows(target: TargetSpec, a: TargetRead, b: TargetRead): boolean {
  const x = keys(target, a);
  const y = keys(target, b);
  return x.length === y.length && x.every((k, i) => k === y[i]);
}

/**
 * The read to plan from once a second read was asked for: the first as it is when the second
 * agrees, else the first held as cut short.
 */
export function agreed(target: TargetSpec, first: TargetRead, second: TargetRead): TargetRead {
  if (sameRows(target, first, second)) return first;
  return { ...first, actual: { ...first.actual, truncated: true } };
}
