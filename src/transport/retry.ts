/**
 * When and how long to wait before retrying a read. Pure: the clock and the random source come in
 * as arguments so that tests can pin them.
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

export const DEFAULT_RETRY: RetryPolicy = Object.freeze({
  attempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  totalMs: 60_000,
  statuses: Object.freeze([429, 500, 502, 503, 504]),
});

/** Connection failures that mean the request may not have reached the service: safe to retry a read. */
export const RETRYABLE_NETWORK_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);

/**
 * Milliseconds to wait before attempt number `attempt + 1` (attempt counts from 1), or `null` to stop.
 * Exponential backoff with full jitter, never shorter than the service's Retry-After.
 */
export function retryDelay(
  policy: RetryPolicy,
  attempt: number,
  elapsedMs: number,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | null {
  if (attempt >= policy.attempts) return null;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const backoff = Math.round(ceiling * (0.5 + random() / 2));
  const delay = Math.max(backoff, retryAfterMs ?? 0);
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
