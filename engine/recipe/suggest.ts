/**
 * "did you mean …?" for a mistyped key or type: the known word nearest to what was written, by
 * edit distance, when it is near enough to be the obvious one (`souces` → `sources`). Pure.
 */

/** Insertions, deletions, substitutions and swaps of two neighbours, each costing 1. */
export function editDistance(a: string, b: string): number {
  // Three rows of the classic table: two before this one, for the swap of neighbours.
  let before = Array.from({ length: b.length + 1 }, () => 0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
    }
    before = previous;
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * The one known word within reach of `written` (a third of its length, at most 2 edits; case
 * ignored); null when none is, or when two are equally near (a guess would then mislead).
 */
export function nearest(written: string, known: readonly string[]): string | null {
  const word = written.toLowerCase();
  const reach = Math.min(2, Math.floor(word.length / 3));
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  let tie = false;
  for (const candidate of known) {
    // A long hostile key is not compared letter by letter against every known one.
    if (Math.abs(candidate.length - word.length) > reach) continue;
    const d = editDistance(word, candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance, tie] = [candidate, d, false];
    else if (d === bestDistance) tie = true;
  }
  return best !== null && bestDistance <= reach && !tie ? best : null;
}

/** `, did you mean "sources"?`, or "" when nothing is near. */
export function didYouMean(written: string, known: readonly string[]): string {
  const near = nearest(written, known);
  return near !== null && near !== written ? `, did you mean "${near}"?` : "";
}
