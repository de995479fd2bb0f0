/**
 * When a failed delivery is tried again: pure arithmetic, so the queue's timing is tested without
 * a clock. Exponential backoff, bounded twice: by a number of attempts and by the time since the
 * first one (a receiver down for an hour gets no stale "run failed" when it comes back).
 */

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  /** Wait after the first failure; doubled after each further one. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** No try starts later than this after the first. */
  deadlineMs: number;
  /** One try's bound: a receiver slower than this counts as failed. */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = Object.freeze({
  attempts: 5,
  baseDelayMs: 2_000,
  maxDelayMs: 60_000,
  deadlineMs: 10 * 60_000,
  timeoutMs: 10_000,
});

/** The wait after failed try number `attempt` (1-based). */
export function retryDelay(attempt: number, policy: RetryPolicy): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
}

/**
 * After try `attempt` (started first at `firstAt`) failed at `now`: when to try again, or null to
 * give up.
 */
export function nextTryAt(attempt: number, firstAt: number, now: number, policy: RetryPolicy): number | null {
  if (attempt >= policy.attempts) return null;
  const at = now + retryDelay(attempt, policy);
  return at - firstAt > policy.deadlineMs ? null : at;
}
