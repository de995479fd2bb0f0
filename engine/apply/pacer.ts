/**
 * Per-account write pacing and retries. The client never retries a write (it cannot know whether
 * the service acted); the engine can, for answers that say the request was not taken: 429 and the
 * 5xx statuses the service throttles with, honouring Retry-After and backing off exponentially.
 */
import { backoffStep, jittered, RETRYABLE_STATUSES } from "../../shared/retry.js";
import { RateLimitError, ServiceError } from "../../src/index.js";

export interface PacingOptions {
  /** Least time between two writes. */
  minIntervalMs: number;
  /** Most writes in any 60-second window (0 = no cap). */
  maxPerMinute: number;
  /** Attempts of one write, the first included. */
  attempts: number;
  /** First backoff step; doubled each retry, capped at maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_PACING: PacingOptions = Object.freeze({
  minIntervalMs: 1000,
  maxPerMinute: 30,
  attempts: 8,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
});

/**
 * The service sometimes throttles with HTTP 400 instead of 429 (docs/ENGINE.md#pacing):
 * told apart from a bad request by its status word or its message. Such a 400 did nothing, like a 429.
 */
const THROTTLE_WORDS = new Set(["RESOURCE_EXHAUSTED", "RATE_LIMIT_EXCEEDED"]);
const THROTTLE_TEXT = /\b(quota|rate.?limit|too many requests|throttl|exhausted|try again later)/i;

export function isThrottle400(error: unknown): boolean {
  if (!(error instanceof ServiceError) || error.status !== 400) return false;
  if (error.serviceStatus && THROTTLE_WORDS.has(error.serviceStatus)) return true;
  return THROTTLE_TEXT.test(error.serviceMessage ?? "");
}

/** A refusal that means "not now, and nothing was done": safe to send again. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof RateLimitError) return true;
  if (isThrottle400(error)) return true;
  return (
    error instanceof ServiceError && error.status !== undefined && RETRYABLE_STATUSES.includes(error.status)
  );
}

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface RetryNote {
  attempt: number;
  delayMs: number;
  error: unknown;
}

export class Pacer {
  private last = Number.NEGATIVE_INFINITY;
  private readonly window: number[] = [];
  /** Grows after each throttling answer, shrinks after each success: the account's own pace. */
  private penaltyMs = 0;
  /** Requests sent, retries included. */
  sent = 0;
  retries = 0;

  constructor(
    private readonly options: PacingOptions,
    private readonly clock: Clock = systemClock,
  ) {}

  private async slot(): Promise<void> {
    const o = this.options;
    let wait = this.last + o.minIntervalMs + this.penaltyMs - this.clock.now();
    if (o.maxPerMinute > 0) {
      const now = this.clock.now();
      while (this.window.length > 0 && now - this.window[0]! >= 60_000) this.window.shift();
      if (this.window.length >= o.maxPerMinute) wait = Math.max(wait, this.window[0]! + 60_000 - now);
    }
    if (wait > 0) await this.clock.sleep(wait);
    this.last = this.clock.now();
    if (o.maxPerMinute > 0) this.window.push(this.last);
  }

  /** Sends one write through the pace, retrying throttled attempts; throws the last error. */
  async send<T>(write: () => Promise<T>, onRetry?: (note: RetryNote) => void): Promise<T> {
    const o = this.options;
    for (let attempt = 1; ; attempt++) {
      await this.slot();
      this.sent += 1;
      try {
        const result = await write();
        this.penaltyMs = Math.floor(this.penaltyMs / 2);
        return result;
      } catch (error) {
        if (!isRetryable(error) || attempt >= o.attempts) throw error;
        const asked = error instanceof ServiceError ? error.retryAfterMs : undefined;
        const delayMs = jittered(backoffStep(attempt, o.baseDelayMs, o.maxDelayMs), asked);
        this.penaltyMs = Math.min(o.maxDelayMs, Math.max(this.penaltyMs * 2, o.baseDelayMs));
        this.retries += 1;
        onRetry?.({ attempt, delayMs, error });
        await this.clock.sleep(delayMs);
      }
    }
  }
}
