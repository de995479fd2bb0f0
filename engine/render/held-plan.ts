/**
 * A plan held for approval (`policy.require_approval`): why it can no longer be approved, and the
 * plan itself, checked as a saved plan file is. `musicsync approve` and the status page's Approve
 * button both go through these.
 */
import { PLAN_VERSION, type Plan } from "../plan/types.js";
import { supersededBy } from "../run/approval.js";
import type { Approval, EngineState } from "../state/types.js";
import { PLAN_FORMAT, PlanFormatError, parsePlansJson } from "./json.js";

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
    if (e instanceof PlanFormatError) throw new Error(`run ${id}'s held plan cannot be read: ${e.message}`);
    throw e;
  }
}
