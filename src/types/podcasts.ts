/**
 * Results of the podcast operations (docs/PROTOCOL.md#podcasts): channels, shows, episodes and the "New
 * episodes" auto playlist.
 */

import type { ArtistCategories } from "./browsing.js";
import type { Episode, Thumbnail } from "./common.js";

// Declared with the common types: artist and channel pages (browsing.ts) show episode rows too.
export type { Episode };

/** A link to a podcast show or its author, from one text run. */
export interface PodcastRef {
  name: string | null;
  id: string | null;
}

/** An episode card of explore's "Popular episodes": the row without its index, with its show. */
export interface ChartEpisode extends Omit<Episode, "index"> {
  podcast: PodcastRef;
}

/**
 * `get_channel`: a podcast channel's page, its carousels keyed as on artist pages — `episodes`
 * (its `browseId` and `params` open the full list with `getChannelEpisodes`), `podcasts`,
 * `playlists`… Carousels the page lacks are absent.
 */
export interface Channel extends ArtistCategories {
  title: string;
  thumbnails: Thumbnail[] | null;
}

/** `get_podcast`: a show's header and its episodes. */
export interface Podcast {
  author: PodcastRef;
  title: string;
  thumbnails: Thumbnail[] | null;
  description: string | null;
  /** Whether the show is in the library. */
  saved: boolean | null;
  episodes: Episode[];
}

/** A piece of an episode description: text, a link, or a jump to a time in the episode. */
export type DescriptionElement =
  | { text: string }
  | { text: string; url: string }
  | { text: string; seconds: number };

/** `get_episode`: an episode page. */
export interface EpisodePage {
  /** The show (`MPSP…`) the episode belongs to, as the header's strapline links it. */
  author: PodcastRef;
  title: string;
  thumbnails: Thumbnail[] | null;
  date: string | null;
  duration: string | null;
  /** How much of the episode the account has played, 0–100. */
  progressPercentage: number | null;
  /** Whether the episode is in "Episodes for later". */
  saved: boolean;
  /** The show's browseId (`MPSP…`), from the menu entry that links to it. */
  playlistId: string | null;
  description: DescriptionElement[] | null;
}

/** `get_episodes_playlist`: an episode playlist such as "New episodes" (`RDPN`). */
export interface EpisodesPlaylist {
  title: string | null;
  owned: boolean;
  privacy: "PUBLIC" | "PRIVATE" | "UNLISTED";
  description: string | null;
  thumbnails: Thumbnail[] | null;
  views: number | null;
  duration: string | null;
  trackCount: number | null;
  year?: string | null;
  episodes: Episode[];
}
