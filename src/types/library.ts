import type { LibraryOrder, Rating } from "./argument-words.js";
import type { PlaylistItem } from "./browsing.js";
import type { ArtistRef, IdName, Thumbnail } from "./common.js";

export type { LibraryOrder, Rating };

/**
 * A track row of a playlist, the library songs, the history: the generic playlist-item parse
 * (docs/PROTOCOL.md#browsing), shared with album pages. Optional keys appear only when the row carries them.
 */
export type PlaylistTrack = PlaylistItem;

/** A history row with the period it was played in (`Today`, `Yesterday`, a month…). */
export interface HistoryItem extends PlaylistTrack {
  played: string;
}

/** `get_library_playlists`: a playlist card. */
export interface LibraryPlaylist {
  title: string;
  playlistId: string;
  thumbnails: Thumbnail[];
  owned?: boolean;
  description?: string;
  count?: string;
  author?: ArtistRef[];
}

/** `get_library_albums` / `get_library_upload_albums`: an album card. */
export interface LibraryAlbum {
  browseId: string | null;
  playlistId: string | null;
  title: string;
  thumbnails: Thumbnail[];
  type: string | null;
  artists?: ArtistRef[];
  year?: string;
}

/** `get_library_artists`, `…_subscriptions`, `…_channels`, `…_upload_artists`: an artist row. */
export interface LibraryArtist {
  browseId: string | null;
  artist: string | null;
  /** `artist` or `channel`, from the link's page type (absent when the row has none). */
  type?: "artist" | "channel";
  shuffleId?: string;
  radioId?: string;
  subscribers: string | null;
  thumbnails: Thumbnail[] | null;
}

/** `get_library_podcasts`: a podcast card (the first two may be the "New Episodes" and "Episodes for Later" lists). */
export interface LibraryPodcast {
  title: string;
  channel: IdName | null;
  browseId: string | null;
  podcastId: string | null;
  thumbnails: Thumbnail[];
}

/** `get_account_info`. */
export interface AccountInfo {
  accountName: string | null;
  /** Null when the account has no channel. */
  channelHandle: string | null;
  accountPhotoUrl: string | null;
}

/** `add_history_item`: the tracking endpoint's answer (204 No Content when recorded). */
export interface HistoryItemResult {
  status: number;
}

/** Options of the library lists. */
export interface LibraryListOptions {
  /** How many items at least (whole pages are kept); `null` = all. Default 25. */
  limit?: number | null;
  /** Sort order; default the service's (recently added for most lists). */
  order?: LibraryOrder;
}

export interface LibrarySongsOptions extends LibraryListOptions {
  /**
   * Re-request a page that came back shorter than expected (up to 3 more times, keeping the
   * largest answer): the service sometimes returns partial library pages. Needs a numeric limit.
   */
  validateResponses?: boolean;
}

/** `get_library_playlists` has no order. */
export interface LimitOptions {
  /** How many items at least (whole pages are kept); `null` = all. */
  limit?: number | null;
}

/** What `addHistoryItem` needs of a `getSong` result: its playback-tracking URL. */
export interface SongWithTracking {
  playbackTracking?: { videostatsPlaybackUrl?: { baseUrl?: string } | null } | null;
}
