/** The handler of each plan action kind: what applying one action of that kind means. */
import type { PlanAction, PlanActionKind } from "../../plan/types.js";
import { createPlaylist } from "./create-playlist.js";
import { deletePlaylist } from "./delete-playlist.js";
import type { ActionHandler, ActionOf } from "./handler.js";
import { editSongLibraryStatus } from "./library-status.js";
import { editPlaylist } from "./playlist-details.js";
import { addPlaylistItems, removePlaylistItems } from "./playlist-items.js";
import { movePlaylistItems } from "./playlist-order.js";
import { ratePlaylist, rateSong } from "./ratings.js";
import { subscribeArtists, unsubscribeArtists } from "./subscriptions.js";

export type HandlerTable = { readonly [K in PlanActionKind]: ActionHandler<ActionOf<K>> };

export const HANDLERS: HandlerTable = {
  create_playlist: createPlaylist,
  edit_playlist: editPlaylist,
  add_playlist_items: addPlaylistItems,
  remove_playlist_items: removePlaylistItems,
  move_playlist_items: movePlaylistItems,
  rate_song: rateSong,
  rate_playlist: ratePlaylist,
  edit_song_library_status: editSongLibraryStatus,
  subscribe_artists: subscribeArtists,
  unsubscribe_artists: unsubscribeArtists,
  delete_playlist: deletePlaylist,
};

/** The handler of one action (the table is keyed by kind, so this cast only re-pairs the two). */
export function handlerOf<A extends PlanAction>(action: A): ActionHandler<A> {
  return HANDLERS[action.kind] as unknown as ActionHandler<A>;
}
