/**
 * The job queue shared by `musicsync worker` processes: pg-boss 10 (PostgreSQL-backed; 11 and later
 * need Node 22), in its own schema of the state's database. One job is one run of one recipe.
 *
 * Why pg-boss over graphile-worker 0.16: a job whose worker died must go to another worker within
 * the lease the operator sets (pg-boss's per-queue `expireInSeconds`, checked by the supervisor of
 * any live worker), where graphile-worker 0.16 keeps a crashed worker's job locked for four hours.
 * pg-boss's singleton policies cannot be the per-account guard here — fetching a second job of a
 * busy key fails the whole fetch in 10.x — so an account's exclusivity comes from the engine's lock
 * (on PostgreSQL, a session advisory lock that dies with its worker): a job whose account is busy
 * is sent back with a short delay.
 */
import PgBoss from "pg-boss";
import { DEFAULT_RECONNECT, reconnecting } from "../state/pg/reconnect.js";

export const RUN_QUEUE = "musicsync-recipe-run";
/** pg-boss's tables live apart from the engine's, in this schema of the same database. */
export const QUEUE_SCHEMA = "musicsync_queue";

export type JobTrigger = "schedule" | "retry" | "manual";

/** What a job asks: one attempt of one recipe. */
export interface RunJob {
  recipeId: string;
  trigger: JobTrigger;
  /** 1 for a first attempt; a retry after a failed run counts up (the daemon's backoff). */
  attempt: number;
}

export interface QueueSettings {
  /** A job not finished within this many seconds is taken as its worker's death and retried. */
  leaseSeconds: number;
  /** How often a live worker looks for such jobs (pg-boss's supervisor). */
  superviseSeconds: number;
  /** How often an idle worker asks for a job. */
  pollSeconds: number;
}

export const DEFAULT_QUEUE_SETTINGS: QueueSettings = Object.freeze({
  leaseSeconds: 15 * 60,
  superviseSeconds: 30,
  pollSeconds: 2,
});

/**
 * pg-boss copies the queue's lease into each job as it is sent, so a job sent before this worker
 * set its lease (`musicsync enqueue` on a fresh database creates the queue with the default 15
 * minutes) would keep the old one: a worker killed on it would hold its recipe that long. The jobs
 * still waiting take the lease of the worker that starts (pg-boss 10's job table).
 */
async function leaseWaitingJobs(boss: PgBoss, leaseSeconds: number): Promise<void> {
  await boss.getDb().executeSql(
    `UPDATE ${QUEUE_SCHEMA}.job SET expire_in = make_interval(secs => $2)
        WHERE name = $1 AND state IN ('created', 'retry') AND expire_in <> make_interval(secs => $2)`,
    [RUN_QUEUE, leaseSeconds],
  );
}

/** A job's data as sent by an older or foreign sender is checked before it is trusted. */
export function runJobOf(data: unknown): RunJob | null {
  if (typeof data !== "object" || data === null) return null;
  const d = data as Record<string, unknown>;
  const triggers: readonly unknown[] = ["schedule", "retry", "manual"];
  if (typeof d.recipeId !== "string" || d.recipeId === "" || !triggers.includes(d.trigger)) return null;
  const attempt =
    typeof d.attempt === "number" && Number.isInteger(d.attempt) && d.attempt >= 1 ? d.attempt : 1;
  return { recipeId: d.recipeId, trigger: d.trigger as JobTrigger, attempt };
}

export interface JobQueue {
  readonly boss: PgBoss;
  /** Sends a run; `afterMs` delays it. Null when a run of the recipe is already waiting (none is added). */
  send(job: RunJob, afterMs?: number): Promise<string | null>;
  stop(): Promise<void>;
}

/**
 * Starts pg-boss on the state's database (installing or upgrading its schema: several workers may do
 * so at once) and makes sure the run queue exists; a worker passes its settings (the lease), a mere
 * sender null. Errors say what failed
 * without the URL (it may carry a password).
 */
export async function openQueue(
  url: string,
  given: QueueSettings | null,
  onError: (e: Error) => void,
): Promise<JobQueue> {
  const settings = given ?? DEFAULT_QUEUE_SETTINGS;
  const boss = new PgBoss({
    connectionString: url,
    schema: QUEUE_SCHEMA,
    application_name: given ? "musicsync worker" : "musicsync",
    // Only workers look for dead workers' jobs; a sender (`musicsync enqueue`) just sends.
    supervise: given !== null,
    maintenanceIntervalSeconds: settings.superviseSeconds,
    // pg-boss's own cron scheduling is not used: the workers' scheduler sends the runs (scheduler.ts).
    schedule: false,
  });
  boss.on("error", onError);
  await boss.start();
  const queue = {
    name: RUN_QUEUE,
    // One job per recipe waiting at a time: a schedule that fires while a run waits adds nothing.
    // (Every job carries its recipe as singletonKey: without one, all keyless jobs would share one slot.)
    policy: "short" as const,
    expireInSeconds: settings.leaseSeconds,
    // Retries here are for lost leases (a dead worker); failed runs retry through the daemon's backoff.
    // A job also comes back when a live worker's run outlasts the lease (pg-boss 10 cannot extend
    // one): its retry then finds the account busy and waits its turn. Enough turns for both.
    retryLimit: 10,
    retryDelay: 1,
    retentionMinutes: 60 * 24,
  };
  // A worker sets the lease it was given; a sender keeps whatever the workers set.
  if (!(await boss.getQueue(RUN_QUEUE))) await boss.createQueue(RUN_QUEUE, queue);
  else if (given) await boss.updateQueue(RUN_QUEUE, queue);
  if (given) await leaseWaitingJobs(boss, settings.leaseSeconds);
  return {
    boss,
    send(job, afterMs = 0) {
      // The queue's "short" policy keeps one waiting job per key: the recipe's id. A run asked for
      // while one of the recipe waits is that run (a job being worked on does not count). Sent
      // again while the database is unreachable a moment (a restart): a job must not be lost to it.
      const options = {
        singletonKey: job.recipeId,
        ...(afterMs > 0 ? { startAfter: new Date(Date.now() + afterMs) } : {}),
      };
      return reconnecting(() => boss.send(RUN_QUEUE, { ...job }, options), DEFAULT_RECONNECT);
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 5_000 });
    },
  };
}
