/** Home (with its taste-profile form), charts, moods & genres, explore. */
import { CHART_COUNTRIES } from "../catalogue.js";
import type { ApiContext } from "../context.js";
import { invalidArgument, notFound } from "../errors.js";
import type { Json } from "../render/common.js";
import {
  chartAlbumsCountry,
  chartAlbumsPage,
  chartsPage,
  explorePage,
  homePage,
  homeRow,
  moodCategoriesPage,
  moodPlaylistsPage,
} from "../render/explore.js";
import type { Marks } from "../render/items.js";
import type { ArtistRow, SongRow } from "../store/rows.js";
import { continuationToken } from "../tokens.js";
import { datesOf } from "./podcast-pages.js";
import { isPremium, premiumCharts, topSongs } from "./premium.js";
import { saveTasteProfile } from "./track-pages.js";
import { accountId, marks } from "./viewer.js";

const HOME_ROWS_PER_PAGE = 3;

/** Listen again: pinned songs first, then the account's recent plays; random songs when signed out. */
function listenAgain(ctx: ApiContext, seed: number): SongRow[] {
  const store = ctx.state.store;
  const me = accountId(ctx);
  if (me === null) return store.catalogue.randomSongs(seed, 12);
  const pinned = store.library
    .libraryTargets(me, "pin")
    .map((t) => store.catalogue.song(t.targetId))
    .filter((x): x is SongRow => x !== null);
  const seen = new Set(pinned.map((x) => x.videoId));
  const recent = store.library.history(me).filter((h) => !seen.has(h.videoId) && seen.add(h.videoId));
  return [...pinned, ...recent].slice(0, 12);
}

/**
 * The artist Listen again shows beside the songs: the artist of the account's latest play, else the
 * first channel it subscribed to; none signed out.
 */
function listenAgainArtist(ctx: ApiContext): ArtistRow | undefined {
  const store = ctx.state.store;
  const me = accountId(ctx);
  if (me === null) return undefined;
  const latest = store.library.history(me)[0];
  const channelId = latest?.channelId ?? store.library.libraryTargets(me, "subscription")[0]?.targetId;
  const artist = channelId === undefined ? null : store.catalogue.artist(channelId);
  return artist?.kind === "artist" ? artist : undefined;
}

/**
 * Home's twelve shelves, each once: Listen again is on the first page, beside albums (capture
 * yt_set_taste_profile_20240723); the others are shelves of the same shapes under other titles, as
 * the service's home continues (no title comes back on a later page).
 */
const HOME_SHELVES: readonly {
  kind: "quick" | "albums" | "songs" | "playlists" | "videos";
  title: string;
}[] = [
  { kind: "quick", title: "Quick picks" },
  { kind: "albums", title: "Albums for you" },
  { kind: "songs", title: "Listen again" },
  { kind: "playlists", title: "Mixed for you" },
  { kind: "videos", title: "Recommended music videos" },
  { kind: "quick", title: "Forgotten favorites" },
  { kind: "albums", title: "Recommended albums" },
  { kind: "playlists", title: "From the community" },
  { kind: "videos", title: "Live performances" },
  { kind: "quick", title: "Today's biggest hits" },
  { kind: "albums", title: "New albums & singles" },
  { kind: "playlists", title: "Long listening" },
];
const HOME_ROWS = HOME_SHELVES.length;

/** Home row `i`; `seed` picks its songs, the same ones for the same account and row. */
function homeRowAt(ctx: ApiContext, i: number, seed: number, m: Marks): Json {
  const store = ctx.state.store;
  const { kind, title } = HOME_SHELVES[i]!;
  switch (kind) {
    case "quick":
      return homeRow(kind, title, { songs: store.catalogue.randomSongs(seed, 12) }, m);
    case "songs":
      return homeRow(kind, title, { songs: listenAgain(ctx, seed), artist: listenAgainArtist(ctx) }, m);
    case "videos":
      return homeRow(
        kind,
        title,
        { songs: store.catalogue.randomSongs(seed, 10, "MUSIC_VIDEO_TYPE_OMV") },
        m,
      );
    case "albums":
      return homeRow(kind, title, { albums: store.charts.homeAlbums(i) }, m);
    case "playlists":
      return homeRow(kind, title, { playlists: store.charts.homePlaylists(i) }, m);
  }
}

function homeRows(ctx: ApiContext, from: number, to: number): Json[] {
  const m = marks(ctx);
  const seed = (accountId(ctx) ?? 0) * 1000 + 17;
  const rows: Json[] = [];
  for (let i = from; i < to && i < HOME_ROWS; i++) rows.push(homeRowAt(ctx, i, seed + i * 101, m));
  return rows;
}

function homeBrowse(ctx: ApiContext): unknown {
  if (ctx.body.formData !== undefined) saveTasteProfile(ctx);
  const token = continuationToken({ k: "home", o: HOME_ROWS_PER_PAGE });
  return homePage(homeRows(ctx, 0, HOME_ROWS_PER_PAGE), token, false);
}

export function homeContinuation(ctx: ApiContext, offset: number): unknown {
  const next = offset + HOME_ROWS_PER_PAGE;
  return homePage(
    homeRows(ctx, offset, next),
    next < HOME_ROWS ? continuationToken({ k: "home", o: next }) : null,
    true,
  );
}

/** `browse MPAD<chart album channel>`: a country's album chart in full; null for other ids. */
export function chartAlbumsBrowse(ctx: ApiContext, channelId: string): unknown | null {
  const country = chartAlbumsCountry(channelId);
  if (country === null) return null;
  const albums = ctx.state.store.charts.albums(country);
  if (albums.length === 0) return null;
  return chartAlbumsPage(albums, marks(ctx));
}

/**
 * The country whose charts to show: the one picked in the page's country menu (a form), else the
 * request's location; a country without charts gets the global ones (`ZZ`).
 */
function chartCountry(ctx: ApiContext): string {
  const form = ctx.body.formData as { selectedValues?: unknown } | undefined;
  const selected = Array.isArray(form?.selectedValues) ? form.selectedValues[0] : undefined;
  if (selected !== undefined && typeof selected !== "string") throw invalidArgument();
  const country = selected ?? ctx.location ?? "ZZ";
  return (CHART_COUNTRIES as readonly string[]).includes(country) ? country : "ZZ";
}

function chartsBrowse(ctx: ApiContext): unknown {
  const charts = ctx.state.store.charts;
  const country = chartCountry(ctx);
  return chartsPage({
    country,
    countries: [...CHART_COUNTRIES],
    albums: charts.albums(country),
    marks: marks(ctx),
    videos: charts.playlists(country, "videos"),
    genres: charts.playlists(country, "genres"),
    artists: charts.artists(country),
    signedIn: ctx.viewer !== null,
    ranked: ctx.viewer !== null || country !== "ZZ",
    premium: premiumCharts(ctx, country),
  });
}

/** One mood or genre: its playlists, halved into two carousels. */
function moodBrowse(ctx: ApiContext, params: string | null): unknown {
  if (!params) throw invalidArgument();
  const charts = ctx.state.store.charts;
  const category = charts.moodCategory(params);
  if (!category) throw notFound();
  const lists = charts.moodPlaylists(category.id);
  const half = Math.ceil(lists.length / 2);
  return moodPlaylistsPage(category.title, category.params, [
    { title: `${category.title} essentials`, playlists: lists.slice(0, half) },
    { title: `More ${category.title}`, playlists: lists.slice(half) },
  ]);
}

function exploreHub(ctx: ApiContext): unknown {
  const store = ctx.state.store;
  // Explore's trending carousel shows the global video chart.
  const trending = store.charts.entries("ZZ", "videos")[0]?.targetId;
  return explorePage({
    newAlbums: store.charts.newestAlbums(12),
    moods: store.charts.moodCategories(16),
    episodes: store.charts.newestEpisodes(12),
    dates: datesOf(ctx),
    trending: {
      playlistId: trending ?? "",
      songs: trending ? store.playlists.playlistItems(trending, 0, 20) : [],
    },
    videos: store.catalogue.randomSongs(99, 12, "MUSIC_VIDEO_TYPE_OMV"),
    marks: marks(ctx),
    // Explore's top songs are the global chart's (docs/PROTOCOL.md#explore `top_songs`), premium only.
    topSongs: isPremium(ctx) ? topSongs(ctx, "ZZ") : null,
  });
}

export function exploreBrowse(ctx: ApiContext, browseId: string, params: string | null): unknown | null {
  switch (browseId) {
    case "FEmusic_home":
      return homeBrowse(ctx);
    case "FEmusic_charts":
      return chartsBrowse(ctx);
    case "FEmusic_moods_and_genres":
      return moodCategoriesPage(ctx.state.store.charts.moodSections());
    case "FEmusic_moods_and_genres_category":
      return moodBrowse(ctx, params);
    case "FEmusic_explore":
      return exploreHub(ctx);
    default:
      return null;
  }
}
