import type { FlatSong, PlaylistItem } from "../types/browsing.js";
import type { AlbumRef, ArtistRef, CommunityVoteStatus, LikeStatus } from "../types/common.js";
import { entryBrowseId, type MenuData, readMenuEntry, trackLikeStatus } from "./menu.js";
import { get, isObject, num, type Path, str } from "./nav.js";
import { noteSkipped, type ParseNotes } from "./notes.js";
import {
  BADGE_LABEL,
  FIXED0_TEXT,
  FLEX_COLUMN_RUNS,
  MENU_ITEMS,
  NAV_VIDEO_ID,
  NAV_VIDEO_TYPE,
  PAGE_TYPE,
  PLAY_NAV,
  PLAY_PLAYLIST_ID,
  PLAY_VIDEO_TYPE,
  RUN_TEXT,
} from "./paths.js";
import { parseArtistRuns, parseDuration, parseSongRuns, runRef } from "./text.js";
import { thumbnailsAt } from "./thumbnails.js";

/**
 * Rows (`musicResponsiveListItemRenderer`, MRLIR) of track lists: the generic playlist-item parse used
 * by playlists, albums, library songs, history and artist songs, and the "flat song" of home quick
 * picks (docs/PROTOCOL.md#browsing "Generic playlist-item (MRLIR) parse").
 */

export const MRLIR = "musicResponsiveListItemRenderer";

const FLEX_COLUMNS: Path = ["flexColumns"];
const NAVIGATION_ENDPOINT: Path = ["navigationEndpoint"];
const NO_COLUMNS: readonly unknown[] = [];
const SIMPLE_TEXT: Path = ["simpleText"];
const RUN0_TEXT: Path = ["runs", 0, "text"];
const DISPLAY_POLICY: Path = ["musicItemRendererDisplayPolicy"];
const PLAY_ENDPOINT_VIDEO_ID: Path = ["playNavigationEndpoint", "watchEndpoint", "videoId"];
const PLAY_BUTTON: Path = PLAY_NAV.slice(0, -1);
const MENU_VIDEO_TYPE: Path = [...MENU_ITEMS, 0, "menuNavigationItemRenderer", ...NAV_VIDEO_TYPE];
const EDIT_ACTION: Path = [
  "menuServiceItemRenderer",
  "serviceEndpoint",
  "playlistEditEndpoint",
  "actions",
  0,
];
const SET_VIDEO_ID: Path = ["setVideoId"];
const REMOVED_VIDEO_ID: Path = ["removedVideoId"];
const INDEX_TEXT: Path = ["index", "runs", 0, "text"];
const VOTE_STATE: Path = [
  "engagementBar",
  "engagementBarViewModel",
  "actions",
  0,
  "votingViewModel",
  "initialState",
];
const GREY_OUT = "MUSIC_ITEM_RENDERER_DISPLAY_POLICY_GREY_OUT";
const DURATION_TEXT = /^(\d+:)*\d+:\d+$/;

/** The runs of flex column `index` of a row, or undefined when the column or its runs are absent. */
export function flexRuns(row: unknown, index: number): readonly unknown[] | undefined {
  const columns = get(row, FLEX_COLUMNS);
  return Array.isArray(columns) ? columnRuns(columns[index]) : undefined;
}

/** `FLEX(index)[run].text`, or null. */
export function flexText(row: unknown, index: number, run = 0): string | null {
  const runs = flexRuns(row, index);
  return runs === undefined ? null : str(runs[run], RUN_TEXT);
}

/** The runs of one flex column (an element of `flexColumns`), or undefined when it has none. */
function columnRuns(column: unknown): readonly unknown[] | undefined {
  const runs = get(column, FLEX_COLUMN_RUNS);
  return Array.isArray(runs) ? runs : undefined;
}

/** The text of the first of `runs` (as `flexText` reads it), null without runs. */
function firstRunText(runs: readonly unknown[] | undefined): string | null {
  return runs === undefined ? null : str(runs[0], RUN_TEXT);
}

/** `FIXED(0)` text: `simpleText`, else `runs[0].text`; null when absent. */
export function fixedText(row: unknown): string | null {
  const text = get(row, FIXED0_TEXT);
  if (!isObject(text)) return null;
  return str(text, SIMPLE_TEXT) ?? str(text, RUN0_TEXT);
}

export interface PlaylistItemOptions {
  /** Album track list: columns are fixed (title 0, artists 1, plays 2) and the track number is read. */
  album?: boolean;
  /** Collaborative playlist: the album sits in column 3 and the duration in a flex column. */
  collaborative?: boolean;
}

function communityVote(row: unknown): CommunityVoteStatus | null {
  const state = get(row, VOTE_STATE);
  if (!isObject(state)) return null;
  return { netVoteValue: num(state, ["votes"]), status: str(state, ["voteStatus"]) };
}

/** What a track row reads from its menu. */
interface TrackMenu {
  /** `parseMenuData`'s fields. */
  data: MenuData;
  /** From the entry that removes the row from its playlist (the last such entry that says). */
  setVideoId: string | null;
  removedVideoId: string | null;
  /** The credits page (`MPTC…`), from the first entry that links there. */
  credits: string | null;
}

/**
 * A track row's menu, read in one pass over its entries: the row needs four things from it, and a
 * page holds hundreds of rows with a dozen entries each.
 */
function readTrackMenu(items: readonly unknown[]): TrackMenu {
  const menu: TrackMenu = { data: {}, setVideoId: null, removedVideoId: null, credits: null };
  for (const entry of items) {
    const action = get(entry, EDIT_ACTION);
    if (action !== undefined) {
      menu.setVideoId = str(action, SET_VIDEO_ID) ?? menu.setVideoId;
      menu.removedVideoId = str(action, REMOVED_VIDEO_ID) ?? menu.removedVideoId;
    }
    readMenuEntry(menu.data, entry);
    menu.credits ??= entryBrowseId(entry, "MPTC");
  }
  return menu;
}

/**
 * Parses one playlist-item row; null for a `Song deleted` row, which the service still lists.
 * Column meaning is found from each column's first-run endpoint, except on album pages and on
 * greyed-out rows whose columns have no endpoints: there the columns are preset.
 */
export function parsePlaylistItem(row: unknown, options: PlaylistItemOptions = {}): PlaylistItem | null {
  let likeStatus: LikeStatus | null = null;
  const menuItems = get(row, MENU_ITEMS);
  const hasMenu = Array.isArray(menuItems);
  const menu = hasMenu ? readTrackMenu(menuItems) : null;
  let videoId = menu?.removedVideoId ?? null;
  const setVideoId = menu?.setVideoId ?? null;
  const playButton = get(row, PLAY_BUTTON);
  if (isObject(playButton) && playButton["playNavigationEndpoint"] !== undefined) {
    videoId = str(playButton, PLAY_ENDPOINT_VIDEO_ID) ?? videoId;
    if (hasMenu) likeStatus = trackLikeStatus(row);
  }

  const policy = str(row, DISPLAY_POLICY);
  const isAvailable = policy !== GREY_OUT;
  const preset = !isAvailable || options.album === true;

  let titleIndex: number | null = preset ? 0 : null;
  let artistIndex: number | null = preset ? 1 : null;
  let albumIndex: number | null = preset ? 2 : null;
  if (options.collaborative === true) albumIndex = 3;
  let userChannelIndex: number | null = null;
  let unrecognisedIndex: number | null = null;
  let durationIndex: number | null = null;

  // The columns are looked up again below for the few that are kept: no list of every column's runs.
  const flex = get(row, FLEX_COLUMNS);
  const columns: readonly unknown[] = Array.isArray(flex) ? flex : NO_COLUMNS;
  for (let i = 0; i < columns.length; i++) {
    const runs = columnRuns(columns[i]);
    if (runs === undefined) continue;
    const first = runs[0];
    const endpoint = get(first, NAVIGATION_ENDPOINT);
    if (!isObject(endpoint)) {
      const text = str(first, RUN_TEXT);
      if (text === null) continue;
      if (DURATION_TEXT.test(text)) {
        if (durationIndex === null) durationIndex = i;
      } else if (unrecognisedIndex === null) {
        unrecognisedIndex = i;
      }
      continue;
    }
    if (endpoint["watchEndpoint"] !== undefined) {
      titleIndex = i;
    } else if (endpoint["browseEndpoint"] !== undefined) {
      const pageType = str(endpoint, PAGE_TYPE);
      if (pageType === "MUSIC_PAGE_TYPE_ARTIST" || pageType === "MUSIC_PAGE_TYPE_UNKNOWN") artistIndex = i;
      else if (pageType === "MUSIC_PAGE_TYPE_ALBUM" || pageType === "MUSIC_PAGE_TYPE_AUDIOBOOK")
        albumIndex = i;
      else if (pageType === "MUSIC_PAGE_TYPE_USER_CHANNEL") userChannelIndex = i;
      else if (pageType === "MUSIC_PAGE_TYPE_NON_MUSIC_AUDIO_TRACK_PAGE") titleIndex = i;
    }
  }
  // Rare songs show the artist without a link; non-song videos name the uploading channel.
  if (artistIndex === null && unrecognisedIndex !== null) artistIndex = unrecognisedIndex;
  if (artistIndex === null && userChannelIndex !== null) artistIndex = userChannelIndex;

  const title = titleIndex === null ? null : firstRunText(columnRuns(columns[titleIndex]));
  if (title === "Song deleted") return null;

  let artists: ArtistRef[] | null = null;
  if (artistIndex !== null) {
    const runs = columnRuns(columns[artistIndex]);
    artists = runs === undefined ? [] : parseArtistRuns(runs);
  }
  let album: AlbumRef | null = null;
  if (albumIndex !== null) {
    const runs = columnRuns(columns[albumIndex]);
    if (runs !== undefined) album = runRef(runs[0]);
  }

  let duration = fixedText(row);
  if ((duration === null || duration === "") && durationIndex !== null)
    duration = firstRunText(columnRuns(columns[durationIndex]));

  const item: PlaylistItem = {
    videoId,
    title,
    artists,
    album,
    likeStatus,
    inLibrary: null,
    pinnedToListenAgain: null,
    thumbnails: thumbnailsAt(row),
    isAvailable,
    isExplicit: get(row, BADGE_LABEL) !== undefined,
    videoType: str(row, MENU_VIDEO_TYPE),
    views: options.album === true ? firstRunText(columnRuns(columns[2])) : null,
    communityVoteStatus: communityVote(row),
  };
  if (menu !== null) Object.assign(item, menu.data);
  if (options.album === true) {
    const index = isAvailable ? str(row, INDEX_TEXT) : null;
    item.trackNumber = index === null ? null : Number.parseInt(index, 10);
  }
  if (duration !== null && duration !== "") {
    item.duration = duration;
    item.duration_seconds = parseDuration(duration);
  }
  if (menu?.credits) item.creditsBrowseId = menu.credits;
  if (setVideoId !== null) item.setVideoId = setVideoId;
  return item;
}

/**
 * Parses the MRLIR rows of a list. Other renderers (a trailing `continuationItemRenderer`, dividers)
 * are not tracks: the continuation item is expected and skipped silently, anything else is reported.
 */
export function parsePlaylistItems(
  contents: readonly unknown[],
  options: PlaylistItemOptions = {},
  notes?: ParseNotes,
  where = "tracks",
): PlaylistItem[] {
  const out: PlaylistItem[] = [];
  for (const entry of contents) {
    const item = parsePlaylistEntry(entry, options, notes, where);
    if (item !== null) out.push(item);
  }
  return out;
}

/** One entry of `parsePlaylistItems`: its track, or null for a deleted song or (noted) anything else. */
export function parsePlaylistEntry(
  entry: unknown,
  options: PlaylistItemOptions,
  notes: ParseNotes | undefined,
  where: string,
): PlaylistItem | null {
  const row = isObject(entry) ? entry[MRLIR] : undefined;
  if (row !== undefined) return parsePlaylistItem(row, options);
  noteSkipped(notes, entry, where);
  return null;
}

/**
 * The flat-song MRLIR: title and video from column 0, metadata runs from column 1 (type word
 * skipped), the album from column 2 when it is a link.
 */
export function parseSongFlat(row: unknown, withPlaylistId = false): FlatSong {
  const runs0 = flexRuns(row, 0);
  const first = runs0?.[0];
  const song: FlatSong = {
    title: str(first, RUN_TEXT),
    videoId: str(first, NAV_VIDEO_ID),
    videoType: str(row, PLAY_VIDEO_TYPE),
    thumbnails: thumbnailsAt(row),
    isExplicit: get(row, BADGE_LABEL) !== undefined,
  };
  if (withPlaylistId) song.playlistId = str(row, PLAY_PLAYLIST_ID);
  const runs1 = flexRuns(row, 1);
  if (runs1 !== undefined) Object.assign(song, parseSongRuns(runs1, true));
  const runs2 = flexRuns(row, 2);
  const albumRun = runs2?.[0];
  if (isObject(albumRun) && albumRun["navigationEndpoint"] !== undefined) {
    song.album = runRef(albumRun);
  }
  return song;
}
