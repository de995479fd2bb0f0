/**
 * Results of the explore operations (docs/PROTOCOL.md#explore): moods and genres, charts, the explore page.
 */

import type { AlbumCard, FlatSong, PlaylistCard, VideoCard } from "./browsing.js";
import type { IdName, Thumbnail } from "./common.js";
import type { ChartEpisode } from "./podcasts.js";

/** A "Moods & genres" button: open it with `getMoodPlaylists(params)`. */
export interface MoodCategory {
  title: string;
  params: string;
}

/** `get_mood_categories`: buttons by section title (`For you`, `Genres`, `Moods & moments`…). */
export type MoodCategories = Record<string, MoodCategory[]>;

/** `get_mood_playlists`: playlist cards of every section of a category page. */
export type MoodPlaylists = PlaylistCard[];

/** Chart trend of a ranked row. */
export type Trend = "up" | "down" | "neutral";

/** A chart playlist card (a video, genre or language chart). */
export interface ChartPlaylist {
  title: string;
  /** The playlist id (the card's `VL…` browse id without `VL`). */
  playlistId: string | null;
  thumbnails: Thumbnail[] | null;
}

/** A ranked artist of the charts. `rank` and `trend` are null without credentials. */
export interface ChartArtist {
  title: string;
  browseId: string | null;
  subscribers: string | null;
  thumbnails: Thumbnail[] | null;
  rank: string | null;
  trend: Trend | null;
}

/** A ranked song of a chart (top songs). */
export interface ChartSong extends FlatSong {
  rank: string | null;
  trend: Trend | null;
}

/** A ranked list with the playlist that holds it in full (`VL…` browse id). */
export interface ChartList<T> {
  playlist: string | null;
  items: T[];
}

/**
 * `get_charts`. Which sections a page has depends on the country and the account — see
 * `CHART_SECTIONS` in `parsers/explore.ts`: sections the page does not carry are absent.
 */
export interface Charts {
  countries: {
    /** The country shown, as the menu names it (`{text: "United States"}`). */
    selected: { text: string } | null;
    /** Every country code the menu offers, `ZZ` (global) included. */
    options: string[];
  };
  /** Video chart playlists (without premium: daily and weekly charts are in one carousel). */
  videos?: ChartPlaylist[];
  /** Premium accounts get the daily and weekly video charts as separate carousels. */
  daily?: ChartPlaylist[];
  weekly?: ChartPlaylist[];
  /** Genre charts (United States only). */
  genres?: ChartPlaylist[];
  /** Language charts (India only). */
  languages?: ChartPlaylist[];
  artists?: ChartArtist[];
  /** Ranked top songs: only for signed-in premium accounts. */
  songs?: ChartList<ChartSong>;
  /** Trending tracks (pages that carry a trending carousel: not the global charts). */
  trending?: ChartList<TrendingItem>;
}

/** A podcast episode in a track list (explore's trending). */
export interface FlatEpisode {
  title: string | null;
  podcast: IdName | null;
  videoId: string | null;
  browseId: string | null;
  playlistId: string | null;
  videoType: string | null;
  date: string | null;
  thumbnails: Thumbnail[] | null;
}

/** A trending song or video (with the trending playlist's id), or an episode. */
export type TrendingItem = (FlatSong & { playlistId?: string | null }) | FlatEpisode;

/** `get_explore`: the explore page's carousels, each absent when the page lacks it. */
export interface Explore {
  new_releases?: AlbumCard[];
  /** Top songs: only for signed-in premium accounts. */
  top_songs?: ChartList<ChartSong>;
  moods_and_genres?: MoodCategory[];
  top_episodes?: ChartEpisode[];
  trending?: ChartList<TrendingItem>;
  new_videos?: VideoCard[];
}
