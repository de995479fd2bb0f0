/**
 * Which run already applied a saved plan: what `apply` says, instead of "the target changed", when
 * the same plan file is applied a second time.
 */
import type { Plan } from "../plan/types.js";
import { canonicalJson } from "../recipe/freeze.js";
import type { RunStore } from "../state/types.js";

/** How far back the recipe's runs are searched: a plan applied long ago is just out of date. */
const RECENT_RUNS = 20;

/** The same changes to the same target as read: what makes two plans one (made at different times). */
function identity(plan: Plan): string {
  const { recipe, account, target, actions } = plan;
  return canonicalJson({ recipe, account, fingerprint: target.fingerprint, actions });
}

/**
 * The id of a recent run of the recipe that applied all of this very plan (the plan each run records
 * before its first write, for undo), else null. A plan without actions writes nothing and is never
 * stale, so it is never looked for.
 */
export async function runThatApplied(
  state: Pick<RunStore, "runs" | "runBefore">,
  plan: Plan,
): Promise<number | null> {
  const wanted = identity(plan);
  for (const run of await state.runs(plan.recipe.id, RECENT_RUNS)) {
    // Only a run that converged applied it all; after one cut short "the target changed" is the truth.
    if ((run.kind !== "apply" && run.kind !== "sync") || run.result !== "converged") continue;
    const recorded = (await state.runBefore(run.id))?.plan as Plan | undefined;
    if (recorded && identity(recorded) === wanted) return run.id;
  }
  return null;
}
