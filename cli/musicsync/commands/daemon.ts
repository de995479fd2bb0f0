/**
 * The commands for running unattended and seeing what happened: `daemon`, `serve`, `status`,
 * `history`, `drift`, `approve`, `resume`. Only their options live here; each action loads its
 * module when it runs (cli/musicsync/daemon.ts, serve.ts, report.ts, drift.ts, approve.ts,
 * resume.ts), so `--help` and the other commands never load the daemon, SQLite or the client.
 */
import type { OptionSpec } from "../../command.js";
import type { DaemonFlags } from "../daemon.js";
import { CliError, type CommandRun, type MusicsyncCommand } from "../io.js";

/** The daemon's retry defaults, as DEFAULT_DAEMON_OPTIONS has them (shown in --help without loading it). */
const DEFAULT_RETRIES = "3";

/** The status page's token and names, as `daemon --http` and `serve` both take them. */
const PAGE_ACCESS: readonly OptionSpec[] = [
  [
    "--http-token <token>",
    "access token for the page, 16 characters or more (or MUSICSYNC_HTTP_TOKEN); needed beyond 127.0.0.1",
  ],
  [
    "--http-hosts <names>",
    "names besides its address the page answers to, comma-separated, e.g. a reverse proxy's (or MUSICSYNC_HTTP_HOSTS)",
  ],
];

export const daemon: MusicsyncCommand = {
  name: "daemon",
  description:
    "run recipes on their schedules; SIGTERM/SIGINT finish the write in flight and exit, SIGHUP reloads recipes",
  arguments: [["[paths...]", "recipe files or folders (default: the project's recipes)"]],
  options: [
    ["--retries <n>", "retries of a failed run, with backoff", DEFAULT_RETRIES],
    ["--retry-delay <duration>", "first retry delay, doubled each time", "30s"],
    ["--max-retry-delay <duration>", "longest retry delay", "15m"],
    ["--suspend-after <n>", "failed runs in a row that suspend a recipe (default: the project's pacing)"],
    ["--lock-wait <duration>", "how often to try an account another process has locked", "5s"],
    ["--lock-stale <duration>", "take over a lock whose heartbeat is older than this", "5m"],
    ["--log-format <format>", "auto (pretty on a terminal), json or pretty", "auto"],
    ["--http <address>", "also serve the status page, e.g. 127.0.0.1:8484"],
    ...PAGE_ACCESS,
  ],
  action: async (run: CommandRun, paths: string[], o: DaemonFlags) => {
    await (await import("../daemon.js")).runDaemon(run, paths, o);
  },
};

export const serve: MusicsyncCommand = {
  name: "serve",
  description: "serve the status page on a state another process (a daemon, cron) writes; no schedule runs",
  options: [["--http <address>", "where to listen", "127.0.0.1:8484"], ...PAGE_ACCESS],
  action: async (run: CommandRun, o: { http?: string; httpToken?: string; httpHosts?: string }) => {
    await (await import("../serve.js")).serve(run, o);
  },
};

export const status: MusicsyncCommand = {
  name: "status",
  description: "per recipe: next run, last run and result, conditions with reasons",
  options: [["-r, --recipe <id...>", "only these recipes"]],
  action: async (run: CommandRun, o: { recipe?: string[] }) => {
    await (await import("../report.js")).status(run, o.recipe);
  },
};

export const history: MusicsyncCommand = {
  name: "history",
  description: "past runs, newest first, with their writes",
  options: [
    ["-r, --recipe <id>", "only this recipe"],
    ["-n, --limit <n>", "how many runs", "20"],
  ],
  action: async (run: CommandRun, o: { recipe?: string; limit: string }) => {
    if (!/^\d+$/.test(o.limit) || Number(o.limit) < 1)
      throw new CliError(`--limit: "${o.limit}" is not a count`);
    const limit = Number(o.limit);
    await (await import("../report.js")).history(run, { ...(o.recipe ? { recipe: o.recipe } : {}), limit });
  },
};

export const drift: MusicsyncCommand = {
  name: "drift",
  description:
    "what changed on the service outside the engine since each recipe's last apply (exit 2 if any)",
  options: [["-r, --recipe <id...>", "only these recipes"]],
  action: async (run: CommandRun, o: { recipe?: string[] }) => {
    await (await import("../drift.js")).drift(run, o.recipe);
  },
};

export const approve: MusicsyncCommand = {
  name: "approve",
  description: "apply exactly the plan a run held for approval (policy.require_approval)",
  arguments: [["<run-id>", "the held run, as `status` lists it"]],
  action: async (run: CommandRun, runId: string) => {
    await (await import("../approve.js")).approve(run, runId);
  },
};

export const resume: MusicsyncCommand = {
  name: "resume",
  description: "lift the suspension of a recipe, or of every recipe of an account",
  arguments: [["<id...>", "recipe ids or account names"]],
  action: async (run: CommandRun, ids: string[]) => {
    await (await import("../resume.js")).resume(run, ids);
  },
};
