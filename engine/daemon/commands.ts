/**
 * The subcommands for running unattended and seeing what happened: `daemon`, `status`, `history`,
 * `drift`, `resume`. `engine/cli/main.ts` registers them on its program and lends its helpers
 * (project loading, the state file's place, exit codes), so the commands behave like the others.
 */
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import { formatIssue } from "../recipe/errors.js";
import { loadRecipePaths } from "../recipe/load.js";
import type { LoadedRecipe, Project } from "../recipe/types.js";
import { createEnv } from "../run/env.js";
import { createLogger } from "../run/logger.js";
import { openSqliteState } from "../state/sqlite.js";
import type { EngineState } from "../state/types.js";
import { type DriftReport, detectDrift, renderDriftText } from "../status/drift.js";
import { collectHistory, renderHistoryText } from "../status/history.js";
import { collectStatus, renderStatusText } from "../status/status.js";
import { Daemon, type DaemonOptions, DEFAULT_DAEMON_OPTIONS } from "./daemon.js";
import { createDaemonLogger } from "./log.js";

export interface CommandIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

interface Globals {
  project: string;
  state?: string;
  json?: boolean;
  debug?: boolean;
}

/** What main.ts lends: its project loading, state path and error type, so exit codes stay its own. */
export interface CommandContext {
  io: CommandIo;
  setExit(code: number): void;
  loadProject(path: string): Promise<Project>;
  stateFileOf(g: Globals, project: Project): string;
  /** An error printed as one line with its exit code. */
  fail(message: string, exitCode?: number): Error;
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

function recipePaths(project: Project, projectFile: string, paths: readonly string[]): string[] {
  const base = dirname(resolve(projectFile));
  return paths.length > 0 ? [...paths] : project.recipes.map((r) => resolve(base, r));
}

/** The recipes that load; the problems of the others go to stderr (status and drift go on). */
async function loadTolerant(
  ctx: CommandContext,
  project: Project,
  projectFile: string,
  ids: readonly string[] | undefined,
): Promise<LoadedRecipe[]> {
  const { recipes, issues } = await loadRecipePaths(recipePaths(project, projectFile, []), { project });
  for (const i of issues) ctx.io.stderr.write(`warning: ${formatIssue(i)}\n`);
  if (!ids || ids.length === 0) return recipes;
  const unknown = ids.filter((id) => !recipes.some((r) => r.recipe.id === id));
  if (unknown.length > 0) throw ctx.fail(`no recipe with id ${unknown.join(", ")}`);
  return recipes.filter((r) => ids.includes(r.recipe.id));
}

/** Opens the state for reading; without a state file yet, an empty one in memory (nothing is created). */
function readState(ctx: CommandContext, g: Globals, project: Project): { state: EngineState; file: string } {
  const file = ctx.stateFileOf(g, project);
  return { state: openSqliteState(existsSync(file) ? file : ":memory:"), file };
}

function print(ctx: CommandContext, g: Globals, data: unknown, text: () => string): void {
  ctx.io.stdout.write(g.json ? `${JSON.stringify(data, null, 2)}\n` : text());
}

export function registerDaemonCommands(cmd: Command, ctx: CommandContext): void {
  const globals = (c: Command) => c.optsWithGlobals() as Globals;
  const { io } = ctx;

  cmd
    .command("daemon")
    .description(
      "run recipes on their schedules; SIGTERM/SIGINT finish the write in flight and exit, SIGHUP reloads recipes",
    )
    .argument("[paths...]", "recipe files or folders (default: the project's recipes)")
    .option("--retries <n>", "retries of a failed run, with backoff", String(DEFAULT_DAEMON_OPTIONS.retries))
    .option("--retry-delay <duration>", "first retry delay, doubled each time", "30s")
    .option("--max-retry-delay <duration>", "longest retry delay", "15m")
    .option(
      "--suspend-after <n>",
      "failed runs in a row that suspend a recipe (default: the project's pacing)",
    )
    .option("--lock-wait <duration>", "how often to try an account another process has locked", "5s")
    .option("--lock-stale <duration>", "take over a lock whose heartbeat is older than this", "5m")
    .option("--log-format <format>", "auto (pretty on a terminal), json or pretty", "auto")
    .action(
      async (
        paths: string[],
        o: {
          retries: string;
          retryDelay: string;
          maxRetryDelay: string;
          suspendAfter?: string;
          lockWait: string;
          lockStale: string;
          logFormat: string;
        },
        c: Command,
      ) => {
        const g = globals(c);
        const project = await ctx.loadProject(g.project);
        const count = (v: string, name: string) => {
          if (!/^\d+$/.test(v)) throw ctx.fail(`${name}: "${v}" is not a whole number`);
          return Number(v);
        };
        let options: Partial<DaemonOptions>;
        try {
          options = {
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
          throw ctx.fail((e as Error).message);
        }
        const format = io.env.MUSICSYNC_LOG_FORMAT ?? o.logFormat;
        if (format !== "auto" && format !== "json" && format !== "pretty")
          throw ctx.fail(`--log-format: "${format}" is not one of auto, json, pretty`);
        const logger = createDaemonLogger({
          level: io.env.MUSICSYNC_LOG_LEVEL ?? (g.debug ? "debug" : "info"),
          format,
          isTTY: io.stderr.isTTY === true,
        });
        const where = recipePaths(project, g.project, paths);
        const daemon = new Daemon({
          envOptions: { project, projectFile: g.project, logger, stateFile: ctx.stateFileOf(g, project) },
          logger,
          options,
          load: () => loadRecipePaths(where, { project }),
        });
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
        try {
          await daemon.start();
          await daemon.done;
        } finally {
          process.off("SIGTERM", onStop);
          process.off("SIGINT", onStop);
          process.off("SIGHUP", onHup);
          await daemon.close();
        }
        ctx.setExit(0);
      },
    );

  cmd
    .command("status")
    .description("per recipe: next run, last run and result, conditions with reasons")
    .option("-r, --recipe <id...>", "only these recipes")
    .action(async (o: { recipe?: string[] }, c: Command) => {
      const g = globals(c);
      const project = await ctx.loadProject(g.project);
      const recipes = await loadTolerant(ctx, project, g.project, o.recipe);
      const { state } = readState(ctx, g, project);
      try {
        const report = await collectStatus(state, recipes, Date.now());
        print(ctx, g, report, () => renderStatusText(report));
        ctx.setExit(0);
      } finally {
        await state.close();
      }
    });

  cmd
    .command("history")
    .description("past runs, newest first, with their writes")
    .option("-r, --recipe <id>", "only this recipe")
    .option("-n, --limit <n>", "how many runs", "20")
    .action(async (o: { recipe?: string; limit: string }, c: Command) => {
      const g = globals(c);
      if (!/^\d+$/.test(o.limit) || Number(o.limit) < 1)
        throw ctx.fail(`--limit: "${o.limit}" is not a count`);
      const project = await ctx.loadProject(g.project);
      const { state } = readState(ctx, g, project);
      try {
        const runs = await collectHistory(state, {
          ...(o.recipe ? { recipeId: o.recipe } : {}),
          limit: Number(o.limit),
        });
        print(ctx, g, { runs }, () => renderHistoryText(runs));
        ctx.setExit(0);
      } finally {
        await state.close();
      }
    });

  cmd
    .command("drift")
    .description(
      "what changed on the service outside the engine since each recipe's last apply (exit 2 if any)",
    )
    .option("-r, --recipe <id...>", "only these recipes")
    .action(async (o: { recipe?: string[] }, c: Command) => {
      const g = globals(c);
      const project = await ctx.loadProject(g.project);
      const recipes = await loadTolerant(ctx, project, g.project, o.recipe);
      const file = ctx.stateFileOf(g, project);
      const env = createEnv({
        project,
        projectFile: g.project,
        logger: createLogger(io.env.MUSICSYNC_LOG_LEVEL ?? (g.debug ? "debug" : "warn")),
        stateFile: existsSync(file) ? file : ":memory:",
      });
      try {
        const reports: DriftReport[] = [];
        for (const r of recipes) {
          reports.push(await detectDrift(r, env.state, env.clientFor(r.recipe.account)));
        }
        print(ctx, g, { recipes: reports }, () => renderDriftText(reports));
        ctx.setExit(reports.some((r) => r.drifted) ? 2 : 0);
      } finally {
        await env.close();
      }
    });

  cmd
    .command("resume")
    .description("lift the suspension of a recipe, or of every recipe of an account")
    .argument("<id...>", "recipe ids or account names")
    .action(async (ids: string[], _o: unknown, c: Command) => {
      const g = globals(c);
      const project = await ctx.loadProject(g.project);
      const recipes = await loadTolerant(ctx, project, g.project, undefined);
      const unknown = ids.filter(
        (id) => !recipes.some((r) => r.recipe.id === id) && !(id in project.accounts),
      );
      if (unknown.length > 0) throw ctx.fail(`no recipe or account named ${unknown.join(", ")}`);
      const state = openSqliteState(ctx.stateFileOf(g, project));
      const now = Date.now();
      const resumed = { type: "Ready" as const, status: "Unknown" as const, reason: "Resumed" };
      try {
        for (const id of ids) {
          if (recipes.some((r) => r.recipe.id === id)) {
            const lifted = await state.resumeRecipe(id, now);
            if (lifted)
              await state.setCondition(
                id,
                { ...resumed, message: "resumed by hand; waiting for its next run" },
                now,
              );
            io.stdout.write(lifted ? `Recipe ${id} resumed.\n` : `Recipe ${id} was not suspended.\n`);
          }
          if (id in project.accounts) {
            const lifted = (await state.health(id)).suspendedAt !== null;
            await state.resume(id);
            if (lifted) {
              for (const r of recipes.filter((x) => x.recipe.account === id)) {
                const rid = r.recipe.id;
                await state.setCondition(
                  rid,
                  { ...resumed, message: `account ${id} resumed by hand; waiting for the next run` },
                  now,
                );
                await state.setCondition(
                  rid,
                  {
                    type: "AuthValid",
                    status: "Unknown",
                    reason: "Resumed",
                    message: "not checked since the resume",
                  },
                  now,
                );
              }
            }
            io.stdout.write(lifted ? `Account ${id} resumed.\n` : `Account ${id} was not suspended.\n`);
          }
        }
        ctx.setExit(0);
      } finally {
        await state.close();
      }
    });
}
