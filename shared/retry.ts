/**
 * Retrying with exponential backoff, written once for all who retry: the client's reads, the
 * engine's writes (apply/pacer.ts), notification deliveries and the daemon's failed runs. Pure: the
 * clock and the random source come in as arguments so that tests can pin them.
 *
 * Not undici's RetryAgent: the client retries reads only (a write may have been done), honours a
 * Retry-After past its backoff cap within a total budget, and reports each wait to its logger; the
 * other callers retry things that are not HTTP requests of undici's at all (a run, a delivery).
 */
export interface RetryPolicy {
  /** Total attempts of one read, the first included. */
  attempts: number;
  /** First backoff step; each retry doubles it. */
  baseDelayMs: number;
  /** Cap on one backoff step (a larger Retry-After is still honoured, within `totalMs`). */
  maxDelayMs: number;
  /** Give up rather than wait past this much time since the first attempt. */
  totalMs: number;
  /** HTTP statuses worth retrying. */
  statuses: readonly number[];
}

/** The answers that say "not now" without the service having acted: 429 and the throttling 5xx. */
export const RETRYABLE_STATUSES: readonly number[] = Object.freeze([429, 500, 502, 503, 504]);

export const DEFAULT_RETRY: RetryPolicy = Object.freeze({
  attempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  totalMs: 60_000,
  statuses: RETRYABLE_STATUSES,
});

/** Connection failures that mean the request may not have reached the service: safe to retry a read. */
export const RETRYABLE_NETWORK_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);

/** The backoff step after failed attempt number `attempt` (from 1): doubled each time, capped. */
export function backoffStep(attempt: number, baseDelayMs: number, maxDelayMs: number): number {
  return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, attempt - 1));
}

/**
 * A wait of about `step`: somewhere in its upper half, so that callers throttled together do not
 * come back together, and never shorter than the service's Retry-After.
 */
export function jittered(
  step: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number {
  return Math.max(Math.round(step * (0.5 + random() / 2)), retryAfterMs ?? 0);
}

/** What bounds a series of retries: attempts, the backoff's first and largest step, and total time. */
export type RetryBounds = Pick<RetryPolicy, "attempts" | "baseDelayMs" | "maxDelayMs" | "totalMs">;

/**
 * Milliseconds to wait before attempt number `attempt + 1` (attempt counts from 1), or `null` to stop:
 * out of attempts, or the wait would end past `totalMs` since the first attempt.
 */
export function retryDelay(
  policy: RetryBounds,
  attempt: number,
  elapsedMs: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | null {
  if (attempt >= policy.attempts) return null;
  const delay = jittered(backoffStep(attempt, policy.baseDelayMs, policy.maxDelayMs), retryAfterMs, random);
  if (elapsedMs + delay > policy.totalMs) return null;
  return delay;
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; `undefined` when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
