import type { Artist, ArtistAlbum, ArtistCategories, ArtistSection, User } from "../types/browsing.js";
import {
  MMRIR,
  MTRIR,
  parseAlbumCard,
  parseEpisodeRow,
  parsePlaylistCard,
  parsePodcastCard,
  parseRelatedArtistCard,
  parseSingleCard,
  parseVideoCard,
} from "./cards.js";
import { MENU_ITEMS } from "./menu.js";
import { bool, get, isObject, type JsonObject, list, mustList, mustObj, type Path, str } from "./nav.js";
import type { ParseNotes } from "./notes.js";
import { parsePlaylistItems } from "./song-row.js";
import { descriptionRuns, joinRuns, NAV_BROWSE_ID, parseSongRuns, runsOf } from "./text.js";
import { THUMBS, THUMBS_TR, thumbnailsAt } from "./thumbnails.js";

/**
 * Artist and user pages (PROTOCOL §4.2 get_artist, get_user, get_artist_albums). Both layouts are
 * read: the single-column page and the two-column one some artists moved to in 2026.
 */

export const SC_SECTIONS: Path = [
  "contents",
  "singleColumnBrowseResultsRenderer",
  "tabs",
  0,
  "tabRenderer",
  "content",
  "sectionListRenderer",
  "contents",
];
const TC_SECTIONS: Path = [
  "contents",
  "twoColumnBrowseResultsRenderer",
  "tabs",
  0,
  "tabRenderer",
  "content",
  "sectionListRenderer",
  "contents",
];
const ARTIST_HEADER: Path = ["header", "musicImmersiveHeaderRenderer"];
const USER_HEADER: Path = ["header", "musicVisualHeaderRenderer"];
const TITLE_TEXT: Path = ["title", "runs", 0, "text"];
const SUBSCRIBE: Path = ["subscriptionButton", "subscribeButtonRenderer"];
const SHUFFLE_ID: Path = [
  "playButton",
  "buttonRenderer",
  "navigationEndpoint",
  "watchEndpoint",
  "playlistId",
];
const RADIO_NAV: Path = ["startRadioButton", "buttonRenderer", "navigationEndpoint"];
const MONTHLY: Path = ["monthlyListenerCount", "runs", 0, "text"];
const CAROUSEL_TITLE: Path = ["header", "musicCarouselShelfBasicHeaderRenderer", "title", "runs", 0];
const CAROUSEL_TITLE_TEXT: Path = [...CAROUSEL_TITLE, "text"];
const BROWSE_PARAMS: Path = ["navigationEndpoint", "browseEndpoint", "params"];
const SHELF_TITLE_BROWSE_ID: Path = ["title", "runs", 0, ...NAV_BROWSE_ID];
const SUBHEADER_TEXT: Path = ["subheader", "runs", 0, "text"];
const MONTHLY_SUFFIX = " monthly audience";

/** The sections of an artist-like page, single- or two-column; a ParseError when neither exists. */
export function browseSections(response: unknown): readonly unknown[] {
  const single = get(response, SC_SECTIONS);
  if (Array.isArray(single)) return single;
  const two = get(response, TC_SECTIONS);
  if (Array.isArray(two)) return two;
  return mustList(response, SC_SECTIONS);
}

type CategoryKey = keyof ArtistCategories;

/** Carousel titles (English, lower-case) and how their cards are read (PROTOCOL §4.0, §4.2). */
const CATEGORIES: ReadonlyArray<{
  key: CategoryKey;
  title: string;
  renderer: string;
  parse: (card: unknown) => unknown;
}> = [
  { key: "albums", title: "albums", renderer: MTRIR, parse: parseAlbumCard },
  { key: "singles", title: "singles & eps", renderer: MTRIR, parse: parseSingleCard },
  { key: "shows", title: "audiobooks and shows", renderer: MTRIR, parse: parseAlbumCard },
  { key: "videos", title: "videos", renderer: MTRIR, parse: parseVideoCard },
  { key: "playlists", title: "playlists", renderer: MTRIR, parse: parsePlaylistCard },
  { key: "related", title: "fans might also like", renderer: MTRIR, parse: parseRelatedArtistCard },
  { key: "episodes", title: "latest episodes", renderer: MMRIR, parse: parseEpisodeRow },
  { key: "podcasts", title: "podcasts", renderer: MTRIR, parse: parsePodcastCard },
];

/**
 * The categories of an artist or user page: each carousel whose title is a known category name
 * (whole-string, case-insensitive), its items parsed by kind. Items of other renderers are skipped.
 */
export function parseArtistCategories(sections: readonly unknown[], notes: ParseNotes): ArtistCategories {
  const carousels: Array<{ title: string; shelf: JsonObject }> = [];
  for (const section of sections) {
    const shelf = get(section, ["musicCarouselShelfRenderer"]);
    if (!isObject(shelf)) continue;
    const title = str(shelf, CAROUSEL_TITLE_TEXT);
    if (title !== null) carousels.push({ title: title.toLowerCase(), shelf });
  }
  const out: ArtistCategories = {};
  for (const category of CATEGORIES) {
    const found = carousels.find((c) => c.title === category.title);
    if (found === undefined) continue;
    const titleRun = get(found.shelf, CAROUSEL_TITLE);
    const section: ArtistSection<unknown> = { browseId: null, results: [] };
    if (isObject(titleRun) && titleRun["navigationEndpoint"] !== undefined) {
      section.browseId = str(titleRun, NAV_BROWSE_ID);
      section.params = str(titleRun, BROWSE_PARAMS);
    }
    for (const item of list(found.shelf, ["contents"])) {
      const card = get(item, [category.renderer]);
      if (card === undefined) {
        if (isObject(item)) {
          for (const key in item) {
            notes.unknownRenderer(key, `artist.${category.key}`);
            break;
          }
        }
        continue;
      }
      section.results.push(category.parse(card));
    }
    (out as Record<string, unknown>)[category.key] = section;
  }
  return out;
}

/** Parses an artist page. */
export function parseArtist(response: unknown, notes: ParseNotes): Artist {
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
    artist.songs.browseId = str(songs, SHELF_TITLE_BROWSE_ID);
    artist.songs.results = parsePlaylistItems(list(songs, ["contents"]), {}, notes, "artist.songs");
  }
  return Object.assign(artist, parseArtistCategories(sections, notes));
}

/** Parses a user (profile) page. */
export function parseUser(response: unknown, notes: ParseNotes): User {
  const sections = browseSections(response);
  const user: User = { name: str(get(response, USER_HEADER), TITLE_TEXT) };
  return Object.assign(user, parseArtistCategories(sections, notes));
}

const ALBUM_MENU_PLAYLIST_ID: Path = [
  ...MENU_ITEMS,
  0,
  "menuNavigationItemRenderer",
  "navigationEndpoint",
  "watchPlaylistEndpoint",
  "playlistId",
];
const SUBTITLE_RUNS: Path = ["subtitle", "runs"];
const SUBTITLE0_TEXT: Path = ["subtitle", "runs", 0, "text"];
const TITLE_BROWSE_ID: Path = ["title", "runs", 0, ...NAV_BROWSE_ID];

/** A card of an artist's full album list (also the library's album grid). */
export function parseArtistAlbum(card: unknown): ArtistAlbum {
  const album: ArtistAlbum = {
    browseId: str(card, TITLE_BROWSE_ID),
    playlistId: str(card, ALBUM_MENU_PLAYLIST_ID),
    title: str(card, TITLE_TEXT),
    thumbnails: thumbnailsAt(card, THUMBS_TR),
    type: str(card, SUBTITLE0_TEXT),
  };
  return Object.assign(album, parseSongRuns(list(card, SUBTITLE_RUNS), false, 2));
}

/** MTRIR cards of a list (grid items or carousel contents); other renderers reported and skipped. */
export function parseArtistAlbumList(items: readonly unknown[], notes: ParseNotes): ArtistAlbum[] {
  const out: ArtistAlbum[] = [];
  for (const item of items) {
    const card = get(item, [MTRIR]);
    if (card === undefined) {
      if (isObject(item)) {
        for (const key in item) {
          if (key !== "continuationItemRenderer") notes.unknownRenderer(key, "get_artist_albums");
          break;
        }
      }
      continue;
    }
    out.push(parseArtistAlbum(card));
  }
  return out;
}

const FIRST_SECTION: Path = [...SC_SECTIONS, 0];
const SORT_OPTIONS: Path = [
  "contents",
  "singleColumnBrowseResultsRenderer",
  "tabs",
  0,
  "tabRenderer",
  "content",
  "sectionListRenderer",
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
  mustList(section, ["gridRenderer", "items"], formatFirstSection());
  return { items: [], grid: null };
}

function formatFirstSection(): string {
  return "contents.singleColumnBrowseResultsRenderer.tabs[0].tabRenderer.content.sectionListRenderer.contents[0]";
}

/** The first section of a single-column browse page (artist albums, user lists). */
export function firstSection(response: unknown): unknown {
  return get(response, FIRST_SECTION);
}

const OPTION_TITLE: Path = ["musicMultiSelectMenuItemRenderer", "title", "runs", 0, "text"];
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
