/**
 * The options of `musicsync worker` and `musicsync enqueue`; their actions load
 * engine/worker/worker-command.ts (and pg-boss) only when they run.
 */
import type { Command } from "commander";
import { type CommandRun, globalsOf } from "../io.js";
import type { WorkerFlags } from "../worker.js";
import type { CommandContext } from "./daemon.js";

export function registerWorkerCommands(cmd: Command, ctx: CommandContext): void {
  const run = (c: Command): CommandRun => ({ io: ctx.io, g: globalsOf(c), setExit: ctx.setExit });
  cmd
    .command("worker")
    .description(
      "take recipe runs from the queue shared by every worker of a PostgreSQL state (many accounts, any machines); SIGTERM finishes the write in flight",
    )
    .argument("[paths...]", "recipe files or folders (default: the project's recipes)")
    .option("--concurrency <n>", "runs at once in this process (each of a different account)", "1")
    .option(
      "--lease <duration>",
      "a worker not heard from within this (its heartbeat renews the lease while a run goes on) is taken as dead and its run retried; at least 10s",
      "1m",
    )
    .option("--tick <duration>", "how often the schedules are looked at", "15s")
    .option("--no-schedule", "send no scheduled runs from this worker (only take jobs)")
    .option("--poll <duration>", "how often an idle worker asks for a job", "2s")
    .option("--busy-retry <duration>", "when a run's account is busy, try again after about this", "2s")
    .option("--retries <n>", "retries of a failed run, with backoff", "3")
    .option("--retry-delay <duration>", "first retry delay, doubled each time", "30s")
    .option("--max-retry-delay <duration>", "longest retry delay", "15m")
    .option(
      "--suspend-after <n>",
      "failed runs in a row that suspend a recipe (default: the project's pacing)",
    )
    .option(
      "--lock-wait <duration>",
      "(not used by workers: a busy account's run goes back to the queue)",
      "5s",
    )
    .option("--lock-stale <duration>", "take over a lock whose heartbeat is older than this", "5m")
    .option("--log-format <format>", "auto (pretty on a terminal), json or pretty", "auto")
    .action(async (paths: string[], o: WorkerFlags, c: Command) => {
      await (await import("../worker.js")).runWorker(run(c), paths, o);
    });

  cmd
    .command("enqueue")
    .description("ask the workers to run recipes now (state on PostgreSQL)")
    .argument("[recipe-ids...]", "the recipes to run")
    .option("--all", "every recipe of the project")
    .action(async (ids: string[], o: { all?: boolean }, c: Command) => {
      await (await import("../worker.js")).runEnqueue(run(c), ids, o);
    });
}
