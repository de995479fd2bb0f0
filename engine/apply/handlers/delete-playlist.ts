/**
 * delete_playlist (only in undo plans: the playlist the undone run created). Verified by reading the
 * playlist: it is done when the service no longer has it — a 404 to the delete itself included
 * (someone deleted it first), since a refusal is read back like any other.
 */
import { notFound } from "../errors.js";
import type { ApplySession } from "../session.js";
import { verifying } from "../session.js";
import { type ActionOf, checkedHandler } from "./handler.js";

/** Whether the service has no such playlist any more (a read of it answers 404). */
export async function playlistGone(s: ApplySession, playlistId: string): Promise<boolean> {
  return verifying(async () => {
    try {
      await s.ctx.client.getPlaylist(playlistId, { limit: 0 });
      return false;
    } catch (e) {
      if (notFound(e)) return true;
      throw e;
    }
  });
}

export const deletePlaylist = checkedHandler<ActionOf<"delete_playlist">>({
  kind: "delete_playlist",
  request:
    (s, { playlistId }) =>
    () =>
      s.ctx.client.deletePlaylist(playlistId),
  verify: (s, { playlistId }) => playlistGone(s, playlistId),
  // The engine no longer owns a playlist that is gone: a later sync of the recipe makes a new one.
  record: (s, { playlistId }) => s.ctx.state.forgetOwnedPlaylist(s.account, playlistId),
});
