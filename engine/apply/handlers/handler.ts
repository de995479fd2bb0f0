/**
 * What one kind of plan action does when applied: its send (the request, judged by the service's
 * answer), its verification (a read-back of the target when the answer is no yes), and its journal
 * steps (what the state learns once it is done, what its journal entry keeps).
 */
import type { PlanAction, PlanActionKind } from "../../plan/types.js";
import type { WriteKind } from "../client.js";
import { type ApplySession, checked, type SessionMark } from "../session.js";

export type ActionOf<K extends PlanActionKind> = Extract<PlanAction, { kind: K }>;

export interface ActionHandler<A extends PlanAction> {
  /**
   * Sends the action and settles its fate: resolves once the service's answer, or a read-back of
   * the target, shows it done; throws ActionFailed (not done), Unverified (the read-back failed) or
   * the service's error otherwise.
   */
  send(s: ApplySession, action: A): Promise<void>;
  /** What its `confirmed` journal entry keeps besides the playlist id and its request count. */
  journal?(s: ApplySession, since: SessionMark): Record<string, unknown>;
  /** What its `failed` / `unknown` journal entry keeps besides the error (`error`: what it threw). */
  journalFailure?(s: ApplySession, error: unknown): Record<string, unknown>;
  /** Whether its failure leaves the rest of the plan nothing to write to. */
  stopsPlan?(s: ApplySession, error: unknown): boolean;
}

/** A kind whose one request is confirmed by its answer, else by a read-back of its effect. */
export interface CheckedSteps<A extends PlanAction> {
  kind: WriteKind;
  /**
   * The request, prepared before anything is sent (a row id it cannot name fails the action with no
   * request): the bare client call, which the handler sends through the session (paced, retried).
   */
  request(s: ApplySession, action: A): () => Promise<unknown>;
  /** Whether the target, read back, shows the action done. */
  verify(s: ApplySession, action: A): Promise<boolean>;
  /** What the state learns once the action is done (rows owned or forgotten). */
  record?(s: ApplySession, action: A): Promise<void> | void;
}

export function checkedHandler<A extends PlanAction>(
  steps: CheckedSteps<A>,
): ActionHandler<A> & CheckedSteps<A> {
  return {
    ...steps,
    async send(s, action) {
      await checked(s, steps.kind, steps.request(s, action), () => steps.verify(s, action));
      await steps.record?.(s, action);
    },
  };
}
