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
import type { AlbumRow, EpisodeRow, PodcastRow } from "../store/rows.js";
import { marks } from "./viewer.js";

/** Carousels show a handful; the full lists a page's worth (none of these pages continues). */
const CAROUSEL = 12;
const FULL_LIST = 48;

/** The newest albums (explore's "New albums & singles" carousel and the new-releases pages). */
export function newestAlbums(ctx: ApiContext, limit: number): AlbumRow[] {
  const store = ctx.state.store;
  const ids = store.st("SELECT browse_id AS b FROM albums ORDER BY year DESC, id LIMIT ?").all(limit) as {
    b: string;
  }[];
  return ids.map((r) => store.album(r.b)).filter((a): a is AlbumRow => a !== null);
}

/** The newest podcast episodes (explore's carousel and the podcast pages). */
export function newestEpisodes(ctx: ApiContext, limit: number): EpisodeRow[] {
  const store = ctx.state.store;
  const ids = store
    .st("SELECT video_id AS v FROM episodes ORDER BY published_day DESC, id LIMIT ?")
    .all(limit) as { v: string }[];
  return ids.map((r) => store.episode(r.v)).filter((e): e is EpisodeRow => e !== null);
}

function podcasts(ctx: ApiContext, limit: number): PodcastRow[] {
  const store = ctx.state.store;
  const ids = store.st("SELECT playlist_id AS p FROM podcasts ORDER BY id LIMIT ?").all(limit) as {
    p: string;
  }[];
  return ids.map((r) => store.podcast(r.p)).filter((p): p is PodcastRow => p !== null);
}

/** Music videos in the same seeded order as explore's "New music videos" carousel. */
const newVideos = (ctx: ApiContext, limit: number) =>
  ctx.state.store.randomSongs(99, limit, "MUSIC_VIDEO_TYPE_OMV");

/** The page for one of these browse ids, or null for any other id. */
export function releasesBrowse(ctx: ApiContext, browseId: string): unknown | null {
  switch (browseId) {
    case RELEASES.hub:
      return newReleasesPage(newestAlbums(ctx, CAROUSEL), newVideos(ctx, CAROUSEL), marks(ctx));
    case RELEASES.albums:
      return newAlbumsPage(newestAlbums(ctx, FULL_LIST), marks(ctx));
    case RELEASES.videos:
      return newVideosPage(newVideos(ctx, FULL_LIST));
    case RELEASES.podcasts:
      return podcastsHubPage(newestEpisodes(ctx, CAROUSEL), podcasts(ctx, CAROUSEL));
    case RELEASES.episodes:
      return popularEpisodesPage(newestEpisodes(ctx, FULL_LIST));
    default:
      return null;
  }
}
