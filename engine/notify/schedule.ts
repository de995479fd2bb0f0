/**
 * When a failed delivery is tried again: the shared backoff (shared/retry.ts) without jitter, so the
 * queue's timing is tested without a clock. Bounded twice: by a number of attempts and by the time
 * since the first one (a receiver down for an hour gets no stale "run failed" when it comes back).
 */
import { type RetryBounds, retryDelay } from "../../shared/retry.js";

export interface DeliveryPolicy extends RetryBounds {
  /** One try's bound: a receiver slower than this counts as failed. */
  timeoutMs: number;
}

export const DEFAULT_DELIVERY: DeliveryPolicy = Object.freeze({
  attempts: 5,
  baseDelayMs: 2_000,
  maxDelayMs: 60_000,
  totalMs: 10 * 60_000,
  timeoutMs: 10_000,
});

/** A delivery waits the whole backoff step: one receiver, no crowd to spread. */
const NO_JITTER = () => 1;

/**
 * After try `attempt` (started first at `firstAt`) failed at `now`: when to try again, or null to
 * give up.
 */
export function nextTryAt(
  attempt: number,
  firstAt: number,
  now: number,
  policy: DeliveryPolicy,
): number | null {
  const delay = retryDelay(policy, attempt, now - firstAt, undefined, NO_JITTER);
  return delay === null ? null : now + delay;
}
