import type {
  Channel,
  DescriptionElement,
  Episode,
  EpisodePage,
  EpisodesPlaylist,
  Podcast,
  PodcastRef,
} from "../types/podcasts.js";
import { browseSections, parseArtistCategories } from "./artist.js";
import { DETAIL_HEADER_RENDERER } from "./detail-header.js";
import { parseEpisodeList, parseEpisodeRow } from "./episode-row.js";
import {
  bool,
  formatPath,
  get,
  isObject,
  type JsonObject,
  list,
  mustObj,
  mustStr,
  num,
  type Path,
  str,
} from "./nav.js";
import type { ParseNotes } from "./notes.js";
import {
  DESCRIPTION_SHELF_RUNS,
  NAV_BROWSE_ID,
  RUN_TEXT,
  SC_SECTION0,
  SC_SHELF,
  SECOND_SUB_RUNS,
  SUB_RUNS,
  SUB0_TEXT,
  TC_SEC_SECTION0,
  TC_SECTION0,
  THUMBS,
  THUMBS_CROP,
  TITLE_RUNS,
  TITLE_TEXT,
} from "./paths.js";
import { playlistCounts } from "./playlist.js";
import { joinRuns, parseSongRuns, runText } from "./text.js";
import { thumbnailsAt } from "./thumbnails.js";

/**
 * Podcast pages (docs/PROTOCOL.md#podcasts): channel, channel episodes, show, episode, and episode playlists.
 * Shows and episodes use the 2024 two-column layout: header in the first tab's first section,
 * episodes or description in the secondary contents.
 */

const RESPONSIVE = "musicResponsiveHeaderRenderer";
const HEADER: Path = [...TC_SECTION0, RESPONSIVE];
const SHELF: Path = [...TC_SEC_SECTION0, "musicShelfRenderer"];
const SHELF_AT = `${formatPath(SHELF)}.contents`;
const STRAPLINE: Path = ["straplineTextOne", "runs", 0];
const HEADER_DESCRIPTION: Path = [...DESCRIPTION_SHELF_RUNS, 0, "text"];

// ── channel ───────────────────────────────────────────────────────────────────────────────────

const CHANNEL_HEADER: Path = ["header", "musicVisualHeaderRenderer"];

/** `get_channel`: the header, then the page's carousels read as on artist pages. */
export function parseChannel(response: unknown, notes: ParseNotes, language = "en"): Channel {
  const header = mustObj(response, CHANNEL_HEADER);
  const title = mustStr(header, TITLE_TEXT, formatPath(CHANNEL_HEADER));
  // Single- or two-column, as artist pages (docs/PROTOCOL.md#changes-over-time "Artist page layout").
  const sections = browseSections(response);
  return {
    title,
    thumbnails: thumbnailsAt(header, THUMBS),
    ...parseArtistCategories(sections, notes, language),
  };
}

const CHANNEL_EPISODES: Path = [...SC_SECTION0, "gridRenderer"];

/** `get_channel_episodes`: every episode of the channel in one grid (the service pages nothing here). */
export function parseChannelEpisodes(response: unknown, notes: ParseNotes): Episode[] {
  const grid = mustObj(response, CHANNEL_EPISODES);
  return parseEpisodeList(
    list(grid, ["items"]),
    `${formatPath(CHANNEL_EPISODES)}.items`,
    notes,
    parseEpisodeRow,
  );
}

// ── show ──────────────────────────────────────────────────────────────────────────────────────

function author(header: JsonObject): PodcastRef {
  const run = get(header, STRAPLINE);
  return { name: str(run, RUN_TEXT), id: str(run, NAV_BROWSE_ID) };
}

/**
 * Whether the show is saved: the toggle whose action is a like (the library save). The reference
 * reads `buttons[1]`; looking the toggle up survives a button added before it.
 */
function showSaved(header: JsonObject): boolean | null {
  for (const button of list(header, ["buttons"])) {
    const toggle = get(button, ["toggleButtonRenderer"]);
    if (isObject(toggle) && get(toggle, ["defaultServiceEndpoint", "likeEndpoint"]) !== undefined) {
      return bool(toggle, ["isToggled"]);
    }
  }
  return bool(header, ["buttons", 1, "toggleButtonRenderer", "isToggled"]);
}

/** A show's first page: its header and first episodes, and the shelf holding its continuation. */
export interface PodcastPage {
  podcast: Podcast;
  shelf: JsonObject | null;
}

/** `get_podcast`'s first page. */
export function parsePodcast(response: unknown, notes: ParseNotes): PodcastPage {
  const header = mustObj(response, HEADER);
  const at = formatPath(HEADER);
  const shelf = get(response, SHELF);
  const podcast: Podcast = {
    author: author(header),
    title: mustStr(header, TITLE_TEXT, at),
    thumbnails: thumbnailsAt(header, THUMBS),
    description: str(header, HEADER_DESCRIPTION),
    saved: showSaved(header),
    episodes: isObject(shelf)
      ? parseEpisodeList(list(shelf, ["contents"]), SHELF_AT, notes, parseEpisodeRow)
      : [],
  };
  return { podcast, shelf: isObject(shelf) ? shelf : null };
}

const CONTINUATION_AT = "continuationContents.musicShelfContinuation.contents";

/** Episodes of a continuation page (the object at `continuationContents.musicShelfContinuation`). */
export function parseEpisodeContinuation(shelf: JsonObject, notes: ParseNotes): Episode[] {
  return parseEpisodeList(list(shelf, ["contents"]), CONTINUATION_AT, notes, parseEpisodeRow);
}

// ── episode ───────────────────────────────────────────────────────────────────────────────────

const PROGRESS: Path = ["progress", "musicPlaybackProgressRenderer"];
const DURATION: Path = [...PROGRESS, "durationText", "runs", 1, "text"];
const PERCENTAGE: Path = [...PROGRESS, "playbackProgressPercentage"];
const SAVED: Path = ["buttons", 0, "toggleButtonRenderer", "isToggled"];
const LAST_MENU: Path = ["buttons", -1, "menuRenderer", "items"];
const MNIR = "menuNavigationItemRenderer";
const DESCRIPTION_RUNS: Path = [...TC_SEC_SECTION0, "musicDescriptionShelfRenderer", "description", "runs"];
const URL: Path = ["navigationEndpoint", "urlEndpoint", "url"];
const START_SECONDS: Path = ["navigationEndpoint", "watchEndpoint", "startTimeSeconds"];

/** The show an episode belongs to: the header menu's entry with the `BROADCAST` icon. */
function showBrowseId(header: JsonObject): string | null {
  for (const item of list(header, LAST_MENU)) {
    const entry = get(item, [MNIR]);
    if (str(entry, ["icon", "iconType"]) === "BROADCAST") return str(entry, NAV_BROWSE_ID);
  }
  return null;
}

/**
 * An episode description as pieces: links keep their URL, timestamps their second (a jump within
 * the episode), anything else is text.
 */
export function descriptionElements(runs: readonly unknown[]): DescriptionElement[] {
  const out: DescriptionElement[] = [];
  for (const run of runs) {
    const text = runText(run);
    const url = str(run, URL);
    if (url !== null) {
      out.push({ text, url });
      continue;
    }
    const seconds = num(run, START_SECONDS);
    out.push(seconds === null ? { text } : { text, seconds });
  }
  return out;
}

/** `get_episode`. */
export function parseEpisodePage(response: unknown): EpisodePage {
  const header = mustObj(response, HEADER);
  const runs = get(response, DESCRIPTION_RUNS);
  return {
    author: author(header),
    title: mustStr(header, TITLE_TEXT, formatPath(HEADER)),
    thumbnails: thumbnailsAt(header, THUMBS),
    date: str(header, SUB0_TEXT),
    duration: str(header, DURATION),
    progressPercentage: num(header, PERCENTAGE),
    saved: bool(header, SAVED) ?? false,
    playlistId: showBrowseId(header),
    description: Array.isArray(runs) ? descriptionElements(runs) : null,
  };
}

// ── episode playlists ─────────────────────────────────────────────────────────────────────────

const EDITABLE = "musicEditablePlaylistDetailHeaderRenderer";
const EDIT_PRIVACY: Path = ["editHeader", "musicPlaylistEditHeaderRenderer", "privacy"];
const PRIVACIES = new Set(["PUBLIC", "PRIVATE", "UNLISTED"]);
const LEGACY_DESCRIPTION_RUNS: Path = ["description", "runs"];

/**
 * The header of an episode playlist: the 2024 responsive header in the first tab (or inside the
 * owner's editable wrapper), or the legacy detail header at `header` (also possibly wrapped).
 */
function playlistHeader(response: unknown): {
  header: JsonObject;
  editable: JsonObject | null;
  legacy: boolean;
} {
  const first = get(response, TC_SECTION0);
  const top = get(response, ["header"]);
  for (const [container, name, legacy] of [
    [first, RESPONSIVE, false],
    [top, DETAIL_HEADER_RENDERER, true],
  ] as const) {
    const direct = get(container, [name]);
    if (isObject(direct)) return { header: direct, editable: null, legacy };
    const editable = get(container, [EDITABLE]);
    const inner = get(editable, ["header", name]);
    if (isObject(inner) && isObject(editable)) return { header: inner, editable, legacy };
  }
  return { header: mustObj(response, HEADER), editable: null, legacy: false };
}

/** `get_episodes_playlist`: the playlist header (docs/PROTOCOL.md#playlists rules) and its episode rows. */
export function parseEpisodesPlaylist(response: unknown, notes: ParseNotes): EpisodesPlaylist {
  const { header, editable, legacy } = playlistHeader(response);
  const owned = editable !== null;
  const privacy = str(editable, EDIT_PRIVACY);
  const description = legacy ? get(header, LEGACY_DESCRIPTION_RUNS) : get(header, DESCRIPTION_SHELF_RUNS);
  const playlist: EpisodesPlaylist = {
    owned,
    privacy:
      owned && privacy !== null && PRIVACIES.has(privacy)
        ? (privacy as EpisodesPlaylist["privacy"])
        : "PUBLIC",
    ...playlistCounts(list(header, SECOND_SUB_RUNS)),
    title: joinRuns(list(header, TITLE_RUNS)),
    thumbnails: thumbnailsAt(header, legacy ? THUMBS_CROP : THUMBS),
    description: Array.isArray(description) ? joinRuns(description) : null,
    episodes: [],
  };
  // `Auto playlist • 2024` (or `Playlist • Private • 2024` when owned): the year follows the type.
  const info = parseSongRuns(list(header, SUB_RUNS), false, owned ? 4 : 2);
  if (info.year !== undefined) playlist.year = info.year;
  const shelf = get(response, SHELF) ?? get(response, SC_SHELF);
  const at = get(response, SHELF) === undefined ? `${formatPath(SC_SHELF)}.contents` : SHELF_AT;
  playlist.episodes = parseEpisodeList(list(shelf, ["contents"]), at, notes, parseEpisodeRow);
  return playlist;
}
