import { planOf, refusal } from "../../engine/render/held-plan.js";
import type { EngineLogger } from "../../engine/run/logger.js";
import { runAll } from "../../engine/run/run-all.js";
import { applySavedPlan } from "../../engine/run/runner.js";
import { loadProjectFor } from "./accounts.js";
import { runIdArg } from "./args.js";
import { CliError, type CommandRun } from "./io.js";
import { sayNextSteps } from "./next-steps.js";
import { existingStateFolder, stateFileOf, stateMayExist } from "./project.js";
import { RunPrinter } from "./run-printer.js";
import { exitOf, withEnv } from "./runs.js";

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
