/** `90s`, `5m`, `1h`, `250ms` or a number of milliseconds; `name` (the option) leads the error. */
export function parseDuration(text: string, name: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new Error(`${name}: "${text}" is not a duration (e.g. 250ms, 30s, 5m, 1h)`);
  const n = Number(m[1]);
  const unit = m[2] ?? "ms";
  const factor = unit === "h" ? 3_600_000 : unit === "m" ? 60_000 : unit === "s" ? 1000 : 1;
  return Math.round(n * factor);
}
