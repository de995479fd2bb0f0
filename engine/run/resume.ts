/**
 * Lifting a suspension by hand, for `musicsync resume` and the status page's Resume button: the
 * recipe's (or every recipe of the account's) conditions then say it waits for its next run.
 */
import type { LoadedRecipe } from "../recipe/types.js";
import type { EngineState } from "../state/types.js";

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
