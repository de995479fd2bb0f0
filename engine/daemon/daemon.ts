/**
 * `musicsync daemon`: each recipe with a `schedule` runs on it (node-cron, in the recipe's time zone,
 * with its jitter) through the same `syncRecipe` as `musicsync sync`. The recipes of one account run
 * one at a time (in this process through a queue, across processes through the account's lock in
 * the state database, waited for); a failed run is retried with backoff and, after N failures in a
 * row, the recipe is suspended; expired credentials suspend every recipe of the account at once.
 * `musicsync resume` lifts a suspension through the state, which the daemon reads before each run.
 */
import { hostname } from "node:os";
import { schedule as cronSchedule, type ScheduledTask } from "node-cron";
import { backoffStep } from "../../shared/retry.js";
import { AuthError, ErrorCodes } from "../../src/index.js";
import type { ActionEvent } from "../apply/apply.js";
import type { EngineClient } from "../apply/client.js";
import { systemClock } from "../apply/pacer.js";
import { countedClient, countedPacer } from "../metrics/counted.js";
import { metrics, setStatusSource } from "../metrics/recorder.js";
import { formatIssue, type RecipeIssue } from "../recipe/errors.js";
import type { LoadedRecipe } from "../recipe/types.js";
import { createEnv, type EnvOptions } from "../run/env.js";
import type { EngineLogger } from "../run/logger.js";
import { type EngineEnv, LockedError, type Outcome, type RecipeRun, syncRecipe } from "../run/runner.js";
import { SourceError } from "../sources/read.js";
import type { ConditionType, EngineState } from "../state/types.js";
import { collectStatus } from "../status/status.js";
import { AccountQueue } from "./account-queue.js";
import { mergeReload, type Reload } from "./recipes.js";
import { InterruptedError, Shutdown } from "./shutdown.js";

export interface DaemonOptions {
  /** Attempts after a failed run before the recipe waits for its next scheduled time. */
  retries: number;
  /** First retry delay; doubled for each further retry, capped at maxRetryDelayMs. */
  retryDelayMs: number;
  maxRetryDelayMs: number;
  /** Failed runs in a row after which a recipe is suspended (default: the project's pacing). */
  suspendAfter: number;
  /** How often to try again for an account another process holds the lock of. */
  lockWaitMs: number;
  /** A lock whose heartbeat is older than this is taken over. */
  lockStaleMs: number;
}

export const DEFAULT_DAEMON_OPTIONS: DaemonOptions = Object.freeze({
  retries: 3,
  retryDelayMs: 30_000,
  maxRetryDelayMs: 15 * 60_000,
  suspendAfter: 5,
  lockWaitMs: 5_000,
  lockStaleMs: 5 * 60_000,
});

export type RunTrigger = "schedule" | "retry" | "manual";

/** What became of one attempt of one recipe. */
export interface AttemptEvent {
  recipeId: string;
  account: string;
  runId: number | null;
  trigger: RunTrigger;
  attempt: number;
  /** The runner's outcome, or what stopped the attempt before it had one. */
  outcome: Outcome | "interrupted" | "suspended";
  error: string | null;
  startedAt: number;
  finishedAt: number;
}

/** What an attempt's event says of it. */
interface AttemptResult {
  outcome: AttemptEvent["outcome"];
  error: string | null;
}

/** One attempt's run as it ended, for recording. */
interface Ended {
  loaded: LoadedRecipe;
  run: RecipeRun | null;
  /** What the run threw (null when it returned). */
  error: unknown;
  runId: number | null;
  outcome: Outcome | null;
  /** The error, or the run's own account of what kept it from converging. */
  why: string | null;
  /** The fields every log line of the attempt carries. */
  log: { recipe: string; account: string; run: number | null; trigger: RunTrigger; attempt: number };
  requests: number;
  durationMs: number;
  /** The recipe had no failure counted when the attempt began: a success has nothing to record. */
  healthy: boolean;
}

export interface DaemonDeps {
  /** How to build the engine's environment (the daemon adds its stop-aware clock). */
  envOptions: EnvOptions;
  logger: EngineLogger;
  /** Reads the recipes (at start and on every reload). */
  load(): Promise<{ recipes: LoadedRecipe[]; issues: RecipeIssue[] }>;
  options?: Partial<DaemonOptions>;
  /** Wraps each account's client (tests use it to slow or fail requests). */
  wrapClient?: (client: EngineClient, account: string) => EngineClient;
  onAttempt?: (event: AttemptEvent) => void;
  /**
   * A worker (engine/worker/) runs recipes as a job queue hands them out: no cron of its own
   * (false), and an account another process holds is given back at once (the job is sent again)
   * instead of waited for. Default: the daemon's own schedules, waiting for locks.
   */
  queued?: boolean;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function expired(e: unknown): boolean {
  return e instanceof AuthError && e.code === ErrorCodes.AUTH_EXPIRED;
}

export class Daemon {
  readonly options: DaemonOptions;
  readonly shutdown = new Shutdown();
  readonly holder = `${hostname()}:${process.pid}`;
  readonly env: EngineEnv & { close(): Promise<void> };
  private readonly logger: EngineLogger;
  private readonly recipes = new Map<string, LoadedRecipe>();
  private readonly tasks = new Map<string, ScheduledTask>();
  private readonly queue = new AccountQueue();
  /** The run each recipe's current attempt started (seen as the runner starts it). */
  private readonly currentRun = new Map<string, number>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private keepAlive: NodeJS.Timeout | null = null;
  /** Stops the metrics' gauges reading this daemon's state. */
  private unwatch: (() => void) | null = null;
  private finished!: () => void;
  /** Settles once `stop` has let the write in flight finish and released everything. */
  readonly done: Promise<void>;

  constructor(private readonly deps: DaemonDeps) {
    this.logger = deps.logger;
    const { envOptions } = deps;
    this.options = {
      ...DEFAULT_DAEMON_OPTIONS,
      suspendAfter: envOptions.project.pacing.suspend_after_failures,
      ...deps.options,
    };
    this.done = new Promise((resolve) => {
      this.finished = resolve;
    });
    const base = createEnv({
      ...envOptions,
      clock: this.shutdown.clock(envOptions.clock ?? systemClock),
    });
    const clients = new Map<string, EngineClient>();
    this.env = {
      ...base,
      state: this.watchRuns(base.state),
      logger: this.logger,
      clientFor: (name) => {
        let client = clients.get(name);
        if (!client) {
          const inner = countedClient(base.clientFor(name), name);
          client = this.shutdown.guard(deps.wrapClient ? deps.wrapClient(inner, name) : inner);
          clients.set(name, client);
        }
        return client;
      },
      pacerFor: (name, purpose) => countedPacer(base.pacerFor(name, purpose), name),
      onAction: (e) => {
        envOptions.onAction?.(e);
        metrics().action(e.kind, e.phase);
        this.logBatch(e);
      },
      // The account-wide count is not the daemon's measure: one bad recipe must not stop the others.
      // The account is suspended at once on expired credentials; a recipe after its own failures.
      suspendAfterFailures: Number.MAX_SAFE_INTEGER,
      lockStaleMs: this.options.lockStaleMs,
    };
  }

  get state(): EngineState {
    return this.env.state;
  }

  /** Loads the recipes and schedules them; resolves once they are scheduled. */
  async start(): Promise<Reload> {
    // The cron timers of recipes keep the process alive; this one does when none has a schedule.
    this.keepAlive = setInterval(() => {}, 1 << 30);
    this.unwatch = setStatusSource(() => collectStatus(this.state, this.loaded(), this.env.clock.now()));
    const r = await this.reload("start");
    this.logger.info(
      {
        holder: this.holder,
        recipes: r.recipes.length,
        scheduled: [...this.tasks.keys()],
        manual: r.recipes.filter((x) => !x.recipe.schedule).map((x) => x.recipe.id),
      },
      "daemon started",
    );
    return r;
  }

  /** SIGHUP: reads the recipes again; a file that no longer loads keeps its previous version. */
  async reload(why: "start" | "reload" = "reload"): Promise<Reload> {
    const loaded = await this.deps.load();
    const r = mergeReload([...this.recipes.values()], loaded);
    for (const issue of r.issues) {
      this.logger.error(
        { file: issue.file, line: issue.line, col: issue.col },
        `invalid recipe: ${formatIssue(issue)}`,
      );
    }
    for (const id of r.kept) {
      this.logger.warn(
        { recipe: id },
        "the recipe's new version does not load; its previous version keeps running",
      );
    }
    for (const id of r.removed) {
      const account = this.recipes.get(id)?.recipe.account ?? "";
      this.unschedule(id);
      this.recipes.delete(id);
      await this.state
        .setNextRun(id, account, { at: null, reason: null, by: null }, this.env.clock.now())
        .catch(() => {});
    }
    for (const recipe of r.recipes) {
      const id = recipe.recipe.id;
      const changed = r.added.includes(id) || r.changed.includes(id);
      this.recipes.set(id, recipe);
      if (changed && !this.shutdown.requested && !this.deps.queued) {
        this.unschedule(id);
        this.scheduleRecipe(recipe);
      }
    }
    if (why === "reload") {
      this.logger.info(
        { added: r.added, changed: r.changed, removed: r.removed, kept: r.kept, invalid: r.issues.length },
        "recipes reloaded",
      );
    }
    return r;
  }

  /** The recipes as currently running. */
  loaded(): LoadedRecipe[] {
    return [...this.recipes.values()];
  }

  /** When the recipe runs next on its schedule (before jitter); null without one. */
  nextRun(recipeId: string): Date | null {
    return this.tasks.get(recipeId)?.getNextRun() ?? null;
  }

  private scheduleRecipe(loaded: LoadedRecipe): void {
    const s = loaded.recipe.schedule;
    if (!s) return;
    const id = loaded.recipe.id;
    const log = this.logger.child({ recipe: id, component: "cron" });
    const task = cronSchedule(s.cron, () => this.trigger(id, "schedule"), {
      name: `musicsync:${id}`,
      ...(s.timezone ? { timezone: s.timezone } : {}),
      ...(s.jitter_seconds ? { maxRandomDelay: s.jitter_seconds * 1000 } : {}),
      // A recipe still running (or retrying) when its next time comes skips that time.
      noOverlap: true,
      logger: {
        info: (m) => log.debug({}, m),
        warn: (m) => log.debug({}, m),
        error: (m) => log.error({}, String(m)),
        debug: (m) => log.debug({}, String(m)),
      },
    });
    this.tasks.set(id, task);
    void this.planNext(loaded);
  }

  private unschedule(id: string): void {
    const task = this.tasks.get(id);
    if (!task) return;
    void task.destroy();
    this.tasks.delete(id);
  }

  /** Notes the next scheduled time for `status`; a failure to note it never stops the daemon. */
  private async planNext(loaded: LoadedRecipe): Promise<void> {
    const next = this.nextRun(loaded.recipe.id);
    try {
      await this.state.setNextRun(
        loaded.recipe.id,
        loaded.recipe.account,
        { at: next?.getTime() ?? null, reason: next ? "schedule" : null, by: next ? this.holder : null },
        this.env.clock.now(),
      );
    } catch (e) {
      this.logger.warn({ recipe: loaded.recipe.id, error: errorText(e) }, "could not record the next run");
    }
  }

  /**
   * Runs a recipe now (its schedule calls this), with retries; resolves when it and its retries are
   * done. Waits behind any run of the same account.
   */
  trigger(recipeId: string, trigger: RunTrigger = "manual"): Promise<AttemptEvent[]> {
    if (!this.recipes.has(recipeId) || this.shutdown.requested) return Promise.resolve([]);
    const p = this.attempts(recipeId, trigger);
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p)).catch(() => {});
    return p;
  }

  private async attempts(recipeId: string, trigger: RunTrigger): Promise<AttemptEvent[]> {
    const events: AttemptEvent[] = [];
    for (let attempt = 1; ; attempt++) {
      const loaded = this.recipes.get(recipeId);
      if (!loaded || this.shutdown.requested) break;
      // One attempt at a time per account; the backoff below is waited outside the queue, so the
      // account's other recipes run meanwhile.
      const kind = attempt === 1 ? trigger : "retry";
      const event = await this.queue.run(loaded.recipe.account, () =>
        this.attempt(loaded, kind, attempt).catch((e: unknown) => {
          // Recording the outcome failed (the state database unwritable…): log it, go on.
          this.logger.error({ recipe: recipeId, error: errorText(e) }, "run could not be recorded");
          const at = this.env.clock.now();
          return {
            recipeId,
            account: loaded.recipe.account,
            runId: this.currentRun.get(recipeId) ?? null,
            trigger: kind,
            attempt,
            outcome: "failed" as const,
            error: errorText(e),
            startedAt: at,
            finishedAt: at,
          };
        }),
      );
      events.push(event);
      this.noteAttempt(event);
      // Deciding reads the state: unreachable past its retries, the recipe waits for its next time
      // (a rejection here would end the process, through a manual trigger nobody awaits).
      const delay = await this.retryDelay(event, loaded).catch((e: unknown) => {
        this.logger.error({ recipe: recipeId, error: errorText(e) }, "no retry could be planned");
        return null;
      });
      if (delay === null) break;
      if (!(await this.shutdown.sleep(delay, this.env.clock))) break;
    }
    const current = this.recipes.get(recipeId);
    if (current && !this.shutdown.requested) await this.planNext(current);
    return events;
  }

  private noteAttempt(event: AttemptEvent): void {
    this.deps.onAttempt?.(event);
    const ran = event.outcome !== "suspended";
    metrics().run(event.recipeId, event.outcome, ran ? (event.finishedAt - event.startedAt) / 1000 : null);
  }

  /**
   * After an attempt: how long to wait before the next one (noted as the recipe's next run), or
   * null when there is none to make — it did not fail, its retries are spent, it is suspended, or
   * the process is stopping. Backoff doubles from retryDelayMs up to maxRetryDelayMs.
   */
  async retryDelay(event: AttemptEvent, loaded: LoadedRecipe): Promise<number | null> {
    // A plan held for approval is no failure: retrying would only hold it again. A run interrupted
    // by a lost lock is tried again like a failed one (a stop's interruption never is: see below).
    const failed = !["converged", "no_changes", "suspended", "locked", "pending_approval"].includes(
      event.outcome,
    );
    const attempt = event.attempt;
    if (!failed || attempt > this.options.retries || this.shutdown.requested) return null;
    // Suspended by this failure (its own count, or the account's expired credentials): no retry.
    if ((await this.suspension(loaded)).why !== null) return null;
    const delay = backoffStep(attempt, this.options.retryDelayMs, this.options.maxRetryDelayMs);
    const at = this.env.clock.now() + delay;
    await this.state
      .setNextRun(
        event.recipeId,
        loaded.recipe.account,
        { at, reason: "retry", by: this.holder },
        this.env.clock.now(),
      )
      .catch(() => {});
    this.logger.info(
      { recipe: event.recipeId, account: loaded.recipe.account, attempt, delayMs: delay },
      "retrying",
    );
    return delay;
  }

  /**
   * One attempt of a recipe, as a worker's job asks (no retry here: the caller sends the retry as a
   * job of its own). Null when the recipe is not loaded or the process is stopping. The write in
   * flight at a stop finishes first, as for the daemon's own runs.
   */
  attemptOnce(id: string, trigger: RunTrigger, attempt: number): Promise<AttemptEvent | null> {
    const loaded = this.recipes.get(id);
    if (!loaded || this.shutdown.requested) return Promise.resolve(null);
    const p = this.queue.run(loaded.recipe.account, () => this.attempt(loaded, trigger, attempt));
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p)).catch(() => {});
    return p.then((event) => {
      this.noteAttempt(event);
      return event;
    });
  }

  /** Whether a run of the account is going (or waiting its turn) in this process. */
  busy(account: string): boolean {
    return this.queue.pending(account) > 0;
  }

  /** Notes the recipe's next scheduled time (after a worker's job, as after the daemon's runs). */
  async noteNextRun(id: string, at: number | null): Promise<void> {
    const loaded = this.recipes.get(id);
    if (!loaded) return;
    await this.state.setNextRun(
      id,
      loaded.recipe.account,
      { at, reason: at === null ? null : "schedule", by: at === null ? null : this.holder },
      this.env.clock.now(),
    );
  }

  /**
   * Why the recipe must not run now (its own or its account's suspension), or null; and whether it
   * and its account have no failure counted (a success would change nothing).
   */
  private async suspension(
    loaded: LoadedRecipe,
  ): Promise<{ why: string | null; healthy: boolean; accountClear: boolean }> {
    const { id, account } = loaded.recipe;
    const { recipe: own, account: acc } = await this.state.healthOf(id, account);
    const healthy = own.consecutiveFailures === 0 && own.account === account;
    if (own.suspendedAt !== null) {
      return { why: `suspended: ${own.suspendedReason ?? ""}`, healthy, accountClear: false };
    }
    const why =
      acc.suspendedAt === null ? null : `account ${account} suspended: ${acc.suspendedReason ?? ""}`;
    return { why, healthy, accountClear: acc.consecutiveFailures === 0 };
  }

  private async attempt(loaded: LoadedRecipe, trigger: RunTrigger, attempt: number): Promise<AttemptEvent> {
    const { id, account } = loaded.recipe;
    const { clock } = this.env;
    const startedAt = clock.now();
    const event = (r: AttemptResult): AttemptEvent => ({
      recipeId: id,
      account,
      runId: this.currentRun.get(id) ?? null,
      trigger,
      attempt,
      outcome: r.outcome,
      error: r.error,
      startedAt,
      finishedAt: clock.now(),
    });
    const { why: suspended, healthy, accountClear } = await this.suspension(loaded);
    if (suspended !== null) {
      this.logger.info({ recipe: id, account }, `not run: ${suspended}; lift it with: musicsync resume`);
      return event({ outcome: "suspended", error: suspended });
    }
    this.currentRun.delete(id);
    const { run, error } = await this.runWaitingForLock(loaded, accountClear);
    const runId = this.currentRun.get(id) ?? null;
    return event(
      await this.settle({
        loaded,
        run,
        error,
        runId,
        outcome: run?.outcome ?? null,
        why: error !== null ? errorText(error) : (run?.error ?? null),
        log: { recipe: id, account, run: runId, trigger, attempt },
        requests: run?.apply?.requests ?? 0,
        durationMs: clock.now() - startedAt,
        healthy,
      }),
    );
  }

  /** Syncs the recipe; while another process holds the account's lock, waits and tries again. */
  private async runWaitingForLock(
    loaded: LoadedRecipe,
    accountClear: boolean,
  ): Promise<{ run: RecipeRun | null; error: unknown }> {
    const { id, account } = loaded.recipe;
    let waiting: number | null = null;
    // A wait ends when a try gets past the lock (at that try's start), or when it is given up.
    const waited = (until: number) => {
      if (waiting !== null) metrics().lockWaited(account, (until - waiting) / 1000);
    };
    for (;;) {
      const tried = this.env.clock.now();
      try {
        const run = await syncRecipe(loaded, { ...this.env, accountClear });
        waited(tried);
        return { run, error: null };
      } catch (e) {
        if (!(e instanceof LockedError) || this.shutdown.requested || this.deps.queued) {
          waited(e instanceof LockedError ? this.env.clock.now() : tried);
          return { run: null, error: e };
        }
        if (waiting === null) {
          waiting = tried;
          metrics().lockWaiting(account);
          this.logger.info(
            { recipe: id, account, lock: e.heldBy.lockId, holder: e.heldBy.holder },
            "waiting for the account's lock",
          );
        }
        if (!(await this.shutdown.sleep(this.options.lockWaitMs, this.env.clock))) {
          waited(this.env.clock.now());
          return { run: null, error: e };
        }
      }
    }
  }

  /** Records what became of the run (state, conditions, log) and says what the attempt was. */
  private async settle(e: Ended): Promise<AttemptResult> {
    const { error, outcome } = e;
    // A stop cut this run short (or kept it from starting): interrupted, not failed.
    if (
      this.shutdown.requested &&
      (error instanceof LockedError ||
        error instanceof InterruptedError ||
        (outcome !== "converged" && outcome !== "no_changes" && outcome !== "pending_approval"))
    ) {
      return this.recordInterrupted(e);
    }
    // A worker gives a busy account back to the queue: no run was made, nothing to record.
    if (error instanceof LockedError && this.deps.queued) {
      this.logger.info(
        { ...e.log, holder: error.heldBy.holder },
        "account busy: the job goes back to the queue",
      );
      return { outcome: "locked", error: e.why };
    }
    if (error !== null && expired(error)) {
      const why = e.why ?? "credentials expired";
      await this.recordUnstartedRun(e.loaded, e.runId, why);
      await this.suspendAccount(e.loaded.recipe.account, why);
      this.logger.error({ ...e.log, outcome: "failed", durationMs: e.durationMs, error: why }, "run failed");
      return { outcome: "failed", error: why };
    }
    if (error === null && (outcome === "converged" || outcome === "no_changes")) {
      const { id, account } = e.loaded.recipe;
      // Its conditions (Degraded False among them) came with the run's end (engine/run/runner.ts);
      // a failure recorded since the attempt began is as if it came just after this success.
      if (!e.healthy) await this.state.recordRecipeSuccess(id, account, this.env.clock.now());
      const actions = e.run?.plan?.actions.length ?? 0;
      this.logger.info(
        { ...e.log, outcome, actions, requests: e.requests, durationMs: e.durationMs },
        "run finished",
      );
      return { outcome, error: null };
    }
    if (error === null && outcome === "pending_approval") return this.recordHeld(e);
    if (error === null && outcome === "interrupted") {
      // The account's lock was lost mid-run (the runner recorded why): no failure of the recipe's.
      this.logger.warn(
        { ...e.log, outcome, requests: e.requests, durationMs: e.durationMs, error: e.why },
        "run interrupted",
      );
      return { outcome, error: e.why };
    }
    return this.recordFailure(e);
  }

  private async recordInterrupted(e: Ended): Promise<AttemptResult> {
    const reason = `interrupted by ${this.shutdown.signal}`;
    if (e.runId !== null) {
      await this.state.markInterrupted(e.runId, this.env.clock.now(), reason);
      await this.setCondition(
        e.loaded.recipe.id,
        "Ready",
        "False",
        "Interrupted",
        `the last run was ${reason}`,
      );
    }
    this.logger.info(
      { ...e.log, outcome: "interrupted", requests: e.requests, durationMs: e.durationMs },
      "run interrupted",
    );
    return { outcome: "interrupted", error: reason };
  }

  /**
   * A plan over `policy.require_approval`: held, nothing written, and not a failure (no retry, no
   * count towards suspension). Said loudly when a plan is held; while the same plan keeps waiting
   * (the runner then holds no new one), each run says so quietly.
   */
  private async recordHeld(e: Ended): Promise<AttemptResult> {
    const fresh = e.runId !== null && (await this.state.approval(e.runId)) !== null;
    const fields = { ...e.log, outcome: "pending_approval", durationMs: e.durationMs, reason: e.why };
    if (fresh) this.logger.warn(fields, "plan held for approval");
    else this.logger.info(fields, "plan still waiting for approval");
    return { outcome: "pending_approval", error: e.why };
  }

  /** Failed, partial or refused: counts towards the recipe's suspension. */
  private async recordFailure(e: Ended): Promise<AttemptResult> {
    const { id, account } = e.loaded.recipe;
    const { state, clock } = this.env;
    const message = e.why ?? e.outcome ?? "failed";
    await this.recordUnstartedRun(e.loaded, e.runId, message);
    if (e.error instanceof SourceError) {
      await this.setCondition(id, "SourceComplete", "False", "SourceUnreadable", message);
    }
    if (e.runId === null || e.error !== null)
      await this.setCondition(id, "Ready", "False", "RunFailed", message);
    const degraded = e.outcome === "partial" ? "PartialApply" : "RunFailed";
    await this.setCondition(id, "Degraded", "True", degraded, message);
    const health = await state.recordRecipeFailure(id, account, clock.now(), message, {
      suspendAfter: this.options.suspendAfter,
    });
    this.logger.warn(
      {
        ...e.log,
        outcome: e.outcome ?? "failed",
        requests: e.requests,
        durationMs: e.durationMs,
        error: message,
        consecutiveFailures: health.consecutiveFailures,
      },
      "run failed",
    );
    if (health.suspendedAt !== null) {
      const why = `${health.suspendedReason ?? message}; lift with: musicsync resume ${id}`;
      await this.setCondition(id, "Ready", "False", "Suspended", why);
      this.logger.error({ recipe: id, account, reason: health.suspendedReason }, "recipe suspended");
    }
    return { outcome: e.outcome ?? "failed", error: message };
  }

  private setCondition(
    recipeId: string,
    type: ConditionType,
    status: "True" | "False",
    reason: string,
    message: string,
  ): Promise<void> {
    return this.state.setCondition(recipeId, { type, status, reason, message }, this.env.clock.now());
  }

  /** A failure before the runner started a run (a source or the target unreadable): history shows it. */
  private async recordUnstartedRun(loaded: LoadedRecipe, runId: number | null, error: string): Promise<void> {
    if (runId !== null) return;
    const { state, clock } = this.env;
    const id = await state.startRun({
      recipeId: loaded.recipe.id,
      account: loaded.recipe.account,
      kind: "sync",
      recipeHash: loaded.hash,
      at: clock.now(),
      holder: this.holder,
    });
    await state.finishRun(id, { at: clock.now(), result: "failed", error });
  }

  /** Expired credentials: every recipe of the account stops until `musicsync resume <account>`. */
  private async suspendAccount(account: string, why: string): Promise<void> {
    const { state, clock } = this.env;
    const h = await state.health(account);
    if (h.suspendedAt === null) {
      await state.recordFailure(account, clock.now(), why, { suspendAfter: 1, authExpired: true });
    }
    for (const r of this.recipes.values()) {
      if (r.recipe.account !== account) continue;
      await state.setCondition(
        r.recipe.id,
        { type: "AuthValid", status: "False", reason: "Expired", message: why },
        clock.now(),
      );
      // Not "Healthy: the last run converged" from before: nothing of the account runs now.
      await state.setCondition(
        r.recipe.id,
        { type: "Degraded", status: "True", reason: "AuthExpired", message: why },
        clock.now(),
      );
      await state.setCondition(
        r.recipe.id,
        {
          type: "Ready",
          status: "False",
          reason: "AccountSuspended",
          message: `the credentials of account ${account} expired; renew them, then: musicsync resume ${account}`,
        },
        clock.now(),
      );
    }
    this.logger.error({ account, reason: why }, "account suspended: its credentials expired");
  }

  /** SIGTERM / SIGINT: no new run or write; the write in flight finishes; then everything is released. */
  async stop(signal = "SIGTERM"): Promise<void> {
    const first = !this.shutdown.requested;
    this.shutdown.request(signal);
    if (!first) return this.done;
    this.logger.info({ signal, running: this.inFlight.size }, "stopping");
    for (const id of [...this.tasks.keys()]) this.unschedule(id);
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    await this.queue.idle();
    // A worker's next runs belong to the queue's schedule, which other workers go on keeping.
    for (const r of this.deps.queued ? [] : this.recipes.values()) {
      await this.state
        .setNextRun(r.recipe.id, r.recipe.account, { at: null, reason: null, by: null }, this.env.clock.now())
        .catch(() => {});
    }
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.logger.info({ signal }, "daemon stopped");
    this.finished();
    return this.done;
  }

  async close(): Promise<void> {
    this.unwatch?.();
    await this.env.close();
  }

  private logBatch(e: ActionEvent): void {
    const fields = {
      recipe: e.recipeId,
      account: this.recipes.get(e.recipeId)?.recipe.account ?? null,
      run: this.currentRun.get(e.recipeId) ?? null,
      seq: e.seq,
      total: e.total,
      kind: e.kind,
      status: e.phase,
    };
    if (e.phase === "sent") this.logger.debug(fields, "write batch sent");
    else if (e.phase === "confirmed") this.logger.info(fields, "write batch confirmed");
    else this.logger.warn(fields, `write batch ${e.phase}`);
  }

  /** The state, with each run the runner starts noted against its recipe (for logs and `stop`). */
  private watchRuns(state: EngineState): EngineState {
    const currentRun = this.currentRun;
    return new Proxy(state, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (property === "startRun") {
          return async (run: Parameters<EngineState["startRun"]>[0]) => {
            const id = await target.startRun(run);
            currentRun.set(run.recipeId, id);
            return id;
          };
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }
}
