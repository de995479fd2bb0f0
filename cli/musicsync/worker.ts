/**
 * `musicsync worker` and `musicsync enqueue`: many accounts on a PostgreSQL state, shared by any
 * number of worker processes (engine/worker/worker.ts). The state must be on PostgreSQL — the queue
 * lives in the same database; on SQLite, `musicsync daemon` is the single-machine equivalent.
 */

import { Daemon } from "../../engine/daemon/daemon.js";
import { isConnectionError } from "../../engine/postgres/errors.js";
import { loadRecipePaths } from "../../engine/recipe/load.js";
import type { LoadedRecipe, Project } from "../../engine/recipe/types.js";
import { parseStateUrl } from "../../engine/state/url.js";
import { openQueue, QUEUE_SCHEMA } from "../../engine/worker/queue.js";
import { oldQueueSchema } from "../../engine/worker/queue-upgrade.js";
import { Worker } from "../../engine/worker/worker.js";
import { loadProjectFor } from "./accounts.js";
import { commandLogger, optionsOf } from "./daemon.js";
import { CliError, type CommandRun } from "./io.js";
import { loadTolerant, recipePaths, stateFileOf } from "./project.js";
import type { WorkerFlags, WorkerSettings } from "./worker-settings.js";

/** The state's PostgreSQL URL, or a one-line refusal that never repeats the setting. */
export function postgresStateOf(run: CommandRun, project: Project, command: string): string {
  const url = stateFileOf(run.g, project);
  if (parseStateUrl(url).kind !== "postgres") {
    throw new CliError(
      `musicsync ${command} needs the state on PostgreSQL (state: postgres://… in the project file, or --state); ` +
        "on one machine, musicsync daemon runs the schedules",
    );
  }
  return url;
}

/** `settings`: the worker's flags as workerSettings read them (before this module was loaded). */
export async function runWorker(
  run: CommandRun,
  paths: readonly string[],
  o: WorkerFlags,
  settings: WorkerSettings,
): Promise<void> {
  const { g } = run;
  const options = optionsOf(o);
  const logger = commandLogger(run, o.logFormat);
  const project = await loadProjectFor(run);
  const stateUrl = postgresStateOf(run, project, "worker");
  const where = recipePaths(project, g.project, paths);
  const daemon = new Daemon({
    envOptions: { project, projectFile: g.project, logger, stateFile: stateUrl },
    logger,
    options,
    load: () => loadRecipePaths(where, { project, projectFile: g.project }),
    queued: true,
  });
  const queue = await openQueue(stateUrl, settings.queue, (e) =>
    logger.warn({ error: e.message }, "job queue error"),
  ).catch(async (e: unknown) => {
    await daemon.close();
    throw new CliError(`cannot open the job queue: ${(e as Error).message}`);
  });
  if (queue.carriedOver > 0)
    logger.warn(
      { runs: queue.carriedOver, kept: oldQueueSchema(QUEUE_SCHEMA) },
      oldQueueNote(queue.carriedOver),
    );
  const worker = new Worker({ daemon, queue, logger, stateUrl, options: settings.worker });
  const unguard = surviveLostConnections(logger);
  try {
    await untilStopped(worker, logger, async () => {
      await worker.start();
    });
  } finally {
    unguard();
  }
  await daemon.close();
  run.setExit(0);
}

/** What a worker or `enqueue` says when it carried runs over from a pg-boss 10 queue (queue-upgrade.ts). */
function oldQueueNote(runs: number): string {
  const aside = oldQueueSchema(QUEUE_SCHEMA);
  return (
    `carried ${runs} run${runs === 1 ? "" : "s"} over from the job queue of an earlier version (pg-boss 10); ` +
    `its finished jobs are kept in schema ${aside}: DROP SCHEMA ${aside} CASCADE when no longer needed`
  );
}

/**
 * A promise of the job queue's connection that rejects while the database is unreachable, with
 * nobody to hear it, would end the process (pg-boss 10 settled jobs that way; 12 awaits its settles,
 * but a lost connection must still never be what ends a worker). Such a rejection only costs a job's
 * completion — its lease runs out and it runs again, finding nothing to do — so it is logged. Any
 * other unhandled rejection still ends the process.
 */
function surviveLostConnections(logger: ReturnType<typeof commandLogger>): () => void {
  const listener = (reason: unknown) => {
    if (!isConnectionError(reason)) throw reason;
    logger.warn(
      { error: reason instanceof Error ? reason.message : String(reason) },
      "the job queue lost its database connection",
    );
  };
  process.on("unhandledRejection", listener);
  return () => process.off("unhandledRejection", listener);
}

/** Runs the worker until SIGTERM/SIGINT; a second signal exits at once (the journal stays consistent). */
async function untilStopped(
  worker: Worker,
  logger: ReturnType<typeof commandLogger>,
  start: () => Promise<void>,
) {
  let stopped!: () => void;
  const done = new Promise<void>((resolve) => {
    stopped = resolve;
  });
  let stopping = false;
  const onStop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, "second signal: exiting now");
      process.exit(1);
    }
    stopping = true;
    void worker.stop(signal).finally(stopped);
  };
  process.on("SIGTERM", onStop);
  process.on("SIGINT", onStop);
  try {
    await start();
    await done;
  } finally {
    process.off("SIGTERM", onStop);
    process.off("SIGINT", onStop);
  }
}

/** `musicsync enqueue [recipe-ids...] [--all]`: asks the workers to run recipes now. */
export async function runEnqueue(
  run: CommandRun,
  ids: readonly string[],
  o: { all?: boolean },
): Promise<void> {
  const { io } = run;
  if (ids.length === 0 && !o.all) throw new CliError("name the recipes to run, or give --all");
  if (ids.length > 0 && o.all) throw new CliError("give recipe ids or --all, not both");
  const project = await loadProjectFor(run);
  const stateUrl = postgresStateOf(run, project, "enqueue");
  const recipes = await loadTolerant(run, project);
  const known = new Set(recipes.map((r) => r.recipe.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) throw new CliError(`no such recipe: ${unknown.join(", ")}`);
  const chosen = byAccountInTurn(o.all ? [...known] : [...new Set(ids)], recipes);
  const queue = await openQueue(stateUrl, null, () => {}).catch((e: unknown) => {
    throw new CliError(`cannot open the job queue: ${(e as Error).message}`);
  });
  if (queue.carriedOver > 0) io.stderr.write(`${oldQueueNote(queue.carriedOver)}\n`);
  let sent = 0;
  try {
    for (const recipeId of chosen)
      if ((await queue.send({ recipeId, trigger: "manual", attempt: 1 })) !== null) sent++;
  } finally {
    await queue.stop();
  }
  const waiting = chosen.length - sent;
  io.stdout.write(
    `Queued ${sent} run${sent === 1 ? "" : "s"}${waiting > 0 ? ` (${waiting} already waiting)` : ""}.\n`,
  );
  run.setExit(0);
}

/**
 * The recipes in an order that takes the accounts in turn (a recipe of each, then a second of
 * each…): jobs are handed out in the order sent, and two of one account next to each other would
 * only make one worker wait for the other.
 */
export function byAccountInTurn(ids: readonly string[], recipes: readonly LoadedRecipe[]): string[] {
  const accountOf = new Map(recipes.map((r) => [r.recipe.id, r.recipe.account]));
  const turns = new Map<string, string[]>();
  for (const id of ids) {
    const account = accountOf.get(id) ?? "";
    turns.set(account, [...(turns.get(account) ?? []), id]);
  }
  const out: string[] = [];
  for (let round = 0; out.length < ids.length; round++) {
    for (const list of turns.values()) if (round < list.length) out.push(list[round]!);
  }
  return out;
}
