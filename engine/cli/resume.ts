/** `musicsync resume <id...>`: lifts the suspension of recipes, or of every recipe of an account. */
import type { LoadedRecipe } from "../recipe/types.js";
import { openState } from "../state/open.js";
import type { EngineState } from "../state/types.js";
import { loadProjectFor } from "./accounts.js";
import { CliError, type CommandRun, Exit } from "./io.js";
import { existingStateFolder, loadTolerant, stateFileOf } from "./project.js";

const RESUMED = { type: "Ready" as const, status: "Unknown" as const, reason: "Resumed" };

export async function resumeRecipe(state: EngineState, id: string, now: number): Promise<boolean> {
  const lifted = await state.resumeRecipe(id, now);
  if (lifted)
    await state.setCondition(id, { ...RESUMED, message: "resumed by hand; waiting for its next run" }, now);
  return lifted;
}

export async function resumeAccount(
  state: EngineState,
  account: string,
  recipes: readonly LoadedRecipe[],
  now: number,
): Promise<boolean> {
  const lifted = (await state.health(account)).suspendedAt !== null;
  await state.resume(account);
  if (!lifted) return false;
  for (const r of recipes.filter((x) => x.recipe.account === account)) {
    const rid = r.recipe.id;
    const message = `account ${account} resumed by hand; waiting for the next run`;
    await state.setCondition(rid, { ...RESUMED, message }, now);
    await state.setCondition(
      rid,
      { type: "AuthValid", status: "Unknown", reason: "Resumed", message: "not checked since the resume" },
      now,
    );
  }
  return true;
}

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
