/**
 * One action, end to end: journaled `sent` before its first request, handled by its kind's handler,
 * then journaled `confirmed` with the service's answer, or `failed` / `unknown` with why.
 */
import type { PlanAction } from "../plan/types.js";
import { stateUnreachable } from "../state/unreachable.js";
import type { ActionOutcome } from "./context.js";
import { lost, message, neverSent, Unverified } from "./errors.js";
import { handlerOf } from "./handlers/table.js";
import { type ApplySession, commitWithOwnership, markOf, type SessionMark } from "./session.js";

/** An action's fate, and (after a failure that leaves nothing to write to) why the rest is not sent. */
export interface ActionResult {
  outcome: ActionOutcome;
  stop: string | null;
  /** A confirmed action's result as journaled. */
  answer?: unknown;
  /** The next action was journaled `sent` with this one's confirmation. */
  nextSent?: boolean;
}

/** An action not sent because an earlier one failed in a way that leaves nothing to write to. */
export async function skipAction(
  s: ApplySession,
  seq: number,
  action: PlanAction,
  why: string,
): Promise<ActionOutcome> {
  await s.ctx.state.journalMark(s.ctx.runId, seq, "failed", s.ctx.clock.now(), { error: why, sent: false });
  return { seq, kind: action.kind, status: "failed", requests: 0, error: why, sent: false };
}

/**
 * `journaledSent`: the entry is `sent` already (journaled so with the plan, apply.ts, or with the
 * action before's confirmation). `next`: the seq of the action that follows, if any, marked `sent`
 * with this one's confirmation while the lock holds (the plan goes on after a confirmed action).
 */
export async function runAction(
  s: ApplySession,
  seq: number,
  action: PlanAction,
  journaledSent = false,
  next: number | null = null,
): Promise<ActionResult> {
  const { state, clock, runId, logger } = s.ctx;
  const since = markOf(s);
  if (!journaledSent) await state.journalMark(runId, seq, "sent", clock.now());
  notify(s, seq, action, "sent");
  logger.debug({ recipe: s.recipeId, run: runId, seq, kind: action.kind }, "action sent");
  const handler = handlerOf(action);
  try {
    await handler.send(s, action);
  } catch (e) {
    // The state could not be reached (recording what the write did), not the write refused: the
    // entry stays `sent`, for the next run to verify against the target, never `failed`.
    if (stateUnreachable(e)) throw e;
    return failed(s, seq, action, since, e);
  }
  const requests = s.requests - since.requests;
  const answer = { playlistId: s.playlistId, requests, ...handler.journal?.(s, since) };
  const nextSent = next !== null && (s.ctx.lockLost?.() ?? null) === null;
  // What the write made the engine's, that it was confirmed, and that the next one leaves: one commit.
  await commitWithOwnership(s, (stores) =>
    nextSent
      ? stores.journalMarkAndSend(runId, seq, "confirmed", clock.now(), answer, next)
      : stores.journalMark(runId, seq, "confirmed", clock.now(), answer),
  );
  notify(s, seq, action, "confirmed");
  return {
    outcome: { seq, kind: action.kind, status: "confirmed", requests, error: null },
    stop: null,
    answer,
    nextSent,
  };
}

async function failed(
  s: ApplySession,
  seq: number,
  action: PlanAction,
  since: SessionMark,
  e: unknown,
): Promise<ActionResult> {
  const { clock, runId, logger } = s.ctx;
  const handler = handlerOf(action);
  const status: ActionOutcome["status"] = lost(e) || e instanceof Unverified ? "unknown" : "failed";
  const why = message(e);
  const requests = s.requests - since.requests;
  // Stopped before its first request: not sent (the counts say so, not "failed").
  const notSent = neverSent(e) && requests === 0 ? { sent: false } : {};
  // A write that failed after part of it went through (a create whose rows could not be read back)
  // still records what it made the engine's.
  await commitWithOwnership(s, (stores) =>
    stores.journalMark(runId, seq, status, clock.now(), {
      error: why,
      ...notSent,
      ...handler.journalFailure?.(s, e),
    }),
  );
  notify(s, seq, action, status);
  // A write a stop kept back is no failure to warn about, once per write: the run says it was stopped.
  if (notSent.sent === false)
    logger.debug({ recipe: s.recipeId, run: runId, seq, kind: action.kind, error: why }, "action not sent");
  else logger.warn({ recipe: s.recipeId, run: runId, seq, kind: action.kind, error: why }, "action failed");
  return {
    outcome: { seq, kind: action.kind, status, requests, error: why, ...notSent },
    stop: handler.stopsPlan?.(s, e) ? `not sent: ${why}` : null,
  };
}

function notify(s: ApplySession, seq: number, action: PlanAction, phase: ActionOutcome["status"] | "sent") {
  const total = s.plan.actions.length;
  s.ctx.onAction?.({ recipeId: s.recipeId, seq, total, kind: action.kind, phase });
}
