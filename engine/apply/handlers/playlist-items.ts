/** Rows of a playlist: add_playlist_items and remove_playlist_items. */
import type { Item } from "../../sources/item.js";
import { succeeded } from "../client.js";
import { ActionFailed, lost, refused } from "../errors.js";
import {
  type ApplySession,
  disown,
  requirePlaylist,
  reread,
  type SessionMark,
  sendWrite,
} from "../session.js";
import { addIds } from "./add-items.js";
import type { ActionHandler, ActionOf } from "./handler.js";

/** This action's new rows only (the service's answer, as the journal keeps it) and the ids it quarantined. */
export function addedSince(s: ApplySession, since: SessionMark): Record<string, unknown> {
  return {
    added: Object.fromEntries([...s.addedRows].slice(since.added)),
    quarantined: s.quarantined.slice(since.quarantined),
  };
}

export const addPlaylistItems: ActionHandler<ActionOf<"add_playlist_items">> = {
  // The send verifies itself batch by batch (see add-items.ts): a read-back tells which ids went in.
  send: (s, action) => addIds(s, action.playlistId ?? requirePlaylist(s), action.videoIds),
  journal: addedSince,
};

type Removal = { videoId: string; setVideoId: string | null };

/** The rows of `videos` that a read of the playlist no longer shows. */
function goneFrom(rows: readonly Item[], videos: readonly Removal[]): Removal[] {
  const left = new Set(rows.map((r) => r.setVideoId));
  return videos.filter((v) => !left.has(v.setVideoId));
}

/** A remove the service took only part of: the rows that did go, for the journal (undo puts them back). */
class PartlyRemoved extends ActionFailed {
  constructor(
    message: string,
    readonly removed: readonly Removal[],
  ) {
    super(message);
  }
}

const asOwned = (rows: readonly Removal[]) =>
  rows.map((v) => ({ itemKey: v.videoId, setVideoId: v.setVideoId }));

export const removePlaylistItems: ActionHandler<ActionOf<"remove_playlist_items">> = {
  async send(s, action) {
    const pid = action.playlistId;
    const videos = action.videos.map((v) => ({ videoId: v.videoId, setVideoId: v.setVideoId }));
    let removed: Removal[] = videos;
    try {
      const answer = await sendWrite(s, () => s.ctx.client.removePlaylistItems(pid, videos));
      // Only the success status confirms it: an answer without one (the feature gate) is read back.
      if (!succeeded(answer)) throw new ActionFailed("the service did not confirm the remove");
    } catch (e) {
      if (!(e instanceof ActionFailed) && !refused(e) && !lost(e)) throw e;
      // Verification: the rows a read of the playlist no longer shows are removed, whatever the answer.
      removed = goneFrom(await reread(s), videos);
      if (removed.length < videos.length) {
        disown(s, asOwned(removed));
        const why = `${videos.length - removed.length} of ${videos.length} rows not removed`;
        throw new PartlyRemoved(why, removed);
      }
    }
    disown(s, asOwned(removed));
  },
  journalFailure: (_s, e) =>
    e instanceof PartlyRemoved && e.removed.length > 0 ? { removed: e.removed.map((v) => v.setVideoId) } : {},
};
