/**
 * What only premium accounts see (docs/PROTOCOL.md#explore): a seeded premium login and, per chart country,
 * the song charts the service shows premium accounts alone — separate daily and weekly chart
 * carousels and ranked top songs on the charts page, `top_songs` on explore (docs/PROTOCOL.md#explore, the
 * client's `CHART_SECTIONS`). Drawn from generators of their own, after the rest of the catalogue,
 * so that everything a seed made before stays exactly as it was.
 */
import { hash32, ids, Rng } from "../random.js";
import type { CatalogueWriter } from "../store/seed.js";
import { writeLogin } from "./accounts.js";
import { CHART_COUNTRIES, countryName } from "./constants.js";
import { addChartPlaylist } from "./playlists.js";

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

export function seedPremiumLogin(write: CatalogueWriter, seed: number): void {
  writeLogin(write, new Rng(hash32(`premium-login:${seed}`)), PREMIUM_LOGIN, true);
}

/** `count` distinct songs drawn from the pool, in the order drawn. */
function draw(r: Rng, pool: readonly string[], count: number): string[] {
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
function addCountry(write: CatalogueWriter, r: Rng, country: string, songIds: readonly string[]): void {
  const name = countryName(country);
  const [trending, dailyVideos, top100Videos] = write.chartTargets(country, "videos");
  const dailySongs = ids.playlist(r);
  addChartPlaylist(write, r, dailySongs, `Daily Top Songs - ${name}`, draw(r, songIds, TOP_SONGS));
  const topSongs = ids.playlist(r);
  const ranked = draw(r, songIds, TOP_SONGS);
  addChartPlaylist(write, r, topSongs, `Top 100 Songs ${name}`, ranked);
  // A card whose chart is missing is left out.
  const carousels: Record<string, (string | undefined)[]> = {
    "premium-daily": [trending, dailyVideos, dailySongs],
    "premium-weekly": [topSongs, top100Videos],
    "songs-playlist": [topSongs],
  };
  for (const [section, targets] of Object.entries(carousels)) {
    for (const [i, targetId] of targets.filter((x): x is string => !!x).entries()) {
      write.chart({ country, section, position: i + 1, targetId, trend: null });
    }
  }
  // The first entry has no earlier week to compare with: it stays where it is.
  for (const [i, targetId] of ranked.entries()) {
    const trend = i === 0 ? "neutral" : r.pick(TRENDS);
    write.chart({ country, section: "songs", position: i + 1, targetId, trend });
  }
}

/** Every chart country's premium charts, from their own generator. */
export function addPremiumCharts(write: CatalogueWriter, seed: number, songIds: readonly string[]): void {
  if (songIds.length === 0) return;
  const r = new Rng(hash32(`charts-premium:${seed}`));
  for (const country of CHART_COUNTRIES) addCountry(write, r, country, songIds);
}
