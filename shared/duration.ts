/**
 * The one reading of a human duration in a setting: `90s`, `5m`, `1h`, `250ms`, or a bare number
 * of milliseconds (command-line options like `--lock-wait`, a recipe's `schedule.jitter`).
 *
 * Not a track's length: "3:45" on the service's pages and in imported files is a clock time read by
 * the client's parsers (src/parsers/text.ts) and the engine's file and source readers, each with
 * its own tolerances (an empty cell, "1 hr 25 mins" on an episode).
 */

/** `text` in milliseconds; an error naming `name` (the option or field) when it is not a duration. */
export function parseDuration(text: string, name: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new Error(`${name}: "${text}" is not a duration (e.g. 250ms, 30s, 5m, 1h)`);
  const n = Number(m[1]);
  const unit = m[2] ?? "ms";
  const factor = unit === "h" ? 3_600_000 : unit === "m" ? 60_000 : unit === "s" ? 1000 : 1;
  return Math.round(n * factor);
}
