/**
 * Positions of one longest strictly increasing subsequence of `values`, in O(n log n) (patience
 * sorting with back-links). The rows at these positions are already in desired relative order and
 * stay put; only the others move, which is the fewest moves that can reach the desired order.
 */
export function longestIncreasingSubsequence(values: readonly number[]): number[] {
  const n = values.length;
  if (n === 0) return [];
  // tails[k] = position of the smallest tail of an increasing run of length k + 1.
  const tails: number[] = [];
  const previous = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (values[tails[mid]!]! < v) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const out = new Array<number>(tails.length);
  let at = tails[tails.length - 1]!;
  for (let k = tails.length - 1; k >= 0; k--) {
    out[k] = at;
    at = previous[at]!;
  }
  return out;
}
