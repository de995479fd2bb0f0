/**
 * The job queue shared by `musicsync worker` processes: pg-boss 12 (PostgreSQL-backed), in its own
 * schema of the state's database. One job is one run of one recipe.
 *
 * Why pg-boss over graphile-worker: a job whose worker died must go to another worker within the
 * lease the operator sets, and a live worker's run must keep its job however long it takes. pg-boss
 * 12 does both: the worker's heartbeat (`heartbeatSeconds`, refreshed by `work()` while the handler
 * runs) is the lease, and the supervisor of any live worker fails a job whose heartbeat stopped.
 * A job's singleton key is its recipe (one waiting run per recipe), not its account, so an account's
 * exclusivity comes from the engine's lock (on PostgreSQL, a session advisory lock that dies with
 * its worker): a job whose account is busy is sent back with a short delay.
 */
import type pg from "pg";
import { type Job, PgBoss } from "pg-boss";
import { HeardClient } from "../postgres/pool.js";
import { DEFAULT_RECONNECT, reconnecting } from "../postgres/reconnect.js";
import { carryOverOldQueue, setAsideOldQueue } from "./queue-upgrade.js";
import { DEFAULT_QUEUE_SETTINGS, type QueueSettings } from "./settings.js";

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

/**
 * The longest a run may hold its job even with a live heartbeat (pg-boss's maximum expiry): only a
 * run stuck that long is given to another worker, whose run then waits for the account's lock.
 */
export const RUN_LIMIT_SECONDS = 24 * 60 * 60;

/**
 * pg-boss copies the queue's heartbeat and expiry into each job as it is sent, so a job sent before
 * this worker set its lease (`musicsync enqueue` on a fresh database creates the queue with the
 * default) would keep the old one: a worker killed on it would hold its recipe that long. The jobs
 * still waiting take the lease of the worker that starts (pg-boss 12's job table).
 */
async function leaseWaitingJobs(boss: PgBoss, leaseSeconds: number): Promise<void> {
  await boss.getDb().executeSql(
    `UPDATE ${QUEUE_SCHEMA}.job SET heartbeat_seconds = $2, expire_seconds = $3
        WHERE name = $1 AND state IN ('created', 'retry')
          AND (heartbeat_seconds IS DISTINCT FROM $2 OR expire_seconds <> $3)`,
    [RUN_QUEUE, leaseSeconds, RUN_LIMIT_SECONDS],
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
  /** Runs carried over from a pg-boss 10 queue as this queue opened (queue-upgrade.ts); usually 0. */
  readonly carriedOver: number;
  /** Sends a run; `afterMs` delays it. Null when a run of the recipe is already waiting (none is added). */
  send(job: RunJob, afterMs?: number): Promise<string | null>;
  stop(): Promise<void>;
}

/** pg-boss's options, with those it hands on to node-postgres's pool that its types do not name. */
type QueueOptions = ConstructorParameters<typeof PgBoss>[0] & { Client: typeof pg.Client };

/** The run queue's settings for a lease (the same for creating the queue and updating it). */
function runQueueOptions(leaseSeconds: number) {
  return {
    heartbeatSeconds: leaseSeconds,
    expireInSeconds: RUN_LIMIT_SECONDS,
    // Retries here are for lost leases (a dead worker) and for runs of a recipe a worker does not
    // have (worker.ts); failed runs retry through the daemon's backoff.
    retryLimit: 10,
    retryDelay: 1,
    // A run waiting (or delayed) longer than a day is dropped: the schedule sends the next one.
    retentionSeconds: 24 * 60 * 60,
  };
}

/**
 * Starts pg-boss on the state's database (installing or upgrading its schema: several workers may do
 * so at once; a pg-boss 10 schema is set aside and its waiting runs carried over, queue-upgrade.ts)
 * and makes sure the run queue exists; a worker passes its settings (the lease), a mere sender
 * null. Errors say what failed without the URL (it may carry a password).
 */
export async function openQueue(
  url: string,
  given: QueueSettings | null,
  onError: (e: Error) => void,
): Promise<JobQueue> {
  const settings = given ?? DEFAULT_QUEUE_SETTINGS;
  await setAsideOldQueue(url, QUEUE_SCHEMA);
  const options: QueueOptions = {
    connectionString: url,
    // Handed on to its pool (pg.Pool's option): a checked-out client's lost session is heard.
    Client: HeardClient,
    schema: QUEUE_SCHEMA,
    application_name: given ? "musicsync worker" : "musicsync",
    // Only workers look for dead workers' jobs; a sender (`musicsync enqueue`) just sends.
    supervise: given !== null,
    // The supervisor's pass, and the check for stopped heartbeats within it, a few times per lease.
    superviseIntervalSeconds: settings.superviseSeconds,
    monitorIntervalSeconds: settings.superviseSeconds,
    // pg-boss's own cron scheduling is not used: the workers' scheduler sends the runs (scheduler.ts).
    schedule: false,
  };
  const boss = new PgBoss(options);
  boss.on("error", onError);
  await boss.start();
  try {
    return await readyQueue(boss, url, given, settings);
  } catch (e) {
    // A queue that cannot be made ready must not keep the process alive through pg-boss's timers.
    await boss.stop({ graceful: false, timeout: 1_000 }).catch(() => undefined);
    throw e;
  }
}

/** The run queue created or updated, the old queue's runs carried over: the queue ready to use. */
async function readyQueue(
  boss: PgBoss,
  url: string,
  given: QueueSettings | null,
  settings: QueueSettings,
): Promise<JobQueue> {
  const options = runQueueOptions(settings.leaseSeconds);
  // One job per recipe waiting at a time: a schedule that fires while a run waits adds nothing.
  // (Every job carries its recipe as singletonKey: without one, all keyless jobs would share one slot.)
  // A worker sets the lease it was given; a sender keeps whatever the workers set.
  if (!(await boss.getQueue(RUN_QUEUE))) await boss.createQueue(RUN_QUEUE, { policy: "short", ...options });
  else if (given) await boss.updateQueue(RUN_QUEUE, options);
  if (given) await leaseWaitingJobs(boss, settings.leaseSeconds);
  const send = (job: RunJob, afterMs = 0) => {
    // The queue's "short" policy keeps one waiting job per key: the recipe's id. A run asked for
    // while one of the recipe waits is that run (a job being worked on does not count). Sent
    // again while the database is unreachable a moment (a restart): a job must not be lost to it.
    const options = {
      singletonKey: job.recipeId,
      ...(afterMs > 0 ? { startAfter: new Date(Date.now() + afterMs) } : {}),
    };
    return reconnecting(() => boss.send(RUN_QUEUE, { ...job }, options), DEFAULT_RECONNECT);
  };
  const carriedOver = await carryOverOldQueue(url, QUEUE_SCHEMA, RUN_QUEUE, async (data, afterMs) => {
    const job = runJobOf(data);
    // Sent, or a run of the recipe waits already (null): either way the new queue has it.
    if (job) await send(job, afterMs);
    return job !== null;
  });
  return {
    boss,
    carriedOver,
    send,
    async stop() {
      await boss.stop({ graceful: true, timeout: 5_000 });
    },
  };
}

/** A job as a worker's handler receives it. */
export type RunJobOf = Job<RunJob>;
