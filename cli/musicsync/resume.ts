import { resumeAccount, resumeRecipe } from "../../engine/run/resume.js";
import { openState } from "../../engine/state/open.js";
import { loadProjectFor } from "./accounts.js";
import { CliError, type CommandRun, Exit } from "./io.js";
import { existingStateFolder, loadTolerant, stateFileOf } from "./project.js";

export async function resume(run: CommandRun, ids: readonly string[]): Promise<void> {
  const { io, g } = run;
  const project = await loadProjectFor(run);
  const recipes = await loadTolerant(run, project);
  const isRecipe = (id: string) => recipes.some((r) => r.recipe.id === id);
  const unknown = ids.filter((id) => !isRecipe(id) && !(id in project.accounts));
  if (unknown.length > 0) throw new CliError(`no recipe or account named ${unknown.join(", ")}`);
  const state = openState(existingStateFolder(stateFileOf(g, project)));
  const now = Date.now();
  try {
    for (const id of ids) {
      if (isRecipe(id)) {
        const lifted = await resumeRecipe(state, id, now);
        io.stdout.write(lifted ? `Recipe ${id} resumed.\n` : `Recipe ${id} was not suspended.\n`);
      }
      if (id in project.accounts) {
        const lifted = await resumeAccount(state, id, recipes, now);
        io.stdout.write(lifted ? `Account ${id} resumed.\n` : `Account ${id} was not suspended.\n`);
      }
    }
    run.setExit(Exit.OK);
  } finally {
    await state.close();
  }
}
