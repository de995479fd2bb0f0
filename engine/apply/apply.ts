/**
 * apply(plan): the only writer. Every action is journaled (`pending`) before the first request,
 * marked `sent` before its request and `confirmed` / `failed` / `unknown` after, with the service's
 * answer (the new playlist id, the new rows' setVideoIds). What the engine owns (its playlist, the
 * rows it added) is recorded as each write is confirmed, so a run killed at any point leaves a
 * journal a re-run can reconcile against the target it reads again.
 *
 * Failures follow the service's limits (docs/ENGINE.md#limits-of-the-service): an add refused for one bad id is split until
 * the id stands alone, and the id is quarantined when that one-id add is refused twice; a refusal
 * (also HTTP 200 with a failed status) or a lost answer is verified by reading the target back;
 * 429/5xx are paced and retried by the Pacer. What each kind of action sends, how it is verified and
 * what its journal keeps is its handler's (handlers/table.ts); this file runs them in plan order.
 */
import type { Plan } from "../plan/types.js";
import type { ActionOutcome, ApplyContext, ApplyResult } from "./context.js";
import { runAction, skipAction } from "./run-action.js";
import { type ApplySession, openSession, targetKeyOf } from "./session.js";

export type {
  ActionEvent,
  ActionOutcome,
  ActionPhase,
  ApplyContext,
  ApplyLogger,
  ApplyResult,
} from "./context.js";
export { QUARANTINE_MS, QUARANTINE_TARGET } from "./quarantine.js";

/** Before the first request: every action journaled `pending`, the plan's tombstones recorded. */
async function journalPlan(s: ApplySession): Promise<void> {
  const { state, clock, runId } = s.ctx;
  const target = targetKeyOf(s);
  await state.journalPlanned(
    runId,
    s.plan.actions.map((a, i) => ({ seq: i + 1, kind: a.kind, target, payload: a })),
    clock.now(),
  );
  if (s.plan.tombstones.length > 0) {
    await state.addTombstones(s.account, target, s.recipeId, s.plan.tombstones, clock.now());
    await state.removeOwnedRows(
      s.account,
      target,
      s.plan.tombstones.map((itemKey) => ({ itemKey })),
    );
  }
}

export async function applyPlan(plan: Plan, ctx: ApplyContext): Promise<ApplyResult> {
  const s = openSession(plan, ctx);
  const startRequests = ctx.pacer.sent;
  await journalPlan(s);
  const outcomes: ActionOutcome[] = [];
  let stop: string | null = null;
  for (const [i, action] of plan.actions.entries()) {
    // A lock lost since the last action: this one and the rest are not sent (engine/run/lease.ts).
    const lockLost = ctx.lockLost?.() ?? null;
    if (stop === null && lockLost !== null) stop = `not sent: ${lockLost}`;
    if (stop !== null) {
      outcomes.push(await skipAction(s, i + 1, action, stop));
      continue;
    }
    const done = await runAction(s, i + 1, action);
    outcomes.push(done.outcome);
    stop = done.stop;
  }
  const allDone = outcomes.every((o) => o.status === "confirmed");
  return {
    result: allDone && s.quarantined.length === 0 ? "converged" : "partial",
    outcomes,
    requests: ctx.pacer.sent - startRequests,
    playlistId: s.playlistId,
    quarantined: s.quarantined,
  };
}
