/** What a run's journal says it did, as undo reads it: the writes that left, confirmed or not. */
import type { PlanAction, PlanLine } from "../plan/types.js";
import type { JournalEntry } from "../state/types.js";

/** A write of the undone run whose request left (its fate may still be unknown). */
export interface Step {
  action: PlanAction;
  /** The journal says it was confirmed; otherwise what it did is read off the target as it is now. */
  confirmed: boolean;
  result: unknown;
}

/** Whether the entry's request may have reached the service. */
export function sent(e: JournalEntry): boolean {
  if (e.status === "pending") return false;
  return (e.result as { sent?: unknown } | null)?.sent !== false;
}

export function stepsOf(journal: readonly JournalEntry[]): Step[] {
  return journal
    .filter(sent)
    .sort((a, b) => a.seq - b.seq)
    .map((e) => ({ action: e.payload as PlanAction, confirmed: e.status === "confirmed", result: e.result }));
}

/** The journal has at least one write that left: the run changed (or may have changed) something. */
export function wroteAnything(journal: readonly JournalEntry[]): boolean {
  return journal.some(sent);
}

/** The rows a confirmed add or create put there, by videoId, as apply journals them. */
export function addedRows(step: Step): Record<string, string> | null {
  const added = (step.result as { added?: unknown } | null)?.added;
  return added && typeof added === "object" ? (added as Record<string, string>) : null;
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

export function chunk<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}
