/**
 * The daemon's notifications, from what it already reports: each attempt's event (`onAttempt`), the
 * plan each run applies (the runner's `onPlan`), the suspensions and held plans in the state, and a
 * look at each account's token expiry on every attempt and every hour (announced at most daily).
 * Nothing here can fail or delay a run: every handler catches, and deliveries go to the queue.
 */
import type { AttemptEvent, Daemon } from "../daemon/daemon.js";
import type { Plan } from "../plan/types.js";
import type { Project } from "../recipe/types.js";
import type { EngineLogger } from "../run/logger.js";
import {
  applied,
  approvalPending,
  credentialsExpired,
  credentialsExpiring,
  driftFound,
  type NotifyEvent,
  recipeSuspended,
  runFailed,
} from "./events.js";
import { accountExpiry, expiringSoon, reminderDue } from "./expiry.js";
import { Notifier } from "./notifier.js";

const FAILED = new Set(["failed", "partial", "refused"]);
const EXPIRY_CHECK_EVERY_MS = 3_600_000;
/** How long a stopping daemon waits for its notifications (a SIGTERM's stop must stay prompt). */
export const DAEMON_DRAIN_MS = 10_000;

export interface DaemonNotifyOptions {
  project: Project;
  projectFile: string;
  logger: EngineLogger;
  /** How an account's expiry is read (tests give one). */
  expiryOf?: typeof accountExpiry;
}

export class DaemonNotifications {
  private daemon: Daemon | null = null;
  private readonly plans = new Map<string, Plan>();
  /** Suspensions already announced, by recipe or account and the time they began. */
  private readonly announced = new Set<string>();
  private readonly expiryNotified = new Map<string, number>();
  private readonly handling = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly notifier: Notifier,
    private readonly options: DaemonNotifyOptions,
  ) {}

  /** For the Daemon's `onAttempt`. */
  readonly onAttempt = (event: AttemptEvent): void => {
    const p = this.handle(event)
      .catch((e: unknown) =>
        this.options.logger.warn({ recipe: event.recipeId, error: String(e) }, "could not notify"),
      )
      .finally(() => this.handling.delete(p));
    this.handling.add(p);
  };

  /** Watches the daemon's plans and starts the hourly look at expiry times. */
  attach(daemon: Daemon): void {
    this.daemon = daemon;
    // The runner calls env.onPlan just before it applies a plan (as `sync` uses it): the daemon's
    // env is its own object, so this adds the hook without a change to the daemon.
    Object.assign(daemon.env, { onPlan: (plan: Plan) => this.plans.set(plan.recipe.id, plan) });
    if (this.notifier.wants("credentials_expiring")) {
      this.checkExpiry();
      this.timer = setInterval(() => this.checkExpiry(), EXPIRY_CHECK_EVERY_MS);
      this.timer.unref();
    }
  }

  /** Stops the timer, lets running handlers finish, then drains the queue within `boundMs`. */
  async close(boundMs: number): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.handling]);
    await this.notifier.close(boundMs);
  }

  private now(): number {
    return this.daemon?.env.clock.now() ?? Date.now();
  }

  private async handle(e: AttemptEvent): Promise<void> {
    const where = { recipe: e.recipeId, account: e.account, run: e.runId, at: e.finishedAt };
    const plan = this.plans.get(e.recipeId) ?? null;
    // The plans of a split recipe's further parts (id.2, …) are not announced apart: forget them.
    for (const id of this.plans.keys())
      if (id === e.recipeId || id.startsWith(`${e.recipeId}.`)) this.plans.delete(id);
    const send = (event: NotifyEvent | null) => this.notifier.notify(event);
    if (e.outcome === "converged" || e.outcome === "partial") {
      if (plan) {
        send(driftFound(where, plan));
        send(applied(where, plan, e.outcome));
      }
    }
    if (FAILED.has(e.outcome)) {
      send(runFailed(where, e.outcome, e.error));
      await this.suspensions(e);
    }
    if (e.outcome === "pending_approval" && (await this.freshlyHeld(e)))
      send(approvalPending(where, e.error));
    this.checkExpiry(e.account);
  }

  /** A plan held by this attempt (not one still waiting from before: that was announced then). */
  private async freshlyHeld(e: AttemptEvent): Promise<boolean> {
    if (!this.daemon || e.runId === null) return false;
    return (await this.daemon.state.approval(e.runId)) !== null;
  }

  /** The suspensions this failure caused: the account's (expired credentials) or the recipe's. */
  private async suspensions(e: AttemptEvent): Promise<void> {
    if (!this.daemon) return;
    const { state } = this.daemon;
    const at = e.finishedAt;
    const account = await state.health(e.account);
    if (account.suspendedAt !== null && this.first(`account:${e.account}:${account.suspendedAt}`)) {
      this.notifier.notify(
        credentialsExpired({ account: e.account, run: e.runId, at }, account.suspendedReason),
      );
      const why = `the credentials of account ${e.account} expired`;
      for (const r of this.daemon.loaded()) {
        if (r.recipe.account !== e.account) continue;
        this.notifier.notify(recipeSuspended({ recipe: r.recipe.id, account: e.account, at }, why));
      }
      return;
    }
    const own = await state.recipeHealth(e.recipeId);
    if (own.suspendedAt !== null && this.first(`recipe:${e.recipeId}:${own.suspendedAt}`)) {
      this.notifier.notify(
        recipeSuspended({ recipe: e.recipeId, account: e.account, run: e.runId, at }, own.suspendedReason),
      );
    }
  }

  private first(key: string): boolean {
    if (this.announced.has(key)) return false;
    this.announced.add(key);
    return true;
  }

  /** Announces tokens about to expire (one account, or all), each at most once a day. */
  private checkExpiry(only?: string): void {
    if (!this.notifier.wants("credentials_expiring")) return;
    const { project, projectFile } = this.options;
    const read = this.options.expiryOf ?? accountExpiry;
    const now = this.now();
    for (const [name, account] of Object.entries(project.accounts)) {
      if (only !== undefined && name !== only) continue;
      if (!reminderDue(this.expiryNotified.get(name), now)) continue;
      const expiry = read(name, account, projectFile);
      if (!expiry || !expiringSoon(expiry, now)) continue;
      this.expiryNotified.set(name, now);
      this.notifier.notify(credentialsExpiring({ account: name, at: now }, expiry.expiresAt));
    }
  }
}

/** The notifications of `musicsync daemon` with the project's targets and the real senders. */
export function daemonNotifications(
  project: Project,
  projectFile: string,
  logger: EngineLogger,
): DaemonNotifications {
  return new DaemonNotifications(new Notifier({ targets: project.notify, logger }), {
    project,
    projectFile,
    logger,
  });
}
