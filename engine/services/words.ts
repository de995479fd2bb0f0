/**
 * The other services' own words a recipe may name (their lists' series, ranges and periods): said
 * once here, where both the recipe's vocabulary (engine/recipe/vocabulary.ts) and the readers take
 * them. Plain data: loading it loads nothing else.
 */

/** The playlists ListenBrainz's recommender makes for a user, week after week or day after day. */
export const LISTENBRAINZ_SERIES = ["weekly-jams", "weekly-exploration", "daily-jams"] as const;
export type ListenBrainzSeries = (typeof LISTENBRAINZ_SERIES)[number];

/** Each series as ListenBrainz names it (its playlists' `source_patch`, and their titles). */
export const LISTENBRAINZ_SERIES_TITLES: Readonly<Record<ListenBrainzSeries, string>> = Object.freeze({
  "weekly-jams": "Weekly Jams",
  "weekly-exploration": "Weekly Exploration",
  "daily-jams": "Daily Jams",
});

/** The periods ListenBrainz's statistics cover, in its own words. */
export const LISTENBRAINZ_RANGES = [
  "this_week",
  "this_month",
  "this_year",
  "week",
  "month",
  "quarter",
  "half_yearly",
  "year",
  "all_time",
] as const;
export type ListenBrainzRange = (typeof LISTENBRAINZ_RANGES)[number];

/** The periods of Last.fm's top tracks, in its own words. */
export const LASTFM_PERIODS = ["7day", "1month", "3month", "6month", "12month", "overall"] as const;
export type LastfmPeriod = (typeof LASTFM_PERIODS)[number];
