/**
 * `musicsync worker`: takes recipe runs from the shared queue (queue.ts) and runs each as the daemon
 * would — the same attempt, the same records, backoff and suspension — through a Daemon in queued
 * mode. Any number of workers on any machines may share one PostgreSQL state:
 * - one account is never written by two at once: the engine's account lock (on PostgreSQL, a session
 *   advisory lock that ends with its worker) is taken for every run; a job whose account is busy goes
 *   back to the queue with a short delay;
 * - a worker keeps its job's lease while its run goes on, however long (pg-boss's heartbeat, sent
 *   while the handler runs); a worker that dies stops it, and pg-boss gives the job to another
 *   worker, whose run reconciles what the dead one sent through the journal;
 * - SIGTERM: no new job; the write in flight finishes; an interrupted run goes back to the queue.
 */
import { randomInt } from "node:crypto";
import type { AttemptEvent, Daemon } from "../daemon/daemon.js";
import type { EngineLogger } from "../run/logger.js";
import { type JobQueue, RUN_QUEUE, type RunJob, type RunJobOf, runJobOf } from "./queue.js";
import { nextScheduled, SchedulerSession, scheduleTick } from "./scheduler.js";

export interface WorkerOptions {
  /** Jobs this process runs at once (each of a different account). */
  concurrency: number;
  /** How often the schedule is looked at; 0: this worker never sends scheduled runs. */
  tickMs: number;
  /** A busy account's job comes back after about this long. */
  busyRetryMs: number;
  leaseMs: number;
  pollSeconds: number;
}

export interface WorkerDeps {
  daemon: Daemon;
  queue: JobQueue;
  logger: EngineLogger;
  /** The state's PostgreSQL URL (for the scheduler's own connection). */
  stateUrl: string;
  options: WorkerOptions;
  /** Called after each job (tests and the benchmark count them). */
  onJob?: (job: RunJob, event: AttemptEvent | null, next: "done" | "retry" | "requeued") => void;
}

export class Worker {
  private readonly running = new Set<Promise<void>>();
  private ticker: NodeJS.Timeout | null = null;
  private session: SchedulerSession | null = null;
  private ticking: Promise<unknown> = Promise.resolve();
  private stopping = false;
  /** The start under way, settled either way: a stop waits for it before it undoes what it began. */
  private starting: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: WorkerDeps) {}

  /**
   * A start that fails part-way (the database refusing connections while the recipes load, say)
   * undoes what it began before it throws: the queue's polling and the daemon's timers would keep
   * the process alive as half a worker, taking jobs without a scheduler or a SIGTERM handler.
   */
  async start(): Promise<void> {
    const begun = this.begin();
    this.starting = begun.catch(() => undefined);
    try {
      await begun;
    } catch (e) {
      await this.stop("start failed").catch(() => undefined);
      throw e;
    }
  }

  private async begin(): Promise<void> {
    const { daemon, queue, options, logger } = this.deps;
    await daemon.start();
    // Told to stop while the recipes loaded (SIGTERM to a worker just started): it takes no job.
    if (this.stopping) return;
    for (let i = 0; i < options.concurrency; i++) {
      let slot = "";
      slot = await queue.boss.work<RunJob>(
        RUN_QUEUE,
        { batchSize: 1, pollingIntervalSeconds: options.pollSeconds },
        async (jobs) => {
          await this.track(Promise.all(jobs.map((j) => this.handle(j))).then(() => {}));
          // pg-boss waits out the polling interval after every fetch; after a job, the next may be
          // waiting already, so ask again at once (the interval then only paces an idle worker).
          if (jobs.length > 0 && slot !== "") queue.boss.notifyWorker(slot);
        },
      );
    }
    if (options.tickMs > 0) this.startScheduler();
    logger.info(
      { holder: daemon.holder, recipes: daemon.loaded().length, concurrency: options.concurrency },
      "worker started",
    );
  }

  private track(p: Promise<void>): Promise<void> {
    this.running.add(p);
    void p.finally(() => this.running.delete(p)).catch(() => {});
    return p;
  }

  private startScheduler(): void {
    const { daemon, queue, options, stateUrl, logger } = this.deps;
    // A lost connection stops this worker's scheduling until its next tick connects again; another
    // worker's tick may take over meanwhile. The first connection is the first tick's too: one
    // refused at start is the same passing outage, not a reason to start without a scheduler.
    const sessions = new SchedulerSession(stateUrl, (e) =>
      logger.warn({ error: e.message }, "scheduler connection lost"),
    );
    this.session = sessions;
    let busy = false;
    const tick = () => {
      // A session's advisory lock is re-entrant: two ticks of one worker at once would both hold it.
      if (this.stopping || busy) return;
      busy = true;
      this.ticking = sessions
        .get()
        .then((session) =>
          scheduleTick({
            state: daemon.state,
            queue,
            session,
            recipes: () => daemon.loaded(),
            holder: daemon.holder,
            leaseMs: options.leaseMs,
            now: () => Date.now(),
          }),
        )
        .catch((e: unknown) => logger.warn({ error: String(e) }, "scheduling failed"))
        .finally(() => {
          busy = false;
        });
    };
    tick();
    this.ticker = setInterval(tick, options.tickMs);
  }

  /** One job: one attempt, then what follows from it (a retry, the job sent back, the next time). */
  private async handle(job: RunJobOf): Promise<void> {
    const { daemon, logger } = this.deps;
    const data = runJobOf(job.data);
    if (!data) {
      logger.warn({ job: job.id }, "a job that is not a recipe run was dropped");
      return;
    }
    const account = daemon.loaded().find((l) => l.recipe.id === data.recipeId)?.recipe.account;
    if (account !== undefined && daemon.busy(account)) {
      // This process already runs the account: waiting here would hold a slot another account could use.
      await this.sendBack(data);
      this.deps.onJob?.(data, null, "requeued");
      return;
    }
    let event = await daemon.attemptOnce(data.recipeId, data.trigger, data.attempt);
    if (event === null && !this.stopping && !daemon.shutdown.requested) {
      // Perhaps a recipe added since this worker loaded its recipes.
      await daemon.reload();
      event = await daemon.attemptOnce(data.recipeId, data.trigger, data.attempt);
      if (event === null) {
        await this.unknownRecipe(data, job.id);
        return;
      }
    }
    // Not inside `onJob?.(…)`: an optional call evaluates its arguments only when there is a callee.
    const next = await this.follow(data, event);
    this.deps.onJob?.(data, event, next);
  }

  /**
   * A job for a recipe this worker's project does not have (another project's `enqueue`, a recipe
   * that does not load here): never dropped unseen. The job fails in the queue, which gives it to a
   * worker again (one whose project has it may take it) up to its retry limit; and the recipe's
   * status says why it did not run.
   */
  private async unknownRecipe(data: RunJob, jobId: string): Promise<never> {
    const { daemon, logger } = this.deps;
    const why = `no recipe ${data.recipeId} in the project of worker ${daemon.holder}`;
    logger.warn({ recipe: data.recipeId, job: jobId }, "no such recipe in this worker's project: job failed");
    await daemon.state
      .setCondition(
        data.recipeId,
        {
          type: "Ready",
          status: "False",
          reason: "UnknownToWorker",
          message: `${why}: the job was given back to the queue; each worker must have the recipe`,
        },
        Date.now(),
      )
      .catch((e: unknown) => logger.warn({ error: String(e) }, "cannot record the unknown recipe"));
    this.deps.onJob?.(data, null, "done");
    throw new Error(why);
  }

  private async follow(data: RunJob, event: AttemptEvent | null): Promise<"done" | "retry" | "requeued"> {
    const { daemon, queue } = this.deps;
    // Stopping (no run made, or cut short after its write in flight), or the account busy: the
    // run goes back to the queue for whichever worker is free.
    if (event === null || event.outcome === "interrupted") {
      await queue.send(data);
      return "requeued";
    }
    if (event.outcome === "locked") {
      await this.sendBack(data);
      return "requeued";
    }
    const loaded = daemon.loaded().find((l) => l.recipe.id === data.recipeId);
    const delay = loaded ? await daemon.retryDelay(event, loaded) : null;
    if (delay !== null) {
      await queue.send({ recipeId: data.recipeId, trigger: "retry", attempt: data.attempt + 1 }, delay);
      return "retry";
    }
    if (loaded?.recipe.schedule && !daemon.shutdown.requested) {
      await daemon.noteNextRun(data.recipeId, nextScheduled(loaded));
    }
    return "done";
  }

  /** A busy account's run goes back to the queue, after about busyRetryMs (jittered, so clashes spread). */
  private async sendBack(data: RunJob): Promise<void> {
    const { busyRetryMs } = this.deps.options;
    await this.deps.queue.send(data, busyRetryMs / 2 + randomInt(Math.max(1, busyRetryMs)));
  }

  /** SIGTERM: the write in flight finishes, interrupted runs go back to the queue, then all closes. */
  async stop(signal = "SIGTERM"): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    const { daemon, queue, logger } = this.deps;
    logger.info({ signal, running: this.running.size }, "worker stopping");
    // Stopping the queue under a start still registering its slots would make the start throw
    // (pg-boss refuses work() once stopped), and the worker exit as if it had failed: the start
    // ends first, then what it began is undone below.
    await this.starting;
    if (this.ticker) clearInterval(this.ticker);
    await this.ticking;
    // No new job; the runs in hand are interrupted below (waiting for them here would let them finish).
    await queue.boss.offWork(RUN_QUEUE, { wait: false });
    await daemon.stop(signal);
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
    await this.session?.end();
    await queue.stop();
    logger.info({ signal }, "worker stopped");
  }
}
