import type {
  AlbumRef,
  ArtistRef,
  CommunityVoteStatus,
  DescriptionRun,
  Episode,
  FeedbackTokens,
  IdName,
  LikeStatus,
  ListenAgainFeedbackTokens,
  SongRunInfo,
  Thumbnail,
} from "./common.js";

/** A podcast episode row where home, artist and channel pages show one: the same as `Episode`. */
export type EpisodeRow = Episode;

// ── cards (`musicTwoRowItemRenderer`) of carousels and grids ────────────────────────────────────

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

export interface SingleCard {
  title: string | null;
  browseId: string | null;
  thumbnails: Thumbnail[] | null;
  type?: string;
  year?: string;
}

export interface SongCard extends SongRunInfo {
  title: string | null;
  videoId: string | null;
  playlistId: string | null;
  thumbnails: Thumbnail[] | null;
}

export interface WatchPlaylistCard {
  title: string | null;
  playlistId: string | null;
  thumbnails: Thumbnail[] | null;
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

export interface RelatedArtistCard {
  title: string | null;
  browseId: string | null;
  subscribers: string | null;
  thumbnails: Thumbnail[] | null;
}

export interface VideoCard {
  title: string | null;
  videoId: string | null;
  artists: ArtistRef[];
  playlistId: string | null;
  thumbnails: Thumbnail[] | null;
  views: string | null;
}

export interface PodcastCard {
  title: string | null;
  channel: IdName | null;
  browseId: string | null;
  podcastId: string | null;
  thumbnails: Thumbnail[] | null;
}

// ── rows (`musicResponsiveListItemRenderer`) of track lists ─────────────────────────────────────

/** One track of a playlist, album, library or history list. */
export interface PlaylistItem {
  videoId: string | null;
  title: string | null;
  artists: ArtistRef[] | null;
  /** `{name, id}`; album pages replace it with the album title (a string). */
  album: AlbumRef | string | null;
  likeStatus: LikeStatus | null;
  inLibrary: boolean | null;
  pinnedToListenAgain: boolean | null;
  feedbackTokens?: FeedbackTokens;
  listenAgainFeedbackTokens?: ListenAgainFeedbackTokens;
  feedbackToken?: string | null;
  thumbnails: Thumbnail[] | null;
  isAvailable: boolean;
  isExplicit: boolean;
  videoType: string | null;
  views: string | null;
  communityVoteStatus: CommunityVoteStatus | null;
  /** Album pages only. */
  trackNumber?: number | null;
  duration?: string;
  duration_seconds?: number | null;
  creditsBrowseId?: string;
  setVideoId?: string;
}

/** A song row of home "Quick picks" (and similar flat lists). */
export interface FlatSong extends SongRunInfo {
  title: string | null;
  videoId: string | null;
  videoType: string | null;
  thumbnails: Thumbnail[] | null;
  isExplicit: boolean;
  playlistId?: string | null;
}

/** Anything a home (or related) row can hold; null where the service sent a card of an unknown page type. */
export type HomeItem =
  | AlbumCard
  | RelatedArtistCard
  | PlaylistCard
  | PodcastCard
  | SongCard
  | WatchPlaylistCard
  | FlatSong
  | EpisodeRow
  | null;

/** One row of the home page or of a song's "related" tab. */
export interface HomeRow {
  title: string | null;
  /** The cards of a carousel, or the text of a description shelf. */
  contents: HomeItem[] | string | null;
}

/** One category of an artist or user page: the items shown, and where the full list lives. */
export interface ArtistSection<T> {
  /** Browse id of the full list (for `getArtistAlbums`, `getUserPlaylists`…), null when not linked. */
  browseId: string | null;
  /** Params for that browse request, present when the carousel title is a link. */
  params?: string | null;
  results: T[];
}

/** Carousels of artist and user pages, keyed as in the reference interface. */
export interface ArtistCategories {
  albums?: ArtistSection<AlbumCard>;
  singles?: ArtistSection<SingleCard>;
  shows?: ArtistSection<AlbumCard>;
  videos?: ArtistSection<VideoCard>;
  playlists?: ArtistSection<PlaylistCard>;
  related?: ArtistSection<RelatedArtistCard>;
  episodes?: ArtistSection<EpisodeRow>;
  podcasts?: ArtistSection<PodcastCard>;
}

export interface Artist extends ArtistCategories {
  description: string | null;
  descriptionRuns: DescriptionRun[];
  /** `6,271,550,886 views` as shown. */
  views: string | null;
  name: string | null;
  /** The channel to use for subscribe calls (may differ from the id asked for). */
  channelId: string | null;
  shuffleId: string | null;
  radioId: string | null;
  subscribers: string | null;
  monthlyListeners: string | null;
  subscribed: boolean;
  thumbnails: Thumbnail[] | null;
  /** Top songs; `results` absent when the page has no songs shelf. */
  songs: { browseId: string | null; results?: PlaylistItem[] };
}

/** Order of `getArtistAlbums`, as the sort menu names it. */
export const ARTIST_ALBUM_ORDERS = ["Recency", "Popularity", "Alphabetical order"] as const;
export type ArtistAlbumOrder = (typeof ARTIST_ALBUM_ORDERS)[number];

/** An album card of the artist's full albums/singles list. */
export interface ArtistAlbum {
  browseId: string | null;
  playlistId: string | null;
  title: string | null;
  thumbnails: Thumbnail[] | null;
  type: string | null;
  year?: string;
  artists?: ArtistRef[];
  views?: string;
}

export interface Album {
  title: string | null;
  type: string | null;
  thumbnails: Thumbnail[] | null;
  isExplicit: boolean;
  description: string | null;
  descriptionRuns: DescriptionRun[];
  year?: string;
  artists: ArtistRef[] | null;
  trackCount?: number | null;
  duration: string | null;
  audioPlaylistId: string | null;
  likeStatus: LikeStatus;
  tracks: PlaylistItem[];
  other_versions?: AlbumCard[];
  related_recommendations?: AlbumCard[];
  /** Sum of the tracks' durations. */
  duration_seconds: number;
}

export interface User extends ArtistCategories {
  name: string | null;
}
