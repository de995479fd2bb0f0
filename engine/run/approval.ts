/**
 * Plans held for a person (`policy.require_approval`). A run whose plan removes more than the recipe
 * allows writes nothing: the plan is recorded with the run's id and the run ends `pending_approval`.
 * `sync --approve` applies such a plan at once; `musicsync approve <run-id>` applies a held one,
 * exactly, through the saved-plan path (refused when the target changed since).
 */
import { approvalNeeded } from "../plan/approval.js";
import type { Plan } from "../plan/types.js";
import type { RequireApproval } from "../recipe/types.js";
import type { Approval, EngineState, RunResult } from "../state/types.js";
import type { EngineEnv, RecipeRun } from "./runner.js";
import { engineScrubber } from "./scrub.js";

/** How one run stands to `policy.require_approval`. */
export interface ApprovalOptions {
  /** The recipe's thresholds; absent, nothing is held. */
  rule?: RequireApproval | undefined;
  /** `sync --approve`: a plan over the thresholds is applied all the same. */
  approved?: boolean;
  /** `approve <run-id>`: this run applies the plan that run held. */
  approves?: number;
}

/** Results of runs that applied a plan: after one, an older held plan of the recipe is out of date. */
const APPLIED: ReadonlySet<RunResult> = new Set(["no_changes", "converged", "partial"]);

/**
 * The first later run of the recipe that applied a newer plan, or null. (A newer held plan marks the
 * older one `superseded` in the state; a newer plan applied without approval leaves it pending
 * there, and this is how `approve` and `status` know it is no longer the recipe's plan.)
 */
export async function supersededBy(state: EngineState, held: Approval): Promise<number | null> {
  const later = (await state.runs(held.recipeId, 200)).filter(
    (r) => r.id > held.runId && APPLIED.has(r.result),
  );
  return later.length > 0 ? Math.min(...later.map((r) => r.id)) : null;
}

/** The pending approvals that can still be approved, newest first. */
export async function openApprovals(state: EngineState, recipeId?: string): Promise<Approval[]> {
  const pending = await state.approvals(recipeId === undefined ? {} : { recipeId });
  const open: Approval[] = [];
  for (const a of pending) if ((await supersededBy(state, a)) === null) open.push(a);
  return open;
}

/** The same writes against the same target read: holding it again would only change its run id. */
function samePlan(held: unknown, plan: Plan): boolean {
  const h = held as Partial<Plan>;
  const shape = (p: Partial<Plan>) =>
    JSON.stringify([p.recipe?.hash, p.account, p.target?.fingerprint, p.actions]);
  return shape(h) === shape(plan);
}

/**
 * Called once the run has started, before any write: null when the plan may be applied now;
 * otherwise the run as it ended (held for approval, or refused because its approval was decided).
 */
export async function approvalGate(
  env: EngineEnv,
  plan: Plan,
  runId: number,
  o: ApprovalOptions,
): Promise<RecipeRun | null> {
  if (o.approves !== undefined) return claimApproval(env, plan, runId, o.approves);
  const reason = approvalNeeded(plan, o.rule ? { require_approval: o.rule } : {});
  if (reason === null) return null;
  if (o.approved) {
    env.logger.info({ recipe: plan.recipe.id, run: runId, reason }, "applied with --approve");
    return null;
  }
  return hold(env, plan, runId, reason);
}

async function hold(env: EngineEnv, plan: Plan, runId: number, reason: string): Promise<RecipeRun> {
  const { state, clock } = env;
  const recipeId = plan.recipe.id;
  const data = engineScrubber.value(plan);
  const [pending] = await openApprovals(state, recipeId);
  // The daemon plans again on every tick: the same plan keeps the run id a person was told.
  const same = pending !== undefined && samePlan(pending.plan, plan);
  const heldBy = same ? pending.runId : runId;
  if (!same) {
    await state.recordPendingApproval({
      runId,
      recipeId,
      account: plan.account,
      plan: data,
      reason,
      createdAt: clock.now(),
    });
  }
  const how = `apply it with: musicsync approve ${heldBy} (or: musicsync sync -r ${recipeId} --approve)`;
  const error = same
    ? `still held for approval as run ${heldBy}: ${reason}; ${how}`
    : `held for approval: ${reason}; ${how}`;
  await state.finishRun(runId, { at: clock.now(), result: "pending_approval", error });
  await state.setCondition(
    recipeId,
    { type: "Ready", status: "False", reason: "AwaitingApproval", message: error },
    clock.now(),
  );
  return { recipeId, plan, apply: null, outcome: "pending_approval", error };
}

/** `approve`: marks the held plan approved by this run; a plan decided meanwhile is refused. */
async function claimApproval(env: EngineEnv, plan: Plan, runId: number, heldRunId: number) {
  const { state, clock } = env;
  const at = clock.now();
  if (await state.decideApproval(heldRunId, { status: "approved", at, appliedRunId: runId })) return null;
  const error = `run ${heldRunId}'s plan is no longer waiting for approval`;
  await state.finishRun(runId, { at, result: "refused", error });
  return { recipeId: plan.recipe.id, plan, apply: null, outcome: "refused", error } satisfies RecipeRun;
}
