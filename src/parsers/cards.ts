import type { ArtistRef, IdName, Thumbnail } from "../types/common.js";
import { MENU_ITEMS } from "./menu.js";
import { get, isObject, list, type Path, str } from "./nav.js";
import { PAGE_TYPE, VIDEO_TYPE } from "./song-row.js";
import {
  dotIndex,
  firstWord,
  idName,
  joinRuns,
  NAV_BROWSE_ID,
  parseArtistRuns,
  parseSongRuns,
  runText,
  type SongRunInfo,
} from "./text.js";
import { THUMBS, THUMBS_TR, thumbnailsAt } from "./thumbnails.js";

/**
 * Cards (`musicTwoRowItemRenderer`, MTRIR) of carousels and grids, reused by home, artist, album,
 * user, mood and explore pages (PROTOCOL §4.2 "Card parsers"), and the podcast episode row (MMRIR).
 */

export const MTRIR = "musicTwoRowItemRenderer";
export const MMRIR = "musicMultiRowListItemRenderer";

const TITLE_TEXT: Path = ["title", "runs", 0, "text"];
const TITLE_BROWSE_ID: Path = ["title", "runs", 0, ...NAV_BROWSE_ID];
export const TITLE_PAGE_TYPE: Path = ["title", "runs", 0, "navigationEndpoint", ...PAGE_TYPE];
const SUBTITLE_RUNS: Path = ["subtitle", "runs"];
const SUBTITLE0: Path = ["subtitle", "runs", 0];
const SUBTITLE0_TEXT: Path = ["subtitle", "runs", 0, "text"];
const SUBTITLE_BADGE: Path = [
  "subtitleBadges",
  0,
  "musicInlineBadgeRenderer",
  "accessibilityData",
  "accessibilityData",
  "label",
];
const OVERLAY_NAV: Path = [
  "thumbnailOverlay",
  "musicItemThumbnailOverlayRenderer",
  "content",
  "musicPlayButtonRenderer",
  "playNavigationEndpoint",
];
const OVERLAY_WATCH_PLAYLIST_ID: Path = [...OVERLAY_NAV, "watchPlaylistEndpoint", "playlistId"];
const OVERLAY_WATCH_ID: Path = [...OVERLAY_NAV, "watchEndpoint", "playlistId"];
const NAV_VIDEO_ID: Path = ["navigationEndpoint", "watchEndpoint", "videoId"];
const NAV_PLAYLIST_ID: Path = ["navigationEndpoint", "watchEndpoint", "playlistId"];
const NAV_WATCH_PLAYLIST_ID: Path = ["navigationEndpoint", "watchPlaylistEndpoint", "playlistId"];
const QUEUE_VIDEO_ID: Path = [
  "menuServiceItemRenderer",
  "serviceEndpoint",
  "queueAddEndpoint",
  "queueTarget",
  "videoId",
];
const EDITOR_PLAYLIST_ID: Path = [
  "menuNavigationItemRenderer",
  "navigationEndpoint",
  "playlistEditorEndpoint",
  "playlistId",
];
const NUMERIC = /^\d+$/;
const COUNT_WORD = /\d+ /;

export interface AlbumCard {
  title: string | null;
  artists: ArtistRef[];
  browseId: string | null;
  audioPlaylistId: string | null;
  thumbnails: Thumbnail[] | null;
  isExplicit: boolean;
  /** `Album`, `Single`, `EP`… (absent when the subtitle starts with the year). */
  type?: string;
  year?: string;
}

/** The play button's playlist: `watchPlaylistEndpoint` (signed in) or `watchEndpoint` (A/B test). */
export function overlayPlaylistId(card: unknown): string | null {
  return str(card, OVERLAY_WATCH_PLAYLIST_ID) ?? str(card, OVERLAY_WATCH_ID);
}

/** `subtitle.runs[0]` numeric → year only; else type word, and year from `runs[2]` when numeric. */
function typeAndYear(runs: readonly unknown[], out: { type?: string; year?: string }): void {
  const first = str(runs[0], ["text"]);
  if (first === null) return;
  if (NUMERIC.test(first)) {
    out.year = first;
    return;
  }
  out.type = first;
  const third = str(runs[2], ["text"]);
  if (third !== null && NUMERIC.test(third)) out.year = third;
}

export function parseAlbumCard(card: unknown): AlbumCard {
  const runs = list(card, SUBTITLE_RUNS);
  const artists: ArtistRef[] = [];
  for (const run of runs) {
    if (isObject(run) && run["navigationEndpoint"] !== undefined) {
      artists.push({ name: runText(run), id: str(run, NAV_BROWSE_ID) });
    }
  }
  const album: AlbumCard = {
    title: str(card, TITLE_TEXT),
    artists,
    browseId: str(card, TITLE_BROWSE_ID),
    audioPlaylistId: overlayPlaylistId(card),
    thumbnails: thumbnailsAt(card, THUMBS_TR),
    isExplicit: get(card, SUBTITLE_BADGE) !== undefined,
  };
  typeAndYear(runs, album);
  return album;
}

export interface SingleCard {
  title: string | null;
  browseId: string | null;
  thumbnails: Thumbnail[] | null;
  type?: string;
  year?: string;
}

export function parseSingleCard(card: unknown): SingleCard {
  const single: SingleCard = {
    title: str(card, TITLE_TEXT),
    browseId: str(card, TITLE_BROWSE_ID),
    thumbnails: thumbnailsAt(card, THUMBS_TR),
  };
  typeAndYear(list(card, SUBTITLE_RUNS), single);
  return single;
}

export interface SongCard extends SongRunInfo {
  title: string | null;
  videoId: string | null;
  playlistId: string | null;
  thumbnails: Thumbnail[] | null;
}

export function parseSongCard(card: unknown): SongCard {
  const song: SongCard = {
    title: str(card, TITLE_TEXT),
    videoId: str(card, NAV_VIDEO_ID),
    playlistId: str(card, NAV_PLAYLIST_ID),
    thumbnails: thumbnailsAt(card, THUMBS_TR),
  };
  return Object.assign(song, parseSongRuns(list(card, SUBTITLE_RUNS), true));
}

export interface WatchPlaylistCard {
  title: string | null;
  playlistId: string | null;
  thumbnails: Thumbnail[] | null;
}

export function parseWatchPlaylistCard(card: unknown): WatchPlaylistCard {
  return {
    title: str(card, TITLE_TEXT),
    playlistId: str(card, NAV_WATCH_PLAYLIST_ID),
    thumbnails: thumbnailsAt(card, THUMBS_TR),
  };
}

export interface PlaylistCard {
  title: string | null;
  playlistId: string | null;
  thumbnails: Thumbnail[] | null;
  /** The signed-in user can edit it (its menu offers the playlist editor). */
  owned: boolean;
  description?: string;
  count?: string;
  author?: ArtistRef[];
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
  const runs = get(card, SUBTITLE_RUNS);
  if (Array.isArray(runs)) {
    playlist.description = joinRuns(runs);
    const third = str(runs[2], ["text"]);
    if (runs.length === 3 && third !== null && COUNT_WORD.test(third)) {
      playlist.count = firstWord(third) as string;
      playlist.author = parseArtistRuns(runs, 0, 1);
    }
  }
  return playlist;
}

export interface RelatedArtistCard {
  title: string | null;
  browseId: string | null;
  subscribers: string | null;
  thumbnails: Thumbnail[] | null;
}

export function parseRelatedArtistCard(card: unknown): RelatedArtistCard {
  return {
    title: str(card, TITLE_TEXT),
    browseId: str(card, TITLE_BROWSE_ID),
    subscribers: firstWord(str(card, SUBTITLE0_TEXT)),
    thumbnails: thumbnailsAt(card, THUMBS_TR),
  };
}

export interface VideoCard {
  title: string | null;
  videoId: string | null;
  artists: ArtistRef[];
  playlistId: string | null;
  thumbnails: Thumbnail[] | null;
  views: string | null;
}

export function parseVideoCard(card: unknown): VideoCard {
  const runs = list(card, SUBTITLE_RUNS);
  let videoId = str(card, NAV_VIDEO_ID);
  if (videoId === null) {
    for (const entry of list(card, MENU_ITEMS)) {
      videoId = str(entry, QUEUE_VIDEO_ID);
      if (videoId !== null) break;
    }
  }
  const last = runs.length > 0 ? str(runs[runs.length - 1], ["text"]) : null;
  return {
    title: str(card, TITLE_TEXT),
    videoId,
    artists: parseArtistRuns(runs, 0, dotIndex(runs)),
    playlistId: str(card, NAV_PLAYLIST_ID),
    thumbnails: thumbnailsAt(card, THUMBS_TR),
    views: firstWord(last),
  };
}

export interface PodcastCard {
  title: string | null;
  channel: IdName | null;
  browseId: string | null;
  podcastId: string | null;
  thumbnails: Thumbnail[] | null;
}

export function parsePodcastCard(card: unknown): PodcastCard {
  return {
    title: str(card, TITLE_TEXT),
    channel: idName(get(card, SUBTITLE0)),
    browseId: str(card, TITLE_BROWSE_ID),
    podcastId: str(card, OVERLAY_WATCH_PLAYLIST_ID),
    thumbnails: thumbnailsAt(card, THUMBS_TR),
  };
}

/** A podcast episode row (MMRIR). */
export interface EpisodeRow {
  index: number | null;
  title: string | null;
  description: string | null;
  duration: string | null;
  videoId: string | null;
  browseId: string | null;
  videoType: string | null;
  date: string | null;
  thumbnails: Thumbnail[] | null;
}

const EPISODE_DURATION: Path = [
  "playbackProgress",
  "musicPlaybackProgressRenderer",
  "durationText",
  "runs",
  1,
  "text",
];
const DESCRIPTION_TEXT: Path = ["description", "runs", 0, "text"];
const ON_TAP_VIDEO_ID: Path = ["onTap", "watchEndpoint", "videoId"];
const ON_TAP_INDEX: Path = ["onTap", "watchEndpoint", "index"];
const ON_TAP_VIDEO_TYPE: Path = ["onTap", ...VIDEO_TYPE];

export function parseEpisodeRow(row: unknown): EpisodeRow {
  const index = get(row, ON_TAP_INDEX);
  return {
    index: typeof index === "number" ? index : null,
    title: str(row, TITLE_TEXT),
    description: str(row, DESCRIPTION_TEXT),
    duration: str(row, EPISODE_DURATION),
    videoId: str(row, ON_TAP_VIDEO_ID),
    browseId: str(row, TITLE_BROWSE_ID),
    videoType: str(row, ON_TAP_VIDEO_TYPE),
    date: str(row, SUBTITLE0_TEXT),
    thumbnails: thumbnailsAt(row, THUMBS),
  };
}
