/**
 * `musicsync serve` (the status page alone, on a state another process writes) and the page of
 * `musicsync daemon --http`: the options they share, the check that refuses an open address
 * without a token, and the host each hands the server.
 */

import { createDaemonLogger } from "../../engine/daemon/log.js";
import { enableMetrics, setStatusSource } from "../../engine/metrics/index.js";
import { createEnv } from "../../engine/run/env.js";
import type { EngineLogger } from "../../engine/run/logger.js";
import { collectStatus } from "../../engine/status/status.js";
import type { WebHost } from "../../engine/web/host.js";
import { type HostName, parseHostList } from "../../engine/web/host-check.js";
import { parseAddress, type RunningWeb, startRefusal, startWeb } from "../../engine/web/server.js";
import { loadProjectFor } from "./accounts.js";
import { CliError, type CommandRun } from "./io.js";
import { existingStateFolder, loadTolerant, stateFileOf } from "./project.js";

export const DEFAULT_HTTP = "127.0.0.1:8484";

export interface HttpFlags {
  http?: string;
  httpToken?: string;
  /** Names besides the bound address the page answers to, comma-separated. */
  httpHosts?: string;
}

export interface HttpSettings {
  address: string;
  token: string | null;
  hosts: HostName[];
}

/** The address, token and names, checked before anything starts: a refusal is one line, exit 1. */
export function httpSettings(run: CommandRun, o: HttpFlags, fallback: string | null): HttpSettings | null {
  const address = o.http ?? fallback;
  if (address === null || address === undefined) return null;
  const token = o.httpToken ?? run.io.env.MUSICSYNC_HTTP_TOKEN ?? null;
  try {
    const refusal = startRefusal(parseAddress(address).host, token || null);
    if (refusal) throw new Error(refusal);
    const hosts = parseHostList(o.httpHosts ?? run.io.env.MUSICSYNC_HTTP_HOSTS ?? "");
    return { address, token: token || null, hosts };
  } catch (e) {
    throw new CliError((e as Error).message);
  }
}

/** Starts the page for a host; a port in use is a one-line error. */
export async function startPage(
  host: WebHost,
  settings: HttpSettings,
  logger: EngineLogger,
): Promise<RunningWeb> {
  let web: RunningWeb;
  // Counting starts with the page, so the first scrape already has the runs made before it.
  await enableMetrics();
  try {
    web = await startWeb(host, settings);
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  logger.info({ url: web.url }, "status page listening");
  return web;
}

/** `musicsync serve`: until SIGTERM/SIGINT; SIGHUP reads the recipes again. */
export async function serve(run: CommandRun, o: HttpFlags): Promise<void> {
  const { io, g } = run;
  const settings = httpSettings(run, o, DEFAULT_HTTP)!;
  const project = await loadProjectFor(run);
  const logger = createDaemonLogger({
    level: io.env.MUSICSYNC_LOG_LEVEL ?? (g.debug ? "debug" : "info"),
    format: io.env.MUSICSYNC_LOG_FORMAT === "json" ? "json" : "auto",
    isTTY: io.stderr.isTTY === true,
  });
  let recipes = await loadTolerant(run, project);
  // The page shows a history: a state folder that does not exist is a mistyped setting, not an empty one.
  const stateFile = existingStateFolder(stateFileOf(g, project));
  const env = createEnv({ project, projectFile: g.project, logger, stateFile });
  const host: WebHost = {
    project,
    projectFile: g.project,
    env,
    recipes: () => recipes,
    schedulesLoaded: () => true,
    daemon: false,
  };
  // No daemon here to feed the gauges: they read the state another process writes.
  const unwatch = setStatusSource(() => collectStatus(env.state, recipes, Date.now()));
  const web = await startPage(host, settings, logger).catch(async (e: unknown) => {
    unwatch();
    await env.close();
    throw e;
  });
  io.stderr.write(`Status page at ${web.url}\n`);
  const onHup = () => {
    loadTolerant(run, project).then(
      (r) => (recipes = r),
      (e: unknown) => logger.error({ error: String(e) }, "reload failed"),
    );
  };
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
    process.on("SIGHUP", onHup);
  });
  process.off("SIGHUP", onHup);
  await web.close();
  unwatch();
  await env.close();
  run.setExit(0);
}
