import type { LibraryAlbum, LibraryArtist, LibraryPlaylist, LibraryPodcast } from "../types/library.js";
import { MTRIR, parsePlaylistCard, parsePodcastCard } from "./cards.js";
import { parseMenuPlaylists } from "./menu.js";
import { get, isObject, type JsonObject, list, type Path, str } from "./nav.js";
import { noteSkipped, type ParseNotes } from "./notes.js";
import {
  MENU0_WATCH_PLAYLIST_ID,
  NAV_BROWSE_ID,
  NAV_PAGE_TYPE,
  RUN_TEXT,
  SC_TABS,
  SL,
  SUB_RUNS,
  TAB_CONTENT,
  THUMBS_TR,
  TITLE_BROWSE_ID,
  TITLE_TEXT,
} from "./paths.js";
import { flexText, MRLIR } from "./song-row.js";
import { firstWord, parseSongRuns } from "./text.js";
import { thumbnailsAt } from "./thumbnails.js";

/**
 * The library lists (docs/PROTOCOL.md#library) and the upload lists that share their page layout (docs/PROTOCOL.md#uploads).
 */

export type LibraryContainer = "gridRenderer" | "musicShelfRenderer";

const TAB_SECTIONS: Path = [...TAB_CONTENT, ...SL];

const CONTAINERS: readonly LibraryContainer[] = ["gridRenderer", "musicShelfRenderer"];
/** The paths to each kind of container, so that looking one up allocates nothing. */
function byContainer(path: (container: LibraryContainer) => Path): Readonly<Record<LibraryContainer, Path>> {
  return Object.fromEntries(CONTAINERS.map((c) => [c, path(c)])) as Record<LibraryContainer, Path>;
}
const CONTAINER = byContainer((c) => [c]);
const IN_ITEM_SECTION = byContainer((c) => ["itemSectionRenderer", "contents", 0, c]);
const IN_FIRST_SECTION = byContainer((c) => [...TAB_SECTIONS, 0, c]);

/**
 * The grid or shelf holding a library page's items, found in the order the service's layouts call
 * for: inside an `itemSectionRenderer` of the first tab's sections; else the first tab's first
 * section; else — empty libraries and the upload pages, whose first tab has no sections — the
 * first section of tab 1, or of tab 2 when a third ("Downloads") tab exists. Undefined when there is
 * none: the list is empty.
 */
export function libraryContents(response: unknown, container: LibraryContainer): JsonObject | undefined {
  const tabs = list(response, SC_TABS);
  const sections = get(tabs[0], TAB_SECTIONS);
  if (Array.isArray(sections)) {
    for (const section of sections) {
      const inner = get(section, IN_ITEM_SECTION[container]);
      if (isObject(inner)) return inner;
    }
    const first = get(sections[0], CONTAINER[container]);
    return isObject(first) ? first : undefined;
  }
  const tab = tabs[tabs.length < 3 ? 1 : 2];
  const fallback = get(tab, IN_FIRST_SECTION[container]);
  return isObject(fallback) ? fallback : undefined;
}

/** The items of a grid (`items`) or shelf (`contents`). */
export function containerItems(container: JsonObject | undefined): readonly unknown[] {
  if (container === undefined) return [];
  return list(container, [container["items"] !== undefined ? "items" : "contents"]);
}

/** The renderer inside one list entry, reporting (and skipping) entries of another kind. */
function rendererIn(entry: unknown, key: string, notes: ParseNotes | undefined, where: string): unknown {
  if (!isObject(entry)) return undefined;
  const value = entry[key];
  if (value !== undefined) return value;
  noteSkipped(notes, entry, where);
  return undefined;
}

/**
 * Whether a card leads somewhere. The grids open with an action card ("New playlist", "Add
 * podcast") whose title has no browse link; such cards are not library items.
 */
function isLinkCard(card: unknown): boolean {
  return str(card, TITLE_BROWSE_ID) !== null;
}

/**
 * The link cards of a library grid parsed with `parse`. The grids open with an action card ("New
 * playlist", "Add podcast", on continuation pages too) that has no link: it is skipped (the
 * reference implementation crashes on the podcast one).
 */
function linkCards<T>(
  items: readonly unknown[],
  notes: ParseNotes | undefined,
  where: string,
  parse: (card: unknown) => T,
): T[] {
  const out: T[] = [];
  for (const entry of items) {
    const card = rendererIn(entry, MTRIR, notes, where);
    if (card === undefined || !isLinkCard(card)) continue;
    out.push(parse(card));
  }
  return out;
}

/** `get_library_playlists` cards. */
export function parseLibraryPlaylists(items: readonly unknown[], notes?: ParseNotes): LibraryPlaylist[] {
  return linkCards(items, notes, "library playlists", (card) => parsePlaylistCard(card) as LibraryPlaylist);
}

/** `get_library_podcasts` cards. */
export function parseLibraryPodcasts(items: readonly unknown[], notes?: ParseNotes): LibraryPodcast[] {
  return linkCards(items, notes, "library podcasts", (card) => parsePodcastCard(card) as LibraryPodcast);
}

/** An album card of the library (and upload) album grids: type word first, then artists and year. */
export function parseLibraryAlbum(card: unknown): LibraryAlbum {
  const runs = list(card, SUB_RUNS);
  const album: LibraryAlbum = {
    browseId: str(card, TITLE_BROWSE_ID),
    playlistId: str(card, MENU0_WATCH_PLAYLIST_ID),
    title: str(card, TITLE_TEXT) ?? "",
    thumbnails: thumbnailsAt(card, THUMBS_TR) ?? [],
    type: str(runs[0], RUN_TEXT),
  };
  const info = parseSongRuns(runs, false, 2);
  if (info.artists !== undefined) album.artists = info.artists;
  if (info.year !== undefined) album.year = info.year;
  return album;
}

export function parseLibraryAlbums(items: readonly unknown[], notes?: ParseNotes): LibraryAlbum[] {
  return linkCards(items, notes, "library albums", parseLibraryAlbum);
}

/**
 * An artist row of the library artists, subscriptions, channels and upload artists. `type` comes
 * from the link's page type and is left out for other page types (the library-artist pages of
 * 2023 captures).
 */
export function parseLibraryArtist(row: unknown): LibraryArtist {
  const artist: LibraryArtist = {
    browseId: str(row, NAV_BROWSE_ID),
    artist: flexText(row, 0),
  } as LibraryArtist;
  const pageType = str(row, NAV_PAGE_TYPE);
  if (pageType === "MUSIC_PAGE_TYPE_USER_CHANNEL") artist.type = "channel";
  else if (pageType === "MUSIC_PAGE_TYPE_ARTIST") artist.type = "artist";
  Object.assign(artist, parseMenuPlaylists(row));
  artist.subscribers = firstWord(flexText(row, 1));
  artist.thumbnails = thumbnailsAt(row);
  return artist;
}

export function parseLibraryArtists(items: readonly unknown[], notes?: ParseNotes): LibraryArtist[] {
  const out: LibraryArtist[] = [];
  for (const entry of items) {
    const row = rendererIn(entry, MRLIR, notes, "library artists");
    if (row === undefined) continue;
    out.push(parseLibraryArtist(row));
  }
  return out;
}

/**
 * The rows of a first library-song or upload page: the service puts a "Shuffle all" row first, which
 * is dropped when the shelf has other rows.
 */
export function withoutShuffleRow(items: readonly unknown[]): readonly unknown[] {
  return items.length > 1 ? items.slice(1) : items;
}
