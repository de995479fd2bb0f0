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
import {
  PLAYLIST_PAGE_SIZE,
  type PlaylistView,
  playlistContinuation,
  playlistPage,
  relatedContinuation,
  suggestionsContinuation,
} from "../render/playlist.js";
import type { ArtistRow, PlaylistItemRow, PlaylistRow } from "../store/rows.js";
import { type Continuation, continuationToken } from "../tokens.js";
import { accountId, marks, requireAccount } from "./viewer.js";

/** Builds the view of one page of a playlist, or throws 404 for unknown and others' private lists. */
/** The view with the emulator's row cache, when it is on. */
function withRowCache(ctx: ApiContext, view: PlaylistView): PlaylistView {
  const rows = ctx.state.rows;
  return rows === null ? view : { ...view, memo: (key, render) => rows.get(key, render) };
}

export function playlistView(
  ctx: ApiContext,
  playlistId: string,
  offset: number,
  pageSize = PLAYLIST_PAGE_SIZE,
): PlaylistView {
  const store = ctx.state.store;
  const me = accountId(ctx);
  const m = marks(ctx);
  if (playlistId === "LM") {
    const account = requireAccount(ctx);
    const liked = store.likedSongs(account.id);
    const rows: PlaylistItemRow[] = liked
      .slice(offset, offset + PLAYLIST_PAGE_SIZE)
      .map((s) => ({ ...s, setVideoId: likedSetVideoId(s.videoId) }));
    return {
      playlist: virtualPlaylist("LM", "Liked Music", account.name),
      rows,
      offset,
      total: liked.length,
      totalSeconds: liked.reduce((n, s) => n + s.durationSeconds, 0),
      owned: false,
      marks: m,
      saved: false,
      ownerName: account.name,
      collaborators: [],
    };
  }
  if (playlistId === "SE") {
    const account = requireAccount(ctx);
    const saved = store.savedEpisodes(account.id);
    const rows: PlaylistItemRow[] = saved.slice(offset, offset + PLAYLIST_PAGE_SIZE).map((e) => ({
      videoId: e.videoId,
      title: e.title,
      artistId: 0,
      artistName: e.podcastTitle,
      channelId: `MPSP${e.podcastPlaylistId}`,
      albumId: null,
      albumBrowseId: null,
      albumTitle: null,
      albumAudioPlaylistId: null,
      year: null,
      trackNumber: null,
      durationSeconds: e.durationSeconds,
      views: 0,
      explicit: false,
      available: true,
      videoType: "MUSIC_VIDEO_TYPE_PODCAST_EPISODE",
      counterpartId: null,
      lyricsSource: null,
      setVideoId: e.setVideoId,
    }));
    return {
      playlist: virtualPlaylist("SE", "Episodes for Later", account.name),
      rows,
      offset,
      total: saved.length,
      totalSeconds: saved.reduce((n, e) => n + e.durationSeconds, 0),
      owned: true,
      marks: m,
      saved: false,
      ownerName: account.name,
      collaborators: [],
    };
  }
  const artistSongs = /^OLAK5uy_(.{22})_(songs|videos)$/.exec(playlistId);
  if (artistSongs) {
    const artist = store.artist(`UC${artistSongs[1]}`);
    if (!artist) throw notFound();
    const kind = artistSongs[2] as "songs" | "videos";
    const songs = store.artistSongs(
      artist.id,
      kind === "songs" ? "MUSIC_VIDEO_TYPE_ATV" : "MUSIC_VIDEO_TYPE_OMV",
      500,
    );
    return {
      playlist: {
        ...virtualPlaylist(playlistId, `${artist.name}: ${kind}`, artist.name),
        authorChannelId: artist.channelId,
      },
      rows: songs
        .slice(offset, offset + PLAYLIST_PAGE_SIZE)
        .map((s, i) => ({ ...s, setVideoId: stableSetVideoId(`${playlistId}:${offset + i}`) })),
      offset,
      total: songs.length,
      totalSeconds: songs.reduce((n, s) => n + s.durationSeconds, 0),
      owned: false,
      marks: m,
      saved: false,
      ownerName: null,
      collaborators: [],
    };
  }
  const album = playlistId.startsWith("OLAK5uy_") ? store.albumByAudioPlaylist(playlistId) : null;
  if (album) {
    const tracks = store.albumTracks(album.id);
    return {
      playlist: {
        ...virtualPlaylist(playlistId, album.title, album.artistName),
        authorChannelId: album.channelId,
      },
      rows: tracks
        .slice(offset, offset + PLAYLIST_PAGE_SIZE)
        .map((t, i) => ({ ...t, setVideoId: albumSetVideoId(album, offset + i) })),
      offset,
      total: tracks.length,
      totalSeconds: tracks.reduce((n, s) => n + s.durationSeconds, 0),
      owned: false,
      marks: m,
      saved: m.saved(playlistId),
      ownerName: null,
      collaborators: [],
    };
  }
  const playlist = store.playlist(playlistId);
  if (!playlist) throw notFound();
  const owned = me !== null && playlist.ownerAccountId === me;
  const collaborator = me !== null && store.inLibrary(me, "collaboration", playlistId);
  if (playlist.privacy === "PRIVATE" && !owned && !collaborator) throw notFound();
  const stats = store.playlistStats(playlistId);
  return {
    playlist,
    rows: store.playlistItems(playlistId, offset, pageSize),
    offset,
    total: stats.count,
    totalSeconds: stats.seconds,
    owned,
    marks: m,
    saved: m.saved(playlistId),
    ownerName: owned ? (ctx.viewer?.account.name ?? null) : null,
    collaborators: collaboratorsOf(ctx, playlist),
  };
}

/** The owner then the collaborators of a shared playlist; empty when nobody joined it. */
function collaboratorsOf(ctx: ApiContext, playlist: PlaylistRow): { name: string; channelId: string }[] {
  const rows = ctx.state.store
    .st(
      `SELECT a.name, a.channel_id AS channelId FROM library_items l JOIN accounts a ON a.id = l.account_id
       WHERE l.kind = 'collaboration' AND l.target_id = ? ORDER BY l.added_at, l.id`,
    )
    .all(playlist.playlistId) as { name: string; channelId: string }[];
  if (!rows.length || playlist.ownerAccountId === null) return [];
  const owner = ctx.state.store.account(playlist.ownerAccountId);
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
  return playlistPage(withRowCache(ctx, playlistView(ctx, browseId.slice(2), 0)));
}

export function playlistNext(ctx: ApiContext, playlistId: string, offset: number): unknown {
  return playlistContinuation(withRowCache(ctx, playlistView(ctx, playlistId, offset)));
}

export function playlistSuggestions(ctx: ApiContext, playlistId: string, round: number): unknown {
  const store = ctx.state.store;
  const seed = [...playlistId].reduce((n, c) => n * 31 + c.charCodeAt(0), round) >>> 0;
  return suggestionsContinuation(playlistId, store.randomSongs(seed, 7), marks(ctx));
}

export function playlistRelated(ctx: ApiContext, playlistId: string): unknown {
  const store = ctx.state.store;
  const rows = store
    .st(
      "SELECT playlist_id AS id FROM playlists WHERE kind IN ('editorial','community') AND playlist_id != ? ORDER BY id LIMIT 200",
    )
    .all(playlistId) as { id: string }[];
  const start = rows.length ? [...playlistId].reduce((n, c) => n + c.charCodeAt(0), 0) % rows.length : 0;
  const picked = Array.from(
    { length: Math.min(6, rows.length) },
    (_, i) => rows[(start + i * 7) % rows.length]!.id,
  );
  return relatedContinuation(
    picked
      .map((id) => store.playlist(id))
      .filter((p) => p !== null)
      .map((p) => ({ playlist: p, count: store.playlistStats(p.playlistId).count })),
  );
}

export function albumBrowse(ctx: ApiContext, browseId: string): unknown {
  const store = ctx.state.store;
  const album = store.album(browseId);
  if (!album) throw notFound();
  return albumPage({
    album,
    tracks: store.albumTracks(album.id),
    others: store.otherAlbums(album, 8),
    marks: marks(ctx),
  });
}

const ALBUM_SQL_ORDER: Record<AlbumOrder, string> = {
  Recency: "al.year DESC, al.id",
  Popularity: "(SELECT coalesce(sum(views), 0) FROM songs s WHERE s.album_id = al.id) DESC, al.id",
  "Alphabetical order": "al.title COLLATE NOCASE, al.id",
};

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
  const albums = store.artistAlbums(
    artist.id,
    singles ? ["Single", "EP"] : ["Album"],
    ALBUM_SQL_ORDER[order],
  );
  if (reload) return artistAlbumsReload(albums, marks(ctx), title);
  return artistAlbumsPage(albums, marks(ctx), title, order, (o) =>
    continuationToken({ k: "artist-albums", id: artist.channelId, o: 0, p: params, order: o }),
  );
}

export function artistBrowse(ctx: ApiContext, channelId: string, params: string | null): unknown | null {
  const store = ctx.state.store;
  const artist = store.artist(channelId);
  if (artist?.kind !== "artist") return null;
  const m = marks(ctx);
  if (params) return artistAlbums(ctx, artist, params, "Recency");
  const me = accountId(ctx);
  const related = store
    .st(
      "SELECT channel_id AS c FROM artists WHERE kind = 'artist' AND id != ? AND (id % 7) = (? % 7) LIMIT 6",
    )
    .all(artist.id, artist.id) as { c: string }[];
  return artistPage({
    artist,
    songs: store.artistSongs(artist.id, "MUSIC_VIDEO_TYPE_ATV", 5),
    albums: store.artistAlbums(artist.id, ["Album"], "al.year DESC", 10),
    singles: store.artistAlbums(artist.id, ["Single", "EP"], "al.year DESC", 10),
    videos: store.artistSongs(artist.id, "MUSIC_VIDEO_TYPE_OMV", 10),
    related: store.artistsByIds(related.map((r) => r.c)),
    subscribed: me !== null && store.inLibrary(me, "subscription", channelId),
    marks: m,
    // One artist in five has the two-column page, so clients meet both layouts.
    twoColumn: artist.id % 5 === 0,
    language: ctx.language,
  });
}

/** A sort choice of the artist's album grid (shape B reload token). */
export function artistAlbumsContinuation(ctx: ApiContext, c: Continuation): unknown {
  const artist = typeof c.id === "string" ? ctx.state.store.artist(c.id) : null;
  const order = ALBUM_ORDERS.find((o) => o === c.order);
  if (!artist || !order || typeof c.p !== "string") throw invalidArgument("Invalid continuation token.");
  return artistAlbums(ctx, artist, c.p, order, true);
}
