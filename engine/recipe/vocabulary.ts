/**
 * The words a recipe may use, as lists, and the rules for names and a few settings: the schema
 * (schema.ts) takes exactly these, the types (types.ts) are their unions, and the commands that
 * check a value outside a file (stored accounts) apply the same rules. Plain data: loading it loads
 * nothing else (the schema's builder is for build time only).
 */

export const RECIPE_SCHEMA_ID = "https://musicapi.dev/schemas/recipe.schema.json";
export const PROJECT_SCHEMA_ID = "https://musicapi.dev/schemas/project.schema.json";

/** The rule for names (sources, notify targets, accounts); stored accounts obey it too (engine/accounts). */
export const NAME_RULE = { pattern: "^[A-Za-z0-9_][A-Za-z0-9_.-]*$", maxLength: 64 } as const;

/** An account's settings that have a form, also checked when an account is stored (engine/accounts). */
export const ACCOUNT_PATTERNS = {
  brand_account: "^[0-9]{21}$",
  location: "^[A-Z]{2}$",
  base_url: "^https?://",
} as const;

// Search filters are the client's (docs/PROTOCOL.md#search): one list, so a recipe accepts exactly what search does.
// From the types module itself: the client's index would load the whole client (and undici) into `validate`.
export { SEARCH_FILTERS, type SearchFilter } from "../../shared/wire/search-filters.js";

export const LIBRARY_KINDS = [
  "songs",
  "albums",
  "artists",
  "playlists",
  "podcasts",
  "subscriptions",
] as const;
export type LibraryKind = (typeof LIBRARY_KINDS)[number];

export const CHART_SECTIONS = ["songs", "videos", "artists", "trending"] as const;
export type ChartSection = (typeof CHART_SECTIONS)[number];

export const ARTIST_SECTIONS = ["songs", "albums", "singles", "videos"] as const;
export type ArtistSection = (typeof ARTIST_SECTIONS)[number];

export const SOURCE_TYPES = [
  "playlist",
  "album",
  "artist",
  "search",
  "chart",
  "mood",
  "radio",
  "liked",
  "library",
  "history",
  "podcast",
  "new_episodes",
  "saved_episodes",
  "static",
  "self",
  "file",
  "spotify",
  "listenbrainz",
  "lastfm",
] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

/** What of a person's Spotify library a `spotify` source reads. */
export const SPOTIFY_LIBRARY = ["liked", "albums", "artists"] as const;
export type SpotifyLibrary = (typeof SPOTIFY_LIBRARY)[number];

// The other services' words are theirs (engine/services/words.ts): the readers take the same lists.
export {
  LASTFM_PERIODS,
  type LastfmPeriod,
  LISTENBRAINZ_RANGES,
  LISTENBRAINZ_SERIES,
  type ListenBrainzRange,
  type ListenBrainzSeries,
} from "../services/words.js";

/** A MusicBrainz id (a UUID), as ListenBrainz names playlists and recordings. */
export const MBID_PATTERN = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$";

/** A Last.fm user's lists a `lastfm` source reads. */
export const LASTFM_LISTS = ["loved", "top", "recent"] as const;
export type LastfmList = (typeof LASTFM_LISTS)[number];

export const COMBINE_OPS = ["concat", "interleave", "union", "intersect", "difference"] as const;
export type CombineOp = (typeof COMBINE_OPS)[number];

export const DEDUPE_KEYS = ["videoId", "title_artist"] as const;
export type DedupeKey = (typeof DEDUPE_KEYS)[number];

export const SORT_KEYS = ["title", "artist", "album", "duration", "date", "rank"] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export const SHUFFLE_PERIODS = ["run", "day", "week", "month"] as const;
export type ShufflePeriod = (typeof SHUFFLE_PERIODS)[number];

/** What `expand` turns each item into: the artists credited on it, or the album it is on. */
export const EXPAND_KINDS = ["artists", "albums"] as const;
export type ExpandKind = (typeof EXPAND_KINDS)[number];

export const PRIVACY = ["PUBLIC", "PRIVATE", "UNLISTED"] as const;
export type Privacy = (typeof PRIVACY)[number];

export const LIBRARY_TARGET_KINDS = ["songs", "albums", "playlists", "podcasts"] as const;
export type LibraryTargetKind = (typeof LIBRARY_TARGET_KINDS)[number];

export const MODES = ["mirror", "sync", "append", "clean"] as const;
export type Mode = (typeof MODES)[number];

/** What a notification can be about; a target names the ones it wants. */
export const NOTIFY_EVENTS = [
  "run_failed",
  "recipe_suspended",
  "credentials_expiring",
  "credentials_expired",
  "approval_pending",
  "drift_found",
  "applied",
] as const;
export type NotifyEventKind = (typeof NOTIFY_EVENTS)[number];
