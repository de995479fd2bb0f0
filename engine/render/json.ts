/**
 * The plan as a versioned JSON document: what `plan -o plan.json` writes and `apply` reads back.
 * Reading refuses other formats and versions rather than guessing.
 */
import { PLAN_VERSION, type Plan } from "../plan/types.js";

export const PLAN_FORMAT = "musicsync-plan";

export interface PlanDocument {
  format: typeof PLAN_FORMAT;
  version: typeof PLAN_VERSION;
  plans: Plan[];
}

export function renderPlansJson(plans: readonly Plan[], indent = 2): string {
  const doc: PlanDocument = { format: PLAN_FORMAT, version: PLAN_VERSION, plans: [...plans] };
  return JSON.stringify(doc, null, indent) + "\n";
}

export class PlanFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PlanFormatError";
  }
}

/** Reads a plan document; throws PlanFormatError naming what is wrong. */
export function parsePlansJson(text: string): PlanDocument {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new PlanFormatError(`not JSON: ${(err as Error).message}`);
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw))
    throw new PlanFormatError("a plan document must be an object");
  const doc = raw as Record<string, unknown>;
  if (doc.format !== PLAN_FORMAT) throw new PlanFormatError(`format must be "${PLAN_FORMAT}"`);
  if (doc.version !== PLAN_VERSION) {
    throw new PlanFormatError(
      `plan version ${String(doc.version)} is not supported (this engine reads ${PLAN_VERSION})`,
    );
  }
  if (!Array.isArray(doc.plans)) throw new PlanFormatError("plans must be a list");
  doc.plans.forEach((p: unknown, i: number) => {
    const plan = p as Partial<Plan> | null;
    if (!plan || typeof plan !== "object") throw new PlanFormatError(`plans[${i}] must be an object`);
    if (plan.version !== PLAN_VERSION)
      throw new PlanFormatError(`plans[${i}].version must be ${PLAN_VERSION}`);
    if (!plan.recipe || typeof plan.recipe.id !== "string")
      throw new PlanFormatError(`plans[${i}].recipe.id is missing`);
    if (!plan.target || typeof plan.target.fingerprint !== "string") {
      throw new PlanFormatError(`plans[${i}].target.fingerprint is missing`);
    }
    if (!Array.isArray(plan.actions)) throw new PlanFormatError(`plans[${i}].actions must be a list`);
  });
  return doc as unknown as PlanDocument;
}
