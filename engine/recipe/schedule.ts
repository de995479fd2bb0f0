/**
 * The one check of a recipe's `schedule`, used by `validate` (through the semantic checks) and by
 * the daemon before it schedules a recipe, so the two cannot disagree. It asks node-cron, the
 * parser the daemon runs, and adds the rules musicsync sets on top of it.
 */
import { createTask, validateDetailed } from "node-cron";

/**
 * Set to "1" by the test suite only: its daemons run recipes on schedules of seconds so a test
 * takes seconds, not minutes. Read by the loader at its edge (`loadRecipePaths`).
 */
export const SECOND_SCHEDULES_ENV = "MUSICSYNC_TEST_SECOND_SCHEDULES";

export interface ScheduleOptions {
  /** Lets a schedule fire more than once a minute (tests only, see SECOND_SCHEDULES_ENV). */
  allowSecondSchedules?: boolean;
}

export interface ScheduleProblem {
  field: "cron" | "timezone";
  message: string;
}

const FIELD_NAMES: Record<string, string> = {
  second: "second",
  minute: "minute",
  hour: "hour",
  dayOfMonth: "day of month",
  month: "month",
  dayOfWeek: "day of week",
};
/** Each field's name and range, in the order a 5-field expression writes them. */
const ORDER_5: readonly [string, number, number][] = [
  ["minute", 0, 59],
  ["hour", 0, 23],
  ["day of month", 1, 31],
  ["month", 1, 12],
  ["day of week", 0, 6],
];
const ORDER_6: readonly [string, number, number][] = [["second", 0, 59], ...ORDER_5];
const NAMED: Record<string, number> = Object.fromEntries([
  ...["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].map((m, i) => [
    m,
    i + 1,
  ]),
  ...["sun", "mon", "tue", "wed", "thu", "fri", "sat"].map((d, i) => [d, i]),
]);

function fieldValue(part: string): number | null {
  if (/^\d+$/.test(part)) return Number(part);
  return NAMED[part.slice(0, 3).toLowerCase()] ?? null;
}

/**
 * node-cron reads `59-1` as "59, 0, 1" (it wraps); most crons refuse it, and which one a person
 * meant is a guess, so musicsync refuses it and says how to write the wrap.
 */
function reversedRange(cron: string): string | null {
  const fields = cron.trim().split(/\s+/);
  const names = fields.length === 6 ? ORDER_6 : ORDER_5;
  for (const [i, field] of fields.entries()) {
    for (const item of field.split(",")) {
      const m = /^([^-/]+)-([^-/]+)(?:\/.*)?$/.exec(item);
      if (!m) continue;
      const from = fieldValue(m[1]!);
      const to = fieldValue(m[2]!);
      const [name, min, max] = names[i] ?? ["field", 0, 0];
      if (from !== null && to !== null && from > to) {
        return `${name} range "${item}" runs backwards (to wrap around, write "${from}-${max},${min}-${to}")`;
      }
    }
  }
  return null;
}

function cronProblem(cron: string, options: ScheduleOptions): string | null {
  const detailed = validateDetailed(cron);
  if (!detailed.valid || !detailed.fields) {
    const why = detailed.errors
      .map((e) =>
        e.field === "expression"
          ? e.message
          : `${FIELD_NAMES[e.field] ?? e.field} "${e.value ?? ""}" is not valid${/impossible/.test(e.message) ? " (no such day in that month)" : ""}`,
      )
      .join("; ");
    return `"${cron}" is not a valid cron expression: ${why}`;
  }
  const reversed = reversedRange(cron);
  if (reversed) return `"${cron}" is not a valid cron expression: ${reversed}`;
  // A seconds field with several values fires several times a minute; one run a minute is the
  // most a playlist sync needs, and more is a burst of writes against the account's quota.
  if (detailed.fields.second.length > 1 && !options.allowSecondSchedules) {
    return `"${cron}" runs ${detailed.fields.second.length} times a minute; musicsync runs a recipe at most once a minute (give the seconds field one value, e.g. 0, or use 5 fields)`;
  }
  return null;
}

/** Asks node-cron with the time zone the daemon will give it, as `status` does for the next run. */
/** The canonical IANA zone names, read once (an alias or "UTC" is not among them: checked in full). */
let canonicalZones: Set<string> | null = null;

function timeZoneProblem(cron: string, timezone: string): string | null {
  // A canonical name needs no trial: formatting in a zone loads the time-zone data, a fifth of the
  // start-up of `musicsync validate`.
  canonicalZones ??= new Set(Intl.supportedValuesOf("timeZone"));
  if (canonicalZones.has(timezone)) return null;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: timezone });
    const task = createTask(cron, () => {}, { timezone });
    try {
      task.getNextRuns(1);
    } finally {
      void task.destroy();
    }
    return null;
  } catch {
    return `unknown time zone "${timezone}"`;
  }
}

export function scheduleProblems(
  schedule: { cron: string; timezone?: string | null | undefined },
  options: ScheduleOptions = {},
): ScheduleProblem[] {
  const out: ScheduleProblem[] = [];
  const cron = cronProblem(schedule.cron, options);
  if (cron) out.push({ field: "cron", message: cron });
  if (schedule.timezone !== undefined && schedule.timezone !== null) {
    // With a broken expression, the zone is still checked on one that parses.
    const zone = timeZoneProblem(cron ? "0 0 * * *" : schedule.cron, schedule.timezone);
    if (zone) out.push({ field: "timezone", message: zone });
  }
  return out;
}
