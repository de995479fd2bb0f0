/**
 * Plans held for a person (`policy.require_approval`). A run whose plan removes more than the recipe
 * allows writes nothing: the plan is recorded with the run's id and the run ends `pending_approval`.
 * `sync --approve` applies such a plan at once; `musicsync approve <run-id>` applies a held one,
 * exactly, through the saved-plan path (refused when the target changed since).
 */

import { engineScrubber } from "../output/scrub.js";
import { approvalNeeded, withApprovalNote } from "../plan/approval.js";
import type { Plan } from "../plan/types.js";
import type { LoadedRecipe, RequireApproval } from "../recipe/types.js";
import type { Approval, EngineState, RunResult } from "../state/types.js";
import type { EngineEnv, Planned, RecipeRun } from "./run-types.js";

/** How one run stands to `policy.require_approval`. */
export interface ApprovalOptions {
  /** The recipe's thresholds; absent, nothing is held. */
  rule?: RequireApproval | undefined;
  /** `sync --approve`: a plan over the thresholds is applied all the same. */
  approved?: boolean;
  /** `approve <run-id>`: this run applies the plan that run held. */
  approves?: number;
  /**
   * A saved plan's own `heldForApproval` (what `plan -o` said when it was made): held for that
   * reason even when the recipe's rule, as the project has it now, would not hold it.
   */
  noted?: string | undefined;
  /** The other way to let it through, for the message (default: `sync -r <recipe> --approve`). */
  orElse?: string;
}

/** Results of runs that applied a plan: after one, an older held plan of the recipe is out of date. */
const APPLIED: ReadonlySet<RunResult> = new Set(["no_changes", "converged", "partial"]);

/**
 * For a `superseded` approval, the run that applied a newer plan of the recipe and so put it out of
 * date; null when a newer held plan took its place instead (or it is not superseded). Only names
 * the run for a message: the state already says the approval is out of date.
 */
export async function supersededBy(state: EngineState, held: Approval): Promise<number | null> {
  if (held.status !== "superseded" || held.decidedAt === null) return null;
  const at = held.decidedAt;
  // The runner marks approvals superseded right after the applying run finished, on the same clock.
  const later = (await state.runs(held.recipeId, 200)).filter(
    (r) => r.id > held.runId && APPLIED.has(r.result) && r.finishedAt !== null && r.finishedAt <= at,
  );
  return later.length > 0 ? Math.min(...later.map((r) => r.id)) : null;
}

/**
 * The approvals that can still be approved, newest first: the pending ones (a newer held plan, or a
 * run that applied a newer plan, marks a recipe's pending approvals `superseded`).
 */
export function openApprovals(state: EngineState, recipeId?: string): Promise<Approval[]> {
  return state.approvals(recipeId === undefined ? {} : { recipeId });
}

/**
 * The `policy.require_approval` a saved plan of `recipeId` is held by: its recipe's as the project
 * has it now (a split recipe's part `<id>.<k>` is its recipe's); undefined for a recipe not loaded.
 */
export function ruleOf(recipes: readonly LoadedRecipe[], recipeId: string): RequireApproval | undefined {
  const own = (id: string) => recipes.find((r) => r.recipe.id === id)?.recipe.policy.require_approval;
  const part = /^(.+)\.[1-9][0-9]*$/.exec(recipeId);
  return own(recipeId) ?? (part ? own(part[1]!) : undefined);
}

/** A dry run's plans (each part's too) with the reason each would be held for approval when applied. */
export function noteApproval(planned: Planned, rule: RequireApproval | undefined): Planned {
  if (!rule) return planned;
  const note = (p: Planned): Planned => ({
    ...p,
    plan: withApprovalNote(p.plan, { require_approval: rule }),
  });
  return { ...note(planned), ...(planned.parts ? { parts: planned.parts.map(note) } : {}) };
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
  const reason = approvalNeeded(plan, o.rule ? { require_approval: o.rule } : {}) ?? o.noted ?? null;
  if (reason === null) return null;
  if (o.approved) {
    env.logger.info({ recipe: plan.recipe.id, run: runId, reason }, "applied with --approve");
    return null;
  }
  return hold(env, plan, runId, reason, o.orElse ?? `musicsync sync -r ${plan.recipe.id} --approve`);
}

async function hold(
  env: EngineEnv,
  plan: Plan,
  runId: number,
  reason: string,
  orElse: string,
): Promise<RecipeRun> {
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
  const how = `apply it with: musicsync approve ${heldBy} (or: ${orElse})`;
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
