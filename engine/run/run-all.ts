/**
 * Runs recipes (or saved plans) one after another, as the command line and the status page's
 * actions both do: a lock, expired credentials or a stale plan become the run's outcome, not a throw.
 */
import { AuthError, ErrorCodes } from "../../src/index.js";
import type { EngineLogger } from "./logger.js";
import { LockedError, type RecipeRun, StalePlanError } from "./runner.js";

/** What runAll runs: a recipe (or a saved plan) by id, and the account it runs as. */
export interface RunItem {
  id: string;
  account?: string;
  run: () => Promise<RecipeRun>;
}

/** One recipe's run; a lock, expired credentials or a stale plan become its outcome, not a throw. */
async function runOne(item: RunItem, logger: EngineLogger): Promise<RecipeRun> {
  const { id, run } = item;
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof Error)) throw e;
    const failed = (outcome: RecipeRun["outcome"]): RecipeRun => ({
      recipeId: id,
      plan: null,
      apply: null,
      outcome,
      error: e.message,
    });
    if (e instanceof AuthError && e.code === ErrorCodes.AUTH_EXPIRED)
      return { ...failed("locked"), ...(item.account ? { credentialsRefused: item.account } : {}) };
    if (e instanceof LockedError) return failed("locked");
    if (e instanceof StalePlanError) return failed("refused");
    logger.debug({ recipe: id, stack: e.stack }, "recipe failed");
    return failed("failed");
  }
}

/**
 * Runs recipes one by one, handing each run to `each` as soon as it is done; once `stopped` says
 * so (Ctrl-C), no other recipe is started.
 */
export async function runAll(
  items: readonly RunItem[],
  logger: EngineLogger,
  each: (run: RecipeRun) => void = () => {},
  stopped: () => boolean = () => false,
): Promise<RecipeRun[]> {
  const runs: RecipeRun[] = [];
  for (const item of items) {
    if (stopped()) break;
    const run = await runOne(item, logger);
    // A split recipe's further parts are runs of their own (engine/run/split.ts).
    for (const r of [run, ...(run.parts ?? [])]) {
      runs.push(r);
      each(r);
    }
  }
  return runs;
}
