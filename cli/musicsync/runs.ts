/**
 * Running recipes for `plan`, `apply` and `sync`: the engine environment with its logger and
 * progress bar, one recipe after another, what each run prints and the exit code of them all.
 */

import type { EngineClient } from "../../engine/apply/client.js";
import { systemClock } from "../../engine/apply/pacer.js";
import type { Plan } from "../../engine/plan/types.js";
import type { LoadedRecipe, Project } from "../../engine/recipe/types.js";
import type { PlanFailure } from "../../engine/render/text.js";
import { createEnv } from "../../engine/run/env.js";
import type { EngineEnv, RecipeRun } from "../../engine/run/runner.js";
import type { OpenedState } from "./accounts.js";
import type { Interruption } from "./interrupt.js";
import { type CommandRun, Exit } from "./io.js";
import { commandLogger } from "./log.js";
import { type Progress, progress } from "./progress.js";
import { existingStateFolder, plannableState, stateFileOf } from "./project.js";

/**
 * The engine's environment for one command, closed when `body` is done. `body` is handed the
 * command's run with streams that take the progress bar off the screen before each write: print
 * through it, never through the streams the command was given (progress.ts).
 */
export async function withEnv<T>(
  run: CommandRun,
  project: Project,
  body: (env: EngineEnv, shown: CommandRun) => Promise<T>,
  options: {
    readOnly?: boolean;
    history?: boolean;
    onPlan?: (plan: Plan) => void;
    /** A command that stops on Ctrl-C as the daemon on SIGTERM (interrupt.ts). */
    interruption?: Interruption;
    /** The bar the command's own output goes through (progress.ts); else one of its own. */
    progress?: Progress;
    /** The state the command opened already (accounts.ts), taken when it is the one to open. */
    opened?: OpenedState | null;
  } = {},
): Promise<T> {
  const { io, g } = run;
  // A command about past runs (`undo`, `approve`) never makes a state where there was none.
  const file = options.history ? existingStateFolder(stateFileOf(g, project)) : stateFileOf(g, project);
  const bar = options.progress ?? progress(io, g);
  // Planning writes nothing: without a state file yet, it plans from an empty one in memory.
  const stateFile = options.readOnly ? plannableState(file) : file;
  const stop = options.interruption;
  const state = options.opened?.take(stateFile);
  const env = createEnv({
    project,
    projectFile: g.project,
    ...(state ? { state } : {}),
    // The command's environment, as the project file was read with: the services' keys, the accounts key.
    environment: io.env,
    logger: commandLogger(bar.io, g),
    stateFile,
    // Once stopped, the pacer's waits and the retries' backoffs end at once.
    ...(stop ? { clock: stop.shutdown.clock(systemClock) } : {}),
    ...(bar.onAction ? { onAction: bar.onAction } : {}),
  });
  if (stop) {
    const clientFor = env.clientFor.bind(env);
    const clients = new Map<string, EngineClient>();
    env.clientFor = (name) => {
      let client = clients.get(name);
      if (!client) {
        client = stop.client(clientFor(name));
        clients.set(name, client);
      }
      return client;
    };
    env.state = stop.state(env.state);
  }
  // Read by the runner just before it applies a plan (engine/run/runner.ts `onPlan`).
  if (options.onPlan) Object.assign(env, { onPlan: options.onPlan });
  try {
    return await body(env, { ...run, io: bar.io });
  } finally {
    bar.stop();
    await env.close();
  }
}

export function exitOf(runs: readonly RecipeRun[]): number {
  const wrote = runs.some((r) => (r.apply?.requests ?? 0) > 0 || r.outcome === "partial");
  if (runs.some((r) => r.outcome === "locked")) return Exit.LOCKED;
  if (runs.some((r) => r.outcome === "partial")) return Exit.PARTIAL;
  // A run cut short by a lost lock did not finish: partial when it had sent anything.
  if (runs.some((r) => r.outcome === "failed" || r.outcome === "refused" || r.outcome === "interrupted"))
    return wrote ? Exit.PARTIAL : Exit.ERROR;
  if (runs.some((r) => r.outcome === "pending_approval")) return Exit.HELD;
  if (runs.some((r) => r.outcome === "changes")) return Exit.CHANGES;
  return Exit.OK;
}

/** The recipes that have no plan, each with its target, mode and the reason, for the renderings. */
export function failuresOf(runs: readonly RecipeRun[], recipes: readonly LoadedRecipe[]): PlanFailure[] {
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
