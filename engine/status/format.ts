/** Small renderings shared by `status`, `history` and `drift`: times, durations, counts. */

/** `2026-11-21 18:02:03Z`: the UTC instant, to the second. */
export function instant(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19).replace("T", " ")}Z`;
}

/** `250 ms`, `3 s`, `4 min 10 s`, `2 h 5 min`, `3 d 4 h`. */
export function duration(ms: number): string {
  if (Math.abs(ms) < 1000) return `${Math.round(Math.abs(ms))} ms`;
  const s = Math.round(Math.abs(ms) / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** `in 4 min` / `3 h ago`. */
export function relative(ms: number, now: number): string {
  return ms >= now ? `in ${duration(ms - now)}` : `${duration(now - ms)} ago`;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}
