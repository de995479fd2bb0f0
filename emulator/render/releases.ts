/**
 * The pages the explore page links besides charts and moods: new releases (`FEmusic_new_releases`),
 * its album and video lists (`FEmusic_new_releases_albums`, `FEmusic_new_releases_videos`), podcasts
 * (`FEmusic_non_music_audio`) and popular episodes (`FEmusic_top_non_music_audio_episodes`); the
 * links themselves are in capture ytm_2025_11_get_explore.
 *
 * No capture of these five pages exists in the fixtures. They follow docs/PROTOCOL.md#renderers (`SC_TAB.SL` browse
 * pages with a `musicHeaderRenderer` title) and the closest captures: carousels with "More" links as
 * on the explore page (ytm_2025_11_get_explore), full lists as a titled grid as on the moods page
 * (yt_get_mood_categories_20240723), and episodes as `musicMultiRowListItemRenderer` rows in a
 * `musicShelfRenderer` as on a podcast page (yt_get_podcast_20240830).
 */
import type { AlbumRow, EpisodeRow, PodcastRow, SongRow } from "../store/rows.js";
import { browse, carousel, type Json, singleColumn, text } from "./common.js";
import { albumCard, episodeRow, type Marks, podcastCard, videoCard } from "./items.js";

export const RELEASES = {
  hub: "FEmusic_new_releases",
  albums: "FEmusic_new_releases_albums",
  videos: "FEmusic_new_releases_videos",
  podcasts: "FEmusic_non_music_audio",
  episodes: "FEmusic_top_non_music_audio_episodes",
} as const;

function titledPage(title: string, sections: Json[]): Json {
  return {
    header: { musicHeaderRenderer: { title: text(title) } },
    ...singleColumn({ sectionListRenderer: { contents: sections } }),
  };
}

function titledGrid(title: string, items: Json[]): Json {
  return { gridRenderer: { items, header: { gridHeaderRenderer: { title: text(title) } } } };
}

/** New releases: the newest albums and music videos, each carousel linking its full list. */
export function newReleasesPage(albums: AlbumRow[], videos: SongRow[], marks: Marks): Json {
  return titledPage("New releases", [
    carousel(
      "New albums & singles",
      albums.map((a) => albumCard(a, marks)),
      browse(RELEASES.albums),
    ),
    carousel(
      "New music videos",
      videos.map((v) => videoCard(v)),
      browse(RELEASES.videos),
    ),
  ]);
}

/** The full list behind explore's "New albums & singles". */
export function newAlbumsPage(albums: AlbumRow[], marks: Marks): Json {
  return titledPage("New albums & singles", [
    titledGrid(
      "New albums & singles",
      albums.map((a) => albumCard(a, marks)),
    ),
  ]);
}

/** The full list behind explore's "New music videos". */
export function newVideosPage(videos: SongRow[]): Json {
  return titledPage("New music videos", [
    titledGrid(
      "New music videos",
      videos.map((v) => videoCard(v)),
    ),
  ]);
}

/** Podcasts: popular episodes (linking their full list), then the shows. */
export function podcastsHubPage(episodes: EpisodeRow[], podcasts: PodcastRow[]): Json {
  return titledPage("Podcasts", [
    carousel(
      "Popular episodes",
      episodes.map((e, i) => episodeRow(e, i)),
      browse(RELEASES.episodes),
    ),
    carousel(
      "Popular shows",
      podcasts.map((p) => podcastCard(p)),
    ),
  ]);
}

/** The full list behind explore's "Popular episodes". */
export function popularEpisodesPage(episodes: EpisodeRow[]): Json {
  return titledPage("Popular episodes", [
    {
      musicShelfRenderer: {
        contents: episodes.map((e, i) => episodeRow(e, i)),
        shelfDivider: { musicShelfDividerRenderer: { hidden: true } },
      },
    },
  ]);
}
