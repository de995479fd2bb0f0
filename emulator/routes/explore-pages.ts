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
import type { AlbumRow, ArtistRow, PlaylistRow, SongRow } from "../store/rows.js";
import { continuationToken } from "../tokens.js";
import { isPremium, premiumCharts, topSongs } from "./premium.js";
import { newestAlbums, newestEpisodes } from "./releases-pages.js";
import { saveTasteProfile } from "./track-pages.js";
import { accountId, marks } from "./viewer.js";

const HOME_ROWS_PER_PAGE = 3;
const HOME_ROWS = 12;

/** Listen again: pinned songs first, then the account's recent plays; random songs when signed out. */
function listenAgain(ctx: ApiContext, seed: number): SongRow[] {
  const store = ctx.state.store;
  const me = accountId(ctx);
  if (me === null) return store.randomSongs(seed, 12);
  const pinned = store
    .libraryTargets(me, "pin")
    .map((t) => store.song(t.targetId))
    .filter((x): x is SongRow => x !== null);
  const seen = new Set(pinned.map((x) => x.videoId));
  const recent = store.history(me).filter((h) => !seen.has(h.videoId) && seen.add(h.videoId));
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
  const latest = store.history(me)[0];
  const channelId = latest?.channelId ?? store.libraryTargets(me, "subscription")[0]?.targetId;
  const artist = channelId === undefined ? null : store.artist(channelId);
  return artist?.kind === "artist" ? artist : undefined;
}

function homeRows(ctx: ApiContext, from: number, to: number): Json[] {
  const store = ctx.state.store;
  const m = marks(ctx);
  const seed = (accountId(ctx) ?? 0) * 1000 + 17;
  const rows: Json[] = [];
  for (let i = from; i < to && i < HOME_ROWS; i++) {
    // Listen again is on the first page, beside albums (capture yt_set_taste_profile_20240723).
    const kind = (["quick", "albums", "songs", "playlists", "videos"] as const)[i % 5]!;
    const s = seed + i * 101;
    if (kind === "quick" || kind === "songs") {
      rows.push(
        homeRow(
          kind,
          kind === "quick" ? "Quick picks" : "Listen again",
          kind === "songs"
            ? { songs: listenAgain(ctx, s), artist: listenAgainArtist(ctx) }
            : { songs: store.randomSongs(s, 12) },
          m,
        ),
      );
    } else if (kind === "videos") {
      rows.push(
        homeRow(
          kind,
          "Recommended music videos",
          { songs: store.randomSongs(s, 10, "MUSIC_VIDEO_TYPE_OMV") },
          m,
        ),
      );
    } else if (kind === "albums") {
      const albums = store
        .st(`SELECT browse_id AS b FROM albums WHERE (id * 7 + ?) % 13 = 0 ORDER BY year DESC LIMIT 10`)
        .all(i) as { b: string }[];
      rows.push(
        homeRow(
          kind,
          "Albums for you",
          { albums: albums.map((a) => store.album(a.b)).filter((a): a is AlbumRow => !!a) },
          m,
        ),
      );
    } else {
      const lists = store
        .st(
          `SELECT playlist_id AS p FROM playlists WHERE kind IN ('editorial','mood') AND (id + ?) % 5 = 0 LIMIT 10`,
        )
        .all(i) as { p: string }[];
      rows.push(
        homeRow(
          kind,
          "Mixed for you",
          { playlists: lists.map((p) => store.playlist(p.p)).filter((p): p is PlaylistRow => !!p) },
          m,
        ),
      );
    }
  }
  return rows;
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
  const store = ctx.state.store;
  const ids = store
    .st("SELECT target_id AS t FROM charts WHERE country = ? AND section = 'albums' ORDER BY position")
    .all(country) as { t: string }[];
  if (ids.length === 0) return null;
  const albums = ids.map((r) => store.album(r.t)).filter((a): a is AlbumRow => a !== null);
  return chartAlbumsPage(albums, marks(ctx));
}

export function exploreBrowse(ctx: ApiContext, browseId: string, params: string | null): unknown | null {
  const store = ctx.state.store;
  switch (browseId) {
    case "FEmusic_home": {
      if (ctx.body.formData !== undefined) saveTasteProfile(ctx);
      const token = continuationToken({ k: "home", o: HOME_ROWS_PER_PAGE });
      return homePage(homeRows(ctx, 0, HOME_ROWS_PER_PAGE), token, false);
    }
    case "FEmusic_charts": {
      const form = ctx.body.formData as { selectedValues?: unknown } | undefined;
      const selected = Array.isArray(form?.selectedValues) ? form.selectedValues[0] : undefined;
      if (selected !== undefined && typeof selected !== "string") throw invalidArgument();
      const country = selected ?? ctx.location ?? "ZZ";
      const known = (CHART_COUNTRIES as readonly string[]).includes(country) ? country : "ZZ";
      const entries = store
        .st(
          "SELECT section, position, target_id AS targetId, trend FROM charts WHERE country = ? ORDER BY section, position",
        )
        .all(known) as { section: string; position: number; targetId: string; trend: string | null }[];
      const playlists = (section: string) =>
        entries
          .filter((e) => e.section === section)
          .map((e) => store.playlist(e.targetId))
          .filter((p): p is PlaylistRow => !!p);
      return chartsPage({
        country: known,
        countries: [...CHART_COUNTRIES],
        albums: entries
          .filter((e) => e.section === "albums")
          .map((e) => store.album(e.targetId))
          .filter((a): a is AlbumRow => a !== null),
        marks: marks(ctx),
        videos: playlists("videos"),
        genres: playlists("genres"),
        artists: entries
          .filter((e) => e.section === "artists")
          .map((e) => ({ artist: store.artist(e.targetId), rank: e.position, trend: e.trend }))
          .filter((a): a is { artist: ArtistRow; rank: number; trend: string | null } => a.artist !== null),
        signedIn: ctx.viewer !== null,
        ranked: ctx.viewer !== null || known !== "ZZ",
        premium: premiumCharts(ctx, known),
      });
    }
    case "FEmusic_moods_and_genres": {
      const rows = store.st("SELECT section, title, params FROM mood_categories ORDER BY id").all() as {
        section: string;
        title: string;
        params: string;
      }[];
      const sections: { title: string; items: { title: string; params: string }[] }[] = [];
      for (const r of rows) {
        let s = sections.find((x) => x.title === r.section);
        if (!s) {
          s = { title: r.section, items: [] };
          sections.push(s);
        }
        s.items.push({ title: r.title, params: r.params });
      }
      return moodCategoriesPage(sections);
    }
    case "FEmusic_moods_and_genres_category": {
      if (!params) throw invalidArgument();
      const normal = (p: string) => decodeURIComponent(p);
      const cat = (
        store.st("SELECT id, title, params FROM mood_categories").all() as {
          id: number;
          title: string;
          params: string;
        }[]
      ).find((c) => normal(c.params) === normal(params));
      if (!cat) throw notFound();
      const ids = store
        .st("SELECT playlist_id AS p FROM mood_playlists WHERE category_id = ? ORDER BY position")
        .all(cat.id) as { p: string }[];
      const lists = ids.map((r) => store.playlist(r.p)).filter((p): p is PlaylistRow => !!p);
      const half = Math.ceil(lists.length / 2);
      return moodPlaylistsPage(cat.title, cat.params, [
        { title: `${cat.title} essentials`, playlists: lists.slice(0, half) },
        { title: `More ${cat.title}`, playlists: lists.slice(half) },
      ]);
    }
    case "FEmusic_explore": {
      const moods = store.st("SELECT title, params FROM mood_categories ORDER BY id LIMIT 16").all() as {
        title: string;
        params: string;
      }[];
      const trending = store
        .st("SELECT target_id AS t FROM charts WHERE country = 'ZZ' AND section = 'videos'")
        .get() as { t: string } | undefined;
      return explorePage({
        newAlbums: newestAlbums(ctx, 12),
        moods,
        episodes: newestEpisodes(ctx, 12),
        trending: {
          playlistId: trending?.t ?? "",
          songs: trending ? store.playlistItems(trending.t, 0, 20) : [],
        },
        videos: store.randomSongs(99, 12, "MUSIC_VIDEO_TYPE_OMV"),
        marks: marks(ctx),
        // Explore's top songs are the global chart's (PROTOCOL §4.3 `top_songs`), premium only.
        topSongs: isPremium(ctx) ? topSongs(ctx, "ZZ") : null,
      });
    }
    default:
      return null;
  }
}
