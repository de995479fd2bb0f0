/**
 * The search filters and scopes the service accepts: the client checks a call against them, and a
 * recipe's search source is checked against the same list before any request.
 */

/** Search filters (docs/PROTOCOL.md#search). */
export const SEARCH_FILTERS = [
  "songs",
  "videos",
  "albums",
  "artists",
  "playlists",
  "community_playlists",
  "featured_playlists",
  "profiles",
  "podcasts",
  "episodes",
] as const;
export type SearchFilter = (typeof SEARCH_FILTERS)[number];

export const SEARCH_SCOPES = ["library", "uploads"] as const;
export type SearchScope = (typeof SEARCH_SCOPES)[number];
