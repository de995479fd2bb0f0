/** What a search can look for, and where videos start in the songs' full-text index. */
export type SearchKind =
  | "songs"
  | "videos"
  | "albums"
  | "artists"
  | "playlists"
  | "podcasts"
  | "episodes"
  | "profiles";

/** Where videos start in `songs_by_views` (migration 0004): rowids below it are songs. */
export const SEARCH_VIDEOS_FROM = 1_000_000_000;
