/**
 * What only premium accounts see (issue 11 item 11): a seeded premium login and, per chart country,
 * the song charts the service shows premium accounts alone — separate daily and weekly chart
 * carousels and ranked top songs on the charts page, `top_songs` on explore (PROTOCOL §4.3, the
 * client's `CHART_SECTIONS`). Drawn from generators of their own, after the rest of the catalogue,
 * so that everything a seed made before stays exactly as it was.
 */
import type Database from "better-sqlite3";
import { hash32, ids, Rng, type Rng as RngType } from "./random.js";

/** The seeded premium login. Id 5: ids 1-3 are the other logins and 4 is Emma's brand account. */
export const PREMIUM_LOGIN = {
  id: 5,
  email: "pia@example.com",
  name: "Pia Premium",
  handle: "@piapremium",
  authUser: 2,
} as const;

/** How many songs a country's top songs chart ranks (the service's is a "Top 100"). */
export const TOP_SONGS = 100;

/**
 * Chart sections of the `charts` table that only premium pages show: `premium-daily` and
 * `premium-weekly` are the playlist cards of the two carousels, `songs` the ranked rows (target a
 * video id, with a trend) and `songs-playlist` the playlist that holds those rows in rank order.
 */
export const PREMIUM_CHART_SECTIONS = ["premium-daily", "premium-weekly", "songs", "songs-playlist"] as const;

interface Inserts {
  /** When the chart playlists were made (the catalogue's epoch). */
  createdAt: number;
  insPlaylist: Database.Statement;
  insItem: Database.Statement;
  insChart: Database.Statement;
}

export function seedPremiumLogin(sqlite: Database.Database, seed: number): void {
  const r = new Rng(hash32(`premium-login:${seed}`));
  const a = PREMIUM_LOGIN;
  sqlite
    .prepare(
      "INSERT INTO accounts (id, email, name, handle, channel_id, sapisid, parent_id, page_id, auth_user, premium) VALUES (?,?,?,?,?,?,?,?,?,1)",
    )
    .run(a.id, a.email, a.name, a.handle, ids.channel(r), ids.sapisid(r), null, null, a.authUser);
}

/** The `playlists` row of a chart playlist owned by the service (its items are the caller's). */
export function insertChartPlaylistRow(
  insPlaylist: Database.Statement,
  id: string,
  title: string,
  createdAt: number,
): void {
  insPlaylist.run(
    id,
    title,
    `${title}.`,
    null,
    "YouTube Music",
    null,
    "PUBLIC",
    "chart",
    0,
    0,
    createdAt,
    title.toLowerCase(),
  );
}

/** A chart playlist owned by the service, its rows numbered from 1. */
function addChartPlaylist(o: Inserts, r: RngType, id: string, title: string, videoIds: readonly string[]) {
  insertChartPlaylistRow(o.insPlaylist, id, title, o.createdAt);
  for (const [i, v] of videoIds.entries()) o.insItem.run(id, v, ids.setVideo(r), i + 1);
}

/** `count` distinct songs drawn from the pool, in the order drawn. */
function draw(r: RngType, pool: readonly string[], count: number): string[] {
  const start = r.int(0, pool.length - 1);
  // A prime step that does not divide the pool's size visits distinct songs.
  const steps = [3, 7, 11, 13, 17, 19, 23].filter((s) => pool.length % s !== 0);
  const step = steps.length > 0 ? r.pick(steps) : 1;
  const out: string[] = [];
  for (let i = 0; i < Math.min(count, pool.length); i++) out.push(pool[(start + i * step) % pool.length]!);
  return out;
}

const TRENDS = ["up", "down", "neutral"] as const;

/**
 * One country's premium charts. The daily carousel holds the country's trending and daily video
 * charts (already made for every account) and a daily songs chart; the weekly one the Top 100 songs
 * and the Top 100 music videos. The ranked song rows are the Top 100 songs, in its order.
 */
function addCountry(
  sqlite: Database.Database,
  o: Inserts,
  r: RngType,
  country: string,
  name: string,
  songIds: readonly string[],
): void {
  const videoCharts = (
    sqlite
      .prepare("SELECT target_id AS t FROM charts WHERE country = ? AND section = 'videos' ORDER BY position")
      .all(country) as { t: string }[]
  ).map((x) => x.t);
  const [trending, dailyVideos, top100Videos] = videoCharts;
  const dailySongs = ids.playlist(r);
  addChartPlaylist(o, r, dailySongs, `Daily Top Songs - ${name}`, draw(r, songIds, TOP_SONGS));
  const topSongs = ids.playlist(r);
  const ranked = draw(r, songIds, TOP_SONGS);
  addChartPlaylist(o, r, topSongs, `Top 100 Songs ${name}`, ranked);
  const daily = [trending, dailyVideos, dailySongs].filter((x): x is string => !!x);
  const weekly = [topSongs, top100Videos].filter((x): x is string => !!x);
  for (const [i, id] of daily.entries()) o.insChart.run(country, "premium-daily", i + 1, id, null);
  for (const [i, id] of weekly.entries()) o.insChart.run(country, "premium-weekly", i + 1, id, null);
  o.insChart.run(country, "songs-playlist", 1, topSongs, null);
  // The first entry has no earlier week to compare with: it stays where it is.
  for (const [i, v] of ranked.entries()) {
    o.insChart.run(country, "songs", i + 1, v, i === 0 ? "neutral" : r.pick(TRENDS));
  }
}

export function addPremiumCharts(
  sqlite: Database.Database,
  seed: number,
  countries: readonly { code: string; name: string }[],
  songIds: readonly string[],
  inserts: Inserts,
): void {
  if (songIds.length === 0) return;
  const r = new Rng(hash32(`charts-premium:${seed}`));
  for (const c of countries) addCountry(sqlite, inserts, r, c.code, c.name, songIds);
}
