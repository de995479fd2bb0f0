/**
 * The plan as a versioned JSON document: what `plan -o plan.json` writes and `apply` reads back.
 * Reading refuses other formats and versions rather than guessing.
 */

import { engineScrubber } from "../output/scrub.js";
import { PLAN_VERSION, type Plan } from "../plan/types.js";
import { planDocumentProblem } from "./plan-schema.js";
import type { PlanFailure } from "./text.js";

export const PLAN_FORMAT = "musicsync-plan";

export interface PlanDocument {
  format: typeof PLAN_FORMAT;
  version: typeof PLAN_VERSION;
  plans: Plan[];
  /**
   * Recipes that could not be planned, with the reason: a machine reading the document sees them as
   * failures, not as recipes without changes. `apply` applies the plans and ignores these. Absent
   * in documents written before it existed.
   */
  failed?: PlanFailure[];
}

export function renderPlansJson(
  plans: readonly Plan[],
  indent = 2,
  failed: readonly PlanFailure[] = [],
): string {
  const doc: PlanDocument = {
    format: PLAN_FORMAT,
    version: PLAN_VERSION,
    plans: [...plans],
    failed: [...failed],
  };
  // Defence in depth (docs/ENGINE.md#credentials): a plan holds texts the service sent; none may be a credential.
  return JSON.stringify(engineScrubber.value(doc), null, indent) + "\n";
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
  // The whole document, against the plan format's schema (docs/ENGINE.md#bad-input): apply sends what it
  // says, so a damaged or hand-edited field is refused here, before anything is read or sent.
  const problem = planDocumentProblem(raw);
  if (problem) throw new PlanFormatError(problem);
  return doc as unknown as PlanDocument;
}
