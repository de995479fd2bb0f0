/**
 * The client operations the engine reads through, as a small interface: `MusicClient` satisfies
 * it, and tests use in-memory fakes. Method names, positional parameters and options objects mirror
 * the client (the ytmusicapi interface in camelCase); result types list only the fields the engine
 * reads, named as the reference implementation returns them (see shared/fixtures/expected/).
 * A `limit` of null means "all".
 */
import type { SearchFilter } from "../recipe/types.js";

export interface RunRef {
  name: string | null;
  id?: string | null;
}

export interface AlbumRef {
  name: string | null;
  id?: string | null;
}

/** A song or video row: playlists, albums, library songs, history, artist songs, search results. */
export interface TrackResult {
  videoId?: string | null;
  title?: string | null;
  artists?: readonly RunRef[] | null;
  /** An object on playlist rows; album pages give the album title as a string. */
  album?: AlbumRef | string | null;
  duration?: string | null;
  duration_seconds?: number | null;
  /** Watch-playlist rows carry `length` instead of `duration`. */
  length?: string | null;
  videoType?: string | null;
  isAvailable?: boolean | null;
  isExplicit?: boolean | null;
  setVideoId?: string | null;
  feedbackTokens?: { add?: string | null; remove?: string | null } | null;
  /** History rows: the period heading they were listed under ("Today", "Last week"). */
  played?: string | null;
  /**
   * The account's rating of the song: LIKE, DISLIKE or INDIFFERENT on song rows (playlist, album,
   * library pages); watch-queue rows cannot tell DISLIKE from INDIFFERENT.
   */
  likeStatus?: string | null;
}

export interface EpisodeResult {
  videoId?: string | null;
  browseId?: string | null;
  title?: string | null;
  description?: string | null;
  duration?: string | null;
  date?: string | null;
  videoType?: string | null;
  index?: number | null;
  podcast?: RunRef | null;
}

export interface PlaylistResult {
  id?: string | null;
  title?: string | null;
  description?: string | null;
  privacy?: string | null;
  owned?: boolean | null;
  trackCount?: number | null;
  tracks: readonly TrackResult[];
}

export interface EpisodesPlaylistResult {
  title?: string | null;
  trackCount?: number | null;
  episodes: readonly EpisodeResult[];
}

export interface PodcastResult {
  title?: string | null;
  author?: RunRef | null;
  episodes: readonly EpisodeResult[];
}

export interface AlbumResult {
  title?: string | null;
  artists?: readonly RunRef[] | null;
  audioPlaylistId?: string | null;
  trackCount?: number | null;
  isExplicit?: boolean | null;
  tracks: readonly TrackResult[];
}

/** An album or single card (artist pages, library albums, search). */
export interface AlbumCardResult {
  title?: string | null;
  browseId?: string | null;
  playlistId?: string | null;
  audioPlaylistId?: string | null;
  artists?: readonly RunRef[] | null;
  isExplicit?: boolean | null;
  year?: string | null;
  type?: string | null;
}

export interface PlaylistCardResult {
  title?: string | null;
  playlistId?: string | null;
  browseId?: string | null;
  count?: string | number | null;
  itemCount?: string | number | null;
  /** Library cards: the card offers "Edit playlist", so the account owns it. */
  owned?: boolean | null;
}

export interface ArtistRowResult {
  browseId?: string | null;
  artist?: string | null;
  title?: string | null;
  rank?: string | null;
}

export interface PodcastCardResult {
  title?: string | null;
  browseId?: string | null;
  podcastId?: string | null;
  channel?: RunRef | null;
}

/** One search result: which fields are set depends on `resultType`. */
export interface SearchResultItem
  extends TrackResult,
    Omit<AlbumCardResult, "artists" | "isExplicit" | "title">,
    Omit<ArtistRowResult, "title">,
    Omit<EpisodeResult, keyof TrackResult> {
  resultType?: string | null;
  category?: string | null;
}

export interface ChartPlaylistResult {
  title?: string | null;
  playlistId?: string | null;
}

export interface ChartsResult {
  countries?: unknown;
  videos?: readonly ChartPlaylistResult[] | null;
  genres?: readonly ChartPlaylistResult[] | null;
  daily?: readonly ChartPlaylistResult[] | null;
  weekly?: readonly ChartPlaylistResult[] | null;
  artists?: readonly ArtistRowResult[] | null;
  /** Older layouts: a songs or trending chart inline, with its playlist. */
  songs?: { playlist?: string | null; items?: readonly TrackResult[] | null } | null;
  trending?: { playlist?: string | null; items?: readonly TrackResult[] | null } | null;
}

export interface WatchPlaylistResult {
  tracks: readonly TrackResult[];
  playlistId?: string | null;
}

export interface ArtistSectionResult<T> {
  browseId?: string | null;
  params?: string | null;
  results?: readonly T[] | null;
}

export interface ArtistResult {
  name?: string | null;
  channelId?: string | null;
  songs?: ArtistSectionResult<TrackResult> | null;
  albums?: ArtistSectionResult<AlbumCardResult> | null;
  singles?: ArtistSectionResult<AlbumCardResult> | null;
  videos?: ArtistSectionResult<TrackResult> | null;
}

export interface MoodCategoryResult {
  title: string;
  params: string;
}

type Limit = { limit?: number | null };
type LibraryOptions = Limit & { order?: "a_to_z" | "z_to_a" | "recently_added" };

/** The reads the engine makes; `MusicClient` has each of these. */
export interface SourceClient {
  getPlaylist(
    playlistId: string,
    options?: Limit & { related?: boolean; suggestionsLimit?: number },
  ): Promise<PlaylistResult>;
  getLikedSongs(options?: Limit): Promise<PlaylistResult>;
  getSavedEpisodes(options?: Limit): Promise<PlaylistResult>;
  getCharts(options?: { country?: string }): Promise<ChartsResult>;
  search(
    query: string,
    options?: Limit & { filter?: SearchFilter; scope?: "library" | "uploads"; ignoreSpelling?: boolean },
  ): Promise<readonly SearchResultItem[]>;
  getWatchPlaylist(
    options: Limit & { videoId?: string; playlistId?: string; radio?: boolean; shuffle?: boolean },
  ): Promise<WatchPlaylistResult>;
  getLibrarySongs(options?: LibraryOptions): Promise<readonly TrackResult[]>;
  getLibraryAlbums(options?: LibraryOptions): Promise<readonly AlbumCardResult[]>;
  getLibraryArtists(options?: LibraryOptions): Promise<readonly ArtistRowResult[]>;
  getLibrarySubscriptions(options?: LibraryOptions): Promise<readonly ArtistRowResult[]>;
  getLibraryPlaylists(options?: Limit): Promise<readonly PlaylistCardResult[]>;
  getLibraryPodcasts(options?: LibraryOptions): Promise<readonly PodcastCardResult[]>;
  getHistory(): Promise<readonly TrackResult[]>;
  getPodcast(playlistId: string, options?: Limit): Promise<PodcastResult>;
  getEpisodesPlaylist(playlistId?: string): Promise<EpisodesPlaylistResult>;
  getAlbum(browseId: string): Promise<AlbumResult>;
  getAlbumBrowseId(audioPlaylistId: string): Promise<string | null>;
  getArtist(channelId: string): Promise<ArtistResult>;
  getArtistAlbums(
    channelId: string,
    params: string,
    options?: Limit & { order?: string },
  ): Promise<readonly AlbumCardResult[]>;
  getMoodCategories(): Promise<Readonly<Record<string, readonly MoodCategoryResult[]>>>;
  getMoodPlaylists(params: string): Promise<readonly PlaylistCardResult[]>;
}
