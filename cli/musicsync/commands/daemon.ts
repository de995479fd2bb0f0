/**
 * The subcommands for running unattended and seeing what happened: `daemon`, `serve`, `status`, `history`,
 * `drift`, `approve`, `resume`. Only their options live here; each action loads its module when it
 * runs (engine/daemon/daemon-command.ts, engine/cli/report.ts, drift.ts, approve.ts, resume.ts), so
 * `--help` and the other commands never load the daemon, SQLite or the client.
 */
import type { Command } from "commander";
import type { DaemonFlags } from "../daemon.js";
import { CliError, type CliIo, type CommandRun, globalsOf } from "../io.js";

/** What main.ts lends: the streams and the exit code's setter. */
export interface CommandContext {
  io: CliIo;
  setExit(code: number): void;
}

/** `90s`, `5m`, `1h`, `250ms` or a number of milliseconds. */
export function parseDuration(text: string, name: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new Error(`${name}: "${text}" is not a duration (e.g. 250ms, 30s, 5m, 1h)`);
  const n = Number(m[1]);
  const unit = m[2] ?? "ms";
  const factor = unit === "h" ? 3_600_000 : unit === "m" ? 60_000 : unit === "s" ? 1000 : 1;
  return Math.round(n * factor);
}

/** The daemon's retry defaults, as DEFAULT_DAEMON_OPTIONS has them (shown in --help without loading it). */
const DEFAULT_RETRIES = "3";

type Runner = (c: Command) => CommandRun;

/** daemon, serve, status, history, drift, approve and resume: what runs and reports on schedules. */
export function registerDaemonCommands(cmd: Command, ctx: CommandContext): void {
  const run: Runner = (c) => ({ io: ctx.io, g: globalsOf(c), setExit: ctx.setExit });
  registerServers(cmd, run);
  registerReports(cmd, run);
  registerDecisions(cmd, run);
}

/** The daemon and the status page on its own. */
function registerServers(cmd: Command, run: Runner): void {
  cmd
    .command("daemon")
    .description(
      "run recipes on their schedules; SIGTERM/SIGINT finish the write in flight and exit, SIGHUP reloads recipes",
    )
    .argument("[paths...]", "recipe files or folders (default: the project's recipes)")
    .option("--retries <n>", "retries of a failed run, with backoff", DEFAULT_RETRIES)
    .option("--retry-delay <duration>", "first retry delay, doubled each time", "30s")
    .option("--max-retry-delay <duration>", "longest retry delay", "15m")
    .option(
      "--suspend-after <n>",
      "failed runs in a row that suspend a recipe (default: the project's pacing)",
    )
    .option("--lock-wait <duration>", "how often to try an account another process has locked", "5s")
    .option("--lock-stale <duration>", "take over a lock whose heartbeat is older than this", "5m")
    .option("--log-format <format>", "auto (pretty on a terminal), json or pretty", "auto")
    .option("--http <address>", "also serve the status page, e.g. 127.0.0.1:8484")
    .option(
      "--http-token <token>",
      "access token for the page, 16 characters or more (or MUSICSYNC_HTTP_TOKEN); needed beyond 127.0.0.1",
    )
    .option(
      "--http-hosts <names>",
      "names besides its address the page answers to, comma-separated, e.g. a reverse proxy's (or MUSICSYNC_HTTP_HOSTS)",
    )
    .action(async (paths: string[], o: DaemonFlags, c: Command) => {
      await (await import("../daemon.js")).runDaemon(run(c), paths, o);
    });

  cmd
    .command("serve")
    .description("serve the status page on a state another process (a daemon, cron) writes; no schedule runs")
    .option("--http <address>", "where to listen", "127.0.0.1:8484")
    .option(
      "--http-token <token>",
      "access token for the page, 16 characters or more (or MUSICSYNC_HTTP_TOKEN); needed beyond 127.0.0.1",
    )
    .option(
      "--http-hosts <names>",
      "names besides its address the page answers to, comma-separated, e.g. a reverse proxy's (or MUSICSYNC_HTTP_HOSTS)",
    )
    .action(async (o: { http?: string; httpToken?: string; httpHosts?: string }, c: Command) => {
      await (await import("../serve.js")).serve(run(c), o);
    });
}

/** What the state says: status, history, drift. */
function registerReports(cmd: Command, run: Runner): void {
  cmd
    .command("status")
    .description("per recipe: next run, last run and result, conditions with reasons")
    .option("-r, --recipe <id...>", "only these recipes")
    .action(async (o: { recipe?: string[] }, c: Command) => {
      await (await import("../report.js")).status(run(c), o.recipe);
    });

  cmd
    .command("history")
    .description("past runs, newest first, with their writes")
    .option("-r, --recipe <id>", "only this recipe")
    .option("-n, --limit <n>", "how many runs", "20")
    .action(async (o: { recipe?: string; limit: string }, c: Command) => {
      if (!/^\d+$/.test(o.limit) || Number(o.limit) < 1)
        throw new CliError(`--limit: "${o.limit}" is not a count`);
      const limit = Number(o.limit);
      await (await import("../report.js")).history(run(c), {
        ...(o.recipe ? { recipe: o.recipe } : {}),
        limit,
      });
    });

  cmd
    .command("drift")
    .description(
      "what changed on the service outside the engine since each recipe's last apply (exit 2 if any)",
    )
    .option("-r, --recipe <id...>", "only these recipes")
    .action(async (o: { recipe?: string[] }, c: Command) => {
      await (await import("../drift.js")).drift(run(c), o.recipe);
    });
}

/** A person's decisions: approve a held plan, resume a suspension. */
function registerDecisions(cmd: Command, run: Runner): void {
  cmd
    .command("approve")
    .description("apply exactly the plan a run held for approval (policy.require_approval)")
    .argument("<run-id>", "the held run, as `status` lists it")
    .action(async (runId: string, _o: unknown, c: Command) => {
      await (await import("../approve.js")).approve(run(c), runId);
    });

  cmd
    .command("resume")
    .description("lift the suspension of a recipe, or of every recipe of an account")
    .argument("<id...>", "recipe ids or account names")
    .action(async (ids: string[], _o: unknown, c: Command) => {
      await (await import("../resume.js")).resume(run(c), ids);
    });
}
