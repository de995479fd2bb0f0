/**
 * The events of one finished run of `musicsync sync` (the daemon's are in daemon.ts of this folder,
 * which knows more: suspensions, held plans seen for the first time).
 */
import type { RecipeRun } from "../run/runner.js";
import { applied, approvalPending, driftFound, type NotifyEvent, runFailed } from "./events.js";

const FAILED = new Set(["failed", "partial", "refused"]);

/** A lock held elsewhere is no failure of this run; expired credentials (also "locked") are. */
function failed(run: RecipeRun): boolean {
  if (FAILED.has(run.outcome)) return true;
  return run.outcome === "locked" && run.error !== null && !/ is locked by /.test(run.error);
}

export function runEvents(run: RecipeRun, account: string | null, at: number): NotifyEvent[] {
  const where = { recipe: run.recipeId, account, run: null, at };
  const out: (NotifyEvent | null)[] = [];
  if (failed(run)) out.push(runFailed(where, run.outcome, run.error));
  if (run.outcome === "pending_approval") out.push(approvalPending(where, run.error));
  const wrote = run.outcome === "converged" || run.outcome === "partial";
  if (wrote && run.plan) {
    out.push(driftFound(where, run.plan));
    out.push(applied(where, run.plan, run.outcome));
  }
  return out.filter((e): e is NotifyEvent => e !== null);
}
