/** Results of `get_watch_playlist` (docs/PROTOCOL.md#watch): the play queue of a song, playlist or radio. */

import type {
  AlbumRef,
  ArtistRef,
  FeedbackTokens,
  LikeStatus,
  ListenAgainFeedbackTokens,
  Thumbnail,
  VideoType,
} from "./common.js";

/** One queue entry (`playlistPanelVideoRenderer`). */
export interface WatchTrack {
  videoId: string;
  title: string | null;
  /** Displayed length, e.g. `3:34`. */
  length: string | null;
  thumbnail: Thumbnail[] | null;
  /** The account's rating (note: the queue cannot tell DISLIKE from INDIFFERENT). */
  likeStatus: LikeStatus | null;
  videoType: VideoType | null;
  inLibrary: boolean | null;
  feedbackTokens: FeedbackTokens | null;
  pinnedToListenAgain: boolean | null;
  listenAgainFeedbackTokens: ListenAgainFeedbackTokens | null;
  /** From the byline (`Artist • Album • 2019` or `Artist • 1.2M views • 3.4K likes`). */
  artists: ArtistRef[];
  album?: AlbumRef;
  views?: string;
  year?: string;
  duration?: string;
  duration_seconds?: number | null;
  /** The song's music video (or the video's song) offered by the song/video switch. */
  counterpart?: WatchTrack;
}

/** `get_watch_playlist`. */
export interface WatchPlaylist {
  tracks: WatchTrack[];
  /** The queue's playlist id (e.g. `RDAMVM…` for a song radio). */
  playlistId: string | null;
  /** The lyrics page of the first track (`MPLYt_…`) for `getLyrics`; null when it has none. */
  lyrics: string | null;
  /** The "related" page of the first track (`MPTRt_…`) for `getSongRelated`. */
  related: string | null;
}
