import type { Artist, ArtistAlbum, ArtistCategories, ArtistSection, User } from "../types/browsing.js";
import {
  MTRIR,
  parseAlbumCard,
  parsePlaylistCard,
  parsePodcastCard,
  parseRelatedArtistCard,
  parseSingleCard,
  parseVideoCard,
} from "./cards.js";
import { MMRIR, parseEpisodeItem } from "./episode-row.js";
import { type ArtistCategory, foldCase, localeOf } from "./locales.js";
import {
  bool,
  formatPath,
  get,
  isObject,
  type JsonObject,
  list,
  mustList,
  mustObj,
  type Path,
  str,
} from "./nav.js";
import { noteSkipped, type ParseNotes, REPORT_ALL } from "./notes.js";
import {
  CAROUSEL_TITLE,
  CAROUSEL_TITLE_TEXT,
  MENU0_WATCH_PLAYLIST_ID,
  NAV_BROWSE_ID,
  NAV_BROWSE_PARAMS,
  NAV_PLAYLIST_ID,
  SC_SECTION_LIST,
  SC_SECTION0,
  SC_SECTIONS,
  SUB_RUNS,
  SUB0_TEXT,
  TC_SECTIONS,
  THUMBS,
  THUMBS_TR,
  TITLE_BROWSE_ID,
  TITLE_TEXT,
} from "./paths.js";
import { parsePlaylistItems } from "./song-row.js";
import { descriptionRuns, joinRuns, parseSongRuns, runsOf } from "./text.js";
import { thumbnailsAt } from "./thumbnails.js";

/**
 * Artist and user pages (docs/PROTOCOL.md#browsing get_artist, get_user, get_artist_albums). Both layouts are
 * read: the single-column page and the two-column one some artists moved to in 2026.
 */

const ARTIST_HEADER: Path = ["header", "musicImmersiveHeaderRenderer"];
const USER_HEADER: Path = ["header", "musicVisualHeaderRenderer"];
const SUBSCRIBE: Path = ["subscriptionButton", "subscribeButtonRenderer"];
const SHUFFLE_ID: Path = ["playButton", "buttonRenderer", ...NAV_PLAYLIST_ID];
const RADIO_NAV: Path = ["startRadioButton", "buttonRenderer", "navigationEndpoint"];
const MONTHLY: Path = ["monthlyListenerCount", "runs", 0, "text"];
const SUBHEADER_TEXT: Path = ["subheader", "runs", 0, "text"];
const MONTHLY_SUFFIX = " monthly audience";
const CAROUSEL: Path = ["musicCarouselShelfRenderer"];

/** The sections of an artist-like page, single- or two-column; a ParseError when neither exists. */
export function browseSections(response: unknown): readonly unknown[] {
  const single = get(response, SC_SECTIONS);
  if (Array.isArray(single)) return single;
  const two = get(response, TC_SECTIONS);
  if (Array.isArray(two)) return two;
  return mustList(response, SC_SECTIONS);
}

/** How the cards of each category are read (docs/PROTOCOL.md#browsing); the titles are in `locales.ts`. */
const CATEGORIES: ReadonlyArray<{
  key: ArtistCategory;
  renderer: string;
  /** The card's fields, or null for a card the list leaves out (reported through the notes). */
  parse: (card: unknown, at: string, notes: ParseNotes) => unknown;
}> = [
  { key: "albums", renderer: MTRIR, parse: parseAlbumCard },
  { key: "singles", renderer: MTRIR, parse: parseSingleCard },
  { key: "shows", renderer: MTRIR, parse: parseAlbumCard },
  { key: "videos", renderer: MTRIR, parse: parseVideoCard },
  { key: "playlists", renderer: MTRIR, parse: parsePlaylistCard },
  { key: "related", renderer: MTRIR, parse: parseRelatedArtistCard },
  { key: "episodes", renderer: MMRIR, parse: parseEpisodeItem },
  { key: "podcasts", renderer: MTRIR, parse: parsePodcastCard },
];

/**
 * The categories of an artist, user or channel page: each carousel whose title is a category's
 * name in the page's display language (whole-string, case-insensitive: `Playlists by X` is not
 * `playlists`), its items parsed by kind. Items of other renderers are reported and skipped.
 */
export function parseArtistCategories(
  sections: readonly unknown[],
  notes: ParseNotes,
  language = "en",
): ArtistCategories {
  const { categoryOfTitle } = localeOf(language);
  const carousels: Array<{ category: ArtistCategory | undefined; shelf: JsonObject }> = [];
  for (const section of sections) {
    const shelf = get(section, CAROUSEL);
    if (!isObject(shelf)) continue;
    const title = str(shelf, CAROUSEL_TITLE_TEXT);
    if (title !== null) carousels.push({ category: categoryOfTitle.get(foldCase(title, language)), shelf });
  }
  const out: ArtistCategories = {};
  for (const category of CATEGORIES) {
    const found = carousels.find((c) => c.category === category.key);
    if (found === undefined) continue;
    const titleRun = get(found.shelf, CAROUSEL_TITLE);
    const section: ArtistSection<unknown> = { browseId: null, results: [] };
    if (isObject(titleRun) && titleRun["navigationEndpoint"] !== undefined) {
      section.browseId = str(titleRun, NAV_BROWSE_ID);
      section.params = str(titleRun, NAV_BROWSE_PARAMS);
    }
    const where = `artist.${category.key}`;
    for (const item of list(found.shelf, ["contents"])) {
      const card = get(item, [category.renderer]);
      if (card === undefined) {
        noteSkipped(notes, item, where, REPORT_ALL);
        continue;
      }
      const parsed = category.parse(card, where, notes);
      if (parsed !== null) section.results.push(parsed);
    }
    (out as Record<string, unknown>)[category.key] = section;
  }
  return out;
}

/** Parses an artist page; `language` is the display language the page was asked for. */
export function parseArtist(response: unknown, notes: ParseNotes, language = "en"): Artist {
  const sections = browseSections(response);
  const header = mustObj(response, ARTIST_HEADER);

  let description: string | null = null;
  let runs: ReturnType<typeof descriptionRuns> = [];
  let views: string | null = null;
  for (const section of sections) {
    const shelf = get(section, ["musicDescriptionShelfRenderer"]);
    if (!isObject(shelf)) continue;
    const descriptionRunList = runsOf(shelf["description"]);
    description = joinRuns(descriptionRunList);
    runs = descriptionRuns(descriptionRunList);
    views = str(shelf, SUBHEADER_TEXT);
    break;
  }

  const subscribe = get(header, SUBSCRIBE);
  const monthly = str(header, MONTHLY);
  // 2026 pages link the Mix button through `watchPlaylistEndpoint`; earlier ones through `watchEndpoint`.
  const radio = get(header, RADIO_NAV);
  const artist: Artist = {
    description,
    descriptionRuns: runs,
    views,
    name: str(header, TITLE_TEXT),
    channelId: str(subscribe, ["channelId"]),
    shuffleId: str(header, SHUFFLE_ID),
    radioId:
      str(radio, ["watchEndpoint", "playlistId"]) ?? str(radio, ["watchPlaylistEndpoint", "playlistId"]),
    subscribers: str(subscribe, ["subscriberCountText", "runs", 0, "text"]),
    monthlyListeners:
      monthly === null
        ? null
        : monthly.endsWith(MONTHLY_SUFFIX)
          ? monthly.slice(0, -MONTHLY_SUFFIX.length)
          : monthly,
    subscribed: bool(subscribe, ["subscribed"]) ?? false,
    thumbnails: thumbnailsAt(header, THUMBS),
    songs: { browseId: null },
  };
  const first = sections[0];
  const songs = get(first, ["musicShelfRenderer"]);
  if (isObject(songs)) {
    artist.songs.browseId = str(songs, TITLE_BROWSE_ID);
    artist.songs.results = parsePlaylistItems(list(songs, ["contents"]), {}, notes, "artist.songs");
  }
  return Object.assign(artist, parseArtistCategories(sections, notes, language));
}

/** Parses a user (profile) page. */
export function parseUser(response: unknown, notes: ParseNotes, language = "en"): User {
  const sections = browseSections(response);
  const user: User = { name: str(get(response, USER_HEADER), TITLE_TEXT) };
  return Object.assign(user, parseArtistCategories(sections, notes, language));
}

/** A card of an artist's full album list (also the library's album grid). */
export function parseArtistAlbum(card: unknown): ArtistAlbum {
  const album: ArtistAlbum = {
    browseId: str(card, TITLE_BROWSE_ID),
    playlistId: str(card, MENU0_WATCH_PLAYLIST_ID),
    title: str(card, TITLE_TEXT),
    thumbnails: thumbnailsAt(card, THUMBS_TR),
    type: str(card, SUB0_TEXT),
  };
  return Object.assign(album, parseSongRuns(list(card, SUB_RUNS), false, 2));
}

/** MTRIR cards of a list (grid items or carousel contents); other renderers reported and skipped. */
export function parseArtistAlbumList(items: readonly unknown[], notes: ParseNotes): ArtistAlbum[] {
  const out: ArtistAlbum[] = [];
  for (const item of items) {
    const card = get(item, [MTRIR]);
    if (card === undefined) {
      noteSkipped(notes, item, "get_artist_albums");
      continue;
    }
    out.push(parseArtistAlbum(card));
  }
  return out;
}

const FIRST_SECTION_AT = formatPath(SC_SECTION0);
const SORT_OPTIONS: Path = [
  ...SC_SECTION_LIST,
  "header",
  "musicSideAlignedItemRenderer",
  "endItems",
  0,
  "musicSortFilterButtonRenderer",
  "menu",
  "musicMultiSelectMenuRenderer",
  "options",
];

export interface ArtistAlbumsPage {
  items: ArtistAlbum[];
  /** The grid, whose classic continuation gives more items; null for the carousel form. */
  grid: JsonObject | null;
}

/**
 * The first page of an artist's album list: a grid (with continuations) or, since late 2023, a
 * carousel of the same cards. A page with neither raises a ParseError naming the grid path.
 */
export function parseArtistAlbumsPage(section: unknown, notes: ParseNotes): ArtistAlbumsPage {
  const grid = get(section, ["gridRenderer"]);
  if (isObject(grid)) return { items: parseArtistAlbumList(list(grid, ["items"]), notes), grid };
  const carousel = get(section, ["musicCarouselShelfRenderer"]);
  if (isObject(carousel))
    return { items: parseArtistAlbumList(list(carousel, ["contents"]), notes), grid: null };
  mustList(section, ["gridRenderer", "items"], FIRST_SECTION_AT);
  return { items: [], grid: null };
}

/** The first section of a single-column browse page (artist albums, user lists). */
export function firstSection(response: unknown): unknown {
  return get(response, SC_SECTION0);
}

const OPTION_TITLE: Path = ["musicMultiSelectMenuItemRenderer", ...TITLE_TEXT];
const OPTION_COMMANDS: Path = [
  "musicMultiSelectMenuItemRenderer",
  "selectedCommand",
  "commandExecutorCommand",
  "commands",
];
const RELOAD_TOKEN: Path = [
  "browseSectionListReloadEndpoint",
  "continuation",
  "reloadContinuationData",
  "continuation",
];

/** The reload token of the sort option titled `order` (`Recency`, `Popularity`, `Alphabetical order`). */
export function artistAlbumsOrderToken(response: unknown, order: string): string | null {
  for (const option of list(response, SORT_OPTIONS)) {
    if (str(option, OPTION_TITLE) !== order) continue;
    const commands = list(option, OPTION_COMMANDS);
    return str(commands[commands.length - 1], RELOAD_TOKEN);
  }
  return null;
}
