/**
 * move_playlist_items: one edit request carries the whole batch, and the service applies its moves
 * in order. A refused or unanswered batch is verified by reading the playlist: it is done when the
 * playlist shows the order the moves meant — the order these same moves, applied to it, would leave
 * as it is (the planner never plans a move that changes nothing, so a playlist the moves did not
 * reach is never taken for one they did).
 */
import type { Item } from "../../sources/item.js";
import { type ApplySession, requirePlaylist, reread, resolveRow } from "../session.js";
import { type ActionOf, checkedHandler } from "./handler.js";

/** A row to the end, or [row, the row it goes before], by setVideoId (the client's `moveItems`). */
export type MoveItem = string | [string, string];

type Move = ActionOf<"move_playlist_items">;

export function moveItemsOf(s: ApplySession, action: Move): MoveItem[] {
  return action.moves.map((m): MoveItem => {
    const row = resolveRow(s, m.row);
    return m.before ? [row, resolveRow(s, m.before)] : row;
  });
}

/** The order (setVideoIds) after the moves, or null when a move names a row that is not there. */
export function afterMoves(order: readonly string[], moves: readonly MoveItem[]): string[] | null {
  const rows = [...order];
  for (const move of moves) {
    const [row, before] = typeof move === "string" ? [move, null] : move;
    const at = rows.indexOf(row);
    if (at < 0) return null;
    rows.splice(at, 1);
    if (before === null) {
      rows.push(row);
      continue;
    }
    const to = rows.indexOf(before);
    if (to < 0) return null;
    rows.splice(to, 0, row);
  }
  return rows;
}

/** Whether the playlist as read shows the order the moves meant. */
export function showsMoves(rows: readonly Item[], moves: readonly MoveItem[]): boolean {
  const order = rows.map((r) => r.setVideoId ?? "");
  const moved = afterMoves(order, moves);
  if (moved === null) return false;
  return moved.every((id, i) => id === order[i]);
}

export const movePlaylistItems = checkedHandler<Move>({
  kind: "move_playlist_items",
  request: (s, action) => {
    const pid = action.playlistId ?? requirePlaylist(s);
    const moveItems = moveItemsOf(s, action);
    return () => s.ctx.client.editPlaylist(pid, { moveItems });
  },
  verify: async (s, action) => showsMoves(await reread(s), moveItemsOf(s, action)),
});
