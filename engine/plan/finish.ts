/** The last step of every plan: its lines in order, the all-or-nothing block, the summary. */
import type { Draft } from "./core.js";
import { withNotes } from "./desired.js";
import { targetFingerprint } from "./fingerprint.js";
import { planSources } from "./shrinkage.js";
import {
  type MoveStep,
  PLAN_VERSION,
  type Plan,
  type PlanAction,
  type PlanLine,
  type PlanSummary,
} from "./types.js";

export function finishPlan(draft: Draft, actions: PlanAction[], moves: readonly MoveStep[]): Plan {
  const { desired, actual, policy, errors } = draft;
  const target = desired.recipe.target;
  let lines: PlanLine[] = draft.entries.map((e) => e.line);
  for (const row of draft.rows) lines.push(row.line);
  for (const line of draft.skipLines) lines.push(line);
  let tombstones = draft.tombstones;
  if (actual.truncated || errors.length > 0) {
    const why = errors[0] ?? "the target read looks truncated";
    lines = lines.map((l) =>
      l.op === "keep" || l.op === "skip" ? l : { ...l, op: "skip", reason: `not planned: ${why}` },
    );
    actions = [];
    moves = [];
    tombstones = [];
  }
  return {
    version: PLAN_VERSION,
    recipe: { id: desired.recipe.id, hash: desired.recipe.hash },
    account: desired.recipe.account,
    mode: policy.mode,
    target: {
      spec: target,
      playlistId: actual.playlistId,
      exists: actual.exists,
      fingerprint: targetFingerprint(actual),
      rows: actual.rows.length,
    },
    actions,
    lines,
    guards: draft.guards,
    errors,
    tombstones,
    summary: summarise(lines, actions, moves.length, desired.notes?.length ?? 0),
    sources: planSources(desired.sources ?? [], policy.min_source_ratio),
    ...withNotes(desired.notes ?? []),
  };
}

/**
 * A plan's counts from its lines and actions; `moveSteps`: moves count write steps, not lines;
 * `leftOut`: file entries the plan's notes name (unmatched, unreadable), each a skipped item.
 */
export function summarise(
  lines: readonly PlanLine[],
  actions: readonly PlanAction[],
  moveSteps: number,
  leftOut = 0,
): PlanSummary {
  const summary: PlanSummary = {
    add: 0,
    remove: 0,
    move: 0,
    rate: 0,
    keep: 0,
    skip: leftOut,
    create: 0,
    edit: 0,
    requests: 0,
  };
  // A switch, not summary[l.op]: a keyed increment per line is a slow path at 5,000 lines.
  for (const l of lines) {
    switch (l.op) {
      case "add":
        summary.add++;
        break;
      case "keep":
        summary.keep++;
        break;
      case "remove":
        summary.remove++;
        break;
      case "rate":
        summary.rate++;
        break;
      case "skip":
        summary.skip++;
        break;
    }
  }
  // Moves count write steps: an added row that then moves into place is one add and one move.
  summary.move = moveSteps;
  for (const a of actions) {
    if (a.kind === "create_playlist") summary.create++;
    else if (a.kind === "edit_playlist") summary.edit++;
  }
  summary.requests = actions.length;
  return summary;
}
