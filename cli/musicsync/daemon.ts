/**
 * `musicsync daemon`: runs recipes on their schedules until a signal. SIGTERM/SIGINT finish the
 * write in flight and exit; a second one exits at once; SIGHUP reloads the recipes.
 */

import { Daemon, type DaemonOptions } from "../../engine/daemon/daemon.js";
import { createDaemonLogger } from "../../engine/daemon/log.js";
import { loadRecipePaths } from "../../engine/recipe/load.js";
import type { EngineLogger } from "../../engine/run/logger.js";
import type { RunningWeb } from "../../engine/web/server.js";
import { parseDuration } from "../../shared/duration.js";
import { loadProjectFor } from "./accounts.js";
import { CliError, type CommandRun } from "./io.js";
import { recipePaths, required, stateFileOf } from "./project.js";

export interface DaemonFlags {
  retries: string;
  retryDelay: string;
  maxRetryDelay: string;
  suspendAfter?: string;
  lockWait: string;
  lockStale: string;
  logFormat: string;
  http?: string;
  httpToken?: string;
  httpHosts?: string;
}

function count(v: string, name: string): number {
  if (!/^\d+$/.test(v)) throw new Error(`${name}: "${v}" is not a whole number`);
  return Number(v);
}

/** The retry and lock flags as daemon options (also the worker's). */
export function optionsOf(o: DaemonFlags): Partial<DaemonOptions> {
  try {
    return {
      retries: count(o.retries, "--retries"),
      retryDelayMs: parseDuration(o.retryDelay, "--retry-delay"),
      maxRetryDelayMs: parseDuration(o.maxRetryDelay, "--max-retry-delay"),
      lockWaitMs: parseDuration(o.lockWait, "--lock-wait"),
      lockStaleMs: parseDuration(o.lockStale, "--lock-stale"),
      ...(o.suspendAfter !== undefined
        ? { suspendAfter: Math.max(1, count(o.suspendAfter, "--suspend-after")) }
        : {}),
    };
  } catch (e) {
    throw new CliError((e as Error).message);
  }
}

/** The daemon's (and the worker's) logger: MUSICSYNC_LOG_FORMAT / --log-format, MUSICSYNC_LOG_LEVEL. */
export function commandLogger(run: CommandRun, logFormat: string): EngineLogger {
  const format = run.io.env.MUSICSYNC_LOG_FORMAT ?? logFormat;
  if (format !== "auto" && format !== "json" && format !== "pretty")
    throw new CliError(`--log-format: "${format}" is not one of auto, json, pretty`);
  return createDaemonLogger({
    level: run.io.env.MUSICSYNC_LOG_LEVEL ?? (run.g.debug ? "debug" : "info"),
    format,
    isTTY: run.io.stderr.isTTY === true,
  });
}

export async function runDaemon(run: CommandRun, paths: readonly string[], o: DaemonFlags): Promise<void> {
  const { g } = run;
  const web = o.http ? await import("./serve.js") : null;
  const http = web ? web.httpSettings(run, o, null) : null;
  // Stored accounts (`musicsync accounts`) join the project file's before the recipes are checked.
  const project = await loadProjectFor(run);
  required(project, ["notify"], "the daemon sends the notifications of notify:");
  const options = optionsOf(o);
  const logger = commandLogger(run, o.logFormat);
  const where = recipePaths(project, g.project, paths);
  // `notify:` of musicsync.yaml (engine/notify/), loaded only when the project has targets.
  const notify = project.notify.length > 0 ? await import("../../engine/notify/daemon-events.js") : null;
  const notes = notify ? notify.daemonNotifications(project, g.project, logger) : null;
  const daemon = new Daemon({
    envOptions: { project, projectFile: g.project, logger, stateFile: stateFileOf(g, project) },
    logger,
    options,
    load: () => loadRecipePaths(where, { project, projectFile: g.project }),
    ...(notes ? { onAttempt: notes.onAttempt } : {}),
  });
  notes?.attach(daemon);
  const onStop = (signal: NodeJS.Signals) => {
    if (daemon.shutdown.requested) {
      // A second signal: the person means it. The journal stays consistent (each write is
      // journaled before it is sent), the next run reconciles whatever was in flight.
      logger.warn({ signal }, "second signal: exiting now");
      process.exit(1);
    }
    void daemon.stop(signal);
  };
  const onHup = () => {
    daemon.reload().catch((e: unknown) => logger.error({ error: String(e) }, "reload failed"));
  };
  process.on("SIGTERM", onStop);
  process.on("SIGINT", onStop);
  process.on("SIGHUP", onHup);
  let page: RunningWeb | null = null;
  let scheduled = false;
  try {
    if (web && http) {
      const host = {
        project,
        projectFile: g.project,
        env: daemon.env,
        recipes: () => daemon.loaded(),
        schedulesLoaded: () => scheduled,
        daemon: true,
        trigger: (id: string) => void daemon.trigger(id, "manual"),
      };
      page = await web.startPage(host, http, logger);
    }
    await daemon.start();
    scheduled = true;
    await daemon.done;
  } finally {
    await page?.close();
    process.off("SIGTERM", onStop);
    process.off("SIGINT", onStop);
    process.off("SIGHUP", onHup);
    if (notify && notes) await notes.close(notify.DAEMON_DRAIN_MS);
    await daemon.close();
  }
  run.setExit(0);
}
