/**
 * When a schedule fires next, computed the way the daemon's node-cron will (same parser, same time
 * zone handling) — for `status` when no daemon has planned the run.
 */
import { createTask } from "node-cron";
import type { Schedule } from "../recipe/types.js";

/** The next time from now, before jitter; null when the expression does not parse. */
export function nextRunOf(schedule: Schedule): Date | null {
  try {
    // An unstarted task only parses the expression; no timer is set.
    const task = createTask(
      schedule.cron,
      () => {},
      schedule.timezone ? { timezone: schedule.timezone } : {},
    );
    try {
      return task.getNextRuns(1)[0] ?? null;
    } finally {
      void task.destroy();
    }
  } catch {
    return null;
  }
}
