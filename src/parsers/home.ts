import type { HomeItem, HomeRow } from "../types/browsing.js";
import {
  MTRIR,
  parseAlbumCard,
  parsePlaylistCard,
  parsePodcastCard,
  parseRelatedArtistCard,
  parseSongCard,
  parseWatchPlaylistCard,
  TITLE_PAGE_TYPE,
} from "./cards.js";
import { MMRIR, parseEpisodeItem } from "./episode-row.js";
import { get, isObject, type Path, str } from "./nav.js";
import { noteSkipped, type ParseNotes, REPORT_ALL } from "./notes.js";
import { CAROUSEL_HEADER, CAROUSEL_TITLE_TEXT, DESCRIPTION_TEXT, NAV_WATCH_PLAYLIST_ID } from "./paths.js";
import { MRLIR, parseSongFlat } from "./song-row.js";

/**
 * Rows of "mixed content" pages — home and a song's related tab (docs/PROTOCOL.md#browsing get_home): carousels
 * of cards, and description shelves.
 */

const CAROUSEL_STRAPLINE: Path = [...CAROUSEL_HEADER, "strapline", "runs", 0, "text"];
const DESCRIPTION_TITLE: Path = ["header", "runs", 0, "text"];

/** One card dispatched by the page type of its title link; null for page types nobody parses. */
export function parseHomeCard(card: unknown): HomeItem {
  const pageType = str(card, TITLE_PAGE_TYPE);
  switch (pageType) {
    case null:
      return get(card, NAV_WATCH_PLAYLIST_ID) !== undefined
        ? parseWatchPlaylistCard(card)
        : parseSongCard(card);
    case "MUSIC_PAGE_TYPE_ALBUM":
    case "MUSIC_PAGE_TYPE_AUDIOBOOK":
      return parseAlbumCard(card);
    case "MUSIC_PAGE_TYPE_ARTIST":
    case "MUSIC_PAGE_TYPE_USER_CHANNEL":
      return parseRelatedArtistCard(card);
    case "MUSIC_PAGE_TYPE_PLAYLIST":
      return parsePlaylistCard(card);
    case "MUSIC_PAGE_TYPE_PODCAST_SHOW_DETAIL_PAGE":
      return parsePodcastCard(card);
    default:
      return null;
  }
}

/** Parses section-list rows; rows that are neither a description shelf nor have `contents` are skipped. */
export function parseMixedContent(rows: readonly unknown[], notes: ParseNotes, where = "home"): HomeRow[] {
  const out: HomeRow[] = [];
  for (const row of rows) {
    if (!isObject(row)) continue;
    const description = row["musicDescriptionShelfRenderer"];
    if (description !== undefined) {
      out.push({ title: str(description, DESCRIPTION_TITLE), contents: str(description, DESCRIPTION_TEXT) });
      continue;
    }
    let shelf: unknown;
    let name = "";
    for (const key in row) {
      name = key;
      shelf = row[key];
      break;
    }
    const items = get(shelf, ["contents"]);
    if (!Array.isArray(items)) {
      notes.unknownRenderer(name, `${where}.sectionListRenderer`);
      continue;
    }
    const contents: HomeItem[] = [];
    for (const item of items) {
      if (!isObject(item)) continue;
      const card = item[MTRIR];
      if (card !== undefined) {
        contents.push(parseHomeCard(card));
        continue;
      }
      const flat = item[MRLIR];
      if (flat !== undefined) {
        contents.push(parseSongFlat(flat));
        continue;
      }
      const episode = item[MMRIR];
      if (episode !== undefined) {
        const parsed = parseEpisodeItem(episode, `${where}.${name}`, notes);
        if (parsed !== null) contents.push(parsed);
        continue;
      }
      noteSkipped(notes, item, `${where}.${name}`, REPORT_ALL);
    }
    out.push({ title: str(shelf, CAROUSEL_TITLE_TEXT) ?? str(shelf, CAROUSEL_STRAPLINE), contents });
  }
  return out;
}
