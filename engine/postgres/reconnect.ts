/**
 * A call that cannot reach the server (a restart, a failover, a pooler) is tried again, with growing
 * waits, for a bounded time: a write the service confirmed must not be lost to a database that
 * blinked. Other errors go to the caller at once. Safe: a statement cut off with its connection is
 * rolled back unless its commit had arrived, and every write is idempotent (upsert, mark, delete by
 * key) or, in that window, only costs a duplicate run record or attempt count.
 */
import { isConnectionError } from "./errors.js";

export interface Reconnect {
  /** How long, from the first failure, a call keeps trying; 0 never tries again. */
  forMs: number;
  /** The first wait; doubled each time, up to maxDelayMs. */
  firstDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RECONNECT: Reconnect = Object.freeze({
  forMs: 30_000,
  firstDelayMs: 250,
  maxDelayMs: 4_000,
});

/** `call`, tried again while it fails to reach the server (`lost` says which errors), until `policy.forMs` has passed. */
export async function reconnecting<T>(
  call: () => Promise<T>,
  policy: Reconnect,
  now: () => number = Date.now,
  lost: (e: unknown) => boolean = isConnectionError,
): Promise<T> {
  let deadline: number | null = null;
  for (let delay = policy.firstDelayMs; ; delay = Math.min(delay * 2, policy.maxDelayMs)) {
    try {
      return await call();
    } catch (e) {
      if (!lost(e)) throw e;
      deadline ??= now() + policy.forMs;
      const left = deadline - now();
      if (left <= 0) throw e;
      await new Promise((resolve) => setTimeout(resolve, Math.min(delay, left)));
    }
  }
}
