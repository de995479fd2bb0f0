/** Row shapes the store's queries return (joined, ready for the renderers). */

export interface SongRow {
  videoId: string;
  title: string;
  artistId: number;
  artistName: string;
  channelId: string;
  albumId: number | null;
  albumBrowseId: string | null;
  albumTitle: string | null;
  albumAudioPlaylistId: string | null;
  year: number | null;
  trackNumber: number | null;
  durationSeconds: number;
  views: number;
  explicit: boolean;
  available: boolean;
  videoType: string;
  counterpartId: string | null;
  lyricsSource: string | null;
}

export interface PlaylistItemRow extends SongRow {
  setVideoId: string;
}

export interface ArtistRow {
  id: number;
  channelId: string;
  name: string;
  kind: string;
  subscribers: number;
  monthlyListeners: number;
  description: string;
}

export interface AlbumRow {
  id: number;
  browseId: string;
  audioPlaylistId: string;
  title: string;
  artistId: number;
  artistName: string;
  channelId: string;
  type: string;
  year: number;
  explicit: boolean;
  trackCount: number;
  durationSeconds: number;
  /** The first track, which album play buttons start (null for an empty album). */
  firstVideoId: string | null;
  firstVideoType: string | null;
}

export interface PlaylistRow {
  id: number;
  playlistId: string;
  title: string;
  description: string;
  ownerAccountId: number | null;
  authorName: string;
  authorChannelId: string | null;
  privacy: string;
  kind: string;
  addToTop: boolean;
  views: number;
  createdAt: number;
}

export interface PodcastRow {
  id: number;
  playlistId: string;
  title: string;
  description: string;
  channelId: string;
  channelName: string;
}

export interface EpisodeRow {
  videoId: string;
  podcastId: number;
  podcastPlaylistId: string;
  podcastTitle: string;
  channelId: string;
  channelName: string;
  title: string;
  description: string;
  publishedDay: number;
  durationSeconds: number;
}

export interface AccountRow {
  id: number;
  email: string;
  name: string;
  handle: string | null;
  channelId: string;
  sapisid: string;
  parentId: number | null;
  pageId: string | null;
  authUser: number;
  /** A premium subscription (a brand account shares its login's). */
  premium: boolean;
}

export interface UploadRow {
  entityId: string;
  videoId: string;
  title: string;
  artistName: string;
  albumTitle: string;
  durationSeconds: number;
  fileName: string;
  createdAt: number;
}

/** An account as the profiles search shows it. */
export interface ProfileRow {
  name: string;
  handle: string;
  channelId: string;
}

/** The orders of an artist's albums sort menu. */
export type AlbumOrder = "Recency" | "Popularity" | "Alphabetical order";
