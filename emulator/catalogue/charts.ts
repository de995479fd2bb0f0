/**
 * Charts per country: the layout the catalogue was first made with (Top 100 music videos, genre
 * charts in the US, top artists), then the layout signed-in accounts see since 2026 laid over it.
 */
import { ids, type Rng } from "../random.js";
import type { CatalogueWriter } from "../store/seed.js";
import { GENRES } from "../words.js";
import { CHART_COUNTRIES, countryName } from "./constants.js";
import type { Generation } from "./context.js";
import type { ArtistRef, MusicPools } from "./music.js";
import { addChartPlaylist, addPlaylist, chartRows, YOUTUBE_MUSIC } from "./playlists.js";

const TRENDS = ["up", "down", "neutral"];

/** Every country's first-layout charts, drawn from the catalogue's generator. */
export function addCharts(g: Generation, artists: readonly ArtistRef[], pools: MusicPools): void {
  for (const country of CHART_COUNTRIES) addCountryCharts(g, country, artists, pools);
}

/** One country: its Top 100 music videos, the US genre charts, and 40 ranked artists. */
function addCountryCharts(
  g: Generation,
  country: string,
  artists: readonly ArtistRef[],
  pools: MusicPools,
): void {
  const { r, write } = g;
  const chartPlaylist = (name: string, count: number, pool: readonly string[]): string => {
    const playlistId = g.unique(() => "PL" + r.chars(32));
    addPlaylist(g, { playlistId, title: name, kind: "chart", author: YOUTUBE_MUSIC, count, pool });
    return playlistId;
  };
  const videos = chartPlaylist(`Top 100 Music Videos ${countryName(country)}`, 100, pools.videoIds);
  write.chart({ country, section: "videos", position: 1, targetId: videos, trend: null });
  if (country === "US") {
    for (const [i, genre] of GENRES.slice(0, 8).entries()) {
      const targetId = chartPlaylist(`${genre} Top 50`, 50, pools.songIds);
      write.chart({ country, section: "genres", position: i + 1, targetId, trend: null });
    }
  }
  const start = r.int(0, artists.length - 1);
  for (let i = 0; i < Math.min(40, artists.length); i++) {
    const artist = artists[(start + i * 7) % artists.length]!;
    write.chart({
      country,
      section: "artists",
      position: i + 1,
      targetId: artist.channelId,
      trend: r.pick(TRENDS),
    });
  }
}

/**
 * The charts layout a signed-in account sees since 2026 (capture
 * ytm_2026_07_get_charts_us_albums_no_genres): an "Albums" carousel of top albums, "Video charts"
 * with Trending 20, the daily and the Top 100 music videos, then top artists — and no genre
 * carousel, nor a songs chart, in any country. Drawn from its own generator so that the rest of the
 * catalogue stays what the seed made before this layout was added.
 */
export function addCurrentChartLayout(write: CatalogueWriter, r: Rng, pools: MusicPools): void {
  const albums = write.albumBrowseIds();
  write.dropChartSection("genres");
  // The Top 100 music videos, made with the catalogue, comes last of the video charts.
  write.moveChartSection("videos", 3);
  const trendingPool = [...pools.songIds, ...pools.videoIds];
  for (const country of CHART_COUNTRIES) {
    const name = countryName(country);
    const trending = ids.audioPlaylist(r);
    addChartPlaylist(write, r, trending, `Trending 20 ${name}`, chartRows(r, trendingPool, 20));
    write.chart({ country, section: "videos", position: 1, targetId: trending, trend: null });
    const daily = ids.playlist(r);
    addChartPlaylist(write, r, daily, `Daily Top Music Videos - ${name}`, chartRows(r, pools.videoIds, 100));
    write.chart({ country, section: "videos", position: 2, targetId: daily, trend: null });
    if (albums.length === 0) continue;
    const start = r.int(0, albums.length - 1);
    for (let i = 0; i < Math.min(10, albums.length); i++) {
      const targetId = albums[(start + i * 11) % albums.length]!;
      write.chart({ country, section: "albums", position: i + 1, targetId, trend: null });
    }
  }
}
