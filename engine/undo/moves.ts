/**
 * The fewest moves that turn one row order into another (the planner's idea, written for ids): the
 * rows already in goal order relative to each other (a longest increasing subsequence) stay; each
 * other row moves before its successor in the goal, from the last backwards, so the row it is
 * placed against is already where it belongs. Pure.
 */
import { longestIncreasingSubsequence } from "../plan/lis.js";

export interface IdMove {
  row: string;
  /** Before this row; null = to the end. */
  before: string | null;
}

/**
 * `current` and `goal` hold the same distinct ids. Rows `settled` says are in place already (not
 * just appended) are kept still first, so that an appended row moves rather than a row the person
 * sees; appended rows keep their place only where they already end the goal in order.
 */
export function movesTo(
  current: readonly string[],
  goal: readonly string[],
  settled: (id: string) => boolean = () => true,
): IdMove[] {
  const at = new Map(goal.map((id, i) => [id, i]));
  const stay = new Set<string>();
  const keep = (ids: readonly string[]) => {
    for (const p of longestIncreasingSubsequence(ids.map((id) => at.get(id) ?? -1))) stay.add(ids[p]!);
  };
  keep(current.filter(settled));
  const top = Math.max(-1, ...[...stay].map((id) => at.get(id) ?? -1));
  keep(current.filter((id) => !settled(id) && (at.get(id) ?? -1) > top));
  const moves: IdMove[] = [];
  let next: string | null = null;
  for (let i = goal.length - 1; i >= 0; i--) {
    const id = goal[i]!;
    if (!stay.has(id)) moves.push({ row: id, before: next });
    next = id;
  }
  return moves;
}

/** Applies moves as the service does (in order), for checking a plan. */
export function applyMoves(order: readonly string[], moves: readonly IdMove[]): string[] {
  const out = [...order];
  for (const m of moves) {
    out.splice(out.indexOf(m.row), 1);
    out.splice(m.before === null ? out.length : out.indexOf(m.before), 0, m.row);
  }
  return out;
}
