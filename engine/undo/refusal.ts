/** Which runs can be undone, told from the state alone (`history` marks runs with it; no service read). */

import { DEFAULT_UNDO_MAX_AGE_DAYS } from "../recipe/defaults.js";
import type { JournalEntry, RunBeforeRecord, RunRecord } from "../state/types.js";
import { wroteAnything } from "./journal.js";

export { DEFAULT_UNDO_MAX_AGE_DAYS };

const DAY_MS = 86_400_000;

/** Why a run cannot be undone, in one line (the command prints it and exits 1). */
export class UndoRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UndoRefusedError";
  }
}

/**
 * Why the run cannot be undone, from what the state holds (no read of the service: a deleted
 * playlist is found only by prepareUndo); null when it can. `history` marks runs with it.
 */
export function undoRefusal(
  runId: number,
  found: { run: RunRecord | null; before: RunBeforeRecord | null; journal: readonly JournalEntry[] },
  now: number,
  maxAgeDays: number = DEFAULT_UNDO_MAX_AGE_DAYS,
): string | null {
  const { run, before, journal } = found;
  const tag = `run #${runId}`;
  if (run === null) return `there is no ${tag}`;
  if (run.kind === "plan") return `${tag} only planned: it wrote nothing to undo`;
  if (run.result === "running") return `${tag} is still running`;
  if (!wroteAnything(journal)) return `${tag} wrote nothing: nothing to undo`;
  if (before === null) return `${tag} kept no record of the target before it (it ran before undo was kept)`;
  const age = now - run.startedAt;
  if (age > maxAgeDays * DAY_MS) {
    return `${tag} is ${Math.floor(age / DAY_MS)} days old; undo takes runs up to ${maxAgeDays} days old (--max-age-days)`;
  }
  return null;
}
