import type { PlaylistCard, VideoCard } from "../types/browsing.js";
import { MTRIR, parsePlaylistCard, parseVideoCard } from "./cards.js";
import { get, list, type Path } from "./nav.js";
import { noteSkipped, type ParseNotes, REPORT_ALL } from "./notes.js";
import { SC_SECTION0 } from "./paths.js";

/** The full lists behind a user page's carousels (docs/PROTOCOL.md#browsing get_user_playlists / get_user_videos). */

const GRID_ITEMS: Path = [...SC_SECTION0, "gridRenderer", "items"];

function gridCards<T>(response: unknown, parse: (card: unknown) => T, notes: ParseNotes, where: string): T[] {
  const out: T[] = [];
  for (const item of list(response, GRID_ITEMS)) {
    const card = get(item, [MTRIR]);
    if (card === undefined) {
      noteSkipped(notes, item, where, REPORT_ALL);
      continue;
    }
    out.push(parse(card));
  }
  return out;
}

/** A user's playlists; `[]` when the page has no grid. */
export function parseUserPlaylists(response: unknown, notes: ParseNotes): PlaylistCard[] {
  return gridCards(response, parsePlaylistCard, notes, "get_user_playlists.gridRenderer");
}

/** A user's videos; `[]` when the page has no grid. */
export function parseUserVideos(response: unknown, notes: ParseNotes): VideoCard[] {
  return gridCards(response, parseVideoCard, notes, "get_user_videos.gridRenderer");
}
