/**
 * `musicsync worker`'s own flags read and checked, without the engine or pg-boss: the command checks
 * them before it loads cli/musicsync/worker.ts, so that a wrong flag is refused at once.
 */

import {
  DEFAULT_QUEUE_SETTINGS,
  MIN_LEASE_SECONDS,
  type QueueSettings,
} from "../../engine/worker/settings.js";
import type { WorkerOptions } from "../../engine/worker/worker.js";
import { parseDuration } from "../../shared/duration.js";
import type { DaemonFlags } from "./daemon.js";
import { CliError } from "./io.js";

export interface WorkerFlags extends DaemonFlags {
  concurrency: string;
  lease: string;
  tick: string;
  schedule: boolean;
  poll: string;
  busyRetry: string;
}

export interface WorkerSettings {
  worker: WorkerOptions;
  queue: QueueSettings;
}

export function workerSettings(o: WorkerFlags): WorkerSettings {
  try {
    const concurrency = Number(o.concurrency);
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
      throw new Error(`--concurrency: "${o.concurrency}" is not a whole number from 1 to 64`);
    const leaseMs = parseDuration(o.lease, "--lease");
    if (leaseMs < MIN_LEASE_SECONDS * 1000)
      throw new Error(`--lease: "${o.lease}" is shorter than ${MIN_LEASE_SECONDS} seconds`);
    const pollMs = Math.max(500, parseDuration(o.poll, "--poll"));
    const queue = {
      leaseSeconds: Math.ceil(leaseMs / 1000),
      // A dead worker's job is looked for a few times per lease, at most every 30 s.
      superviseSeconds: Math.max(
        1,
        Math.min(DEFAULT_QUEUE_SETTINGS.superviseSeconds, Math.floor(leaseMs / 3000)),
      ),
      pollSeconds: pollMs / 1000,
    };
    const worker = {
      concurrency,
      tickMs: o.schedule ? parseDuration(o.tick, "--tick") : 0,
      busyRetryMs: parseDuration(o.busyRetry, "--busy-retry"),
      leaseMs,
      pollSeconds: queue.pollSeconds,
    };
    return { worker, queue };
  } catch (e) {
    throw new CliError((e as Error).message);
  }
}
