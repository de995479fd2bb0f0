/**
 * Ordering with the fewest moves. The rows after removes and adds are: kept rows in their order,
 * then added rows in desired order. Those already in desired relative order (a longest increasing
 * subsequence of desired positions) stay; each other desired row moves before the next desired row,
 * from the last one backwards, so every successor it is placed against is already where it belongs.
 */
import { type Draft, type Entry, refOf } from "./core.js";
import { longestIncreasingSubsequence } from "./lis.js";
import type { MoveStep, RowRef } from "./types.js";

export function fewestMoves(draft: Draft): { moves: MoveStep[]; moved: Entry[] } {
  // Desired positions in the order the rows will stand: rows already held, then the rows added.
  const sequence: number[] = [];
  for (const entry of draft.held) sequence.push(entry.index);
  for (const entry of draft.entries) if (entry.adding) sequence.push(entry.index);
  const stay = new Uint8Array(draft.entries.length);
  for (const p of longestIncreasingSubsequence(sequence)) stay[sequence[p]!] = 1;
  const moves: MoveStep[] = [];
  const moved: Entry[] = [];
  let next: RowRef | null = null;
  for (let i = draft.entries.length - 1; i >= 0; i--) {
    const entry = draft.entries[i]!;
    if (entry.row === null && !entry.adding) continue;
    // A row this plan adds has no setVideoId yet: apply learns it from the add's answer.
    const ref: RowRef = entry.row === null ? { videoId: entry.key, setVideoId: null } : refOf(entry.row);
    if (!stay[i]) {
      moved.push(entry);
      moves.push({ row: ref, before: next });
    }
    next = ref;
  }
  return { moves, moved };
}
