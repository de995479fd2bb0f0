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

/**
 * Before the first request: every action journaled `pending` — the first `sent` when `firstSent`,
 * as its request leaves next — in one commit with what the run is about to change (`ctx.before`),
 * then the plan's tombstones recorded.
 */
async function journalPlan(s: ApplySession, firstSent: boolean): Promise<void> {
  const { state, clock, runId, before } = s.ctx;
  const target = targetKeyOf(s);
  const entries = s.plan.actions.map((a, i) => ({
    seq: i + 1,
    kind: a.kind,
    target,
    payload: a,
    ...(i === 0 && firstSent ? { sent: true } : {}),
  }));
  if (entries.length > 0 || before) {
    await state.batch(async (stores) => {
      if (before) await stores.recordRunBefore(before);
      await stores.journalPlanned(runId, entries, clock.now());
    });
  }
  if (s.plan.tombstones.length > 0) {
    await state.addTombstones(s.account, target, s.recipeId, s.plan.tombstones, clock.now());
    await state.removeOwnedRows(
      s.account,
      target,
      s.plan.tombstones.map((itemKey) => ({ itemKey })),
    );
  }
}

/** Why no write may be sent any more (the account's lock lost), as the reason of actions not sent. */
function lostWhy(ctx: ApplyContext): string | null {
  const lost = ctx.lockLost?.() ?? null;
  return lost === null ? null : `not sent: ${lost}`;
}

export async function applyPlan(plan: Plan, ctx: ApplyContext): Promise<ApplyResult> {
  const s = openSession(plan, ctx);
  const startRequests = ctx.pacer.sent;
  // The first action is journaled `sent` with the plan unless the lock is lost already; the lock
  // is asked again before each request leaves (session.ts).
  let stop: string | null = lostWhy(ctx);
  // Whether the next action is journaled `sent` already (with the plan, or the action before's
  // confirmation: one commit less each).
  let journaledSent = stop === null && plan.actions.length > 0;
  await journalPlan(s, journaledSent);
  const outcomes: ActionOutcome[] = [];
  const answers = new Map<number, unknown>();
  for (const [i, action] of plan.actions.entries()) {
    // A lock lost since the last action: this one and the rest are not sent (engine/run/lease.ts).
    if (stop === null && i > 0) stop = lostWhy(ctx);
    if (stop !== null) {
      outcomes.push(await skipAction(s, i + 1, action, stop));
      continue;
    }
    const next = i + 1 < plan.actions.length ? i + 2 : null;
    const done = await runAction(s, i + 1, action, journaledSent, next);
    journaledSent = done.nextSent === true;
    outcomes.push(done.outcome);
    if (done.outcome.status === "confirmed") answers.set(i + 1, done.answer);
    stop = done.stop;
  }
  const allDone = outcomes.every((o) => o.status === "confirmed");
  return {
    result: allDone && s.quarantined.length === 0 ? "converged" : "partial",
    outcomes,
    requests: ctx.pacer.sent - startRequests,
    playlistId: s.playlistId,
    quarantined: s.quarantined,
    answers,
  };
}
