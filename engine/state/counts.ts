/**
 * What became of a run's actions, counted alike wherever a run is closed (the runner, the open-time
 * check): confirmed, failed (refused, or verified not done), unknown (sent, answer never seen), not
 * sent (a stop, a failed create before them, a kill before their turn).
 */
import type { JournalStatus } from "./types.js";

export interface ActionCounts {
  actions: number;
  confirmed: number;
  failed: number;
  unknown: number;
  notSent: number;
}

export interface ActionFate {
  status: JournalStatus;
  /** False when its request never left (an action marked failed before it was sent). */
  sent: boolean;
}

export function actionCounts(fates: readonly ActionFate[]): ActionCounts {
  const c: ActionCounts = { actions: fates.length, confirmed: 0, failed: 0, unknown: 0, notSent: 0 };
  for (const f of fates) {
    if (f.status === "pending" || !f.sent) c.notSent += 1;
    else if (f.status === "confirmed") c.confirmed += 1;
    else if (f.status === "failed") c.failed += 1;
    // `sent` without an answer recorded, or `unknown`: the request left, its fate is not known.
    else c.unknown += 1;
  }
  return c;
}

/** A journal entry's fate: its `result` says `sent: false` when the applier never sent it. */
export function journalFate(e: { status: string; result: unknown }): ActionFate {
  const r = e.result as { sent?: unknown } | null;
  return { status: e.status as JournalStatus, sent: !(r && typeof r === "object" && r.sent === false) };
}
