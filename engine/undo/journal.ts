/** What a run's journal says it did, as undo reads it: the writes that left, confirmed or not. */
import type { PlanAction, PlanLine } from "../plan/types.js";
import type { JournalEntry } from "../state/types.js";

/**
 * What the journal tells of a write's fate. `confirmed`: the applier saw it done and wrote its
 * answer down. `failed`: the applier saw it refused or not done (a remove may have taken part of its
 * rows first). `unknown`: no answer was recorded — the process died, the answer was lost, or only a
 * later run's reconciliation judged it from the target (which cannot tell the run's rows from a
 * person's, so undo does not take its verdict for an answer).
 */
export type Fate = "confirmed" | "failed" | "unknown";

/** A write of the undone run whose request left (its fate may still be unknown). */
export interface Step {
  action: PlanAction;
  /** The journal says it was confirmed (by the applier, or by a later run's reconciliation). */
  confirmed: boolean;
  fate: Fate;
  result: unknown;
}

type Result = { sent?: unknown; requests?: unknown } | null;

/** Whether the entry's request may have reached the service. */
export function sent(e: JournalEntry): boolean {
  // Marking an entry `sent` counts an attempt: one never sent has none, even once reconciled `failed`.
  if (e.status === "pending" || e.attempt === 0) return false;
  return (e.result as Result)?.sent !== false;
}

/**
 * Reconciliation only changes an entry's status and keeps its result: the applier's confirmation
 * always records its request count, and its failures always record why (a result).
 */
export function fateOf(e: JournalEntry): Fate {
  const result = e.result as Result;
  if (e.status === "confirmed") return typeof result?.requests === "number" ? "confirmed" : "unknown";
  if (e.status === "failed") return result === null ? "unknown" : "failed";
  return "unknown";
}

export function stepsOf(journal: readonly JournalEntry[]): Step[] {
  return journal
    .filter(sent)
    .sort((a, b) => a.seq - b.seq)
    .map((e) => ({
      action: e.payload as PlanAction,
      confirmed: e.status === "confirmed",
      fate: fateOf(e),
      result: e.result,
    }));
}

/** The journal has at least one write that left: the run changed (or may have changed) something. */
export function wroteAnything(journal: readonly JournalEntry[]): boolean {
  return journal.some(sent);
}

/** The rows an add or create put there, by videoId, as apply journals them (null: none named). */
export function addedRows(step: Step): Record<string, string> | null {
  const added = (step.result as { added?: unknown } | null)?.added;
  return added && typeof added === "object" ? (added as Record<string, string>) : null;
}

/** The setVideoIds of the rows a failed remove did take before it failed, where apply names them. */
export function removedRows(step: Step): string[] {
  const removed = (step.result as { removed?: unknown } | null)?.removed;
  return Array.isArray(removed) ? removed.filter((r): r is string => typeof r === "string") : [];
}

/** A plan line that names no source (every undo line is about the target). */
export function line(
  op: PlanLine["op"],
  key: string | null,
  label: string,
  videoId: string | null,
  reason: string,
): PlanLine {
  return { op, key, label, videoId, source: null, rank: null, reason };
}
