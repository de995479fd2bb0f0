#!/usr/bin/env node
/**
 * The `musicsync` command: validate, plan, apply, sync, unlock, demo (and daemon, status, history,
 * drift, resume from engine/daemon/commands.ts). Exit codes as ENGINE.md
 * gives them: 0 no changes / converged, 1 error (before any write), 2 changes pending (plan),
 * 3 partial, 4 locked or credentials expired. Errors are one line each; `--debug` adds the stack.
 */
import { existsSync, realpathSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SingleBar } from "cli-progress";
import { Command, CommanderError, Option } from "commander";
import { AuthError, ErrorCodes, MusicApiError } from "../../src/index.js";
import { registerDaemonCommands } from "../daemon/commands.js";
import type { Plan } from "../plan/types.js";
import { formatIssue } from "../recipe/errors.js";
import { loadProjectFile, loadRecipePaths } from "../recipe/load.js";
import type { LoadedRecipe, Project } from "../recipe/types.js";
import { PlanFormatError, parsePlansJson, renderPlansJson } from "../render/json.js";
import { renderPlansMarkdown } from "../render/markdown.js";
import { failedLine, type PlanFailure, renderPlansText, renderPlanText } from "../render/text.js";
import { resultLine, runDemo } from "../run/demo.js";
import { AccountError, createEnv } from "../run/env.js";
import { createLogger, type EngineLogger } from "../run/logger.js";
import {
  applySavedPlan,
  type EngineEnv,
  LockedError,
  type RecipeRun,
  StalePlanError,
  syncRecipe,
} from "../run/runner.js";
import { scrubbingStream } from "../run/scrub.js";
import { DEFAULT_LOCK_STALE_MS, unlockRefusal } from "../state/holder.js";
import { openSqliteState } from "../state/sqlite.js";

export const Exit = { OK: 0, ERROR: 1, CHANGES: 2, PARTIAL: 3, LOCKED: 4 } as const;

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

/** An error the user can act on: printed as one line, with its exit code. */
class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = Exit.ERROR,
  ) {
    super(message);
  }
}

interface GlobalOptions {
  project: string;
  state?: string;
  json?: boolean;
  debug?: boolean;
}

function logLevel(io: CliIo, g: GlobalOptions): string {
  return io.env.MUSICSYNC_LOG_LEVEL ?? (g.debug ? "debug" : "warn");
}

async function loadProject(path: string, io: CliIo): Promise<Project> {
  const { project, issues } = await loadProjectFile(path, io.env);
  if (!project) throw new CliError(issues.map(formatIssue).join("\n"));
  return project;
}

async function loadRecipes(project: Project | null, projectFile: string, paths: readonly string[]) {
  const base = dirname(resolve(projectFile));
  const where = paths.length > 0 ? paths : (project?.recipes ?? []).map((r) => resolve(base, r));
  const result = await loadRecipePaths(where, { project });
  if (result.issues.length > 0) throw new CliError(result.issues.map(formatIssue).join("\n"));
  return result.recipes;
}

function pick(recipes: readonly LoadedRecipe[], ids: readonly string[] | undefined): LoadedRecipe[] {
  if (!ids || ids.length === 0) return [...recipes];
  const unknown = ids.filter((id) => !recipes.some((r) => r.recipe.id === id));
  if (unknown.length > 0) throw new CliError(`no recipe with id ${unknown.join(", ")}`);
  return recipes.filter((r) => ids.includes(r.recipe.id));
}

/** A progress bar on a terminal only; nothing when stdout is a file, a pipe, or `--json`. */
function progress(io: CliIo, g: GlobalOptions): { onAction?: EngineEnv["onAction"]; stop(): void } {
  if (!io.stdout.isTTY || g.json) return { stop() {} };
  const bar = new SingleBar({
    format: "{recipe} [{bar}] {value}/{total} writes",
    stream: io.stdout,
    hideCursor: true,
    clearOnComplete: true,
  });
  let current: string | null = null;
  return {
    onAction(e) {
      if (current !== e.recipeId) {
        if (current !== null) bar.stop();
        current = e.recipeId;
        bar.start(e.total, 0, { recipe: e.recipeId });
      }
      if (e.phase !== "sent") bar.increment(1, { recipe: e.recipeId });
    },
    stop() {
      if (current !== null) bar.stop();
    },
  };
}

function stateFileOf(g: GlobalOptions, project: Project): string {
  if (g.state) return g.state;
  return isAbsolute(project.state) ? project.state : resolve(dirname(resolve(g.project)), project.state);
}

async function withEnv<T>(
  io: CliIo,
  g: GlobalOptions,
  project: Project,
  body: (env: EngineEnv) => Promise<T>,
  options: { readOnly?: boolean } = {},
): Promise<T> {
  const logger = createLogger(logLevel(io, g));
  const bar = progress(io, g);
  const file = stateFileOf(g, project);
  // Planning writes nothing: without a state file yet, it plans from an empty one in memory.
  const stateFile = options.readOnly && !existsSync(file) ? ":memory:" : file;
  const env = createEnv({
    project,
    projectFile: g.project,
    logger,
    stateFile,
    ...(bar.onAction ? { onAction: bar.onAction } : {}),
  });
  try {
    return await body(env);
  } finally {
    bar.stop();
    await env.close();
  }
}

function exitOf(runs: readonly RecipeRun[]): number {
  const wrote = runs.some((r) => (r.apply?.requests ?? 0) > 0 || r.outcome === "partial");
  if (runs.some((r) => r.outcome === "locked")) return Exit.LOCKED;
  if (runs.some((r) => r.outcome === "partial")) return Exit.PARTIAL;
  if (runs.some((r) => r.outcome === "failed" || r.outcome === "refused"))
    return wrote ? Exit.PARTIAL : Exit.ERROR;
  if (runs.some((r) => r.outcome === "changes")) return Exit.CHANGES;
  return Exit.OK;
}

function runJson(r: RecipeRun) {
  return {
    recipe: r.recipeId,
    outcome: r.outcome,
    error: r.error,
    summary: r.plan?.summary ?? null,
    requests: r.apply?.requests ?? 0,
    actions: r.apply?.outcomes ?? [],
    quarantined: r.apply?.quarantined ?? [],
    playlistId: r.apply?.playlistId ?? r.plan?.target.playlistId ?? null,
  };
}

/** Runs recipes one by one; a lock or expired credentials stop the rest of that account. */
async function runAll(
  items: readonly { id: string; run: () => Promise<RecipeRun> }[],
  logger: EngineLogger | null,
): Promise<RecipeRun[]> {
  const runs: RecipeRun[] = [];
  for (const item of items) {
    try {
      runs.push(await item.run());
    } catch (e) {
      if (e instanceof LockedError || (e instanceof AuthError && e.code === ErrorCodes.AUTH_EXPIRED)) {
        runs.push({ recipeId: item.id, plan: null, apply: null, outcome: "locked", error: e.message });
      } else if (e instanceof StalePlanError) {
        runs.push({ recipeId: item.id, plan: null, apply: null, outcome: "refused", error: e.message });
      } else if (e instanceof MusicApiError || e instanceof AccountError || e instanceof Error) {
        logger?.debug({ recipe: item.id, stack: e.stack }, "recipe failed");
        runs.push({ recipeId: item.id, plan: null, apply: null, outcome: "failed", error: e.message });
      } else throw e;
    }
  }
  return runs;
}

/** The recipes that have no plan, each with its target, mode and the reason, for the renderings. */
function failuresOf(runs: readonly RecipeRun[], recipes: readonly LoadedRecipe[]): PlanFailure[] {
  const byId = new Map(recipes.map((r) => [r.recipe.id, r.recipe]));
  return runs
    .filter((r) => r.plan === null)
    .map((r) => {
      const recipe = byId.get(r.recipeId);
      return {
        recipe: r.recipeId,
        target: recipe?.target ?? null,
        mode: recipe?.mode ?? null,
        error: r.error ?? r.outcome,
      };
    });
}

/** Outcomes that are failures: the last line of the text output names these recipes. */
const FAILED: ReadonlySet<RecipeRun["outcome"]> = new Set(["failed", "refused", "locked", "partial"]);

function printRuns(io: CliIo, g: GlobalOptions, runs: readonly RecipeRun[], showPlans: boolean) {
  if (g.json) {
    io.stdout.write(`${JSON.stringify({ runs: runs.map(runJson) }, null, 2)}\n`);
    return;
  }
  for (const r of runs) {
    if (showPlans && r.plan) io.stdout.write(renderPlanText(r.plan, { color: io.stdout.isTTY === true }));
    if (r.outcome === "changes" || (r.outcome === "no_changes" && !r.apply)) {
      if (!showPlans || !r.plan) io.stdout.write(`${r.recipeId}: ${r.outcome.replace("_", " ")}\n`);
    } else io.stdout.write(`${r.recipeId}: ${resultLine(r)}\n`);
    if (r.plan) io.stdout.write("\n");
  }
  const last = failedLine(
    runs.filter((r) => FAILED.has(r.outcome)).map((r) => r.recipeId),
    runs.length,
  );
  if (last) io.stdout.write(`${last}\n`);
  for (const r of runs) if (r.error && !r.plan) io.stderr.write(`error: ${r.recipeId}: ${r.error}\n`);
}

export function program(io: CliIo, setExit: (code: number) => void): Command {
  const cmd = new Command("musicsync")
    .description("Keep playlists, likes, library and subscriptions as YAML recipes say")
    .option("-p, --project <file>", "the project file", "musicsync.yaml")
    .option("--state <file>", "the state database (default: the project's `state`)")
    .option("--json", "machine-readable output on stdout")
    .option("--debug", "stack traces and debug logs")
    .showHelpAfterError()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    })
    .exitOverride();
  const globals = (c: Command) => c.optsWithGlobals() as GlobalOptions;

  cmd
    .command("validate")
    .description("check recipes: schema, then semantic checks; errors as file:line:col message")
    .argument("[paths...]", "recipe files or folders (default: the project's recipes)")
    .action(async (paths: string[], _o: unknown, c: Command) => {
      const g = globals(c);
      const project =
        paths.length > 0 && !(await exists(g.project)) ? null : await loadProject(g.project, io);
      const recipes = await loadRecipes(project, g.project, paths);
      if (g.json)
        io.stdout.write(`${JSON.stringify({ valid: true, recipes: recipes.map((r) => r.recipe.id) })}\n`);
      else io.stdout.write(`${recipes.length} recipe${recipes.length === 1 ? "" : "s"} valid.\n`);
      setExit(Exit.OK);
    });

  cmd
    .command("plan")
    .description("read sources and targets, write nothing, print the plan")
    .option("-r, --recipe <id...>", "only these recipes")
    .option("-o, --out <file>", "also save the plan as JSON for `apply`")
    .addOption(new Option("--markdown", "print the plan as Markdown").conflicts("json"))
    .action(async (o: { recipe?: string[]; out?: string; markdown?: boolean }, c: Command) => {
      const g = globals(c);
      const project = await loadProject(g.project, io);
      const recipes = pick(await loadRecipes(project, g.project, []), o.recipe);
      await withEnv(
        io,
        g,
        project,
        async (env) => {
          const runs = await runAll(
            recipes.map((r) => ({ id: r.recipe.id, run: () => syncRecipe(r, env, { dryRun: true }) })),
            env.logger as EngineLogger,
          );
          const plans = runs.map((r) => r.plan).filter((p): p is Plan => p !== null);
          const failed = failuresOf(runs, recipes);
          if (o.out) await writeFile(o.out, renderPlansJson(plans, 2, failed));
          if (g.json) io.stdout.write(renderPlansJson(plans, 2, failed));
          else if (o.markdown) io.stdout.write(renderPlansMarkdown(plans, failed));
          else io.stdout.write(renderPlansText(plans, { color: io.stdout.isTTY === true }, failed));
          for (const r of runs) if (!r.plan && r.error) io.stderr.write(`error: ${r.recipeId}: ${r.error}\n`);
          setExit(exitOf(runs));
        },
        { readOnly: true },
      );
    });

  cmd
    .command("apply")
    .description("apply a saved plan exactly; refused when a target changed since it was planned")
    .argument("<plan>", "a plan saved with `plan -o`")
    .action(async (file: string, _o: unknown, c: Command) => {
      const g = globals(c);
      let doc: ReturnType<typeof parsePlansJson>;
      try {
        doc = parsePlansJson(await readFile(file, "utf8"));
      } catch (e) {
        if (e instanceof PlanFormatError) throw new CliError(`${file}: ${e.message}`);
        throw new CliError(`${file}: cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
      }
      const project = await loadProject(g.project, io);
      await withEnv(io, g, project, async (env) => {
        const runs = await runAll(
          doc.plans.map((p) => ({ id: p.recipe.id, run: () => applySavedPlan(p, env) })),
          env.logger as EngineLogger,
        );
        printRuns(io, g, runs, false);
        setExit(exitOf(runs));
      });
    });

  cmd
    .command("sync")
    .description("plan and apply in one go")
    .option("-r, --recipe <id...>", "only these recipes")
    .option("--dry-run", "plan only: write nothing")
    .action(async (o: { recipe?: string[]; dryRun?: boolean }, c: Command) => {
      const g = globals(c);
      const project = await loadProject(g.project, io);
      const recipes = pick(await loadRecipes(project, g.project, []), o.recipe);
      await withEnv(
        io,
        g,
        project,
        async (env) => {
          const runs = await runAll(
            recipes.map((r) => ({
              id: r.recipe.id,
              run: () => syncRecipe(r, env, { dryRun: o.dryRun === true }),
            })),
            env.logger as EngineLogger,
          );
          printRuns(io, g, runs, true);
          setExit(exitOf(runs));
        },
        { readOnly: o.dryRun === true },
      );
    });

  cmd
    .command("unlock")
    .description("remove a stale account lock (refused while its holder is alive, unless --force)")
    .argument("<lock-id>")
    .option("--force", "remove it even though its holder looks alive (two writers may then collide)")
    .action(async (lockId: string, o: { force?: boolean }, c: Command) => {
      const g = globals(c);
      const project = await loadProject(g.project, io);
      const state = openSqliteState(stateFileOf(g, project));
      try {
        const lock = (await state.locks()).find((l) => l.lockId === lockId);
        const refusal = lock && !o.force ? unlockRefusal(lock, Date.now(), DEFAULT_LOCK_STALE_MS) : null;
        if (refusal !== null) throw new CliError(refusal, Exit.LOCKED);
        const removed = await state.forceUnlock(lockId);
        io.stdout.write(removed ? `Lock ${lockId} removed.\n` : `No lock ${lockId}.\n`);
        setExit(removed ? Exit.OK : Exit.ERROR);
      } finally {
        await state.close();
      }
    });

  cmd
    .command("demo")
    .description("sync the shipped recipes against an embedded emulator (no account needed)")
    .option("--catalogue-size <n>", "songs in the generated catalogue", "400")
    .option("--seed <n>", "catalogue seed", "1")
    .action(async (o: { catalogueSize: string; seed: string }, c: Command) => {
      const g = globals(c);
      const bar = progress(io, g);
      try {
        const result = await runDemo({
          out: (t) => io.stdout.write(t),
          logger: createLogger(logLevel(io, g)),
          catalogueSize: Number(o.catalogueSize),
          seed: Number(o.seed),
          ...(bar.onAction ? { onAction: bar.onAction } : {}),
        });
        setExit(result.converged ? exitOf(result.runs) : Exit.PARTIAL);
      } finally {
        bar.stop();
      }
    });

  // daemon, status, history, drift, resume: engine/daemon/commands.ts
  registerDaemonCommands(cmd, {
    io,
    setExit,
    loadProject: (path) => loadProject(path, io),
    stateFileOf,
    fail: (message, exitCode) => new CliError(message, exitCode),
  });
  return cmd;
}

async function exists(path: string): Promise<boolean> {
  return readFile(path).then(
    () => true,
    () => false,
  );
}

/** Runs the command line; returns the exit code (never throws). */
export async function main(argv: readonly string[], given: CliIo): Promise<number> {
  // Whatever the command prints, no credential of the engine's clients gets out (issue 10 item 8).
  const io: CliIo = {
    ...given,
    stdout: scrubbingStream(given.stdout),
    stderr: scrubbingStream(given.stderr),
  };
  let code: number = Exit.OK;
  const cmd = program(io, (c) => {
    code = c;
  });
  try {
    await cmd.parseAsync([...argv], { from: "user" });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? Exit.OK : Exit.ERROR;
    const debug = argv.includes("--debug");
    const exit = e instanceof CliError ? e.exitCode : e instanceof LockedError ? Exit.LOCKED : Exit.ERROR;
    io.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
    if (debug && e instanceof Error && e.stack) io.stderr.write(`${e.stack}\n`);
    return exit;
  }
}

function isMain(): boolean {
  try {
    return (
      !!process.argv[1] && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))
    );
  } catch {
    return false;
  }
}

if (isMain()) {
  main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
    (code) => {
      process.exitCode = code;
    },
  );
}
