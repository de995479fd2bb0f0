import type { PrivacyStatus } from "./argument-words.js";
import type { ArtistRef, CommunityVoteStatus, Thumbnail } from "./common.js";
import type { PlaylistTrack } from "./library.js";
import type { Episode } from "./podcasts.js";

export type { PrivacyStatus };

/** A raw service response returned as is (writes that did not succeed, ratings, subscriptions). */
export type ServiceResponse = Record<string, unknown>;

/** Who may edit a collaborative playlist, as its header shows them. */
export interface PlaylistCollaborators {
  /** e.g. `"YTMUser"` or `"by A, B and 2 more"`. */
  text: string | null;
  avatars: Array<{ url: string }>;
}

/** A card of a related playlist (`related=true`). */
export interface RelatedPlaylist {
  title: string;
  playlistId: string;
  thumbnails: Thumbnail[];
  description?: string;
  count?: string;
  author?: ArtistRef[];
}

/** `get_playlist`: header fields and tracks. */
export interface Playlist {
  owned: boolean;
  id: string | null;
  privacy: PrivacyStatus;
  description: string | null;
  views: number | null;
  duration: string | null;
  trackCount: number | null;
  title: string;
  thumbnails: Thumbnail[];
  /** Present on non-collaborative playlists whose header names an author. */
  author?: ArtistRef | null;
  /** Present instead of `author` on collaborative playlists. */
  collaborators?: PlaylistCollaborators;
  year?: string | null;
  artists?: ArtistRef[];
  tracks: PlaylistTrack[];
  related: RelatedPlaylist[];
  /** Owned playlists with `suggestionsLimit` > 0. */
  suggestions?: PlaylistTrack[];
  /**
   * Episode playlists ("Episodes for Later" `SE`, "New Episodes" `RDPN`) list podcast-episode rows,
   * which are not tracks: they come here, in order, and only when the page has any.
   */
  episodes?: Episode[];
  duration_seconds: number;
}

/** One added item: the instance id (`setVideoId`) the playlist gave the video. */
export interface AddedPlaylistItem {
  videoId: string;
  setVideoId: string;
  [key: string]: unknown;
}

/**
 * A write that did not take effect: the service's whole answer as it came. Its `status` is never
 * `STATUS_SUCCEEDED` (the success shapes carry that), so comparing `status` with it narrows a result.
 * The service spells its refusal `STATUS_FAILED`; some refusals carry no status at all.
 */
export interface WriteFailure {
  status?: "STATUS_FAILED";
  [key: string]: unknown;
}

/** `add_playlist_items` on success. */
export interface AddPlaylistItemsResult {
  status: "STATUS_SUCCEEDED";
  playlistEditResults: AddedPlaylistItem[];
}

/** `edit_playlist` with `collaboration: true` on success. */
export interface CollaborationResult {
  status: "STATUS_SUCCEEDED";
  joinCollaborationToken: string;
}

/** What `add_playlist_items` answers: `r.status === "STATUS_SUCCEEDED"` tells the success shape apart. */
export type AddPlaylistItemsResponse = AddPlaylistItemsResult | WriteFailure;

/** What a status-only write answers (`delete_playlist`, `remove_playlist_items`, `edit_playlist`). */
export type WriteStatus = "STATUS_SUCCEEDED" | WriteFailure;

/** What `edit_playlist` answers when `collaboration` may be `true`. */
export type EditPlaylistResponse = WriteStatus | CollaborationResult;

/**
 * An item to remove: a track row of `getPlaylist` for a playlist you own, as it came (`videoId` may
 * be null in the type, since rows of other lists can lack one; such a row is refused at run time).
 */
export interface PlaylistItemRef {
  videoId: string | null;
  /** Which copy of the video to remove; only owned playlists' rows carry it. */
  setVideoId?: string | null;
  /** Names the row in the error when it lacks an id. */
  title?: string | null;
}

export type PlaylistSortOrder = "MANUAL" | "NEWEST_FIRST" | "NEWEST_LAST" | "TOP_VOTED";
export type PlaylistVoteOption = "EVERYONE_CAN_VOTE" | "COLLABORATORS_ONLY" | "OFF";

export interface CreatePlaylistOptions {
  /** Default `PRIVATE`. */
  privacyStatus?: PrivacyStatus;
  /** Videos to put in the new playlist. */
  videoIds?: string[];
  /** A playlist whose items are copied into the new one. */
  sourcePlaylist?: string;
}

export interface EditPlaylistOptions {
  title?: string;
  description?: string;
  privacyStatus?: PrivacyStatus;
  /** A `setVideoId` to move to the end, or `[setVideoId, successorSetVideoId]` to move before another item. */
  moveItem?: string | [string, string];
  /**
   * Several moves in one request, applied in order (each as `moveItem`), after `moveItem`. An
   * extension of musicapi: the interface takes one move per call, the service takes a list.
   */
  moveItems?: Array<string | [string, string]>;
  /** A playlist whose items are appended. */
  addPlaylistId?: string;
  /** Whether new items go to the top of the playlist. */
  addToTop?: boolean;
  /** `true` opens the playlist to collaborators (returns the join token); `false` closes it. */
  collaboration?: boolean;
  sortOrder?: PlaylistSortOrder;
  voteOption?: PlaylistVoteOption;
}

export interface AddPlaylistItemsOptions {
  /** A playlist whose items are all added (no duplicate check on the service's side). */
  sourcePlaylist?: string;
  /**
   * Allow videos already in the playlist to be added again. Default false: when a duplicate is
   * present the service adds nothing and answers with its failure response, which is returned.
   */
  duplicates?: boolean;
}

export interface GetPlaylistOptions {
  /** How many tracks at least (whole pages are kept); `null` = all. Default 100. */
  limit?: number | null;
  /** Also fetch the "related playlists" carousel. Default false. */
  related?: boolean;
  /** How many suggested tracks to fetch for an owned playlist. Default 0. */
  suggestionsLimit?: number;
}

export type { CommunityVoteStatus };
