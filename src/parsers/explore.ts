import type {
  ChartArtist,
  ChartList,
  ChartPlaylist,
  ChartSong,
  Charts,
  Explore,
  FlatEpisode,
  MoodCategories,
  MoodCategory,
  MoodPlaylists,
  Trend,
  TrendingItem,
} from "../types/explore.js";
import { MTRIR, parseAlbumCard, parsePlaylistCard, parseVideoCard } from "./cards.js";
import { parseChartEpisode, parseEpisodeList } from "./episode-row.js";
import { rendererItems } from "./lists.js";
import {
  formatPath,
  get,
  isObject,
  type JsonObject,
  list,
  mustList,
  mustStr,
  type Path,
  rendererName,
  str,
} from "./nav.js";
import type { ParseNotes } from "./notes.js";
import {
  CAROUSEL_BROWSE_ID,
  FLEX0_TEXT,
  NAV_BROWSE_ID,
  PLAY_PLAYLIST_ID,
  PLAY_VIDEO_TYPE,
  RUN_TEXT,
  SC_SECTIONS,
  THUMBS,
  THUMBS_TR,
  TITLE_BROWSE_ID,
  TITLE_TEXT,
} from "./paths.js";
import { flexRuns, flexText, MRLIR, parseSongFlat } from "./song-row.js";
import { firstWord, idName } from "./text.js";
import { thumbnailsAt } from "./thumbnails.js";

/**
 * The explore group's pages (docs/PROTOCOL.md#explore): "Moods & genres", a mood's playlists, the charts and
 * the explore page. All are single-column browse pages whose sections are carousels or grids.
 */

/** `SC_TAB.SL`: every page of this group is a single-column browse page. */
const SECTIONS_AT = formatPath(SC_SECTIONS);

const CAROUSEL = "musicCarouselShelfRenderer";
const NAV_BUTTON = "musicNavigationButtonRenderer";
const BUTTON_TITLE: Path = ["buttonText", "runs", 0, "text"];
const BUTTON_PARAMS: Path = ["clickCommand", "browseEndpoint", "params"];

// ── moods ─────────────────────────────────────────────────────────────────────────────────────

const GRID = "gridRenderer";
const GRID_TITLE: Path = ["header", "gridHeaderRenderer", ...TITLE_TEXT];

/** A mood/genre button (`musicNavigationButtonRenderer`). */
function parseMoodButton(button: unknown, at: string): MoodCategory {
  return { title: mustStr(button, BUTTON_TITLE, at), params: mustStr(button, BUTTON_PARAMS, at) };
}

/** The buttons of a list; other renderers are reported and skipped. */
function moodButtons(items: readonly unknown[], at: string, notes: ParseNotes): MoodCategory[] {
  return rendererItems(items, NAV_BUTTON, at, notes, parseMoodButton);
}

/** `get_mood_categories`: each grid section (`For you`, `Genres`, `Moods & moments`) with its buttons. */
export function parseMoodCategories(response: unknown, notes: ParseNotes): MoodCategories {
  const out: MoodCategories = {};
  const sections = mustList(response, SC_SECTIONS);
  for (let i = 0; i < sections.length; i++) {
    const section = sections[i];
    const grid = isObject(section) ? section[GRID] : undefined;
    const at = `${SECTIONS_AT}[${i}]`;
    if (!isObject(grid)) {
      notes.unknownRenderer(rendererName(section) ?? typeof section, at);
      continue;
    }
    const title = mustStr(grid, GRID_TITLE, `${at}.${GRID}`);
    out[title] = moodButtons(list(grid, ["items"]), `${at}.${GRID}.items`, notes);
  }
  return out;
}

/** Where each kind of section of a mood page keeps its cards. */
const MOOD_SECTION_ITEMS: Readonly<Record<string, string>> = {
  gridRenderer: "items",
  musicCarouselShelfRenderer: "contents",
  musicImmersiveCarouselShelfRenderer: "contents",
};

/** `get_mood_playlists`: the playlist cards of every grid or carousel of a mood's page, in order. */
export function parseMoodPlaylists(response: unknown, notes: ParseNotes): MoodPlaylists {
  const out: MoodPlaylists = [];
  const sections = mustList(response, SC_SECTIONS);
  for (let i = 0; i < sections.length; i++) {
    const section = sections[i];
    const name = rendererName(section);
    const key = name === undefined ? undefined : MOOD_SECTION_ITEMS[name];
    const at = `${SECTIONS_AT}[${i}]`;
    if (key === undefined || name === undefined) {
      notes.unknownRenderer(name ?? typeof section, at);
      continue;
    }
    const items = list((section as JsonObject)[name], [key]);
    for (const card of rendererItems(items, MTRIR, `${at}.${name}.${key}`, notes, parsePlaylistCard))
      out.push(card);
  }
  return out;
}

// ── ranked rows ───────────────────────────────────────────────────────────────────────────────

const RANK: Path = ["customIndexColumn", "musicCustomIndexColumnRenderer", "text", "runs", 0, "text"];
const TREND_ICON: Path = ["customIndexColumn", "musicCustomIndexColumnRenderer", "icon", "iconType"];
const TRENDS: Readonly<Record<string, Trend>> = {
  ARROW_DROP_UP: "up",
  ARROW_DROP_DOWN: "down",
  ARROW_CHART_NEUTRAL: "neutral",
};

/** Rank and trend of a chart row; both null when the service left them out (signed out). */
function ranking(row: unknown): { rank: string | null; trend: Trend | null } {
  const icon = str(row, TREND_ICON);
  return { rank: str(row, RANK), trend: icon === null ? null : (TRENDS[icon] ?? null) };
}

function parseChartArtist(row: JsonObject, at: string): ChartArtist {
  return {
    title: mustStr(row, FLEX0_TEXT, at),
    browseId: str(row, NAV_BROWSE_ID),
    subscribers: firstWord(flexText(row, 1)),
    thumbnails: thumbnailsAt(row, THUMBS),
    ...ranking(row),
  };
}

function parseChartSong(row: JsonObject): ChartSong {
  return Object.assign(parseSongFlat(row), ranking(row));
}

const EPISODE_TYPE = "MUSIC_VIDEO_TYPE_PODCAST_EPISODE";
const ITEM_VIDEO_ID: Path = ["playlistItemData", "videoId"];

/** An episode in a track list (docs/PROTOCOL.md#podcasts "Flat episode row"). */
function parseFlatEpisode(row: JsonObject): FlatEpisode {
  const title = flexRuns(row, 0)?.[0];
  return {
    title: str(title, RUN_TEXT),
    podcast: idName(flexRuns(row, 1)?.[0]),
    videoId: str(row, ITEM_VIDEO_ID),
    browseId: str(title, NAV_BROWSE_ID),
    playlistId: str(row, PLAY_PLAYLIST_ID),
    videoType: str(row, PLAY_VIDEO_TYPE),
    date: flexText(row, 2),
    thumbnails: thumbnailsAt(row, THUMBS),
  };
}

/** A trending row: a song or video (with the trending playlist's id), or an episode. */
function parseTrendingItem(row: JsonObject): TrendingItem {
  return str(row, PLAY_VIDEO_TYPE) === EPISODE_TYPE ? parseFlatEpisode(row) : parseSongFlat(row, true);
}

// ── charts ────────────────────────────────────────────────────────────────────────────────────

/** How a chart carousel is recognised, from its first item (never from its position). */
export type ChartContent = "playlist cards" | "artist rows" | "song rows" | "trending rows";

/**
 * The sections a charts page may carry and when the service sends them. The parser names playlist
 * carousels from this table; the other kinds are recognised by content alone.
 */
export interface ChartSectionRule {
  key: Exclude<keyof Charts, "countries">;
  content: ChartContent;
  /** Only these countries' pages carry it (absent: every country). */
  countries?: readonly string[];
  /** Not on these countries' pages. */
  notCountries?: readonly string[];
  /** `true`: only for signed-in premium accounts; `false`: only for the others. */
  premium?: boolean;
  note: string;
}

export const CHART_SECTIONS: readonly ChartSectionRule[] = Object.freeze([
  { key: "daily", content: "playlist cards", premium: true, note: "premium: daily video charts" },
  { key: "weekly", content: "playlist cards", premium: true, note: "premium: weekly video charts" },
  {
    key: "videos",
    content: "playlist cards",
    premium: false,
    note: "daily and weekly video charts together",
  },
  { key: "genres", content: "playlist cards", countries: ["US"], note: "genre charts; may be missing" },
  { key: "languages", content: "playlist cards", countries: ["IN"], note: "language charts" },
  { key: "artists", content: "artist rows", note: "ranked artists; rank and trend need credentials" },
  {
    key: "songs",
    content: "song rows",
    premium: true,
    note: "ranked songs: signed-in premium accounts only",
  },
  {
    key: "trending",
    content: "trending rows",
    notCountries: ["ZZ"],
    note: "trending tracks: country pages only, never the global (ZZ) charts",
  },
]) as readonly ChartSectionRule[];

function appliesTo(rule: ChartSectionRule, country: string, premium: boolean): boolean {
  if (rule.premium !== undefined && rule.premium !== premium) return false;
  if (rule.countries !== undefined && !rule.countries.includes(country)) return false;
  if (rule.notCountries?.includes(country)) return false;
  return true;
}

/**
 * Names for a page's playlist carousels, in order. A page with more playlist carousels than a
 * plain account's page has is a premium page (daily and weekly charts apart), and so is a page that
 * carries ranked song rows, which only premium accounts get: since the US page lost its genre
 * carousel, a premium US page has two playlist carousels, as many as a plain page's names. Trailing
 * sections may be missing (a US page without genres), so fewer carousels than names is fine.
 */
export function chartPlaylistNames(
  country: string,
  carousels: number,
  hasSongRows = false,
): ChartSectionRule["key"][] {
  const names = (premium: boolean) =>
    CHART_SECTIONS.filter((r) => r.content === "playlist cards" && appliesTo(r, country, premium)).map(
      (r) => r.key,
    );
  const plain = names(false);
  return hasSongRows || carousels > plain.length ? names(true) : plain;
}

const COUNTRY_MENU: Path = [
  "musicShelfRenderer",
  "subheaders",
  0,
  "musicSideAlignedItemRenderer",
  "startItems",
  0,
  "musicSortFilterButtonRenderer",
  "title",
  "runs",
  0,
  "text",
];
const MUTATIONS: Path = ["frameworkUpdates", "entityBatchUpdate", "mutations"];
const COUNTRY_CODE: Path = ["payload", "musicFormBooleanChoice", "opaqueToken"];
const ROW_BROWSE: Path = ["navigationEndpoint", "browseEndpoint"];

function parseChartPlaylist(card: JsonObject, at: string): ChartPlaylist {
  const browseId = str(card, TITLE_BROWSE_ID);
  return {
    title: mustStr(card, TITLE_TEXT, at),
    playlistId: browseId === null ? null : browseId.slice(2),
    thumbnails: thumbnailsAt(card, THUMBS_TR),
  };
}

/** What a carousel of the charts page holds, judged by its first item and its title link. */
function chartContent(carousel: unknown): ChartContent | null {
  const first = list(carousel, ["contents"])[0];
  const card = get(first, [MTRIR]);
  if (isObject(card)) return str(card, TITLE_BROWSE_ID)?.startsWith("VL") ? "playlist cards" : null;
  const row = get(first, [MRLIR]);
  if (!isObject(row)) return null;
  // Artist rows browse to the artist; song and video rows play.
  if (isObject(get(row, ROW_BROWSE))) return "artist rows";
  return str(carousel, CAROUSEL_BROWSE_ID)?.startsWith("VLOLA") ? "trending rows" : "song rows";
}

/**
 * `get_charts` (docs/PROTOCOL.md#explore): the country menu, then carousels classified by content. Carousels
 * of other kinds (album charts some regions add) are not part of the result.
 */
export function parseCharts(response: unknown, country: string, notes: ParseNotes): Charts {
  const sections = mustList(response, SC_SECTIONS);
  const selected = str(sections[0], COUNTRY_MENU);
  const options: string[] = [];
  for (const mutation of list(response, MUTATIONS)) {
    const code = str(mutation, COUNTRY_CODE);
    if (code !== null) options.push(code);
  }
  const charts: Charts = { countries: { selected: selected === null ? null : { text: selected }, options } };
  const playlists: Array<{ carousel: JsonObject; at: string }> = [];
  for (let i = 1; i < sections.length; i++) {
    const section = sections[i];
    const carousel = get(section, [CAROUSEL]);
    const at = `${SECTIONS_AT}[${i}].${CAROUSEL}.contents`;
    if (!isObject(carousel)) {
      notes.unknownRenderer(rendererName(section) ?? typeof section, `${SECTIONS_AT}[${i}]`);
      continue;
    }
    const items = list(carousel, ["contents"]);
    switch (chartContent(carousel)) {
      case "playlist cards":
        playlists.push({ carousel, at });
        break;
      case "artist rows":
        charts.artists = rendererItems(items, MRLIR, at, notes, parseChartArtist);
        break;
      case "song rows":
        charts.songs = {
          playlist: str(carousel, CAROUSEL_BROWSE_ID),
          items: rendererItems(items, MRLIR, at, notes, parseChartSong),
        };
        break;
      case "trending rows":
        charts.trending = {
          playlist: str(carousel, CAROUSEL_BROWSE_ID),
          items: rendererItems(items, MRLIR, at, notes, parseTrendingItem),
        };
        break;
      case null: {
        // Card carousels of other kinds (album charts some regions add) are known and left out;
        // anything else is new.
        const name = rendererName(items[0]);
        if (name !== undefined && name !== MTRIR) notes.unknownRenderer(name, `${at}[0]`);
        break;
      }
    }
  }
  const names = chartPlaylistNames(country, playlists.length, charts.songs !== undefined);
  for (let i = 0; i < playlists.length; i++) {
    const name = names[i];
    const { carousel, at } = playlists[i] as { carousel: JsonObject; at: string };
    if (name === undefined) {
      notes.unknownRenderer("musicCarouselShelfRenderer (an extra chart playlist carousel)", at);
      continue;
    }
    Object.assign(charts, {
      [name]: rendererItems(list(carousel, ["contents"]), MTRIR, at, notes, parseChartPlaylist),
    });
  }
  return charts;
}

// ── explore ───────────────────────────────────────────────────────────────────────────────────

/**
 * `get_explore`: each carousel is recognised by where its title links (docs/PROTOCOL.md#explore); carousels
 * without a title link (the shortcut buttons at the top) are not part of the result.
 */
export function parseExplore(response: unknown, notes: ParseNotes): Explore {
  const explore: Explore = {};
  const sections = mustList(response, SC_SECTIONS);
  for (let i = 0; i < sections.length; i++) {
    const carousel = get(sections[i], [CAROUSEL]);
    const browseId = str(carousel, CAROUSEL_BROWSE_ID);
    if (browseId === null) continue;
    const items = list(carousel, ["contents"]);
    const at = `${SECTIONS_AT}[${i}].${CAROUSEL}.contents`;
    if (browseId === "FEmusic_new_releases_albums") {
      explore.new_releases = rendererItems(items, MTRIR, at, notes, parseAlbumCard);
    } else if (browseId === "FEmusic_moods_and_genres") {
      explore.moods_and_genres = moodButtons(items, at, notes);
    } else if (browseId === "FEmusic_top_non_music_audio_episodes") {
      explore.top_episodes = parseEpisodeList(items, at, notes, parseChartEpisode);
    } else if (browseId === "FEmusic_new_releases_videos") {
      explore.new_videos = rendererItems(items, MTRIR, at, notes, parseVideoCard);
    } else if (browseId.startsWith("VLPL")) {
      explore.top_songs = rankedList(browseId, items, at, notes, parseChartSong);
    } else if (browseId.startsWith("VLOLA")) {
      explore.trending = rankedList(browseId, items, at, notes, parseTrendingItem);
    }
  }
  return explore;
}

function rankedList<T>(
  playlist: string,
  items: readonly unknown[],
  at: string,
  notes: ParseNotes,
  parse: (row: JsonObject) => T,
): ChartList<T> {
  return { playlist, items: rendererItems(items, MRLIR, at, notes, parse) };
}
