/** From what the state remembers to what the planner takes: the state knows no recipe, the planner no table. */

import type { TargetSpec } from "../recipe/types.js";
import type { EngineState } from "../state/types.js";
import type { Owned } from "./types.js";

/** The key a target's state is filed under: one per playlist, one per kind of account-wide list. */
export function stateTargetKey(target: TargetSpec, playlistId: string | null): string {
  switch (target.type) {
    case "playlist":
      return `playlist/${playlistId ?? target.playlist.id ?? `title:${target.playlist.title ?? ""}`}`;
    case "library":
      return `library/${target.kind}`;
    case "likes":
      // Likes and dislikes are two lists: a DISLIKE recipe must never take a LIKE recipe's rows for its own.
      return target.rating === "DISLIKE" ? "likes/DISLIKE" : "likes";
    default:
      return target.type;
  }
}

export async function ownedFor(
  state: EngineState,
  account: string,
  recipeId: string,
  target: TargetSpec,
  playlistId: string | null,
): Promise<Owned> {
  const key = stateTargetKey(target, playlistId);
  const [rows, tombstones, playlist] = await Promise.all([
    state.ownedRows(account, key),
    state.tombstones(account, key),
    state.ownedPlaylist(account, recipeId),
  ]);
  return {
    // A playlist adopted by id is the recipe's to manage as much as one it created.
    playlist:
      target.type === "playlist" && (target.playlist.id !== null || playlist?.playlistId === playlistId),
    rows: new Set(rows.map((r) => r.itemKey)),
    tombstones,
  };
}
