/** The new-releases and podcast pages the explore page links (see render/releases.ts). */
import type { ApiContext } from "../context.js";
import {
  newAlbumsPage,
  newReleasesPage,
  newVideosPage,
  podcastsHubPage,
  popularEpisodesPage,
  RELEASES,
} from "../render/releases.js";
import { marks } from "./viewer.js";

/** Carousels show a handful; the full lists a page's worth (none of these pages continues). */
const CAROUSEL = 12;
const FULL_LIST = 48;

/** Music videos in the same seeded order as explore's "New music videos" carousel. */
const newVideos = (ctx: ApiContext, limit: number) =>
  ctx.state.store.catalogue.randomSongs(99, limit, "MUSIC_VIDEO_TYPE_OMV");

/** The page for one of these browse ids, or null for any other id. */
export function releasesBrowse(ctx: ApiContext, browseId: string): unknown | null {
  const charts = ctx.state.store.charts;
  switch (browseId) {
    case RELEASES.hub:
      return newReleasesPage(charts.newestAlbums(CAROUSEL), newVideos(ctx, CAROUSEL), marks(ctx));
    case RELEASES.albums:
      return newAlbumsPage(charts.newestAlbums(FULL_LIST), marks(ctx));
    case RELEASES.videos:
      return newVideosPage(newVideos(ctx, FULL_LIST));
    case RELEASES.podcasts:
      return podcastsHubPage(charts.newestEpisodes(CAROUSEL), charts.podcasts(CAROUSEL));
    case RELEASES.episodes:
      return popularEpisodesPage(charts.newestEpisodes(FULL_LIST));
    default:
      return null;
  }
}
