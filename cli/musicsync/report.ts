/**
 * `status` and `history`: what the state database says about the recipes. History's text names
 * each recipe with its playlist's title where it has one.
 */
import type { Project } from "../../engine/recipe/types.js";
import { openState } from "../../engine/state/open.js";
import type { EngineState } from "../../engine/state/types.js";
import { collectHistory, renderHistoryText } from "../../engine/status/history.js";
import { collectStatus, renderStatusText } from "../../engine/status/status.js";
import { loadProjectFor } from "./accounts.js";
import { type CommandRun, Exit } from "./io.js";
import { loadTolerant, pick, readableState, stateFileOf } from "./project.js";
import { print, titled, titleOf } from "./titles.js";

/** Opens the state for reading; without a state file yet, an empty one in memory (nothing is created). */
function readState(run: CommandRun, project: Project): EngineState {
  return openState(readableState(stateFileOf(run.g, project)));
}

export async function status(run: CommandRun, ids: string[] | undefined): Promise<void> {
  const project = await loadProjectFor(run);
  const recipes = pick(await loadTolerant(run, project), ids);
  const state = readState(run, project);
  try {
    const report = await collectStatus(state, recipes, Date.now());
    print(run, report, () => renderStatusText(report));
    run.setExit(Exit.OK);
  } finally {
    await state.close();
  }
}

export async function history(run: CommandRun, o: { recipe?: string; limit: number }): Promise<void> {
  const project = await loadProjectFor(run);
  const recipes = await loadTolerant(run, project);
  if (o.recipe) pick(recipes, [o.recipe]);
  const state = readState(run, project);
  try {
    const runs = await collectHistory(state, {
      ...(o.recipe ? { recipeId: o.recipe } : {}),
      limit: o.limit,
      maxAgeDays: project.undo.max_age_days,
    });
    const name = titled(recipes);
    const title = (id: string) => titleOf(recipes.find((r) => r.recipe.id === id));
    print(run, { runs: runs.map((r) => ({ ...r, title: title(r.recipe) })) }, () =>
      renderHistoryText(runs.map((r) => ({ ...r, recipe: name(r.recipe) }))),
    );
    run.setExit(Exit.OK);
  } finally {
    await state.close();
  }
}
