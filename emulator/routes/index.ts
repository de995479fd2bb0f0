/** The table of InnerTube endpoints the emulator serves (docs/PROTOCOL.md#endpoints). */
import type { ApiRoute } from "../context.js";
import { browseRoute } from "./browse.js";
import { player } from "./player.js";
import { search, suggestions } from "./search.js";
import { next } from "./watch.js";
import {
  accountMenu,
  createPlaylist,
  deletePlaylist,
  deleteUpload,
  editPlaylist,
  feedback,
  rate,
  subscribe,
} from "./writes.js";

export function apiRoutes(): ReadonlyMap<string, ApiRoute> {
  return new Map<string, ApiRoute>([
    ["browse", { handler: browseRoute }],
    ["search", { handler: search }],
    ["music/get_search_suggestions", { handler: suggestions }],
    ["next", { handler: next }],
    ["player", { handler: player }],
    ["account/account_menu", { handler: accountMenu }],
    ["feedback", { handler: feedback, write: true }],
    ["like/like", { handler: rate("LIKE"), write: true }],
    ["like/dislike", { handler: rate("DISLIKE"), write: true }],
    ["like/removelike", { handler: rate("INDIFFERENT"), write: true }],
    ["subscription/subscribe", { handler: subscribe(true), write: true }],
    ["subscription/unsubscribe", { handler: subscribe(false), write: true }],
    ["playlist/create", { handler: createPlaylist, write: true }],
    ["playlist/delete", { handler: deletePlaylist, write: true }],
    ["browse/edit_playlist", { handler: editPlaylist, write: true }],
    ["music/delete_privately_owned_entity", { handler: deleteUpload, write: true }],
  ]);
}
