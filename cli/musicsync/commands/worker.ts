/**
 * The options of `musicsync worker` and `musicsync enqueue`; their actions load
 * cli/musicsync/worker.ts (and pg-boss) only when they run, and `worker` only once its own flags
 * are good.
 */
import type { CommandRun, MusicsyncCommand } from "../io.js";
import type { WorkerFlags } from "../worker-settings.js";

export const worker: MusicsyncCommand = {
  name: "worker",
  description:
    "take recipe runs from the queue shared by every worker of a PostgreSQL state (many accounts, any machines); SIGTERM finishes the write in flight",
  arguments: [["[paths...]", "recipe files or folders (default: the project's recipes)"]],
  options: [
    ["--concurrency <n>", "runs at once in this process (each of a different account)", "1"],
    [
      "--lease <duration>",
      "a worker not heard from within this (its heartbeat renews the lease while a run goes on) is taken as dead and its run retried; at least 10s",
      "1m",
    ],
    ["--tick <duration>", "how often the schedules are looked at", "15s"],
    ["--no-schedule", "send no scheduled runs from this worker (only take jobs)"],
    ["--poll <duration>", "how often an idle worker asks for a job", "2s"],
    ["--busy-retry <duration>", "when a run's account is busy, try again after about this", "2s"],
    ["--retries <n>", "retries of a failed run, with backoff", "3"],
    ["--retry-delay <duration>", "first retry delay, doubled each time", "30s"],
    ["--max-retry-delay <duration>", "longest retry delay", "15m"],
    ["--suspend-after <n>", "failed runs in a row that suspend a recipe (default: the project's pacing)"],
    ["--lock-wait <duration>", "(not used by workers: a busy account's run goes back to the queue)", "5s"],
    ["--lock-stale <duration>", "take over a lock whose heartbeat is older than this", "5m"],
    ["--log-format <format>", "auto (pretty on a terminal), json or pretty", "auto"],
  ],
  action: async (run: CommandRun, paths: string[], o: WorkerFlags) => {
    // A small module of its own: the flags are checked before the engine and pg-boss are loaded.
    const settings = (await import("../worker-settings.js")).workerSettings(o);
    await (await import("../worker.js")).runWorker(run, paths, o, settings);
  },
};

export const enqueue: MusicsyncCommand = {
  name: "enqueue",
  description: "ask the workers to run recipes now (state on PostgreSQL)",
  arguments: [["[recipe-ids...]", "the recipes to run"]],
  options: [["--all", "every recipe of the project"]],
  action: async (run: CommandRun, ids: string[], o: { all?: boolean }) => {
    await (await import("../worker.js")).runEnqueue(run, ids, o);
  },
};
