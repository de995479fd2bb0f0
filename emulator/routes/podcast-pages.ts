/** Podcasts, episodes and podcast channels. */
import type { ApiContext } from "../context.js";
import { invalidArgument, notFound } from "../errors.js";
import type { DateStyle } from "../render/format.js";
import {
  CHANNEL_EPISODES_PARAMS,
  channelEpisodesPage,
  channelPage,
  episodePage,
  newEpisodesPage,
  PODCAST_PAGE_SIZE,
  podcastPage,
  podcastShelf,
} from "../render/podcast.js";
import { accountId, marks, requireAccount } from "./viewer.js";

/** Dates in the request's language, against the emulator's clock (the service writes them so). */
export function datesOf(ctx: ApiContext): DateStyle {
  return { language: ctx.language, now: ctx.state.now() };
}

export function podcastBrowse(ctx: ApiContext, playlistId: string): unknown {
  const store = ctx.state.store;
  const p = store.catalogue.podcast(playlistId);
  if (!p) throw notFound();
  return podcastPage(
    p,
    store.catalogue.episodes(p.id, 0, PODCAST_PAGE_SIZE),
    0,
    store.catalogue.episodeCount(p.id),
    marks(ctx).saved(playlistId),
    datesOf(ctx),
  );
}

export function podcastContinuation(ctx: ApiContext, playlistId: string, offset: number): unknown {
  const store = ctx.state.store;
  const p = store.catalogue.podcast(playlistId);
  if (!p) throw notFound();
  return podcastShelf(
    p,
    store.catalogue.episodes(p.id, offset, PODCAST_PAGE_SIZE),
    offset,
    store.catalogue.episodeCount(p.id),
    true,
    datesOf(ctx),
  );
}

export function episodeBrowse(ctx: ApiContext, videoId: string): unknown {
  const store = ctx.state.store;
  const e = store.catalogue.episode(videoId);
  if (!e) throw notFound();
  const me = accountId(ctx);
  const saved = me !== null && store.libraryEdits.episodeSaved(me, videoId);
  return episodePage(e, saved, me !== null, datesOf(ctx));
}

/** New episodes of the podcasts the account saved (all podcasts when signed out), newest first. */
export function newEpisodesBrowse(ctx: ApiContext): unknown {
  const store = ctx.state.store;
  const account = requireAccount(ctx);
  const saved = store.library
    .likedPlaylistIds(account.id)
    .map((id) => store.catalogue.podcast(id))
    .filter((p) => p !== null);
  const episodes = saved
    .flatMap((p) => store.catalogue.episodes(p!.id, 0, 5))
    .sort((a, b) => b.publishedDay - a.publishedDay)
    .slice(0, 50);
  return newEpisodesPage(
    episodes,
    { name: account.name, channelId: account.channelId },
    new Date(ctx.state.now()).getUTCFullYear(),
    datesOf(ctx),
  );
}

export function channelBrowse(ctx: ApiContext, channelId: string, params: string | null): unknown | null {
  const store = ctx.state.store;
  const c = store.catalogue.artist(channelId);
  if (c?.kind !== "channel") return null;
  if (params) {
    if (decodeURIComponent(params) !== CHANNEL_EPISODES_PARAMS) throw invalidArgument();
    return channelEpisodesPage(c, store.catalogue.episodesOfChannel(c.id, 100), datesOf(ctx));
  }
  const me = accountId(ctx);
  const subscribed = me !== null && store.library.inLibrary(me, "subscription", channelId);
  return channelPage(
    c,
    store.catalogue.episodesOfChannel(c.id, 10),
    store.catalogue.podcastsOfChannel(c.id),
    subscribed,
    ctx.language,
    datesOf(ctx),
  );
}
