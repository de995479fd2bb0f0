/** Browse pages of the catalogue: playlists, albums, artists. */
import type { ApiContext } from "../context.js";
import { invalidArgument, notFound } from "../errors.js";
import { stableSetVideoId } from "../random.js";
import { albumPage, albumSetVideoId } from "../render/album.js";
import {
  ALBUM_ORDERS,
  type AlbumOrder,
  ARTIST_PARAMS,
  artistAlbumsPage,
  artistAlbumsReload,
  artistPage,
} from "../render/artist.js";
import type { Marks } from "../render/items.js";
import {
  PLAYLIST_PAGE_SIZE,
  type PlaylistHead,
  type PlaylistView,
  playlistContinuation,
  playlistPage,
  relatedContinuation,
  suggestionsContinuation,
} from "../render/playlist.js";
import { episodeItem } from "../store/playlists.js";
import type { ArtistRow, PlaylistItemRow, PlaylistRow, SongRow } from "../store/rows.js";
import { type Continuation, continuationToken } from "../tokens.js";
import { accountId, marks, requireAccount } from "./viewer.js";

/** The view with the emulator's row cache, when it is on. */
function withRowCache<V extends PlaylistView>(ctx: ApiContext, view: V): V {
  const rows = ctx.state.rows;
  return rows === null ? view : { ...view, memo: (key, render) => rows.get(key, render) };
}

/**
 * The view of one page of a playlist — the viewer's liked songs (LM), saved episodes (SE), an
 * artist's songs or videos, an album, or a stored playlist — or 404 for unknown and others'
 * private lists. The viewer's marks on the page's rows are read in one go before rendering.
 */
export function playlistView(
  ctx: ApiContext,
  playlistId: string,
  offset: number,
  pageSize = PLAYLIST_PAGE_SIZE,
): PlaylistView {
  return viewOf(ctx, playlistId, offset, pageSize, false);
}

/** The first page of a playlist with its totals, as its header shows them. */
export function playlistHead(
  ctx: ApiContext,
  playlistId: string,
  pageSize = PLAYLIST_PAGE_SIZE,
): PlaylistHead {
  return viewOf(ctx, playlistId, 0, pageSize, true);
}

function viewOf(ctx: ApiContext, id: string, offset: number, size: number, totals: true): PlaylistHead;
function viewOf(ctx: ApiContext, id: string, offset: number, size: number, totals: false): PlaylistView;
function viewOf(
  ctx: ApiContext,
  playlistId: string,
  offset: number,
  pageSize: number,
  totals: boolean,
): PlaylistView {
  const m = marks(ctx);
  const view =
    playlistId === "LM"
      ? likedView(ctx, offset, m)
      : playlistId === "SE"
        ? savedEpisodesView(ctx, offset, m)
        : (catalogueView(ctx, playlistId, offset, m) ??
          storedView(ctx, playlistId, offset, pageSize, m, totals));
  m.prefetch(view.rows.map((r) => r.videoId));
  return view;
}

/**
 * A page of a list held whole (liked songs, an artist's songs, an album's tracks); `idOf` gives a
 * row its set-video id from its place in the whole list, for the page's rows only.
 */
function pageOf<T extends SongRow>(
  playlist: PlaylistRow,
  all: readonly T[],
  idOf: (row: T, index: number) => string,
  offset: number,
  m: Marks,
  more: Partial<PlaylistView> = {},
): PlaylistHead {
  const rows = all.slice(offset, offset + PLAYLIST_PAGE_SIZE);
  return {
    playlist,
    rows: rows.map((r, i) => ({ ...r, setVideoId: idOf(r, offset + i) })),
    offset,
    more: offset + rows.length < all.length,
    total: all.length,
    totalSeconds: all.reduce((n, s) => n + s.durationSeconds, 0),
    owned: false,
    marks: m,
    saved: false,
    ownerName: null,
    collaborators: [],
    ...more,
  };
}

function likedView(ctx: ApiContext, offset: number, m: Marks): PlaylistHead {
  const account = requireAccount(ctx);
  const liked = ctx.state.store.library.likedSongs(account.id);
  const idOf = (s: SongRow) => likedSetVideoId(s.videoId);
  return pageOf(virtualPlaylist("LM", "Liked Music", account.name), liked, idOf, offset, m, {
    ownerName: account.name,
  });
}

/** Saved episodes as playlist rows. */
function savedEpisodesView(ctx: ApiContext, offset: number, m: Marks): PlaylistHead {
  const account = requireAccount(ctx);
  const rows = ctx.state.store.library.savedEpisodes(account.id).map((e) => episodeItem(e, e.setVideoId));
  const idOf = (r: PlaylistItemRow) => r.setVideoId;
  return pageOf(virtualPlaylist("SE", "Episodes for Later", account.name), rows, idOf, offset, m, {
    owned: true,
    ownerName: account.name,
  });
}

/** An artist's songs or videos (`OLAK5uy_<channel>_songs`), or an album's tracks; null for neither. */
function catalogueView(ctx: ApiContext, playlistId: string, offset: number, m: Marks): PlaylistHead | null {
  const catalogue = ctx.state.store.catalogue;
  const artistSongs = /^OLAK5uy_(.{22})_(songs|videos)$/.exec(playlistId);
  if (artistSongs) {
    const artist = catalogue.artist(`UC${artistSongs[1]}`);
    if (!artist) throw notFound();
    const kind = artistSongs[2] as "songs" | "videos";
    const type = kind === "songs" ? "MUSIC_VIDEO_TYPE_ATV" : "MUSIC_VIDEO_TYPE_OMV";
    const songs = catalogue.artistSongs(artist.id, type, 500);
    const playlist = {
      ...virtualPlaylist(playlistId, `${artist.name}: ${kind}`, artist.name),
      authorChannelId: artist.channelId,
    };
    return pageOf(playlist, songs, (_, i) => stableSetVideoId(`${playlistId}:${i}`), offset, m);
  }
  const album = playlistId.startsWith("OLAK5uy_") ? catalogue.albumByAudioPlaylist(playlistId) : null;
  if (!album) return null;
  const tracks = catalogue.albumTracks(album.id);
  const playlist = {
    ...virtualPlaylist(playlistId, album.title, album.artistName),
    authorChannelId: album.channelId,
  };
  const idOf = (_: SongRow, i: number) => albumSetVideoId(album, i);
  return pageOf(playlist, tracks, idOf, offset, m, { saved: m.saved(playlistId) });
}

/** A playlist the store holds: its page of rows, and its totals when asked for. */
function storedView(
  ctx: ApiContext,
  playlistId: string,
  offset: number,
  pageSize: number,
  m: Marks,
  totals: boolean,
): PlaylistView | PlaylistHead {
  const store = ctx.state.store;
  const me = accountId(ctx);
  const playlist = store.playlists.playlist(playlistId);
  if (!playlist) throw notFound();
  const owned = me !== null && playlist.ownerAccountId === me;
  const collaborator = me !== null && store.library.inLibrary(me, "collaboration", playlistId);
  if (playlist.privacy === "PRIVATE" && !owned && !collaborator) throw notFound();
  const view = {
    playlist,
    offset,
    owned,
    marks: m,
    saved: m.saved(playlistId),
    ownerName: owned ? (ctx.viewer?.account.name ?? null) : null,
    collaborators: collaboratorsOf(ctx, playlist),
  };
  if (!totals) return { ...view, ...store.playlists.rowsFrom(playlistId, offset, pageSize) };
  const page = store.playlists.page(playlistId, offset, pageSize);
  return {
    ...view,
    rows: page.rows,
    more: offset + page.rows.length < page.count,
    total: page.count,
    totalSeconds: page.seconds,
  };
}

/** The owner then the collaborators of a shared playlist; empty when nobody joined it. */
function collaboratorsOf(ctx: ApiContext, playlist: PlaylistRow): { name: string; channelId: string }[] {
  const rows = ctx.state.store.playlists.collaborators(playlist.playlistId);
  if (!rows.length || playlist.ownerAccountId === null) return [];
  const owner = ctx.state.store.accounts.account(playlist.ownerAccountId);
  return owner ? [{ name: owner.name, channelId: owner.channelId }, ...rows] : rows;
}

function virtualPlaylist(playlistId: string, title: string, author: string): PlaylistRow {
  return {
    id: 0,
    playlistId,
    title,
    description: "",
    ownerAccountId: null,
    authorName: author,
    authorChannelId: null,
    privacy: playlistId === "LM" ? "PRIVATE" : "PUBLIC",
    kind: "auto",
    addToTop: false,
    views: 0,
    createdAt: Date.UTC(2026, 0, 1),
  };
}

/** Liked-songs rows need stable setVideoIds too (derived from the video id). */
export const likedSetVideoId = (videoId: string): string => stableSetVideoId(`LM:${videoId}`);

export function playlistBrowse(ctx: ApiContext, browseId: string): unknown {
  return playlistPage(withRowCache(ctx, playlistHead(ctx, browseId.slice(2))));
}

export function playlistNext(ctx: ApiContext, playlistId: string, offset: number): unknown {
  return playlistContinuation(withRowCache(ctx, playlistView(ctx, playlistId, offset)));
}

export function playlistSuggestions(ctx: ApiContext, playlistId: string, round: number): unknown {
  const store = ctx.state.store;
  const seed = [...playlistId].reduce((n, c) => n * 31 + c.charCodeAt(0), round) >>> 0;
  return suggestionsContinuation(playlistId, store.catalogue.randomSongs(seed, 7), marks(ctx));
}

export function playlistRelated(ctx: ApiContext, playlistId: string): unknown {
  const store = ctx.state.store;
  const ids = store.playlists.publicPlaylistsBesides(playlistId, 200);
  const start = ids.length ? [...playlistId].reduce((n, c) => n + c.charCodeAt(0), 0) % ids.length : 0;
  const picked = Array.from(
    { length: Math.min(6, ids.length) },
    (_, i) => ids[(start + i * 7) % ids.length]!,
  );
  return relatedContinuation(
    picked
      .map((id) => store.playlists.playlist(id))
      .filter((p) => p !== null)
      .map((p) => ({ playlist: p, count: store.playlists.playlistStats(p.playlistId).count })),
  );
}

export function albumBrowse(ctx: ApiContext, browseId: string): unknown {
  const store = ctx.state.store;
  const album = store.catalogue.album(browseId);
  if (!album) throw notFound();
  return albumPage({
    album,
    tracks: store.catalogue.albumTracks(album.id),
    others: store.catalogue.otherAlbums(album, 8),
    marks: marks(ctx),
  });
}

/** The albums or singles grid of an artist, in one of the three orders of the sort menu. */
export function artistAlbums(
  ctx: ApiContext,
  artist: ArtistRow,
  params: string,
  order: AlbumOrder,
  reload = false,
): unknown {
  const store = ctx.state.store;
  const p = decodeURIComponent(params);
  const singles = p === decodeURIComponent(ARTIST_PARAMS.singles);
  if (!singles && p !== decodeURIComponent(ARTIST_PARAMS.albums)) throw invalidArgument();
  const title = singles ? "Singles & EPs" : "Albums";
  const albums = store.catalogue.artistAlbums(artist.id, singles ? ["Single", "EP"] : ["Album"], order);
  if (reload) return artistAlbumsReload(albums, marks(ctx), title);
  return artistAlbumsPage(albums, marks(ctx), title, order, (o) =>
    continuationToken({ k: "artist-albums", id: artist.channelId, o: 0, p: params, order: o }),
  );
}

export function artistBrowse(ctx: ApiContext, channelId: string, params: string | null): unknown | null {
  const store = ctx.state.store;
  const artist = store.catalogue.artist(channelId);
  if (artist?.kind !== "artist") return null;
  const m = marks(ctx);
  if (params) return artistAlbums(ctx, artist, params, "Recency");
  const me = accountId(ctx);
  const related = store.catalogue.relatedArtists(artist.id, 7, 6);
  return artistPage({
    artist,
    songs: store.catalogue.artistSongs(artist.id, "MUSIC_VIDEO_TYPE_ATV", 5),
    albums: store.catalogue.artistAlbums(artist.id, ["Album"], "Recency", 10),
    singles: store.catalogue.artistAlbums(artist.id, ["Single", "EP"], "Recency", 10),
    videos: store.catalogue.artistSongs(artist.id, "MUSIC_VIDEO_TYPE_OMV", 10),
    related,
    subscribed: me !== null && store.library.inLibrary(me, "subscription", channelId),
    marks: m,
    // One artist in five has the two-column page, so clients meet both layouts.
    twoColumn: artist.id % 5 === 0,
    language: ctx.language,
  });
}

/** A sort choice of the artist's album grid (shape B reload token). */
export function artistAlbumsContinuation(ctx: ApiContext, c: Continuation): unknown {
  const artist = typeof c.id === "string" ? ctx.state.store.catalogue.artist(c.id) : null;
  const order = ALBUM_ORDERS.find((o) => o === c.order);
  if (!artist || !order || typeof c.p !== "string") throw invalidArgument("Invalid continuation token.");
  return artistAlbums(ctx, artist, c.p, order, true);
}
