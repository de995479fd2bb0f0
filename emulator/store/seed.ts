/**
 * The catalogue generator's side of the database: an insert per table it fills, built by drizzle
 * from the typed schema once and run per row (a 100,000-song catalogue is over 200,000 rows, so
 * what each row costs is what generation costs), the few reads and chart edits it makes of
 * what it has just written, and the `meta` row that says which seed and size a database holds.
 */
import type Database from "better-sqlite3";
import {
  and,
  asc,
  Column,
  type DriverValueEncoder,
  desc,
  eq,
  getTableColumns,
  is,
  Param,
  Placeholder,
  sql,
} from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./db.js";
import {
  accounts,
  albums,
  artists,
  charts,
  episodes,
  history,
  libraryItems,
  meta,
  moodCategories,
  moodPlaylists,
  playlistItems,
  playlists,
  podcasts,
  ratings,
  songs,
} from "./schema.js";
import { SEARCH_VIDEOS_FROM } from "./search-kinds.js";

/** A song look-alikes are made of (`CatalogueWriter.popularSongs`). */
export interface PopularSong {
  id: number;
  title: string;
  artistId: number;
  artistName: string;
  durationSeconds: number;
  views: number;
  explicit: boolean;
}

/** What a song's ISRC is drawn from: its row id, its artist and its release's year. */
export interface IsrcSource {
  id: number;
  artistId: number;
  year: number | null;
}

/** The seed and size a catalogue was generated with, as the `meta` row keeps them. */
export interface CatalogueKey {
  seed: number;
  size: number;
}

/** The key of the catalogue a database holds, or null when it holds none yet. */
export function storedCatalogueKey(db: Db): CatalogueKey | null {
  const row = db.select({ value: meta.value }).from(meta).where(eq(meta.key, "catalogue")).get();
  return row ? (JSON.parse(row.value) as CatalogueKey) : null;
}

/** A row of `table` with every column but those of `O`: all of them must be given. */
type RowOf<T extends SQLiteTable, O extends keyof T["$inferInsert"]> = Required<Omit<T["$inferInsert"], O>>;

/**
 * An insert into one table: drizzle builds its SQL once from the typed table, with placeholders;
 * each row is bound in the order of drizzle's parameters, encoded by its column's own encoder
 * (booleans to 0/1). Drizzle's own prepared insert fills its placeholders per row with checks that
 * cost more than the row's write: a 100,000-song catalogue took 28 % longer with it than with
 * hand-written SQL, and 4-6 % longer this way. (Multi-row inserts of 64 rows gained nothing.)
 */
class TypedInsert {
  /** Per parameter of one row: the row's key it takes, or null for a constant of the SQL. */
  private readonly keys: (string | null)[] = [];
  /** Per parameter: its column's encoder, or null where the value is bound as it is. */
  private readonly encoders: (DriverValueEncoder<unknown, unknown> | null)[] = [];
  private readonly constants: unknown[] = [];
  private readonly statement: Database.Statement;
  /** The parameters of the row being written (one array, refilled per row). */
  private readonly params: unknown[];

  constructor(db: Db, table: SQLiteTable, keys: readonly string[], ignoreDuplicates: boolean) {
    const row = Object.fromEntries(keys.map((k) => [k, sql.placeholder(k)])) as SQLiteTable["$inferInsert"];
    const insert = db.insert(table).values(row);
    const query = (ignoreDuplicates ? insert.onConflictDoNothing() : insert).toSQL();
    for (const p of query.params) {
      const placeholder = is(p, Param) && is(p.value, Placeholder);
      this.keys.push(placeholder ? p.value.name : null);
      // Most columns bind the value unchanged: skipping their encoder keeps a call per value off
      // the path of a few million values.
      const identity = !placeholder || p.encoder.mapToDriverValue === Column.prototype.mapToDriverValue;
      this.encoders.push(identity ? null : p.encoder);
      this.constants.push(placeholder ? null : p);
    }
    this.statement = db.$client.prepare(query.sql);
    this.params = new Array(this.keys.length).fill(null);
  }

  run(values: Record<string, unknown>): void {
    const { keys, encoders, constants, params } = this;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      const v = key === null ? constants[i] : values[key];
      const encoder = encoders[i]!;
      params[i] = encoder === null || v === null ? v : encoder.mapToDriverValue(v);
    }
    this.statement.run(params);
  }
}

/** Every write and read the generator makes, on one database. */
export class CatalogueWriter {
  readonly artist;
  readonly album;
  readonly song;
  readonly playlist;
  readonly playlistItem;
  readonly podcast;
  readonly episode;
  readonly chart;
  readonly moodCategory;
  readonly moodPlaylist;
  readonly account;
  readonly libraryItem;
  readonly rating;
  readonly play;

  constructor(private readonly db: Db) {
    // Tables whose rows the generator numbers itself take `id`; the others number their own.
    this.artist = this.insertInto(artists);
    this.album = this.insertInto(albums);
    // ISRCs are filled in once every song is written (catalogue/isrcs.ts `fillIsrcs`).
    this.song = this.insertInto(songs, ["isrc"]);
    this.playlist = this.insertInto(playlists, ["id"]);
    this.playlistItem = this.insertInto(playlistItems, ["id"]);
    this.podcast = this.insertInto(podcasts);
    this.episode = this.insertInto(episodes, ["id"]);
    this.chart = this.insertInto(charts, ["id"]);
    this.moodCategory = this.insertInto(moodCategories);
    this.moodPlaylist = this.insertInto(moodPlaylists);
    this.account = this.insertInto(accounts);
    // A small catalogue draws the same song twice for the seeded library: the second is skipped.
    this.libraryItem = this.insertInto(libraryItems, ["id"], true);
    this.rating = this.insertInto(ratings, ["id"], true);
    this.play = this.insertInto(history, ["id"]);
  }

  /**
   * The writer of `table`'s rows: every column but those `omitted` (which take their default).
   * `ignoreDuplicates` skips a row that would break a unique index.
   */
  private insertInto<T extends SQLiteTable, O extends keyof T["$inferInsert"] & string = never>(
    table: T,
    omitted: readonly O[] = [],
    ignoreDuplicates = false,
  ): (row: RowOf<T, O>) => void {
    const keys = Object.keys(getTableColumns(table)).filter(
      (k) => !(omitted as readonly string[]).includes(k),
    );
    const insert = new TypedInsert(this.db, table, keys, ignoreDuplicates);
    return (row) => insert.run(row as Record<string, unknown>);
  }

  /** Runs `write` in one transaction: a catalogue is all there, or not at all. */
  transaction<T>(write: () => T): T {
    return this.db.transaction(() => write());
  }

  /** Every album's browse id, in the order the albums were made. */
  albumBrowseIds(): string[] {
    return this.db
      .select({ id: albums.browseId })
      .from(albums)
      .orderBy(asc(albums.id))
      .all()
      .map((x) => x.id);
  }

  /** The audio playlists of the first `limit` full albums (not singles nor EPs), in order made. */
  firstAlbumPlaylists(limit: number): string[] {
    return this.db
      .select({ id: albums.audioPlaylistId })
      .from(albums)
      .where(eq(albums.type, "Album"))
      .orderBy(asc(albums.id))
      .limit(limit)
      .all()
      .map((x) => x.id);
  }

  /** The playlists of the first `limit` podcasts, in order made. */
  firstPodcastPlaylists(limit: number): string[] {
    return this.db
      .select({ id: podcasts.playlistId })
      .from(podcasts)
      .orderBy(asc(podcasts.id))
      .limit(limit)
      .all()
      .map((x) => x.id);
  }

  /**
   * The `limit` most viewed songs (MUSIC_VIDEO_TYPE_ATV) with their artist's name, most viewed
   * first (ties by id): the originals look-alike songs are made of.
   */
  popularSongs(limit: number): PopularSong[] {
    return this.db
      .select({
        id: songs.id,
        title: songs.title,
        artistId: songs.artistId,
        artistName: artists.name,
        durationSeconds: songs.durationSeconds,
        views: songs.views,
        explicit: songs.explicit,
      })
      .from(songs)
      .innerJoin(artists, eq(artists.id, songs.artistId))
      .where(eq(songs.videoType, "MUSIC_VIDEO_TYPE_ATV"))
      .orderBy(desc(songs.views), asc(songs.id))
      .limit(limit)
      .all();
  }

  /** A country's chart section, its targets in rank order. */
  chartTargets(country: string, section: string): string[] {
    return this.db
      .select({ id: charts.targetId })
      .from(charts)
      .where(and(eq(charts.country, country), eq(charts.section, section)))
      .orderBy(asc(charts.position))
      .all()
      .map((x) => x.id);
  }

  /** Drops a chart section in every country. */
  dropChartSection(section: string): void {
    this.db.delete(charts).where(eq(charts.section, section)).run();
  }

  /** Moves every entry of a chart section, in every country, to one rank. */
  moveChartSection(section: string, position: number): void {
    this.db.update(charts).set({ position }).where(eq(charts.section, section)).run();
  }

  /**
   * Fills the songs' full-text index from the songs written: songs then videos, each in order of
   * popularity (migration 0004 says why). Raw SQL: drizzle has no tables for FTS5.
   */
  fillSearchIndex(): void {
    this.db.$client.exec(
      `INSERT INTO songs_by_views (rowid, search_text, song_id)
       SELECT (CASE WHEN video_type = 'MUSIC_VIDEO_TYPE_ATV' THEN 0 ELSE ${SEARCH_VIDEOS_FROM} END)
         + row_number() OVER (PARTITION BY video_type = 'MUSIC_VIDEO_TYPE_ATV' ORDER BY views DESC, id),
         search_text, id
       FROM songs`,
    );
  }

  /**
   * Adds to each catalogue playlist's search text the names of the artists whose songs it holds, so
   * that searching an artist finds the playlists it is in: the service's playlist results are not
   * title matches only (capture yt_search_playlists_20231228 lists "Coffee Shop Blend" and "Low Key"
   * for "chill"). Done once here, from the rows written: those playlists never change, and a search
   * then reads one column (joining the rows per search cost 30 ms at 20,000 songs). A person's
   * playlists keep their title as their search text (playlist-edits.ts).
   */
  fillPlaylistArtists(): void {
    this.db.$client.exec(
      `UPDATE playlists SET search_text = search_text || coalesce(' ' || (
         SELECT group_concat(name, ' ') FROM (
           SELECT DISTINCT a.search_text AS name FROM playlist_items i
             JOIN songs s ON s.video_id = i.video_id JOIN artists a ON a.id = s.artist_id
           WHERE i.playlist_id = playlists.playlist_id ORDER BY a.id)), '')
       WHERE owner_account_id IS NULL`,
    );
  }

  /** Songs (MUSIC_VIDEO_TYPE_ATV) with what an ISRC is drawn from (catalogue/isrcs.ts), in id order. */
  isrcSources(): IsrcSource[] {
    return this.db.$client
      .prepare(
        `SELECT s.id, s.artist_id AS artistId, a.year FROM songs s LEFT JOIN albums a ON a.id = s.album_id
         WHERE s.video_type = 'MUSIC_VIDEO_TYPE_ATV' ORDER BY s.id`,
      )
      .all() as IsrcSource[];
  }

  /** Official videos whose song has an ISRC, with that ISRC, in id order. */
  videosOfIsrcSongs(): { id: number; isrc: string }[] {
    return this.db.$client
      .prepare(
        `SELECT v.id, s.isrc FROM songs v JOIN songs s ON s.video_id = v.counterpart_id
         WHERE v.video_type = 'MUSIC_VIDEO_TYPE_OMV' AND s.isrc IS NOT NULL ORDER BY v.id`,
      )
      .all() as { id: number; isrc: string }[];
  }

  /** Writes ISRCs by song row id. */
  setIsrcs(codes: ReadonlyMap<number, string>): void {
    const set = this.db.$client.prepare("UPDATE songs SET isrc = ? WHERE id = ?");
    for (const [id, isrc] of codes) set.run(isrc, id);
  }

  /** Records that the songs have their ISRCs (`hasIsrcs`). */
  markIsrcs(): void {
    this.db.insert(meta).values({ key: "isrcs", value: "1" }).onConflictDoNothing().run();
  }

  /** Whether the songs have their ISRCs (a catalogue made before them has none until they are filled). */
  hasIsrcs(): boolean {
    return this.db.select({ value: meta.value }).from(meta).where(eq(meta.key, "isrcs")).get() !== undefined;
  }

  /** Records which catalogue the database now holds (`storedCatalogueKey` reads it back). */
  recordCatalogueKey(key: CatalogueKey): void {
    this.db
      .insert(meta)
      .values({ key: "catalogue", value: JSON.stringify({ seed: key.seed, size: key.size }) })
      .run();
  }
}
