/** Display strings in the service's English formats: abbreviated counts, `m:ss`, dates. */
import { bcp47, RELATIVE_DATES, relativeDateText } from "../../shared/wire/relative-dates.js";

/** `999`, `1.2K`, `12K`, `1.2M`, `55M`, `1.1B` — one decimal below 10, none above. */
export function abbreviate(n: number): string {
  const units: [number, string][] = [
    [1e9, "B"],
    [1e6, "M"],
    [1e3, "K"],
  ];
  for (const [size, suffix] of units) {
    if (n >= size) {
      const v = n / size;
      const text = v < 10 ? (Math.floor(v * 10) / 10).toFixed(1).replace(/\.0$/, "") : String(Math.floor(v));
      return text + suffix;
    }
  }
  return String(n);
}

/** `3:06`, `1:02:03`. */
export function clock(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const ss = String(s).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** `3 minutes, 6 seconds` (accessibility labels). */
export function spokenDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const parts: string[] = [];
  if (h) parts.push(plural(h, "hour"));
  if (m) parts.push(plural(m, "minute"));
  if (s || parts.length === 0) parts.push(plural(s, "second"));
  return parts.join(", ");
}

/** Album and playlist totals: `22 minutes`, `1 hour, 5 minutes`, and `5+ hours` for long lists. */
export function totalDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (h >= 5) return "5+ hours";
  if (h === 0) return plural(Math.max(1, m), "minute");
  return m ? `${plural(h, "hour")}, ${plural(m, "minute")}` : plural(h, "hour");
}

export const countOf = (n: number, word: string) =>
  `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTHS_LONG = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** `Aug 29, 2024` (episode dates). */
export function shortDate(ms: number): string {
  const d = new Date(ms);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

/** The display language and the clock of a page whose dates are written for people. */
export interface DateStyle {
  /** `hl` of the request. */
  language: string;
  /** Unix milliseconds. */
  now: number;
}

/**
 * An episode's date as the service writes it in the page's language: within a month relative
 * ("vor 3 Tagen", "3 日前"), older as a date in that language's form ("30 août 2024"). English pages
 * keep the absolute `Aug 29, 2024` the emulator has always written (the captures show both forms;
 * tests of English pages rely on this one).
 */
export function episodeDate(ms: number, style?: DateStyle): string {
  if (!style || style.language === "en") return shortDate(ms);
  const words = RELATIVE_DATES[style.language] ?? RELATIVE_DATES.en!;
  const days = Math.floor(style.now / 86_400_000) - Math.floor(ms / 86_400_000);
  if (days <= 0) return words.today;
  if (days < 7) return relativeDateText(style.language, "day", days);
  if (days < 30) return relativeDateText(style.language, "week", Math.floor(days / 7));
  return new Intl.DateTimeFormat(bcp47(style.language), {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  }).format(new Date(ms));
}

/** History shelf titles: Today, Yesterday, This week, Last week, then month names (with the year when not this year). */
export function historyPeriod(playedAt: number, now: number): string {
  const day = 86_400_000;
  const today = Math.floor(now / day);
  const d = Math.floor(playedAt / day);
  if (d >= today) return "Today";
  if (d === today - 1) return "Yesterday";
  if (d > today - 7) return "This week";
  if (d > today - 14) return "Last week";
  const date = new Date(playedAt);
  const nowDate = new Date(now);
  const month = MONTHS_LONG[date.getUTCMonth()]!;
  return date.getUTCFullYear() === nowDate.getUTCFullYear() ? month : `${month} ${date.getUTCFullYear()}`;
}
