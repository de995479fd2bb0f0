/**
 * Deliveries in the background: `enqueue` returns at once and each delivery tries, waits and tries
 * again on its own (the schedule is schedule.ts's), so a slow or dead receiver never holds up a run.
 * `drain` is for the end of a process: it tries the waiting ones at once and waits for all of them,
 * but only up to a bound; what is still undelivered then is given up, logged and counted.
 */

import type { NotifyTarget } from "../recipe/types.js";
import type { EngineLogger } from "../run/logger.js";
import type { NotifyEvent } from "./events.js";
import { type DeliveryPolicy, nextTryAt } from "./schedule.js";
import type { Sender } from "./senders.js";

export interface QueueDeps {
  send: Sender;
  policy: DeliveryPolicy;
  logger: EngineLogger;
  /** Each delivery's end: delivered, or given up. */
  count(target: string, ok: boolean): void;
  now?: () => number;
}

interface Delivery {
  target: NotifyTarget;
  event: NotifyEvent;
  /** Ends a wait between tries early (drain). */
  wake: (() => void) | null;
  settled: boolean;
}

export interface DrainResult {
  delivered: number;
  failed: number;
  abandoned: number;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class NotifyQueue {
  private readonly active = new Map<Delivery, Promise<void>>();
  private readonly now: () => number;
  /** Set by drain: no wait goes past it. */
  private drainBy: number | null = null;
  private closed = false;
  private tally: DrainResult = { delivered: 0, failed: 0, abandoned: 0 };

  constructor(private readonly deps: QueueDeps) {
    this.now = deps.now ?? Date.now;
  }

  get size(): number {
    return this.active.size;
  }

  enqueue(target: NotifyTarget, event: NotifyEvent): void {
    if (this.closed) {
      this.giveUp({ target, event, wake: null, settled: false }, "the notifier is closed", "abandoned");
      return;
    }
    const d: Delivery = { target, event, wake: null, settled: false };
    const p = this.deliver(d).finally(() => this.active.delete(d));
    this.active.set(d, p);
  }

  private async deliver(d: Delivery): Promise<void> {
    const firstAt = this.now();
    for (let attempt = 1; ; attempt++) {
      try {
        await this.deps.send(d.target, d.event);
        if (d.settled) return;
        d.settled = true;
        this.tally.delivered++;
        this.deps.count(d.target.name, true);
        this.deps.logger.debug({ target: d.target.name, event: d.event.event, attempt }, "notification sent");
        return;
      } catch (e) {
        if (d.settled) return;
        const at = nextTryAt(attempt, firstAt, this.now(), this.deps.policy);
        if (at === null || (this.drainBy !== null && at > this.drainBy)) {
          this.giveUp(d, `${errorText(e)} (after ${attempt} tries)`, "failed");
          return;
        }
        this.deps.logger.debug(
          { target: d.target.name, event: d.event.event, attempt, error: errorText(e) },
          "notification not delivered; trying again",
        );
        await this.wait(d, at - this.now());
        if (d.settled) return;
      }
    }
  }

  private wait(d: Delivery, ms: number): Promise<void> {
    if (this.drainBy !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms));
      // A timer waiting for a retry must not keep a finished command alive: drain decides that.
      timer.unref();
      function done() {
        clearTimeout(timer);
        d.wake = null;
        resolve();
      }
      d.wake = done;
    });
  }

  private giveUp(d: Delivery, why: string, as: "failed" | "abandoned"): void {
    d.settled = true;
    this.tally[as]++;
    this.deps.count(d.target.name, false);
    this.deps.logger.warn(
      {
        target: d.target.name,
        type: d.target.type,
        event: d.event.event,
        recipe: d.event.recipe,
        error: why,
      },
      "notification not delivered",
    );
  }

  /**
   * Tries every waiting delivery now and waits for them all, at most `boundMs`; the rest are given
   * up. Later enqueues are refused (logged and counted) once it returns.
   */
  async drain(boundMs: number): Promise<DrainResult> {
    this.drainBy = this.now() + boundMs;
    for (const d of this.active.keys()) d.wake?.();
    let timer: NodeJS.Timeout | null = null;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, boundMs);
    });
    while (this.active.size > 0) {
      const settledAll = Promise.allSettled([...this.active.values()]).then(() => "done" as const);
      if ((await Promise.race([settledAll, bound.then(() => "bound" as const)])) === "bound") break;
    }
    if (timer) clearTimeout(timer);
    this.closed = true;
    for (const d of this.active.keys()) if (!d.settled) this.giveUp(d, "still unsent at exit", "abandoned");
    this.active.clear();
    const out = this.tally;
    this.tally = { delivered: 0, failed: 0, abandoned: 0 };
    return out;
  }
}
