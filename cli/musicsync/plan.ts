/** `plan`, `apply` and `sync`: the commands that read the service and, but for `plan`, write to it. */
import { writeFile } from "node:fs/promises";
import { mib } from "../../engine/files/limits.js";
import { FileReadError, type ReadBounds, readRegularFile } from "../../engine/files/read-regular.js";
import type { Plan } from "../../engine/plan/types.js";
import type { Project } from "../../engine/recipe/types.js";
import { PlanFormatError, parsePlansJson, renderPlansJson } from "../../engine/render/json.js";
import { renderPlansMarkdown } from "../../engine/render/markdown.js";
import { renderPlansText } from "../../engine/render/text.js";
import { type ApprovalOptions, ruleOf } from "../../engine/run/approval.js";
import type { EngineLogger } from "../../engine/run/logger.js";
import { runAll } from "../../engine/run/run-all.js";
import { applySavedPlan, type RecipeRun, syncRecipe } from "../../engine/run/runner.js";
import { loadProjectFor, loadProjectKeepingState, type OpenedState } from "./accounts.js";
import { outputFileArg } from "./args.js";
import { interruptible } from "./interrupt.js";
import { CliError, type CommandRun, failuresAlsoOnStderr } from "./io.js";
import { lockWaitArg, saidOn, waitingForLock } from "./lock-wait.js";
import { sayNextSteps } from "./next-steps.js";
import { progress } from "./progress.js";
import { loadRecipes, loadTolerant, pick, required } from "./project.js";
import { RunPrinter, worthShowing } from "./run-printer.js";
import { exitOf, failuresOf, withEnv } from "./runs.js";

/** What `plan` and `sync` share: which recipes, and how much of each plan to show. */
interface ShownOptions {
  recipe?: string[];
  /** Only the recipes with changes or failures. */
  quiet?: boolean;
  /** Every skipped item and kept row (else skips of one reason beyond a few are one line). */
  verbose?: boolean;
}

export interface PlanOptions extends ShownOptions {
  out?: string;
  markdown?: boolean;
}

export interface SyncOptions extends ShownOptions {
  dryRun?: boolean;
  approve?: boolean;
  /** How long a recipe waits for its account's lock (a duration as the daemon reads one). */
  lockWait?: string;
}

export async function plan(run: CommandRun, o: PlanOptions): Promise<void> {
  const { io, g, setExit } = run;
  if (o.out) outputFileArg(o.out);
  const project = await loadProjectFor(run);
  const recipes = pick(await loadRecipes(project, g.project, []), o.recipe);
  await withEnv(
    run,
    project,
    async (env) => {
      const runs = await runAll(
        recipes.map((r) => ({ id: r.recipe.id, run: () => syncRecipe(r, env, { dryRun: true }) })),
        env.logger as EngineLogger,
      );
      const plans = runs.map((r) => r.plan).filter((p): p is Plan => p !== null);
      const failed = failuresOf(runs, recipes);
      if (o.out) await writeFile(o.out, renderPlansJson(plans, 2, failed));
      const shown = o.quiet ? plans.filter(worthShowing) : plans;
      const text = { color: io.stdout.isTTY === true, verbose: o.verbose === true };
      if (g.json) io.stdout.write(renderPlansJson(shown, 2, failed));
      else if (o.markdown) io.stdout.write(renderPlansMarkdown(shown, failed, text));
      else if (o.quiet && shown.length === 0 && failed.length === 0) io.stdout.write("No changes.\n");
      else io.stdout.write(renderPlansText(shown, text, failed));
      // The text says each failure with its recipe; stderr says it too, but for a terminal's eyes.
      if (g.json || o.markdown || failuresAlsoOnStderr(io))
        for (const r of runs) if (!r.plan && r.error) io.stderr.write(`error: ${r.recipeId}: ${r.error}\n`);
      setExit(exitOf(runs));
    },
    { readOnly: true },
  );
}

/** A saved plan of 5,000 rows is about 2 MB; 64 MiB holds dozens of them. */
const PLAN_FILE_BOUNDS: ReadBounds = {
  maxBytes: 64 * 1024 * 1024,
  tooBig: (bytes, over) =>
    `the file is ${over ? "over " : ""}${mib(bytes)}; a saved plan may be at most 64.0 MiB`,
};

async function readPlanFile(file: string) {
  try {
    return parsePlansJson((await readRegularFile(file, PLAN_FILE_BOUNDS)).toString("utf8"));
  } catch (e) {
    if (e instanceof PlanFormatError || e instanceof FileReadError)
      throw new CliError(`${file}: ${e.message}`);
    throw new CliError(`${file}: cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
}

/**
 * A saved plan is held for approval as `sync` would hold it (exit 5, nothing written, recorded for
 * `musicsync approve`): by its recipe's `policy.require_approval` as the project has it now, or by
 * the reason the plan itself was saved with. `--approve` applies it all the same.
 */
export async function apply(run: CommandRun, file: string, o: { approve?: boolean } = {}): Promise<void> {
  const doc = await readPlanFile(file);
  const project = await loadProjectFor(run);
  const recipes = await loadTolerant(run, project);
  const approval = (p: Plan) => ({
    rule: ruleOf(recipes, p.recipe.id),
    approved: o.approve === true,
    orElse: `musicsync apply --approve ${file}`,
  });
  await applyPlans(run, project, doc.plans, approval);
}

/**
 * Applies plans already made, each exactly (refused when its target changed since), stopping on
 * Ctrl-C as `sync` does; prints each result and sets the exit code. For `apply` and `import`.
 */
export async function applyPlans(
  run: CommandRun,
  project: Project,
  plans: readonly Plan[],
  approval: (p: Plan) => ApprovalOptions,
): Promise<void> {
  // Everything this command prints goes through the bar's streams (progress.ts).
  const bar = progress(run.io, run.g);
  const shown: CommandRun = { ...run, io: bar.io };
  await interruptible(shown.io, true, (stop) =>
    withEnv(
      shown,
      project,
      async (env) => {
        const out = new RunPrinter(shown.io, run.g, { showPlans: false });
        const runs = await runAll(
          plans.map((p) => ({
            id: p.recipe.id,
            account: p.account,
            run: () => applySavedPlan(p, env, approval(p)),
          })),
          env.logger as EngineLogger,
          (r) => out.add(stop?.settled(r) ?? r),
          () => stop?.shutdown.requested === true,
        );
        out.finish();
        await sayNextSteps(shown.io, env.state, runs);
        run.setExit(exitOf(runs));
        stop?.finish(
          shown,
          runs,
          plans.map((p) => p.recipe.id),
        );
      },
      { progress: bar, ...(stop ? { interruption: stop } : {}) },
    ),
  );
}

/**
 * Each recipe's plan is printed as soon as it is made, before its writes start (the runner calls
 * `onPlan`), and its result line when it is done: a long sync shows its progress in a pipe or a
 * log file too, not everything at the end.
 */
export async function sync(run: CommandRun, o: SyncOptions): Promise<void> {
  const lockWaitMs = lockWaitArg(o.lockWait);
  // The state read for the stored accounts stays open for the run (accounts.ts OpenedState).
  const { project, opened } = await loadProjectKeepingState(run);
  try {
    await syncProject(run, o, project, lockWaitMs, opened);
  } finally {
    await opened?.release();
  }
}

/** `sync` of a loaded project; `opened` is the state it read its stored accounts from, if any. */
async function syncProject(
  run: CommandRun,
  o: SyncOptions,
  project: Project,
  lockWaitMs: number,
  opened: OpenedState | null,
): Promise<void> {
  const { g } = run;
  if (!o.dryRun) required(project, ["notify"], "sync sends the notifications of notify:");
  const recipes = pick(await loadRecipes(project, g.project, []), o.recipe);
  // Everything this command prints goes through the bar's streams (progress.ts).
  const bar = progress(run.io, g);
  const io = bar.io;
  const shown: CommandRun = { ...run, io };
  const printed = new Set<string>();
  const out = new RunPrinter(io, g, {
    showPlans: true,
    planShown: (id) => printed.has(id),
    quiet: o.quiet === true,
    verbose: o.verbose === true,
  });
  const onPlan = (p: Plan) => {
    printed.add(p.recipe.id);
    out.plan(p);
  };
  const dryRun = o.dryRun === true;
  await interruptible(io, !dryRun, (stop) =>
    withEnv(
      shown,
      project,
      async (env) => {
        // `notify:` (engine/notify/): sent in the background, drained briefly before the exit.
        const notes =
          project.notify.length > 0 && !dryRun
            ? (await import("../../engine/notify/sync.js")).syncNotifications(
                project,
                recipes,
                env.logger as EngineLogger,
              )
            : null;
        const wait = saidOn(io, lockWaitMs, env.clock, () => stop?.shutdown.requested === true);
        const runs: RecipeRun[] = await runAll(
          recipes.map((r) => ({
            id: r.recipe.id,
            account: r.recipe.account,
            run: () =>
              waitingForLock(() => syncRecipe(r, env, { dryRun, approve: o.approve === true }), wait),
          })),
          env.logger as EngineLogger,
          (r) => {
            const shown = stop?.settled(r) ?? r;
            out.add(shown);
            notes?.run(shown);
          },
          () => stop?.shutdown.requested === true,
        );
        out.finish();
        await sayNextSteps(shown.io, env.state, runs);
        await notes?.close();
        run.setExit(exitOf(runs));
        stop?.finish(
          shown,
          runs,
          recipes.map((r) => r.recipe.id),
        );
      },
      { readOnly: dryRun, onPlan, progress: bar, opened, ...(stop ? { interruption: stop } : {}) },
    ),
  );
}
