/** A small seeded generator (mulberry32): the same seed gives the same numbers, run after run. */
export function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  /** A whole number in [0, n). */
  const int = (n: number) => Math.floor(next() * n);
  return { next, int };
}
