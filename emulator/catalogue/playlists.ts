/** Catalogue playlists: editorial and community ones, and the rows every playlist kind shares. */
import { ids, type Rng } from "../random.js";
import type { CatalogueWriter } from "../store/seed.js";
import { FIRST_NAMES, LAST_NAMES } from "../words.js";
import { CATALOGUE_EPOCH_MS, DAY } from "./constants.js";
import type { Generation } from "./context.js";
import type { MusicPools } from "./music.js";
import { title } from "./names.js";

export interface Author {
  name: string;
  channelId: string | null;
}

/** The author of the service's own playlists (editorial, charts, moods): it has no channel. */
export const YOUTUBE_MUSIC: Author = { name: "YouTube Music", channelId: null };

export interface PlaylistSpec {
  playlistId: string;
  title: string;
  kind: string;
  author: Author;
  /** How many rows to draw from `pool` (a chart's rows are different videos, so at most the pool's size). */
  count: number;
  pool: readonly string[];
}

/**
 * `count` video ids from the pool: from a random start, every `step`-th, wrapping round — so a
 * playlist longer than its pool, or a step that shares a factor with the pool's size, holds some
 * videos more than once.
 */
export function stride(r: Rng, pool: readonly string[], count: number): string[] {
  const start = r.int(0, pool.length - 1);
  const step = r.int(1, 97);
  return walk(pool, start, step, count);
}

/**
 * A chart's rows: `count` different videos of the pool (the whole pool when it is smaller). It
 * draws what `stride` draws, then moves the step on to the first one sharing no factor with the
 * pool's size, so the walk meets every video once before it comes round again.
 */
export function chartRows(r: Rng, pool: readonly string[], count: number): string[] {
  const start = r.int(0, pool.length - 1);
  let step = r.int(1, 97);
  while (gcd(step, pool.length) !== 1) step++;
  const rows = walk(pool, start, step, Math.min(count, pool.length));
  // Places a small pool cannot fill still draw the setVideoId their row would have had, so that
  // what the generator makes after a chart stays what the seed made when charts held repeats.
  for (let i = rows.length; i < count; i++) ids.setVideo(r);
  return rows;
}

function walk(pool: readonly string[], start: number, step: number, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(pool[(start + i * step) % pool.length]!);
  return out;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** A playlist's rows, numbered from 1, each with a fresh setVideoId. */
export function addItems(
  write: CatalogueWriter,
  r: Rng,
  playlistId: string,
  videoIds: readonly string[],
): void {
  for (const [i, videoId] of videoIds.entries()) {
    write.playlistItem({ playlistId, videoId, setVideoId: ids.setVideo(r), position: i + 1 });
  }
}

/** A public catalogue playlist with a drawn description, view count and age, and its rows. */
export function addPlaylist(g: Generation, p: PlaylistSpec): void {
  const { r } = g;
  g.write.playlist({
    playlistId: p.playlistId,
    title: p.title,
    description: `${p.title}: ${title(r, 3).toLowerCase()} and more.`,
    ownerAccountId: null,
    authorName: p.author.name,
    authorChannelId: p.author.channelId,
    privacy: "PUBLIC",
    kind: p.kind,
    addToTop: false,
    views: Math.floor(10 ** r.int(2, 7) * (1 + r.next() * 8)),
    createdAt: CATALOGUE_EPOCH_MS - r.int(1, 2000) * DAY,
    searchText: `${p.title} ${p.author.name}`.toLowerCase(),
  });
  const rows = p.kind === "chart" ? chartRows(r, p.pool, p.count) : stride(r, p.pool, p.count);
  addItems(g.write, r, p.playlistId, rows);
  g.summary.playlists++;
}

/**
 * A chart playlist owned by the service, and its rows (in the order given). Its own row draws
 * nothing — no views, made at the epoch — so the layouts that call it draw only their rows.
 */
export function addChartPlaylist(
  write: CatalogueWriter,
  r: Rng,
  playlistId: string,
  name: string,
  videoIds: readonly string[],
): void {
  write.playlist({
    playlistId,
    title: name,
    description: `${name}.`,
    ownerAccountId: null,
    authorName: YOUTUBE_MUSIC.name,
    authorChannelId: null,
    privacy: "PUBLIC",
    kind: "chart",
    addToTop: false,
    views: 0,
    createdAt: CATALOGUE_EPOCH_MS,
    searchText: name.toLowerCase(),
  });
  addItems(write, r, playlistId, videoIds);
}

/** Featured playlists of songs, one per 250 songs (at least 8); returns their ids in order. */
export function addEditorialPlaylists(g: Generation, pools: MusicPools): string[] {
  const { r } = g;
  const made: string[] = [];
  const count = Math.max(8, Math.round(g.size / 250));
  for (let p = 0; p < count; p++) {
    const playlistId = g.unique(() => ids.curated(r));
    made.push(playlistId);
    const name = `${title(r, 2)} Hits`;
    addPlaylist(g, {
      playlistId,
      title: name,
      kind: "editorial",
      author: YOUTUBE_MUSIC,
      count: r.int(20, 80),
      pool: pools.songIds,
    });
  }
  return made;
}

/** Playlists users made, one per 250 songs (at least 8); one in five holds videos. */
export function addCommunityPlaylists(g: Generation, pools: MusicPools): void {
  const { r } = g;
  const playlists = Math.max(8, Math.round(g.size / 250));
  for (let p = 0; p < playlists; p++) {
    const owner = `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`;
    // Every fourth one is long enough to need continuations (pages of 100 rows).
    const count = p % 4 === 0 ? r.int(150, 260) : r.int(10, 90);
    addPlaylist(g, {
      playlistId: g.unique(() => ids.playlist(r)),
      title: title(r, r.int(2, 3)),
      kind: "community",
      author: { name: owner, channelId: g.unique(() => ids.channel(r)) },
      count,
      pool: r.chance(0.2) ? pools.videoIds : pools.songIds,
    });
  }
}
