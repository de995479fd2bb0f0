/** Where videos start in the songs' full-text index (`songs_by_views`, migration 0004): rowids below it are songs. */
export const SEARCH_VIDEOS_FROM = 1_000_000_000;
