import type {
  AlbumCard,
  PlaylistCard,
  PodcastCard,
  RelatedArtistCard,
  SingleCard,
  SongCard,
  VideoCard,
  WatchPlaylistCard,
} from "../types/browsing.js";
import type { ArtistRef } from "../types/common.js";
import { get, isObject, list, type Path, str } from "./nav.js";
import {
  MENU_ITEMS,
  NAV_PAGE_TYPE,
  NAV_PLAYLIST_ID,
  NAV_VIDEO_ID,
  NAV_WATCH_PLAYLIST_ID,
  OVERLAY_NAV,
  QUEUE_VIDEO_ID,
  RUN_TEXT,
  SUB_RUNS,
  SUB0,
  SUB0_TEXT,
  SUBTITLE_BADGE_LABEL,
  THUMBS_TR,
  TITLE_BROWSE_ID,
  TITLE_TEXT,
  TITLE0,
} from "./paths.js";
import { dotIndex, firstWord, idName, joinRuns, parseArtistRuns, parseSongRuns, runRef } from "./text.js";
import { thumbnailsAt } from "./thumbnails.js";

/**
 * Cards (`musicTwoRowItemRenderer`, MTRIR) of carousels and grids, reused by home, artist, album,
 * user, mood and explore pages (docs/PROTOCOL.md#browsing "Card parsers").
 */

export const MTRIR = "musicTwoRowItemRenderer";

export const TITLE_PAGE_TYPE: Path = [...TITLE0, ...NAV_PAGE_TYPE];
const OVERLAY_WATCH_PLAYLIST_ID: Path = [...OVERLAY_NAV, "watchPlaylistEndpoint", "playlistId"];
const EDITOR_PLAYLIST_ID: Path = [
  "menuNavigationItemRenderer",
  "navigationEndpoint",
  "playlistEditorEndpoint",
  "playlistId",
];
const NUMERIC = /^\d+$/;
const COUNT_WORD = /\d+ /;

const WATCH_PLAYLIST_ID: Path = ["watchPlaylistEndpoint", "playlistId"];
const WATCH_ID: Path = ["watchEndpoint", "playlistId"];

/**
 * The playlist a play endpoint starts (the object holding the watch endpoint): its
 * `watchPlaylistEndpoint` (signed in), else its `watchEndpoint` (an A/B test); null without either.
 */
export function endpointPlaylistId(endpoint: unknown): string | null {
  return str(endpoint, WATCH_PLAYLIST_ID) ?? str(endpoint, WATCH_ID);
}

/** The card's play button's playlist. */
export function overlayPlaylistId(card: unknown): string | null {
  return endpointPlaylistId(get(card, OVERLAY_NAV));
}

/** `subtitle.runs[0]` numeric → year only; else type word, and year from `runs[2]` when numeric. */
function typeAndYear(runs: readonly unknown[], out: { type?: string; year?: string }): void {
  const first = str(runs[0], RUN_TEXT);
  if (first === null) return;
  if (NUMERIC.test(first)) {
    out.year = first;
    return;
  }
  out.type = first;
  const third = str(runs[2], RUN_TEXT);
  if (third !== null && NUMERIC.test(third)) out.year = third;
}

export function parseAlbumCard(card: unknown): AlbumCard {
  const runs = list(card, SUB_RUNS);
  const artists: ArtistRef[] = [];
  for (const run of runs) {
    if (isObject(run) && run["navigationEndpoint"] !== undefined) {
      artists.push(runRef(run));
    }
  }
  const album: AlbumCard = {
    title: str(card, TITLE_TEXT),
    artists,
    browseId: str(card, TITLE_BROWSE_ID),
    audioPlaylistId: overlayPlaylistId(card),
    thumbnails: thumbnailsAt(card, THUMBS_TR),
    isExplicit: get(card, SUBTITLE_BADGE_LABEL) !== undefined,
  };
  typeAndYear(runs, album);
  return album;
}

export function parseSingleCard(card: unknown): SingleCard {
  const single: SingleCard = {
    title: str(card, TITLE_TEXT),
    browseId: str(card, TITLE_BROWSE_ID),
    thumbnails: thumbnailsAt(card, THUMBS_TR),
  };
  typeAndYear(list(card, SUB_RUNS), single);
  return single;
}

export function parseSongCard(card: unknown): SongCard {
  const song: SongCard = {
    title: str(card, TITLE_TEXT),
    videoId: str(card, NAV_VIDEO_ID),
    playlistId: str(card, NAV_PLAYLIST_ID),
    thumbnails: thumbnailsAt(card, THUMBS_TR),
  };
  return Object.assign(song, parseSongRuns(list(card, SUB_RUNS), true));
}

export function parseWatchPlaylistCard(card: unknown): WatchPlaylistCard {
  return {
    title: str(card, TITLE_TEXT),
    playlistId: str(card, NAV_WATCH_PLAYLIST_ID),
    thumbnails: thumbnailsAt(card, THUMBS_TR),
  };
}

export function parsePlaylistCard(card: unknown): PlaylistCard {
  const browseId = str(card, TITLE_BROWSE_ID);
  const playlistId = browseId === null ? null : browseId.slice(2);
  let owned = false;
  for (const entry of list(card, MENU_ITEMS)) {
    if (playlistId !== null && str(entry, EDITOR_PLAYLIST_ID) === playlistId) {
      owned = true;
      break;
    }
  }
  const playlist: PlaylistCard = {
    title: str(card, TITLE_TEXT),
    playlistId,
    thumbnails: thumbnailsAt(card, THUMBS_TR),
    owned,
  };
  const runs = get(card, SUB_RUNS);
  if (Array.isArray(runs)) {
    playlist.description = joinRuns(runs);
    const third = str(runs[2], RUN_TEXT);
    if (runs.length === 3 && third !== null && COUNT_WORD.test(third)) {
      playlist.count = firstWord(third) as string;
      playlist.author = parseArtistRuns(runs, 0, 1);
    }
  }
  return playlist;
}

export function parseRelatedArtistCard(card: unknown): RelatedArtistCard {
  return {
    title: str(card, TITLE_TEXT),
    browseId: str(card, TITLE_BROWSE_ID),
    subscribers: firstWord(str(card, SUB0_TEXT)),
    thumbnails: thumbnailsAt(card, THUMBS_TR),
  };
}

export function parseVideoCard(card: unknown): VideoCard {
  const runs = list(card, SUB_RUNS);
  let videoId = str(card, NAV_VIDEO_ID);
  if (videoId === null) {
    for (const entry of list(card, MENU_ITEMS)) {
      videoId = str(entry, QUEUE_VIDEO_ID);
      if (videoId !== null) break;
    }
  }
  const last = runs.length > 0 ? str(runs[runs.length - 1], RUN_TEXT) : null;
  return {
    title: str(card, TITLE_TEXT),
    videoId,
    artists: parseArtistRuns(runs, 0, dotIndex(runs)),
    playlistId: str(card, NAV_PLAYLIST_ID),
    thumbnails: thumbnailsAt(card, THUMBS_TR),
    views: firstWord(last),
  };
}

export function parsePodcastCard(card: unknown): PodcastCard {
  return {
    title: str(card, TITLE_TEXT),
    channel: idName(get(card, SUB0)),
    browseId: str(card, TITLE_BROWSE_ID),
    podcastId: str(card, OVERLAY_WATCH_PLAYLIST_ID),
    thumbnails: thumbnailsAt(card, THUMBS_TR),
  };
}
