/** `next` (docs/PROTOCOL.md#watch): a playlist's queue, a song's radio, or a shuffled playlist. */
import type { ApiContext } from "../context.js";
import { ApiError, invalidArgument, notFound } from "../errors.js";
import { hash32, Rng, stableSetVideoId } from "../random.js";
import {
  emptyWatchPage,
  type QueueEntry,
  WATCH_PAGE_SIZE,
  type WatchView,
  watchContinuation,
  watchPage,
} from "../render/watch.js";
import { episodeItem } from "../store/playlists.js";
import type { PodcastRow, SongRow } from "../store/rows.js";
import { continuationToken, readContinuation } from "../tokens.js";
import { continuationOf } from "./browse.js";
import { playlistView } from "./catalogue-pages.js";
import { marks, str } from "./viewer.js";

const RADIO_LENGTH = 200;

const setId = (playlistId: string, index: number): string => stableSetVideoId(`${playlistId}:${index}`);

function entry(
  ctx: ApiContext,
  s: SongRow,
  playlistId: string,
  index: number,
  setVideoId?: string,
): QueueEntry {
  const counterpart = s.counterpartId ? ctx.state.store.catalogue.song(s.counterpartId) : null;
  return { song: s, counterpart, setVideoId: setVideoId ?? setId(playlistId, index) };
}

/** The whole queue as songs: the playlist's items, or a radio seeded by the video. */
function queue(ctx: ApiContext, playlistId: string, videoId: string | null, shuffle: boolean): QueueEntry[] {
  const store = ctx.state.store;
  const isRadio = playlistId.startsWith("RD");
  let entries: QueueEntry[];
  const podcast = isRadio ? null : store.catalogue.podcast(playlistId);
  if (podcast) {
    entries = podcastQueue(ctx, podcast);
  } else if (!isRadio) {
    const id = playlistId.startsWith("VL") ? playlistId.slice(2) : playlistId;
    const rows: QueueEntry[] = [];
    for (let offset = 0; ; ) {
      const view = playlistView(ctx, id, offset);
      rows.push(...view.rows.map((r, i) => entry(ctx, r, id, offset + i, r.setVideoId)));
      offset += view.rows.length;
      if (view.rows.length === 0 || !view.more) break;
    }
    entries = rows;
    if (shuffle) {
      const r = new Rng(hash32(id));
      for (let i = entries.length - 1; i > 0; i--) {
        const j = r.int(0, i);
        [entries[i], entries[j]] = [entries[j]!, entries[i]!];
      }
    }
  } else {
    const seedSong = videoId ? store.catalogue.song(videoId) : null;
    const seed = hash32(playlistId);
    const songs = store.catalogue.randomSongs(seed, RADIO_LENGTH);
    const list = seedSong ? [seedSong, ...songs.filter((s) => s.videoId !== seedSong.videoId)] : songs;
    entries = list.map((s, i) => entry(ctx, s, playlistId, i));
  }
  if (videoId && !isRadio) {
    const at = entries.findIndex((e) => e.song.videoId === videoId);
    if (at > 0) entries = [...entries.slice(at), ...entries.slice(0, at)];
  }
  return entries;
}

/**
 * A podcast's episodes as a queue, newest first as its page lists them (bounded: a show longer than
 * a radio is cut there). No capture shows an episode's queue; the podcast page's play buttons name
 * the podcast's playlist (yt_get_podcast_20240830), so this is what they start.
 */
function podcastQueue(ctx: ApiContext, podcast: PodcastRow): QueueEntry[] {
  const episodes = ctx.state.store.catalogue.episodes(podcast.id, 0, RADIO_LENGTH);
  return episodes.map((e, i) =>
    entry(ctx, episodeItem(e, setId(podcast.playlistId, i)), podcast.playlistId, i),
  );
}

function view(
  ctx: ApiContext,
  playlistId: string,
  videoId: string | null,
  shuffle: boolean,
  offset: number,
): WatchView {
  const all = queue(ctx, playlistId, videoId, shuffle);
  const next = offset + WATCH_PAGE_SIZE;
  const radio = !(playlistId.startsWith("PL") || playlistId.startsWith("OLA"));
  return {
    playlistId,
    title: playlistId.startsWith("RD")
      ? "Mix"
      : (ctx.state.store.playlists.playlist(playlistId)?.title ??
        ctx.state.store.catalogue.podcast(playlistId)?.title ??
        "Queue"),
    entries: all.slice(offset, next),
    token:
      next < all.length
        ? continuationToken({ k: "watch", id: playlistId, o: next, v: videoId ?? null, s: shuffle })
        : null,
    radio,
    current: all[0]?.song ?? null,
    marks: marks(ctx),
  };
}

export function next(ctx: ApiContext): unknown {
  const token = continuationOf(ctx);
  if (token) {
    const c = readContinuation(token);
    if (c?.k !== "watch" || typeof c.id !== "string") throw invalidArgument("Invalid continuation token.");
    return watchContinuation(view(ctx, c.id, typeof c.v === "string" ? c.v : null, c.s === true, c.o), c.o);
  }
  const videoId = str(ctx, "videoId");
  let playlistId = str(ctx, "playlistId");
  if (!videoId && !playlistId) throw invalidArgument("Request contains an invalid argument.");
  const catalogue = ctx.state.store.catalogue;
  const episode = videoId && !catalogue.song(videoId) ? catalogue.episode(videoId) : null;
  if (videoId && !episode && !catalogue.song(videoId)) throw notFound();
  if (playlistId?.startsWith("VL")) playlistId = playlistId.slice(2);
  const params = str(ctx, "params") ?? "";
  const shuffle = decodeURIComponent(params) === "wAEB8gECKAE=";
  // An episode played on its own (explore's rows play it so) queues its podcast from it; a song
  // starts its radio.
  const id = playlistId ?? (episode ? episode.podcastPlaylistId : `RDAMVM${videoId}`);
  try {
    return watchPage(view(ctx, id, videoId, shuffle, 0));
  } catch (e) {
    // A playlist the caller may not see (private, deleted) yields a watch page without a queue,
    // which clients report as "no content" (docs/PROTOCOL.md#watch), not an HTTP error.
    if (e instanceof ApiError && e.httpStatus === 404) return emptyWatchPage();
    throw e;
  }
}
