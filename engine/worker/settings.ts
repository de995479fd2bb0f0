/**
 * The job queue's timings, apart from queue.ts: `musicsync worker` checks its flags against them
 * before it loads pg-boss and the engine, so that a wrong flag is refused at once.
 */

export interface QueueSettings {
  /**
   * A job whose worker has not been heard from for this many seconds is taken as its worker's
   * death and retried. The worker's heartbeat renews it every half lease while a run goes on, so a
   * run may take longer. At least MIN_LEASE_SECONDS.
   */
  leaseSeconds: number;
  /** How often a live worker looks for such jobs (pg-boss's supervisor). */
  superviseSeconds: number;
  /** How often an idle worker asks for a job. */
  pollSeconds: number;
}

/** pg-boss refuses a heartbeat shorter than this. */
export const MIN_LEASE_SECONDS = 10;

export const DEFAULT_QUEUE_SETTINGS: QueueSettings = Object.freeze({
  leaseSeconds: 60,
  superviseSeconds: 20,
  pollSeconds: 2,
});
