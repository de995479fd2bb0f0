/**
 * The notifier of a process: routes each event to the targets that want it and hands the
 * deliveries to the background queue. `notify` never throws and never waits; `close` drains.
 */

import { engineScrubber } from "../output/scrub.js";
import type { NotifyTarget } from "../recipe/types.js";
import type { EngineLogger } from "../run/logger.js";
import { countDelivery, countsSettled } from "./count.js";
import type { NotifyEvent } from "./events.js";
import type { Scrub } from "./format.js";
import { type DrainResult, NotifyQueue } from "./queue.js";
import { anyWants, routeEvent } from "./router.js";
import { DEFAULT_DELIVERY, type DeliveryPolicy } from "./schedule.js";
import { createSender, type Sender } from "./senders.js";

export interface NotifierOptions {
  targets: readonly NotifyTarget[];
  logger: EngineLogger;
  policy?: Partial<DeliveryPolicy>;
  /** Default: the engine's credential scrubber. */
  scrub?: Scrub;
  /** Where a command's allow-listed variables come from (engine/notify/format.ts); default: this process's. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Replaces the real senders (tests). */
  send?: Sender;
  /** Default: the metrics' countNotification, when the metrics module is there. */
  count?: (target: string, ok: boolean) => void;
}

export class Notifier {
  private readonly queue: NotifyQueue;
  private readonly closeSender: () => Promise<void>;
  readonly targets: readonly NotifyTarget[];

  constructor(private readonly options: NotifierOptions) {
    this.targets = options.targets;
    const policy = { ...DEFAULT_DELIVERY, ...options.policy };
    const scrub = options.scrub ?? (<T>(v: T) => engineScrubber.value(v));
    const real = options.send
      ? null
      : createSender({ scrub, timeoutMs: policy.timeoutMs, ...(options.env ? { env: options.env } : {}) });
    this.closeSender = real ? real.close : async () => {};
    this.queue = new NotifyQueue({
      send: options.send ?? real!.send,
      policy,
      logger: options.logger,
      count: options.count ?? countDelivery,
    });
  }

  wants(kind: NotifyEvent["event"]): boolean {
    return anyWants(this.targets, kind);
  }

  /** Queues the event for each target that wants it; returns at once. */
  notify(event: NotifyEvent | null): void {
    if (event === null) return;
    for (const target of routeEvent(this.targets, event)) this.queue.enqueue(target, event);
  }

  /** Deliveries still trying or waiting to try again. */
  get pending(): number {
    return this.queue.size;
  }

  /** Waits up to `boundMs` for what is queued, gives up the rest, and ends the connections. */
  async close(boundMs: number): Promise<DrainResult> {
    const result = await this.queue.drain(boundMs);
    await this.closeSender().catch(() => {});
    await countsSettled();
    if (result.abandoned > 0 || result.failed > 0) {
      this.options.logger.warn({ ...result }, "some notifications were not delivered");
    }
    return result;
  }
}
