/**
 * `musicsync approve <run-id>`: applies exactly the plan that run held for approval
 * (`policy.require_approval`), as `apply` applies a saved plan — under the account's lock, journaled,
 * refused when the target changed since it was planned — and records which run applied it.
 */
import { PLAN_VERSION, type Plan } from "../plan/types.js";
import { PLAN_FORMAT, PlanFormatError, parsePlansJson } from "../render/json.js";
import { supersededBy } from "../run/approval.js";
import type { EngineLogger } from "../run/logger.js";
import { applySavedPlan } from "../run/runner.js";
import type { Approval, EngineState } from "../state/types.js";
import { loadProjectFor } from "./accounts.js";
import { runIdArg } from "./args.js";
import { CliError, type CommandRun } from "./io.js";
import { sayNextSteps } from "./next-steps.js";
import { existingStateFolder, stateFileOf, stateMayExist } from "./project.js";
import { RunPrinter } from "./run-printer.js";
import { exitOf, runAll, withEnv } from "./runs.js";

/** Why the held plan cannot be approved (decided already, or a newer plan took its place), or null. */
export async function refusal(state: EngineState, id: number, held: Approval | null): Promise<string | null> {
  if (held === null) return `run ${id} holds no plan for approval (musicsync status lists those that wait)`;
  switch (held.status) {
    case "approved":
      return `run ${id}'s plan was approved already${held.appliedRunId !== null ? ` (applied by run ${held.appliedRunId})` : ""}`;
    case "refused":
      return `run ${id}'s plan was refused`;
    case "superseded": {
      const later = await supersededBy(state, held);
      return later === null
        ? `run ${id}'s plan was superseded by a newer plan of recipe ${held.recipeId} (musicsync status lists it)`
        : `run ${id}'s plan is out of date: run ${later} applied a newer plan of recipe ${held.recipeId}`;
    }
  }
  return null;
}

/** The held plan, checked as `apply` checks a plan file (it was stored by this engine, but may be old). */
export function planOf(id: number, held: Approval): Plan {
  try {
    const doc = parsePlansJson(
      JSON.stringify({ format: PLAN_FORMAT, version: PLAN_VERSION, plans: [held.plan] }),
    );
    return doc.plans[0]!;
  } catch (e) {
    if (e instanceof PlanFormatError)
      throw new CliError(`run ${id}'s held plan cannot be read: ${e.message}`);
    throw e;
  }
}

export async function approve(given: CommandRun, runIdText: string): Promise<void> {
  const id = runIdArg(runIdText, "musicsync status lists them");
  const project = await loadProjectFor(given);
  // Nothing was ever held without a state database; opening one would create it.
  if (!stateMayExist(existingStateFolder(stateFileOf(given.g, project))))
    throw new CliError(`run ${id} holds no plan for approval`);
  await withEnv(given, project, async (env, run) => {
    const held = await env.state.approval(id);
    const refused = await refusal(env.state, id, held);
    if (refused !== null || held === null) throw new CliError(refused ?? `run ${id} holds no plan`);
    const plan = planOf(id, held);
    const out = new RunPrinter(run.io, run.g, { showPlans: true });
    const runs = await runAll(
      [{ id: plan.recipe.id, account: plan.account, run: () => applySavedPlan(plan, env, { approves: id }) }],
      env.logger as EngineLogger,
      (r) => out.add(r),
    );
    out.finish();
    await sayNextSteps(run.io, env.state, runs);
    run.setExit(exitOf(runs));
  });
}
