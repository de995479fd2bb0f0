/**
 * The service writes episode dates for people: "3 days ago", "Today", "Aug 30, 2024". These turn
 * them into instants relative to the planning time, which is passed in (no clock here).
 */

const DAY_MS = 86_400_000;
const UNIT_MS: Record<string, number> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: DAY_MS,
  week: 7 * DAY_MS,
  month: 30 * DAY_MS,
  year: 365 * DAY_MS,
};
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** Milliseconds since the epoch, or null when the text is not a date we know. */
export function parseServiceDate(text: string | null, now: Date): number | null {
  if (!text) return null;
  const t = text.trim().toLowerCase();
  if (t === "today" || t === "just now") return now.getTime();
  if (t === "yesterday") return now.getTime() - DAY_MS;
  const ago = /^(\d+|an?|one)\s+(second|minute|hour|day|week|month|year)s?\s+ago$/.exec(t);
  if (ago) {
    const n = /^\d+$/.test(ago[1]!) ? Number(ago[1]) : 1;
    return now.getTime() - n * UNIT_MS[ago[2]!]!;
  }
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(t);
  if (iso) return Date.UTC(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]));
  const written = /^([a-z]{3})[a-z]*\.?\s+(\d{1,2})(?:,\s*(\d{4}))?$/.exec(t);
  if (written) {
    const month = MONTHS.indexOf(written[1]!);
    if (month === -1) return null;
    const year = written[3] ? Number(written[3]) : now.getUTCFullYear();
    let at = Date.UTC(year, month, Number(written[2]));
    // "Dec 30" read on Jan 2 is last year's.
    if (!written[3] && at > now.getTime()) at = Date.UTC(year - 1, month, Number(written[2]));
    return at;
  }
  // Some locales write the day first: "12 Aug", "12 Aug 2024".
  const dayFirst = /^(\d{1,2})\s+([a-z]{3})[a-z]*\.?(?:,?\s*(\d{4}))?$/.exec(t);
  if (dayFirst)
    return parseServiceDate(`${dayFirst[2]} ${dayFirst[1]}${dayFirst[3] ? `, ${dayFirst[3]}` : ""}`, now);
  const year = /^(\d{4})$/.exec(t);
  if (year) return Date.UTC(Number(year[1]), 0, 1);
  return null;
}

/** ISO 8601 week of a date in UTC, as `2026-W47`: weeks start on Monday, week 1 holds a Thursday. */
export function isoWeek(date: Date): string {
  const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((d.getTime() - yearStart) / DAY_MS + 1) / 7);
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}
