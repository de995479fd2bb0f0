import type { SearchFilter, SearchScope } from "../../shared/wire/search-filters.js";
import type {
  AlbumRef,
  ArtistRef,
  FeedbackTokens,
  IdName,
  ListenAgainFeedbackTokens,
  Thumbnail,
} from "./common.js";

export {
  SEARCH_FILTERS,
  SEARCH_SCOPES,
  type SearchFilter,
  type SearchScope,
} from "../../shared/wire/search-filters.js";

export interface SearchOptions {
  /** Restrict results to one kind; default none (all kinds, one shelf each, no continuations). */
  filter?: SearchFilter | null;
  /** Search the signed-in user's `library` or `uploads` instead of the catalogue; needs auth. */
  scope?: SearchScope | null;
  /** At least this many results with a filter (whole pages are added); default 20, `null` = all. */
  limit?: number | null;
  /** Search exactly what was typed instead of the service's spelling correction; default false. */
  ignoreSpelling?: boolean;
}

export type SearchResultType =
  | "song"
  | "video"
  | "album"
  | "artist"
  | "playlist"
  | "station"
  | "profile"
  | "podcast"
  | "episode"
  | "upload";

/**
 * One search result. Which keys are present depends on `resultType`, as in the reference
 * implementation: e.g. songs carry `videoId`, `album`, `duration_seconds`; artists `artist`,
 * `shuffleId`, `radioId`; playlists `itemCount`, `author`.
 */
export interface SearchResult {
  /** The shelf the result came from (`Songs`, `Top result`, …); null when the shelf has no title. */
  category: string | null;
  resultType: SearchResultType | string | null;
  title?: string | null;
  /** Artist results: the artist name. Upload albums: the artist. */
  artist?: string | null;
  artists?: ArtistRef[];
  album?: AlbumRef | null;
  type?: string | null;
  videoId?: string | null;
  videoType?: string | null;
  playlistId?: string | null;
  browseId?: string | null;
  duration?: string | null;
  duration_seconds?: number | null;
  year?: string | null;
  views?: string;
  isExplicit?: boolean;
  inLibrary?: boolean;
  pinnedToListenAgain?: boolean;
  feedbackTokens?: FeedbackTokens;
  listenAgainFeedbackTokens?: ListenAgainFeedbackTokens;
  shuffleId?: string;
  radioId?: string;
  subscribers?: string;
  itemCount?: number | string | null;
  author?: string | ArtistRef[] | null;
  name?: string | null;
  live?: boolean;
  date?: string | null;
  podcast?: IdName | null;
  releaseDate?: string;
  thumbnails?: Thumbnail[] | null;
}

/** One suggestion with its runs (`detailedRuns: true`). */
export interface SearchSuggestion {
  text: string;
  runs: Array<{ text: string; bold?: boolean }>;
  /** Suggestions from the user's own search history can be removed with this token. */
  fromHistory: boolean;
  feedbackToken: string | null;
}
