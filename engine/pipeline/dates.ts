/**
 * The service writes episode dates for people, in the account's display language: "3 days ago",
 * "vor 3 Tagen", "il y a 3 jours", "3日前", "Today", "Aug 30, 2024", "30.08.2024", "2024年8月30日".
 * No field of its pages holds a date in a form that does not depend on the language, so these are
 * read in every language the client supports (the words are the shared wire table of
 * shared/wire/relative-dates.ts). Turned into instants relative to the planning time, which is
 * passed in (no clock here).
 */
import { LANGUAGES } from "../../shared/wire/constants.js";
import {
  bcp47,
  CATEGORY_NUMBER,
  DATE_UNITS,
  type DateUnit,
  RELATIVE_DATES,
} from "../../shared/wire/relative-dates.js";

const DAY_MS = 86_400_000;
const UNIT_MS: Record<DateUnit, number> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: DAY_MS,
  week: 7 * DAY_MS,
  month: 30 * DAY_MS,
  year: 365 * DAY_MS,
};

/**
 * One form of comparison for the service's text and the table's: NFKC (full-width digits and
 * compatibility forms), Arabic-Indic digits as ASCII, no Arabic vowel marks or direction marks,
 * one plain space, lower case.
 */
export function normaliseDateText(text: string): string {
  return text
    .normalize("NFKC")
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/[\u064b-\u065f\u0670\u200e\u200f\u061c]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

interface RelativePattern {
  re: RegExp;
  unit: DateUnit;
  /** The number of a form without one ("قبل يومين": 2). */
  fixed: number | null;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A table form as a whole-string pattern; spaces, and the space around the number, optional. */
function patternOf(form: string): RegExp {
  const parts = normaliseDateText(form)
    .split("{n}")
    .map((p) => p.trim().split(" ").filter(Boolean).map(escapeRe).join("\\s*"));
  return new RegExp(`^${parts.join("\\s*(\\d+)\\s*")}$`);
}

function relativePatterns(): { ago: RelativePattern[]; today: Set<string>; yesterday: Set<string> } {
  const ago: RelativePattern[] = [];
  const today = new Set<string>(["today", "just now"]);
  const yesterday = new Set<string>(["yesterday"]);
  for (const language of LANGUAGES) {
    const words = RELATIVE_DATES[language];
    if (!words) continue;
    today.add(normaliseDateText(words.today));
    yesterday.add(normaliseDateText(words.yesterday));
    for (const unit of DATE_UNITS) {
      for (const [category, form] of Object.entries(words.ago[unit])) {
        const fixed = form.includes("{n}")
          ? null
          : (CATEGORY_NUMBER[category as Intl.LDMLPluralRule] ?? null);
        if (!form.includes("{n}") && fixed === null) continue;
        ago.push({ re: patternOf(form), unit, fixed });
      }
    }
  }
  return { ago, today, yesterday };
}

let relative: ReturnType<typeof relativePatterns> | null = null;
/** The relative forms, made by the first date read: a command that reads no dates pays nothing at import. */
const relativeForms = () => (relative ??= relativePatterns());

/** English extras the table does not hold: "an hour ago", "a day ago", "2d ago", "5h ago". */
const ENGLISH_WORDY = /^(\d+|an?|one)\s+(second|minute|hour|day|week|month|year)s?\s+ago$/;
const ENGLISH_SHORT: Record<string, DateUnit> = {
  s: "second",
  m: "minute",
  h: "hour",
  d: "day",
  w: "week",
  mo: "month",
  y: "year",
};

function relativeAgo(t: string): { n: number; unit: DateUnit } | null {
  const wordy = ENGLISH_WORDY.exec(t);
  if (wordy) return { n: /^\d+$/.test(wordy[1]!) ? Number(wordy[1]) : 1, unit: wordy[2] as DateUnit };
  const short = /^(\d+)\s*(mo|[smhdwy])\s+ago$/.exec(t);
  if (short) return { n: Number(short[1]), unit: ENGLISH_SHORT[short[2]!]! };
  for (const p of relativeForms().ago) {
    const m = p.re.exec(t);
    if (m) return { n: p.fixed ?? Number(m[1]), unit: p.unit };
  }
  return null;
}

/** A word: letters with their combining marks (Devanagari vowel signs are marks). */
const WORD = /[\p{L}\p{M}]+/gu;

/** Month names in every supported language, short and long, as Intl writes them: `août` → 7. */
function monthNames(): Map<string, number> {
  const names = new Map<string, number>();
  for (const language of LANGUAGES) {
    for (const month of ["short", "long"] as const) {
      const format = new Intl.DateTimeFormat(bcp47(language), { month, timeZone: "UTC" });
      const inDate = new Intl.DateTimeFormat(bcp47(language), { month, day: "numeric", timeZone: "UTC" });
      for (let m = 0; m < 12; m++) {
        const at = new Date(Date.UTC(2024, m, 15));
        const inText = inDate.formatToParts(at).find((p) => p.type === "month")?.value ?? "";
        for (const name of [format.format(at), inText]) {
          // Keyed as `namedDate` splits text into words; names that hold digits ("8月") are read
          // by the numeric forms.
          const runs = normaliseDateText(name).match(WORD) ?? [];
          if (runs.length === 1 && !/\d/.test(name) && !names.has(runs[0]!)) names.set(runs[0]!, m);
        }
      }
    }
  }
  return names;
}

let monthNamesMade: Map<string, number> | null = null;
/**
 * The month names, made by the first date written with one: four Intl formats per language (30 ms), paid only by a
 * run that reads such a date, never at import. Every language's at once, since a date's text does
 * not say its language.
 */
const knownMonthNames = () => (monthNamesMade ??= monthNames());

/** "Dec 30" read on Jan 2 is last year's. */
function dated(year: number | null, month: number, day: number, now: Date): number | null {
  if (month < 0 || month > 11 || day < 1 || day > 31) return null;
  const y = year ?? now.getUTCFullYear();
  const at = Date.UTC(y, month, day);
  return year === null && at > now.getTime() ? Date.UTC(y - 1, month, day) : at;
}

/** `2024-08-30`, `2024/08/30`, `2024年8月30日`, `2024. 8. 30.`, `30.08.2024`, `30/08/2024`, `30-08-2024`. */
function numericDate(t: string, now: Date): number | null {
  const ymd = /^(\d{4})\s*[-/.年년]\s*(\d{1,2})\s*[-/.月월]\s*(\d{1,2})\s*[日일.]?/.exec(t);
  if (ymd) return dated(Number(ymd[1]), Number(ymd[2]) - 1, Number(ymd[3]), now);
  // Day first: the English service writes month names, so a numeric date is another language's.
  const dmy = /^(\d{1,2})\s*[./-]\s*(\d{1,2})\s*[./-]\s*(\d{4})\.?$/.exec(t);
  if (dmy) return dated(Number(dmy[3]), Number(dmy[2]) - 1, Number(dmy[1]), now);
  const md = /^(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]$/.exec(t);
  if (md) return dated(null, Number(md[1]) - 1, Number(md[2]), now);
  return null;
}

/** A date with a month name in any supported language: "Aug 30, 2024", "30 août 2024", "30 de ago. de 2024". */
function namedDate(t: string, now: Date): number | null {
  // Every word must be the month or a short particle ("de", "г"): "Streamed 2 days ago" is not
  // "August 2" just because "ago" is August in Spanish.
  const names = knownMonthNames();
  const words = t.match(WORD) ?? [];
  const months = words.filter((w) => names.has(w));
  if (months.length !== 1 || words.some((w) => !names.has(w) && w.length > 2)) return null;
  const month = names.get(months[0]!)!;
  const numbers = (t.match(/\d+/g) ?? []).map(Number);
  const year = numbers.find((n) => n >= 1000) ?? null;
  const day = numbers.find((n) => n < 1000) ?? null;
  if (day === null && year === null) return null;
  return dated(year, month, day ?? 1, now);
}

/** Milliseconds since the epoch, or null when the text is not a date we know. */
export function parseServiceDate(text: string | null, now: Date): number | null {
  if (!text) return null;
  const t = normaliseDateText(text);
  if (relativeForms().today.has(t)) return now.getTime();
  if (relativeForms().yesterday.has(t)) return now.getTime() - DAY_MS;
  const ago = relativeAgo(t);
  if (ago) return now.getTime() - ago.n * UNIT_MS[ago.unit];
  const year = /^(\d{4})$/.exec(t);
  if (year) return Date.UTC(Number(year[1]), 0, 1);
  return numericDate(t, now) ?? namedDate(t, now);
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
