/**
 * `search` and `music/get_search_suggestions`. The `params` are decoded as the protobuf they are
 * (search-params.ts), so every client's encoding of a filter or scope gets the same page.
 */
import { ISRC } from "../catalogue/isrcs.js";
import type { ApiContext } from "../context.js";
import { invalidArgument } from "../errors.js";
import type { Json } from "../render/common.js";
import type { Marks } from "../render/items.js";
import { uploadRow } from "../render/library.js";
import {
  noResults,
  type SearchFilter,
  type SearchItem,
  type SearchView,
  SHELF_TITLES,
  searchContinuation,
  searchLink,
  searchPage,
  searchRow,
  shelf,
  topResultCard,
} from "../render/search.js";
import { decodeSearchParams, type SearchScope } from "../search-params.js";
import type { AlbumRow, ArtistRow, PlaylistRow, PodcastRow, SongRow } from "../store/rows.js";
import { continuationToken, feedbackToken, readContinuation } from "../tokens.js";
import { continuationOf } from "./browse.js";
import { marks, requireAccount, str } from "./viewer.js";

const FILTERED_PAGE = 20;
const UNFILTERED_SHELF = 3;

/** Results of one category for the query, in the scope. */
function results(
  ctx: ApiContext,
  query: string,
  filter: SearchFilter,
  scope: SearchScope,
  offset: number,
  limit: number,
): SearchItem[] {
  const store = ctx.state.store;
  const isrc = scope === "catalogue" ? isrcSong(ctx, query) : undefined;
  if (isrc !== undefined) {
    // A query that is exactly a known ISRC finds that song alone (docs/PROTOCOL.md#search).
    return filter === "songs" && offset === 0 && limit > 0 ? [{ type: "song", row: isrc }] : [];
  }
  if (scope === "library") {
    const account = requireAccount(ctx);
    const q = query.toLowerCase();
    const all = libraryItems(ctx, account.id, filter).filter((i) => itemText(i).includes(q));
    return all.slice(offset, offset + limit);
  }
  switch (filter) {
    case "songs":
    case "videos":
      return store.catalogue.searchSongs(filter, query, offset, limit).map((row) => ({
        type: filter === "songs" ? "song" : "video",
        row,
      }));
    case "albums":
      return store.catalogue.searchAlbums(query, offset, limit).map((row) => ({
        type: "album",
        row,
      }));
    case "artists":
      return store.catalogue.searchArtists(query, offset, limit).map((row) => ({
        type: "artist",
        row,
      }));
    case "profiles":
      return store.accounts.searchProfiles(query, offset, limit).map((row) => ({
        type: "profile",
        row,
      }));
    case "podcasts":
      return store.catalogue.searchPodcasts(query, offset, limit).map((row) => ({
        type: "podcast",
        row,
      }));
    case "episodes":
      return store.catalogue.searchEpisodes(query, offset, limit).map((row) => ({
        type: "episode",
        row,
      }));
    default: {
      const rows: PlaylistRow[] =
        filter === "playlists"
          ? store.playlists.search(query, "all", offset, limit)
          : store.playlists.search(
              query,
              filter === "featured_playlists" ? "editorial" : "community",
              offset,
              limit,
            );
      return rows.map((row) => ({
        type: "playlist",
        row,
        count: store.playlists.playlistStats(row.playlistId).count,
      }));
    }
  }
}

/**
 * The song a query names by its ISRC (written without dashes, any case), or undefined when the
 * query is not one the catalogue knows: such a query is searched as words.
 */
function isrcSong(ctx: ApiContext, query: string): SongRow | undefined {
  const q = query.trim().toUpperCase();
  if (!ISRC.test(q)) return undefined;
  return ctx.state.store.catalogue.songByIsrc(q) ?? undefined;
}

function itemText(i: SearchItem): string {
  switch (i.type) {
    case "song":
    case "video":
      return `${i.row.title} ${i.row.artistName}`.toLowerCase();
    case "album":
      return `${i.row.title} ${i.row.artistName}`.toLowerCase();
    case "artist":
      return i.row.name.toLowerCase();
    case "playlist":
      return `${i.row.title} ${i.row.authorName}`.toLowerCase();
    case "podcast":
      return `${i.row.title} ${i.row.channelName}`.toLowerCase();
    case "episode":
      return `${i.row.title} ${i.row.podcastTitle}`.toLowerCase();
    case "profile":
      return `${i.row.name} ${i.row.handle}`.toLowerCase();
  }
}

function libraryItems(ctx: ApiContext, accountId: number, filter: SearchFilter): SearchItem[] {
  const store = ctx.state.store;
  switch (filter) {
    case "songs":
    case "videos":
      return store.library
        .libraryTargets(accountId, "song")
        .map((t) => store.catalogue.song(t.targetId))
        .filter((s): s is SongRow => !!s && (filter === "songs") === (s.videoType === "MUSIC_VIDEO_TYPE_ATV"))
        .map((row) => ({ type: filter === "songs" ? "song" : "video", row }));
    case "albums":
      return store.library
        .likedPlaylistIds(accountId)
        .map((p) => store.catalogue.albumByAudioPlaylist(p))
        .filter((a): a is AlbumRow => !!a)
        .map((row) => ({ type: "album", row }));
    case "artists":
      return store.library
        .libraryTargets(accountId, "subscription")
        .map((t) => store.catalogue.artist(t.targetId))
        .filter((a): a is ArtistRow => !!a && a.kind === "artist")
        .map((row) => ({ type: "artist", row }));
    case "playlists":
      return store.playlists.playlistsOf(accountId).map((row) => ({
        type: "playlist",
        row,
        count: store.playlists.playlistStats(row.playlistId).count,
      }));
    case "podcasts":
      return store.library
        .likedPlaylistIds(accountId)
        .map((p) => store.catalogue.podcast(p))
        .filter((p): p is PodcastRow => !!p)
        .map((row) => ({ type: "podcast", row }));
    case "episodes":
      return store.library.savedEpisodes(accountId).map((row) => ({ type: "episode", row }));
    default:
      return [];
  }
}

const UNFILTERED: SearchFilter[] = [
  "songs",
  "videos",
  "albums",
  "artists",
  "community_playlists",
  "featured_playlists",
  "podcasts",
  "episodes",
  "profiles",
];
const LIBRARY_UNFILTERED: SearchFilter[] = [
  "songs",
  "videos",
  "albums",
  "artists",
  "playlists",
  "podcasts",
  "episodes",
];

function uploadsSearch(
  ctx: ApiContext,
  query: string,
  offset: number,
): { rows: Json[]; token: string | null } {
  const account = requireAccount(ctx);
  const q = query.toLowerCase();
  const store = ctx.state.store;
  const m = marks(ctx);
  const hits = store.library
    .uploads(account.id)
    .filter((u) => `${u.title} ${u.artistName}`.toLowerCase().includes(q));
  const page = hits.slice(offset, offset + FILTERED_PAGE);
  // Upload rows are the library's upload rows (their menu deletes the upload), docs/PROTOCOL.md#uploads.
  const rows = page.map((u) => uploadRow(u, m.likeStatus(u.videoId)));
  const next = offset + FILTERED_PAGE;
  return {
    rows,
    token:
      next < hits.length
        ? continuationToken({ k: "search", q: query, f: "uploads", s: "uploads", o: next })
        : null,
  };
}

/**
 * A public playlist or a podcast called exactly what was searched for: the service makes it the
 * top result (capture yt_search_basic_with_podcast_community_playlists_20250605), even when more
 * popular playlists also match and fill the shelf.
 */
function namedCollection(ctx: ApiContext, q: string): SearchItem | null {
  const same = (title: string) => title.toLowerCase() === q.toLowerCase();
  const store = ctx.state.store;
  // The rows alone: a playlist item's row count costs a query, and a hundred rows may match.
  for (const kind of ["community", "editorial"] as const) {
    const row = store.playlists.search(q, kind, 0, 100).find((p) => same(p.title));
    if (row) return { type: "playlist", row, count: store.playlists.playlistStats(row.playlistId).count };
  }
  const podcast = store.catalogue.searchPodcasts(q, 0, 100).find((p) => same(p.title));
  return podcast ? { type: "podcast", row: podcast } : null;
}

/** A continuation of a filtered (or uploads) shelf. */
function searchMore(ctx: ApiContext, token: string): Json {
  const c = readContinuation(token);
  if (c?.k !== "search" || typeof c.q !== "string" || typeof c.f !== "string")
    throw invalidArgument("Invalid continuation token.");
  if (c.s === "uploads") {
    const r = uploadsSearch(ctx, c.q, c.o);
    return searchContinuation(r.rows, r.token);
  }
  const filter = c.f as SearchFilter;
  const scope = c.s === "library" ? "library" : "catalogue";
  const items = results(ctx, c.q, filter, scope, c.o, FILTERED_PAGE + 1);
  const next =
    items.length > FILTERED_PAGE
      ? continuationToken({ k: "search", q: c.q, f: filter, s: scope, o: c.o + FILTERED_PAGE })
      : null;
  const m = marks(ctx);
  return searchContinuation(
    items.slice(0, FILTERED_PAGE).map((i) => cachedRow(ctx, i, m, false)),
    next,
  );
}

/**
 * A result row; song and video rows go through the emulator's row cache (a search page is 20 of
 * them, ~8 KB each: serializing, encoding and compressing them was most of an uncached search).
 * The key names every input of such a row: its kind, the page's layout, the song's database row
 * and the viewer's marks on it.
 */
function cachedRow(ctx: ApiContext, item: SearchItem, m: Marks, typed: boolean): Json {
  const cache = ctx.state.rows;
  if (cache === null || (item.type !== "song" && item.type !== "video")) return searchRow(item, m, typed);
  const key = [
    "search",
    item.type,
    typed,
    m.signedIn,
    m.likeStatus(item.row.videoId),
    m.inLibrary("song", item.row.videoId),
    JSON.stringify(item.row),
  ].join("\u0001");
  // A RawJson stands where the row's object would be and serializes as it.
  return cache.get(key, () => searchRow(item, m, typed)) as unknown as Json;
}

function view(
  ctx: ApiContext,
  query: string,
  scope: SearchScope,
  filtered: boolean,
  chips: SearchFilter[] = [],
): SearchView {
  return { query, scope, filtered, chips, selected: null, signedIn: ctx.viewer !== null };
}

function uploadsPage(ctx: ApiContext, q: string): Json {
  const r = uploadsSearch(ctx, q, 0);
  const sections = r.rows.length ? [shelf("Uploads", r.rows, r.token)] : [noResults(q)];
  return searchPage(view(ctx, q, "uploads", false), sections);
}

/**
 * The library's chip row names the categories the library has hits in (capture
 * yt_search_library_albums_20231228: Artists, Albums, Songs, in that order).
 */
const LIBRARY_CHIPS: SearchFilter[] = [
  "artists",
  "albums",
  "songs",
  "videos",
  "playlists",
  "podcasts",
  "episodes",
];

function chipsFor(ctx: ApiContext, q: string, scope: SearchScope): SearchFilter[] {
  if (scope !== "library") return UNFILTERED;
  return LIBRARY_CHIPS.filter((f) => results(ctx, q, f, "library", 0, 1).length > 0);
}

function filteredPage(ctx: ApiContext, q: string, filter: SearchFilter, scope: SearchScope): Json {
  const m = marks(ctx);
  const items = q ? results(ctx, q, filter, scope, 0, FILTERED_PAGE + 1) : [];
  if (!items.length) return searchPage(view(ctx, q, scope, true), [noResults(q)]);
  const token =
    items.length > FILTERED_PAGE
      ? continuationToken({ k: "search", q, f: filter, s: scope, o: FILTERED_PAGE })
      : null;
  const rows = items.slice(0, FILTERED_PAGE).map((i) => cachedRow(ctx, i, m, false));
  const podcast = filter === "playlists" && scope === "catalogue" ? playlistsPodcast(ctx, q) : null;
  if (podcast) rows.splice(Math.min(PODCAST_POSITION, rows.length), 0, cachedRow(ctx, podcast, m, false));
  // The catalogue's "playlists" filter answers as Community playlists, its chip selected and its
  // shelf so titled (capture yt_search_playlists_20231228, asked with the playlists params).
  const selected = filter === "playlists" && scope === "catalogue" ? "community_playlists" : filter;
  const page = { ...view(ctx, q, scope, true, chipsFor(ctx, q, scope)), selected };
  return searchPage(page, [shelf(SHELF_TITLES[selected], rows, token)]);
}

function unfilteredPage(ctx: ApiContext, q: string, scope: SearchScope): Json {
  const m = marks(ctx);
  const categories = scope === "library" ? LIBRARY_UNFILTERED : UNFILTERED;
  const sections: Json[] = [];
  let top: SearchItem | null = null;
  for (const filter of categories) {
    const items = q ? results(ctx, q, filter, scope, 0, UNFILTERED_SHELF) : [];
    if (!items.length) continue;
    if (scope === "catalogue" && !top && (filter === "songs" || filter === "artists" || filter === "albums"))
      top = items[0]!;
    // "Show all" opens the category's filtered page (bottomEndpoint in capture
    // yt_search_basic_top_result_20231228 carries the filter's params).
    const more = searchLink(q, filter, scope);
    sections.push(
      shelf(
        SHELF_TITLES[filter],
        items.map((i) => cachedRow(ctx, i, m, true)),
        null,
        more,
      ),
    );
  }
  if (!sections.length) return searchPage(view(ctx, q, scope, false), [noResults(q)]);
  if (scope === "catalogue") top = namedCollection(ctx, q) ?? top;
  if (top) sections.unshift(topResultCard(top, m, ctx.language));
  // The catalogue page carries the chip row, the library tab none (no capture shows one).
  return searchPage(view(ctx, q, scope, false, scope === "catalogue" ? UNFILTERED : []), sections);
}

export function search(ctx: ApiContext): unknown {
  const token = continuationOf(ctx);
  if (token) return searchMore(ctx, token);
  const query = ctx.body.query;
  if (typeof query !== "string") throw invalidArgument("'query' is required.");
  if (ctx.body.params !== undefined && typeof ctx.body.params !== "string") throw invalidArgument();
  const mode = decodeSearchParams(str(ctx, "params"));
  const q = query.trim();
  // The uploads tab has no categories: a filter sent with it changes nothing.
  if (mode.scope === "uploads") return uploadsPage(ctx, q);
  return mode.filter ? filteredPage(ctx, q, mode.filter, mode.scope) : unfilteredPage(ctx, q, mode.scope);
}

/**
 * The playlists filter's first page holds one podcast matching the query beside its playlists (an
 * extra row: the 21st, 11th from the top in capture yt_search_playlists_20231228); continuation
 * pages hold playlists only.
 */
const PODCAST_POSITION = 10;

function playlistsPodcast(ctx: ApiContext, q: string): SearchItem | null {
  const row = ctx.state.store.catalogue.searchPodcasts(q, 0, 1)[0];
  return row ? { type: "podcast", row, pin: true } : null;
}

export function suggestions(ctx: ApiContext): unknown {
  const input = ctx.body.input;
  if (typeof input !== "string") throw invalidArgument("'input' is required.");
  const q = input.trim().toLowerCase();
  if (!q) return { responseContext: {} };
  const store = ctx.state.store;
  const titles = new Set<string>();
  const c = store.catalogue;
  const names = [
    ...c.searchArtists(q, 0, 5).map((a) => a.name),
    ...c.searchSongs("songs", q, 0, 5).map((s) => s.title),
    ...c.searchAlbums(q, 0, 5).map((a) => a.title),
  ];
  for (const name of names) {
    const t = name.toLowerCase();
    if (t.includes(q)) titles.add(t);
  }
  const items: Json[] = [];
  const me = ctx.viewer?.account.id ?? null;
  for (const t of [...titles].slice(0, 7)) {
    const i = t.indexOf(q);
    const runs: Json[] = [];
    if (i > 0) runs.push({ text: t.slice(0, i) });
    runs.push({ text: t.slice(i, i + q.length), bold: true });
    if (i + q.length < t.length) runs.push({ text: t.slice(i + q.length) });
    const renderer: Json = {
      suggestion: { runs },
      navigationEndpoint: { searchEndpoint: { query: t } },
      icon: { iconType: "SEARCH" },
    };
    // The first suggestion of a signed-in user comes "from history" and can be removed.
    if (me !== null && items.length === 0) {
      renderer.serviceEndpoint = {
        feedbackEndpoint: { feedbackToken: feedbackToken({ a: "suggestion", kind: "query", id: t }) },
      };
      renderer.icon = { iconType: "HISTORY" };
      items.push({ historySuggestionRenderer: renderer });
    } else {
      items.push({ searchSuggestionRenderer: renderer });
    }
  }
  if (!items.length) return { responseContext: {} };
  return { contents: [{ searchSuggestionsSectionRenderer: { contents: items } }] };
}
