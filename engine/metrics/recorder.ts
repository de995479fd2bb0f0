/**
 * What the daemon tells the metrics, as a small interface with a do-nothing default. The daemon and
 * the notifications call it always; only a process that serves `/metrics` swaps in the Prometheus
 * recorder (engine/metrics/prometheus.ts, loaded on demand), so that every other command neither
 * loads prom-client nor pays more than an empty call for a count nobody reads.
 */
import type { ActionPhase } from "../apply/context.js";
import type { StatusReport } from "../status/status.js";

export type RequestKind = "read" | "write";

export interface MetricsRecorder {
  /** One attempt of a recipe ended; `seconds` is null when it never ran (suspended). */
  run(recipe: string, result: string, seconds: number | null): void;
  /** An action's batch reached a phase (sent, then confirmed, failed or unknown). */
  action(kind: string, phase: ActionPhase): void;
  /** A client operation left for the service (a paged read counts once). */
  request(account: string, kind: RequestKind): void;
  /** A write is sent again after an answer that said "not now". */
  retry(account: string): void;
  /** The service answered a write with a rate limit (429, or a throttling 400). */
  rateLimited(account: string): void;
  /** A run found the account's lock held by another process and began to wait. */
  lockWaiting(account: string): void;
  /** That wait ended (the lock taken, or the wait given up), after `seconds`. */
  lockWaited(account: string, seconds: number): void;
  /** A notification was delivered (ok) or given up on. */
  notification(target: string, ok: boolean): void;
}

const NOTHING = (): void => {};

export const NO_METRICS: MetricsRecorder = Object.freeze({
  run: NOTHING,
  action: NOTHING,
  request: NOTHING,
  retry: NOTHING,
  rateLimited: NOTHING,
  lockWaiting: NOTHING,
  lockWaited: NOTHING,
  notification: NOTHING,
});

let current: MetricsRecorder = NO_METRICS;

/** Where the gauges (suspensions, credentials, last success) are read from when scraped. */
export type StatusSource = () => Promise<StatusReport>;

let source: StatusSource | null = null;

/** The recorder in use (the do-nothing one until metrics are enabled). */
export function metrics(): MetricsRecorder {
  return current;
}

export function setRecorder(recorder: MetricsRecorder): void {
  current = recorder;
}

/**
 * The gauges say what the state says at the moment of the scrape (a `musicsync resume` by another
 * process shows at once), so whoever holds the state registers how to read it: the daemon, or a
 * `serve` without one. Returns a function that unregisters it (if it is still the one in use).
 */
export function setStatusSource(read: StatusSource): () => void {
  source = read;
  return () => {
    if (source === read) source = null;
  };
}

export function statusSource(): StatusSource | null {
  return source;
}
