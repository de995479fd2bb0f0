import type { SearchFilter, SearchResult, SearchScope, SearchSuggestion } from "../types/search.js";
import { endpointPlaylistId } from "./cards.js";
import { foldCase, localeOf } from "./locales.js";
import { parseMenuData, parseMenuPlaylists } from "./menu.js";
import { get, isObject, type JsonObject, list, mustList, type Path, str } from "./nav.js";
import { CONTINUATION_ITEM, noteSkipped, type ParseNotes } from "./notes.js";
import {
  BADGE_LABEL,
  MENU0_WATCH_PLAYLIST_ID,
  NAV_BROWSE_ID,
  NAV_PLAYLIST_ID,
  NAV_VIDEO_ID,
  ON_TAP_VIDEO_ID,
  ON_TAP_VIDEO_TYPE,
  OVERLAY_NAV,
  PLAY_NAV,
  PLAY_VIDEO_ID,
  PLAY_VIDEO_TYPE,
  RUN_TEXT,
  SL,
  SUB_RUNS,
  SUB0_TEXT,
  TAB_CONTENT,
  THUMBS,
  TITLE_BROWSE_ID,
  TITLE_RUNS,
  TITLE_TEXT,
  VIDEO_TYPE,
} from "./paths.js";
import { flexRuns, flexText, MRLIR } from "./song-row.js";
import { firstWord, idName, parseArtistRuns, parseSongRuns, runText } from "./text.js";
import { thumbnailsAt } from "./thumbnails.js";

/**
 * Search responses (docs/PROTOCOL.md#search): the tabbed results root, shelves, the top-result card, and the
 * shelf continuation pages of filtered searches.
 */

const TABS: Path = ["contents", "tabbedSearchResultsRenderer", "tabs"];
const ROOT_SECTIONS: Path = ["contents", ...SL];
const TAB_SECTIONS: readonly Path[] = [0, 1, 2].map((tab) => [...TABS, tab, ...TAB_CONTENT, ...SL]);
const CARD_CATEGORY: Path = ["header", "musicCardShelfHeaderBasicRenderer", ...TITLE_TEXT];
const MESSAGE_TEXT: Path = ["messageRenderer", "text", "runs", 0, "text"];
const SUBTITLE2_TEXT: Path = ["subtitle", "runs", 2, "text"];
const SUBTITLE4: Path = ["subtitle", "runs", 4];
const BUTTON_COMMAND: Path = ["buttons", 0, "buttonRenderer", "command"];
const CARD_OVERLAY_VIDEO_ID: Path = [...OVERLAY_NAV, "watchEndpoint", "videoId"];
const CARD_OVERLAY_VIDEO_TYPE: Path = [...OVERLAY_NAV, ...VIDEO_TYPE];
const LIVE_BADGE: Path = ["badges", 0, "liveBadgeRenderer"];
const CONTINUATION_ITEMS: Path = ["contents"];

/**
 * The result type a top-result card's type word names in the page's display language (docs/PROTOCOL.md#display-words); anything unknown (`Single`, `EP`) is an album.
 */
export function resultTypeOfWord(word: string | null, language = "en"): string | null {
  if (word === null || word === "") return null;
  return localeOf(language).typeOfWord.get(foldCase(word, language)) ?? "album";
}

/** The result type a filter gives its rows: all playlist filters parse as `playlist`. */
export function resultTypeOfFilter(filter: SearchFilter): string {
  if (filter.includes("playlists")) return "playlist";
  return filter.slice(0, -1);
}

const BROWSE_PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ["VM", "playlist"],
  ["RD", "playlist"],
  ["VL", "playlist"],
  ["MPLA", "artist"],
  ["MPRE", "album"],
  ["MPSP", "podcast"],
  ["MPED", "episode"],
  ["UC", "artist"],
];

/** A row's type when its shelf does not say (unfiltered search): from its browseId or video type. */
function inferResultType(row: unknown, videoType: string | null): string | null {
  const browseId = str(row, NAV_BROWSE_ID);
  if (browseId !== null) {
    for (const [prefix, type] of BROWSE_PREFIXES) if (browseId.startsWith(prefix)) return type;
    return null;
  }
  if (videoType === "MUSIC_VIDEO_TYPE_ATV") return "song";
  if (videoType === "MUSIC_VIDEO_TYPE_PODCAST_EPISODE") return "episode";
  return "video";
}

/** Parses one search row (MRLIR). `type` is the shelf's result type, or null to infer it. */
export function parseSearchRow(row: unknown, type: string | null, category: string | null): SearchResult {
  const videoType = str(row, PLAY_VIDEO_TYPE);
  const resultType = type ?? inferResultType(row, videoType);
  // Unfiltered rows (and album rows) start their second column with the type word and a DOT.
  const offset = type === null || type === "album" ? 2 : 0;
  const result: SearchResult = { category, resultType };

  if (resultType !== "artist") result.title = flexText(row, 0);

  switch (resultType) {
    case "artist":
      result.artist = flexText(row, 0);
      Object.assign(result, parseMenuPlaylists(row));
      break;
    case "album": {
      result.type = flexText(row, 1);
      result.playlistId = endpointPlaylistId(get(row, PLAY_NAV));
      break;
    }
    case "playlist": {
      const runs = flexRuns(row, 1) ?? [];
      const hasAuthor = runs.length === offset + 3;
      result.itemCount = songCount(str(runs[offset + (hasAuthor ? 2 : 0)], RUN_TEXT));
      result.author = hasAuthor ? str(runs[offset], RUN_TEXT) : null;
      break;
    }
    case "station":
      result.videoId = str(row, NAV_VIDEO_ID);
      result.playlistId = str(row, NAV_PLAYLIST_ID);
      break;
    case "profile":
      result.name = flexText(row, 1, 2);
      break;
    case "song":
      result.album = null;
      Object.assign(result, parseMenuData(row));
      break;
    case "upload":
      parseUploadRow(row, result);
      break;
  }

  if (resultType === "song" || resultType === "video" || resultType === "episode") {
    result.videoId = str(row, PLAY_VIDEO_ID);
    result.videoType = videoType;
  }
  if (resultType === "song" || resultType === "video" || resultType === "album") {
    result.duration = null;
    result.year = null;
    const runs = flexRuns(row, 1) ?? [];
    const more = flexRuns(row, 2);
    // The plays column joins the metadata runs behind a placeholder separator.
    const all = more === undefined ? runs : [...runs, PLACEHOLDER_SEPARATOR, ...more];
    Object.assign(result, parseSongRuns(all, true));
  }
  if (
    resultType === "artist" ||
    resultType === "album" ||
    resultType === "playlist" ||
    resultType === "profile" ||
    resultType === "podcast"
  ) {
    result.browseId = str(row, NAV_BROWSE_ID);
  }
  if (resultType === "song" || resultType === "album")
    result.isExplicit = get(row, BADGE_LABEL) !== undefined;
  if (resultType === "episode") {
    const runs = flexRuns(row, 1) ?? [];
    // Unfiltered rows lead with `Episode •`; the date, when shown, comes before the podcast.
    const start = offset < runs.length ? offset : 0;
    const hasDate = runs.length - start > 1;
    result.live = get(row, LIVE_BADGE) !== undefined;
    if (hasDate) result.date = str(runs[start], RUN_TEXT);
    result.podcast = idName(runs[start + (hasDate ? 2 : 0)]);
  }
  result.thumbnails = thumbnailsAt(row, THUMBS);
  return result;
}

/** `"79 songs"` → 79; null when the text is not a song count (e.g. `5.3K views`). */
function songCount(text: string | null): number | null {
  if (text === null) return null;
  const words = text.split(" ");
  if (words[1] !== "songs") return null;
  const digits = (words[0] ?? "").replace(/[^0-9]/g, "");
  return digits === "" ? null : Number.parseInt(digits, 10);
}

const PLACEHOLDER_SEPARATOR = Object.freeze({ text: "" });

/** Upload rows: songs have no browse id; artists and albums link to their upload pages. */
function parseUploadRow(row: unknown, result: SearchResult): void {
  const browseId = str(row, NAV_BROWSE_ID);
  if (browseId === null) {
    const first = flexRuns(row, 0)?.[0];
    if (first !== undefined) {
      result.videoId = str(first, NAV_VIDEO_ID);
      result.playlistId = str(first, NAV_PLAYLIST_ID);
    }
    const runs = flexRuns(row, 1);
    if (runs !== undefined) Object.assign(result, parseSongRuns(runs));
    result.resultType = "song";
    return;
  }
  result.browseId = browseId;
  if (browseId.includes("artist")) {
    result.resultType = "artist";
    return;
  }
  const runs = flexRuns(row, 1) ?? [];
  const texts: string[] = [];
  for (let i = 0; i < runs.length; i += 2) texts.push(runText(runs[i]));
  if (texts.length > 1) result.artist = texts[1] as string;
  if (texts.length > 2) result.releaseDate = texts[2] as string;
  result.resultType = "album";
}

/** The "Top result" card (`musicCardShelfRenderer`), its type word in `language`. */
export function parseTopResult(card: unknown, language = "en"): SearchResult {
  const resultType = resultTypeOfWord(str(card, SUB0_TEXT), language);
  const result: SearchResult = { category: str(card, CARD_CATEGORY) ?? "Top result", resultType };
  if (resultType === "artist") {
    const subscribers = str(card, SUBTITLE2_TEXT);
    if (subscribers !== null && subscribers !== "") result.subscribers = firstWord(subscribers) as string;
    Object.assign(result, parseSongRuns(list(card, TITLE_RUNS)));
  }
  if (resultType === "song" || resultType === "video" || resultType === "album") {
    result.videoId = str(card, ON_TAP_VIDEO_ID);
    result.videoType = str(card, ON_TAP_VIDEO_TYPE);
    result.title = str(card, TITLE_TEXT);
    Object.assign(result, parseSongRuns(list(card, SUB_RUNS), false, 2));
  }
  if (resultType === "album") {
    result.browseId = str(card, TITLE_BROWSE_ID);
    result.playlistId = endpointPlaylistId(get(card, BUTTON_COMMAND));
  }
  if (resultType === "playlist") {
    result.playlistId = str(card, MENU0_WATCH_PLAYLIST_ID);
    result.title = str(card, TITLE_TEXT);
    const runs = list(card, SUB_RUNS);
    result.author = parseArtistRuns(runs, 2);
  }
  if (resultType === "podcast" || resultType === "profile" || resultType === "station") {
    result.title = str(card, TITLE_TEXT);
    result.browseId = str(card, TITLE_BROWSE_ID);
  }
  if (resultType === "episode") {
    result.title = str(card, TITLE_TEXT);
    result.videoId = str(card, CARD_OVERLAY_VIDEO_ID);
    result.videoType = str(card, CARD_OVERLAY_VIDEO_TYPE);
    result.date = str(card, SUBTITLE2_TEXT);
    result.podcast = idName(get(card, SUBTITLE4));
  }
  result.thumbnails = thumbnailsAt(card, THUMBS);
  return result;
}

/** What a search request asked for, as the parser needs it. */
export interface SearchPlan {
  filter: SearchFilter | null;
  scope: SearchScope | null;
  /** The display language (`hl`) the search was sent with; default `en`. */
  language?: string;
}

/** One shelf that can be continued (filtered searches), with what its rows need. */
export interface ContinuableShelf {
  shelf: JsonObject;
  type: string | null;
  category: string | null;
  /** How many results had been collected when this shelf was parsed (for the remaining limit). */
  collectedBefore: number;
  /** Results parsed up to and including this shelf. */
  collectedAfter: number;
}

export interface SearchPage {
  results: SearchResult[];
  /** Shelves with rows that may have continuations, in page order. */
  shelves: ContinuableShelf[];
}

/**
 * The shelves of a search response, or null when the response has no results at all (no
 * `contents`). A `contents` without the section list is malformed: a ParseError naming the path.
 */
function sectionsOf(response: unknown, plan: SearchPlan): readonly unknown[] | null {
  if (get(response, ["contents"]) === undefined) return null;
  if (!Array.isArray(get(response, TABS))) return mustList(response, ROOT_SECTIONS);
  // Unfiltered scoped searches answer on the scope's own tab: library 1, uploads 2.
  const index = plan.filter === null && plan.scope !== null ? (plan.scope === "library" ? 1 : 2) : 0;
  return mustList(response, TAB_SECTIONS[index] as Path);
}

/** Search shelves end with a continuation item and may hold a "no more results" message. */
const ROW_LIST_QUIET: readonly string[] = [CONTINUATION_ITEM, "messageRenderer"];

function rowsOf(
  contents: readonly unknown[],
  start: number,
  type: string | null,
  category: string | null,
  out: SearchResult[],
  notes: ParseNotes,
  where: string,
): void {
  for (let i = start; i < contents.length; i++) {
    const entry = contents[i];
    const row = isObject(entry) ? entry[MRLIR] : undefined;
    if (row === undefined) {
      noteSkipped(notes, entry, where, ROW_LIST_QUIET);
      continue;
    }
    out.push(parseSearchRow(row, type, category));
  }
}

/** The singular every shelf title must contain when a filter is set (`songs` → `song`). */
function shelfWord(filter: SearchFilter): string {
  return resultTypeOfFilter(filter);
}

/** Parses the first search page. */
export function parseSearchResponse(response: unknown, plan: SearchPlan, notes: ParseNotes): SearchPage {
  const page: SearchPage = { results: [], shelves: [] };
  const sections = sectionsOf(response, plan);
  if (sections === null) return page;
  const type =
    plan.scope === "uploads" ? "upload" : plan.filter === null ? null : resultTypeOfFilter(plan.filter);
  const continuable = plan.filter !== null || plan.scope === "uploads";
  for (const section of sections) {
    if (!isObject(section)) continue;
    const card = section["musicCardShelfRenderer"];
    if (card !== undefined) {
      page.results.push(parseTopResult(card, plan.language));
      const contents = list(card, CONTINUATION_ITEMS);
      if (contents.length === 0) continue;
      let category: string | null = null;
      let start = 0;
      if (isObject(contents[0]) && contents[0]["messageRenderer"] !== undefined) {
        category = str(contents[0], MESSAGE_TEXT);
        start = 1;
      }
      rowsOf(contents, start, type, category, page.results, notes, "search.musicCardShelfRenderer");
      continue;
    }
    const shelf = section["musicShelfRenderer"];
    if (isObject(shelf)) {
      const category = str(shelf, TITLE_TEXT);
      if (
        plan.filter !== null &&
        category !== null &&
        !category.toLowerCase().includes(shelfWord(plan.filter))
      ) {
        continue;
      }
      const before = page.results.length;
      rowsOf(
        list(shelf, CONTINUATION_ITEMS),
        0,
        type,
        category,
        page.results,
        notes,
        "search.musicShelfRenderer",
      );
      if (continuable) {
        page.shelves.push({
          shelf,
          type,
          category,
          collectedBefore: before,
          collectedAfter: page.results.length,
        });
      }
      continue;
    }
    const itemSection = section["itemSectionRenderer"];
    if (itemSection !== undefined) {
      const contents = list(itemSection, CONTINUATION_ITEMS);
      // Only did-you-mean / extra-result sections hold rows; "no results" ones hold a message.
      if (isObject(contents[0]) && contents[0][MRLIR] !== undefined) {
        rowsOf(contents, 0, type, null, page.results, notes, "search.itemSectionRenderer");
      }
      continue;
    }
    for (const key in section) {
      notes.unknownRenderer(key, "search.sectionListRenderer");
      break;
    }
  }
  return page;
}

/** Rows of one `musicShelfContinuation` page. */
export function parseSearchContinuation(
  page: JsonObject,
  type: string | null,
  category: string | null,
  notes: ParseNotes,
): SearchResult[] {
  const out: SearchResult[] = [];
  const contents = get(page, ["contents"]) ?? get(page, ["items"]);
  if (Array.isArray(contents))
    rowsOf(contents, 0, type, category, out, notes, "search.musicShelfContinuation");
  return out;
}

const SUGGESTIONS: Path = ["contents", 0, "searchSuggestionsSectionRenderer", "contents"];
const SUGGESTION_QUERY: Path = ["navigationEndpoint", "searchEndpoint", "query"];
const SUGGESTION_RUNS: Path = ["suggestion", "runs"];
const HISTORY_TOKEN: Path = ["serviceEndpoint", "feedbackEndpoint", "feedbackToken"];

/** Search suggestions: plain texts, or with `detailed` their runs and history token. */
export function parseSearchSuggestions(response: unknown, detailed: false, notes: ParseNotes): string[];
export function parseSearchSuggestions(
  response: unknown,
  detailed: true,
  notes: ParseNotes,
): SearchSuggestion[];
export function parseSearchSuggestions(
  response: unknown,
  detailed: boolean,
  notes: ParseNotes,
): string[] | SearchSuggestion[];
export function parseSearchSuggestions(
  response: unknown,
  detailed: boolean,
  notes: ParseNotes,
): string[] | SearchSuggestion[] {
  const texts: string[] = [];
  const suggestions: SearchSuggestion[] = [];
  for (const entry of list(response, SUGGESTIONS)) {
    if (!isObject(entry)) continue;
    const item = entry["historySuggestionRenderer"] ?? entry["searchSuggestionRenderer"];
    if (!isObject(item)) {
      for (const key in entry) {
        notes.unknownRenderer(key, "get_search_suggestions.searchSuggestionsSectionRenderer");
        break;
      }
      continue;
    }
    const text = str(item, SUGGESTION_QUERY) ?? "";
    if (!detailed) {
      texts.push(text);
      continue;
    }
    const token = str(item, HISTORY_TOKEN);
    suggestions.push({
      text,
      runs: list(item, SUGGESTION_RUNS) as SearchSuggestion["runs"],
      fromHistory: token !== null,
      feedbackToken: token,
    });
  }
  return detailed ? suggestions : texts;
}
