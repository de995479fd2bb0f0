/** Display strings in the service's English formats: abbreviated counts, `m:ss`, dates. */

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
