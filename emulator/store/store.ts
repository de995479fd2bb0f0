/**
 * Read and write access to the emulator's state. Reads use prepared statements on the raw
 * better-sqlite3 handle (they are the hot path of every page); writes go through `tx`, one SQLite
 * transaction per request, so a failed request changes nothing.
 */
import type Database from "better-sqlite3";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "./db.js";
import type {
  AccountRow,
  AlbumRow,
  ArtistRow,
  EpisodeRow,
  PlaylistItemRow,
  PlaylistRow,
  PodcastRow,
  SongRow,
  UploadRow,
} from "./rows.js";
import { accounts as accountsTable } from "./schema.js";

const SONG_COLUMNS = `s.video_id AS videoId, s.title, s.artist_id AS artistId, a.name AS artistName,
  a.channel_id AS channelId, s.album_id AS albumId, al.browse_id AS albumBrowseId, al.title AS albumTitle,
  al.audio_playlist_id AS albumAudioPlaylistId, al.year AS year, s.track_number AS trackNumber,
  s.duration_seconds AS durationSeconds, s.views, s.explicit, s.available, s.video_type AS videoType,
  s.counterpart_id AS counterpartId, s.lyrics_source AS lyricsSource`;
const SONG_JOIN = "JOIN artists a ON a.id = s.artist_id LEFT JOIN albums al ON al.id = s.album_id";

/** Where videos start in `songs_by_views` (migration 0004): rowids below it are songs. */
export const SEARCH_VIDEOS_FROM = 1_000_000_000;

const ALBUM_COLUMNS = `al.id, al.browse_id AS browseId, al.audio_playlist_id AS audioPlaylistId, al.title,
  al.artist_id AS artistId, a.name AS artistName, a.channel_id AS channelId, al.type, al.year, al.explicit,
  (SELECT count(*) FROM songs s WHERE s.album_id = al.id) AS trackCount,
  (SELECT coalesce(sum(duration_seconds), 0) FROM songs s WHERE s.album_id = al.id) AS durationSeconds,
  (SELECT s.video_id FROM songs s WHERE s.album_id = al.id ORDER BY s.track_number LIMIT 1) AS firstVideoId,
  (SELECT s.video_type FROM songs s WHERE s.album_id = al.id ORDER BY s.track_number LIMIT 1) AS firstVideoType`;

const PLAYLIST_COLUMNS = `id, playlist_id AS playlistId, title, description, owner_account_id AS ownerAccountId,
  author_name AS authorName, author_channel_id AS authorChannelId, privacy, kind, add_to_top AS addToTop, views,
  created_at AS createdAt`;

const EPISODE_COLUMNS = `e.video_id AS videoId, e.podcast_id AS podcastId, p.playlist_id AS podcastPlaylistId,
  p.title AS podcastTitle, c.channel_id AS channelId, c.name AS channelName, e.title, e.description,
  e.published_day AS publishedDay, e.duration_seconds AS durationSeconds`;
const EPISODE_JOIN = "JOIN podcasts p ON p.id = e.podcast_id JOIN artists c ON c.id = p.channel_id";

function bools<T>(row: T | undefined, ...keys: (keyof T)[]): T | null {
  if (!row) return null;
  for (const k of keys) (row as Record<keyof T, unknown>)[k] = Boolean(row[k]);
  return row;
}

export type SearchKind =
  | "songs"
  | "videos"
  | "albums"
  | "artists"
  | "playlists"
  | "podcasts"
  | "episodes"
  | "profiles";

export class Store {
  readonly sqlite: Database.Database;
  private readonly cache = new Map<string, Database.Statement>();

  constructor(readonly db: Db) {
    this.sqlite = db.$client;
  }

  /** A cached prepared statement. */
  st(sql: string): Database.Statement {
    let s = this.cache.get(sql);
    if (!s) {
      s = this.sqlite.prepare(sql);
      this.cache.set(sql, s);
    }
    return s;
  }

  /** Bumped by every write, so that cached responses of an older state are never served. */
  version = 0;

  tx<T>(fn: () => T): T {
    try {
      return this.sqlite.transaction(fn)();
    } finally {
      this.version++;
    }
  }

  /** Marks a state change made outside `tx` (single-statement writes). */
  touch(): void {
    this.version++;
  }

  // ── catalogue ──

  song(videoId: string): SongRow | null {
    const row = this.st(`SELECT ${SONG_COLUMNS} FROM songs s ${SONG_JOIN} WHERE s.video_id = ?`).get(
      videoId,
    ) as SongRow | undefined;
    return bools(row, "explicit", "available");
  }

  albumTracks(albumId: number): SongRow[] {
    const rows = this.st(
      `SELECT ${SONG_COLUMNS} FROM songs s ${SONG_JOIN} WHERE s.album_id = ? ORDER BY s.track_number`,
    ).all(albumId) as SongRow[];
    return rows.map((r) => bools(r, "explicit", "available")!);
  }

  artistSongs(artistId: number, videoType: string, limit: number): SongRow[] {
    const rows = this.st(
      `SELECT ${SONG_COLUMNS} FROM songs s ${SONG_JOIN} WHERE s.artist_id = ? AND s.video_type = ? ORDER BY s.views DESC LIMIT ?`,
    ).all(artistId, videoType, limit) as SongRow[];
    return rows.map((r) => bools(r, "explicit", "available")!);
  }

  /**
   * The videos on a user's channel page. The catalogue has no uploader for its user-made (UGC)
   * videos, so they are shared out among the accounts by id, the same ones every time.
   */
  userVideos(accountId: number, limit: number): SongRow[] {
    const rows = this.st(
      `SELECT ${SONG_COLUMNS} FROM songs s ${SONG_JOIN} WHERE s.video_type = 'MUSIC_VIDEO_TYPE_UGC' AND s.id % 4 = ? % 4 ORDER BY s.views DESC, s.id LIMIT ?`,
    ).all(accountId, limit) as SongRow[];
    return rows.map((r) => bools(r, "explicit", "available")!);
  }

  randomSongs(seed: number, limit: number, videoType = "MUSIC_VIDEO_TYPE_ATV"): SongRow[] {
    const total = (
      this.st("SELECT max(id) AS n FROM songs WHERE video_type = 'MUSIC_VIDEO_TYPE_ATV'").get() as {
        n: number;
      }
    ).n;
    const out: SongRow[] = [];
    for (let i = 0; out.length < limit && i < limit * 3; i++) {
      const id = 1 + ((seed + i * 7919) % Math.max(1, total));
      const row = this.st(
        `SELECT ${SONG_COLUMNS} FROM songs s ${SONG_JOIN} WHERE s.id >= ? AND s.video_type = ? ORDER BY s.id LIMIT 1`,
      ).get(id, videoType) as SongRow | undefined;
      if (row && !out.some((o) => o.videoId === row.videoId)) out.push(bools(row, "explicit", "available")!);
    }
    return out;
  }

  artist(channelId: string): ArtistRow | null {
    return (
      (this.st(
        `SELECT id, channel_id AS channelId, name, kind, subscribers, monthly_listeners AS monthlyListeners, description
         FROM artists WHERE channel_id = ?`,
      ).get(channelId) as ArtistRow | undefined) ?? null
    );
  }

  artistById(id: number): ArtistRow | null {
    return (
      (this.st(
        `SELECT id, channel_id AS channelId, name, kind, subscribers, monthly_listeners AS monthlyListeners, description
         FROM artists WHERE id = ?`,
      ).get(id) as ArtistRow | undefined) ?? null
    );
  }

  artistsByIds(channelIds: readonly string[]): ArtistRow[] {
    return channelIds.map((c) => this.artist(c)).filter((a): a is ArtistRow => a !== null);
  }

  album(browseId: string): AlbumRow | null {
    return bools(
      this.st(
        `SELECT ${ALBUM_COLUMNS} FROM albums al JOIN artists a ON a.id = al.artist_id WHERE al.browse_id = ?`,
      ).get(browseId) as AlbumRow | undefined,
      "explicit",
    );
  }

  albumByAudioPlaylist(playlistId: string): AlbumRow | null {
    return bools(
      this.st(
        `SELECT ${ALBUM_COLUMNS} FROM albums al JOIN artists a ON a.id = al.artist_id WHERE al.audio_playlist_id = ?`,
      ).get(playlistId) as AlbumRow | undefined,
      "explicit",
    );
  }

  artistAlbums(artistId: number, types: readonly string[], order = "al.year DESC", limit = 1000): AlbumRow[] {
    const rows = this.st(
      `SELECT ${ALBUM_COLUMNS} FROM albums al JOIN artists a ON a.id = al.artist_id
       WHERE al.artist_id = ? AND al.type IN (${types.map(() => "?").join(",")}) ORDER BY ${order} LIMIT ?`,
    ).all(artistId, ...types, limit) as AlbumRow[];
    return rows.map((r) => bools(r, "explicit")!);
  }

  otherAlbums(album: AlbumRow, limit: number): AlbumRow[] {
    const rows = this.st(
      `SELECT ${ALBUM_COLUMNS} FROM albums al JOIN artists a ON a.id = al.artist_id
       WHERE al.artist_id = ? AND al.id != ? ORDER BY al.year DESC LIMIT ?`,
    ).all(album.artistId, album.id, limit) as AlbumRow[];
    return rows.map((r) => bools(r, "explicit")!);
  }

  playlist(playlistId: string): PlaylistRow | null {
    return bools(
      this.st(`SELECT ${PLAYLIST_COLUMNS} FROM playlists WHERE playlist_id = ?`).get(playlistId) as
        | PlaylistRow
        | undefined,
      "addToTop",
    );
  }

  playlistsOf(accountId: number): PlaylistRow[] {
    const rows = this.st(
      `SELECT ${PLAYLIST_COLUMNS} FROM playlists WHERE owner_account_id = ? ORDER BY created_at DESC, id DESC`,
    ).all(accountId) as PlaylistRow[];
    return rows.map((r) => bools(r, "addToTop")!);
  }

  playlistItems(playlistId: string, offset: number, limit: number): PlaylistItemRow[] {
    const rows = this.st(
      `SELECT pi.set_video_id AS setVideoId, ${SONG_COLUMNS} FROM playlist_items pi
       JOIN songs s ON s.video_id = pi.video_id ${SONG_JOIN}
       WHERE pi.playlist_id = ? ORDER BY pi.position LIMIT ? OFFSET ?`,
    ).all(playlistId, limit, offset) as PlaylistItemRow[];
    return rows.map((r) => bools(r, "explicit", "available")!);
  }

  playlistStats(playlistId: string): { count: number; seconds: number } {
    return this.st(
      `SELECT count(*) AS count, coalesce(sum(s.duration_seconds), 0) AS seconds FROM playlist_items pi
       JOIN songs s ON s.video_id = pi.video_id WHERE pi.playlist_id = ?`,
    ).get(playlistId) as { count: number; seconds: number };
  }

  playlistFirstItem(playlistId: string): PlaylistItemRow | null {
    return this.playlistItems(playlistId, 0, 1)[0] ?? null;
  }

  podcast(playlistId: string): PodcastRow | null {
    return (
      (this.st(
        `SELECT p.id, p.playlist_id AS playlistId, p.title, p.description, c.channel_id AS channelId, c.name AS channelName
         FROM podcasts p JOIN artists c ON c.id = p.channel_id WHERE p.playlist_id = ?`,
      ).get(playlistId) as PodcastRow | undefined) ?? null
    );
  }

  podcastsOfChannel(channelRowId: number): PodcastRow[] {
    return this.st(
      `SELECT p.id, p.playlist_id AS playlistId, p.title, p.description, c.channel_id AS channelId, c.name AS channelName
       FROM podcasts p JOIN artists c ON c.id = p.channel_id WHERE p.channel_id = ? ORDER BY p.id`,
    ).all(channelRowId) as PodcastRow[];
  }

  episodes(podcastId: number, offset: number, limit: number): EpisodeRow[] {
    return this.st(
      `SELECT ${EPISODE_COLUMNS} FROM episodes e ${EPISODE_JOIN} WHERE e.podcast_id = ?
       ORDER BY e.published_day DESC, e.id LIMIT ? OFFSET ?`,
    ).all(podcastId, limit, offset) as EpisodeRow[];
  }

  episodesOfChannel(channelRowId: number, limit: number): EpisodeRow[] {
    return this.st(
      `SELECT ${EPISODE_COLUMNS} FROM episodes e ${EPISODE_JOIN} WHERE p.channel_id = ?
       ORDER BY e.published_day DESC, e.id LIMIT ?`,
    ).all(channelRowId, limit) as EpisodeRow[];
  }

  episode(videoId: string): EpisodeRow | null {
    return (
      (this.st(`SELECT ${EPISODE_COLUMNS} FROM episodes e ${EPISODE_JOIN} WHERE e.video_id = ?`).get(
        videoId,
      ) as EpisodeRow | undefined) ?? null
    );
  }

  /** Case-insensitive substring search over titles and artist names, in the catalogue's order. */
  search(kind: SearchKind, query: string, offset: number, limit: number): unknown[] {
    const like = `%${query.toLowerCase().replace(/[%_\\]/g, (c) => "\\" + c)}%`;
    switch (kind) {
      case "songs":
      case "videos": {
        const rows = this.searchSongs(kind, query, offset, limit);
        return rows.map((r) => bools(r, "explicit", "available")!);
      }
      case "albums": {
        const rows = this.st(
          `SELECT ${ALBUM_COLUMNS} FROM albums al JOIN artists a ON a.id = al.artist_id
           WHERE al.search_text LIKE ? ESCAPE '\\' ORDER BY al.year DESC LIMIT ? OFFSET ?`,
        ).all(like, limit, offset) as AlbumRow[];
        return rows.map((r) => bools(r, "explicit")!);
      }
      case "artists":
        return this.st(
          `SELECT id, channel_id AS channelId, name, kind, subscribers, monthly_listeners AS monthlyListeners, description
           FROM artists WHERE kind = 'artist' AND search_text LIKE ? ESCAPE '\\' ORDER BY subscribers DESC, id LIMIT ? OFFSET ?`,
        ).all(like, limit, offset);
      case "profiles":
        return this.st(
          `SELECT id, name, handle, channel_id AS channelId FROM accounts
           WHERE handle IS NOT NULL AND (lower(name) LIKE ? ESCAPE '\\' OR lower(handle) LIKE ? ESCAPE '\\')
           ORDER BY id LIMIT ? OFFSET ?`,
        ).all(like, like, limit, offset);
      case "playlists": {
        const rows = this.st(
          `SELECT ${PLAYLIST_COLUMNS} FROM playlists WHERE privacy = 'PUBLIC' AND search_text LIKE ? ESCAPE '\\'
           ORDER BY views DESC LIMIT ? OFFSET ?`,
        ).all(like, limit, offset) as PlaylistRow[];
        return rows.map((r) => bools(r, "addToTop")!);
      }
      case "podcasts":
        return this.st(
          `SELECT p.id, p.playlist_id AS playlistId, p.title, p.description, c.channel_id AS channelId, c.name AS channelName
           FROM podcasts p JOIN artists c ON c.id = p.channel_id WHERE p.search_text LIKE ? ESCAPE '\\'
           ORDER BY p.id LIMIT ? OFFSET ?`,
        ).all(like, limit, offset);
      case "episodes":
        return this.st(
          `SELECT ${EPISODE_COLUMNS} FROM episodes e ${EPISODE_JOIN} WHERE e.search_text LIKE ? ESCAPE '\\'
           ORDER BY e.published_day DESC, e.id LIMIT ? OFFSET ?`,
        ).all(like, limit, offset);
    }
  }

  /**
   * The most viewed songs (or videos) containing `query`, from `offset`. `songs_by_views` holds
   * songs then videos, each in order of views (migration 0004), so reading one kind's rowid range
   * in order meets its most viewed matches first and stops at the limit: a common word costs a few
   * rows, a rare one its trigram postings, never a sort of every match. A term with LIKE wildcards
   * needs ESCAPE, which the trigram index cannot serve; it scans the same range in the same order.
   */
  private searchSongs(kind: "songs" | "videos", query: string, offset: number, limit: number): SongRow[] {
    const plain = query.toLowerCase();
    const wild = /[%_\\]/.test(plain);
    const like = `%${wild ? plain.replace(/[%_\\]/g, (c) => "\\" + c) : plain}%`;
    const [from, to] =
      kind === "songs" ? [1, SEARCH_VIDEOS_FROM] : [SEARCH_VIDEOS_FROM + 1, 2 * SEARCH_VIDEOS_FROM];
    return this.st(
      `SELECT ${SONG_COLUMNS} FROM songs_by_views f JOIN songs s ON s.id = f.song_id ${SONG_JOIN}
       WHERE f.search_text LIKE ?${wild ? " ESCAPE '\\'" : ""} AND f.rowid BETWEEN ? AND ?
       ORDER BY f.rowid LIMIT ? OFFSET ?`,
    ).all(like, from, to, limit, offset) as SongRow[];
  }

  searchPlaylists(
    query: string,
    kind: "community" | "editorial",
    offset: number,
    limit: number,
  ): PlaylistRow[] {
    const like = `%${query.toLowerCase().replace(/[%_\\]/g, (c) => "\\" + c)}%`;
    const kinds = kind === "editorial" ? ["editorial", "mood"] : ["community", "user"];
    const rows = this.st(
      `SELECT ${PLAYLIST_COLUMNS} FROM playlists WHERE privacy = 'PUBLIC' AND kind IN (?, ?)
       AND search_text LIKE ? ESCAPE '\\' ORDER BY views DESC, id LIMIT ? OFFSET ?`,
    ).all(kinds[0], kinds[1], like, limit, offset) as PlaylistRow[];
    return rows.map((r) => bools(r, "addToTop")!);
  }

  // ── accounts ──

  /** Account look-ups run on every signed-in request: prepared once (drizzle placeholders). */
  private accountQueries?: ReturnType<Store["prepareAccountQueries"]>;

  private prepareAccountQueries() {
    const t = accountsTable;
    const all = () => this.db.select().from(t);
    return {
      byId: all()
        .where(eq(t.id, sql.placeholder("id")))
        .prepare(),
      all: all().orderBy(t.id).prepare(),
      login: all()
        .where(and(eq(t.sapisid, sql.placeholder("sapisid")), isNull(t.parentId)))
        .prepare(),
      brand: all()
        .where(and(eq(t.parentId, sql.placeholder("parentId")), eq(t.pageId, sql.placeholder("pageId"))))
        .prepare(),
    };
  }

  private get aq() {
    this.accountQueries ??= this.prepareAccountQueries();
    return this.accountQueries;
  }

  account(id: number): AccountRow | null {
    return this.aq.byId.get({ id }) ?? null;
  }

  accounts(): AccountRow[] {
    return this.aq.all.all();
  }

  loginBySapisid(sapisid: string): AccountRow | null {
    return this.aq.login.get({ sapisid }) ?? null;
  }

  brandAccount(parentId: number, pageId: string): AccountRow | null {
    return this.aq.brand.get({ parentId, pageId }) ?? null;
  }

  /** One section of a country's charts, in rank order. */
  chartEntries(
    country: string,
    section: string,
  ): { position: number; targetId: string; trend: string | null }[] {
    // Charts and explore read several sections per request: a cached statement, not a query built each time.
    return this.st(
      "SELECT position, target_id AS targetId, trend FROM charts WHERE country = ? AND section = ? ORDER BY position",
    ).all(country, section) as { position: number; targetId: string; trend: string | null }[];
  }

  /** Turns an account's premium subscription on or off (a control endpoint; cached pages go stale). */
  setPremium(id: number, premium: boolean): void {
    this.db.update(accountsTable).set({ premium }).where(eq(accountsTable.id, id)).run();
    this.touch();
  }

  // ── per-account reads ──

  rating(accountId: number, targetId: string): string {
    const row = this.st("SELECT rating FROM ratings WHERE account_id = ? AND target_id = ?").get(
      accountId,
      targetId,
    ) as { rating: string } | undefined;
    return row?.rating ?? "INDIFFERENT";
  }

  inLibrary(accountId: number, kind: string, targetId: string): boolean {
    return (
      this.st("SELECT 1 FROM library_items WHERE account_id = ? AND kind = ? AND target_id = ?").get(
        accountId,
        kind,
        targetId,
      ) !== undefined
    );
  }

  libraryTargets(accountId: number, kind: string): { targetId: string; addedAt: number }[] {
    return this.st(
      "SELECT target_id AS targetId, added_at AS addedAt FROM library_items WHERE account_id = ? AND kind = ? ORDER BY added_at DESC, id DESC",
    ).all(accountId, kind) as { targetId: string; addedAt: number }[];
  }

  likedSongs(accountId: number): SongRow[] {
    const rows = this.st(
      `SELECT ${SONG_COLUMNS} FROM ratings r JOIN songs s ON s.video_id = r.target_id ${SONG_JOIN}
       WHERE r.account_id = ? AND r.kind = 'song' AND r.rating = 'LIKE' ORDER BY r.updated_at DESC, r.id DESC`,
    ).all(accountId) as SongRow[];
    return rows.map((r) => bools(r, "explicit", "available")!);
  }

  likedPlaylistIds(accountId: number): string[] {
    return (
      this.st(
        "SELECT target_id AS t FROM ratings WHERE account_id = ? AND kind = 'playlist' AND rating = 'LIKE' ORDER BY updated_at DESC, id DESC",
      ).all(accountId) as { t: string }[]
    ).map((r) => r.t);
  }

  history(accountId: number): (SongRow & { playedAt: number; historyId: number })[] {
    const rows = this.st(
      `SELECT h.id AS historyId, h.played_at AS playedAt, ${SONG_COLUMNS} FROM history h
       JOIN songs s ON s.video_id = h.video_id ${SONG_JOIN} WHERE h.account_id = ? ORDER BY h.played_at DESC, h.id DESC LIMIT 200`,
    ).all(accountId) as (SongRow & { playedAt: number; historyId: number })[];
    return rows.map((r) => bools(r, "explicit", "available")!);
  }

  savedEpisodes(accountId: number): (EpisodeRow & { setVideoId: string })[] {
    return this.st(
      `SELECT se.set_video_id AS setVideoId, ${EPISODE_COLUMNS} FROM saved_episodes se
       JOIN episodes e ON e.video_id = se.video_id ${EPISODE_JOIN}
       WHERE se.account_id = ? ORDER BY se.added_at DESC, se.id DESC`,
    ).all(accountId) as (EpisodeRow & { setVideoId: string })[];
  }

  uploads(accountId: number): UploadRow[] {
    return this.st(
      `SELECT entity_id AS entityId, video_id AS videoId, title, artist_name AS artistName, album_title AS albumTitle,
       duration_seconds AS durationSeconds, file_name AS fileName, created_at AS createdAt
       FROM uploads WHERE account_id = ? ORDER BY created_at DESC, id DESC`,
    ).all(accountId) as UploadRow[];
  }

  counts(): Record<string, number> {
    const n = (t: string) => (this.st(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
    return {
      artists: n("artists"),
      albums: n("albums"),
      songs: n("songs"),
      playlists: n("playlists"),
      podcasts: n("podcasts"),
      episodes: n("episodes"),
      accounts: n("accounts"),
    };
  }
}
