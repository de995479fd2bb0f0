/**
 * Result types shared by every operation group. Field names follow the reference interface exactly
 * (`videoId`, `duration_seconds`, `feedbackTokens`…) so results compare field for field.
 */

/** One image size as the service lists it. */
export interface Thumbnail {
  url: string;
  width: number;
  height: number;
}

/** An artist (or author / channel) link: `id` is null for artists shown without a link. */
export interface ArtistRef {
  name: string;
  id: string | null;
}

/** An album link (`MPRE…`, or an upload's `…release_detail…` id). */
export interface AlbumRef {
  name: string;
  id: string | null;
}

/** A `{name, id}` pair of anything else (podcast, channel) taken from one text run. */
export interface IdName {
  id: string | null;
  name: string | null;
}

/** The user's rating of a song or a collection. */
export type LikeStatus = "LIKE" | "DISLIKE" | "INDIFFERENT";

/** Tokens for `edit_song_library_status`: save to / remove from the library. */
export interface FeedbackTokens {
  add: string | null;
  remove: string | null;
}

/** Tokens for `edit_song_library_status`: pin to / unpin from "Listen again". */
export interface ListenAgainFeedbackTokens {
  pin: string | null;
  unpin: string | null;
}

/** `musicVideoType` values (docs/PROTOCOL.md#video-types); kept open because the service adds new ones. */
export type VideoType =
  | "MUSIC_VIDEO_TYPE_ATV"
  | "MUSIC_VIDEO_TYPE_OMV"
  | "MUSIC_VIDEO_TYPE_UGC"
  | "MUSIC_VIDEO_TYPE_OFFICIAL_SOURCE_MUSIC"
  | "MUSIC_VIDEO_TYPE_PODCAST_EPISODE"
  | "MUSIC_VIDEO_TYPE_PRIVATELY_OWNED_TRACK"
  | (string & {});

/** Vote state of an item in a collaborative playlist. */
export interface CommunityVoteStatus {
  netVoteValue: number | null;
  status: string | null;
}

/** A piece of a description: plain text (`{text}`), or a link run kept with its URL. */
export interface DescriptionRun {
  text: string;
  url?: string;
}

/** What a subtitle's runs say about a song, video or album. Keys are present only when found. */
export interface SongRunInfo {
  artists?: ArtistRef[];
  album?: AlbumRef;
  views?: string;
  duration?: string;
  duration_seconds?: number | null;
  year?: string;
}

/** A podcast episode row (`musicMultiRowListItemRenderer`). */
export interface Episode {
  /** Position in the show's list (from the play endpoint); null where the list does not number it. */
  index: number | null;
  title: string;
  /** The start of the episode's description, as the row shows it. */
  description: string | null;
  /** Displayed length, e.g. `1 hr`, `25 min`. */
  duration: string | null;
  videoId: string | null;
  /** The episode page (`MPED…`). */
  browseId: string | null;
  videoType: VideoType | null;
  /** Displayed release date, e.g. `1 day ago`, `Mar 5, 2024`. */
  date: string | null;
  thumbnails: Thumbnail[] | null;
}
