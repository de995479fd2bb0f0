/**
 * The emulator's state, by domain: the generated catalogue, playlists, each account's library, the
 * accounts. Writes go through `tx`, one SQLite transaction per request, so a failed request changes
 * nothing; `version` tells the response cache when the state changed.
 */
import type Database from "better-sqlite3";
import { count, eq } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { AccountStore } from "./accounts.js";
import { CatalogueStore } from "./catalogue.js";
import { ChartStore } from "./charts.js";
import type { Db } from "./db.js";
import { LibraryStore } from "./library.js";
import { LibraryEdits } from "./library-edits.js";
import { OAuthStore } from "./oauth.js";
import { PlaylistEdits } from "./playlist-edits.js";
import { PlaylistStore } from "./playlists.js";
import * as t from "./schema.js";
import { CatalogueWriter } from "./seed.js";
import { TODAY_FUNCTION } from "./selections.js";
import { SpotifyTokenStore } from "./spotify-tokens.js";
import { StandInChangeStore } from "./stand-in-changes.js";

export { SEARCH_VIDEOS_FROM } from "./search-kinds.js";

export class Store {
  readonly sqlite: Database.Database;
  readonly catalogue: CatalogueStore;
  readonly playlists: PlaylistStore;
  readonly library: LibraryStore;
  readonly accounts: AccountStore;
  readonly playlistEdits: PlaylistEdits;
  readonly libraryEdits: LibraryEdits;
  readonly charts: ChartStore;
  readonly oauth: OAuthStore;
  readonly spotifyTokens: SpotifyTokenStore;
  readonly standInChanges: StandInChangeStore;

  /** `now` is the emulator's clock (Unix milliseconds): episode dates are counted back from its day. */
  constructor(
    readonly db: Db,
    now: () => number = Date.now,
  ) {
    this.sqlite = db.$client;
    this.sqlite.function(TODAY_FUNCTION, { deterministic: false }, () => Math.floor(now() / 86_400_000));
    this.catalogue = new CatalogueStore(db);
    this.playlists = new PlaylistStore(db, this.catalogue);
    this.library = new LibraryStore(db, this.catalogue);
    this.accounts = new AccountStore(db);
    this.playlistEdits = new PlaylistEdits(db, this.playlists, this.catalogue, this.library);
    this.libraryEdits = new LibraryEdits(db, this.catalogue, this.playlists, this.library);
    this.charts = new ChartStore(db, this.catalogue);
    this.oauth = new OAuthStore(db);
    this.spotifyTokens = new SpotifyTokenStore(db);
    this.standInChanges = new StandInChangeStore(db);
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

  /** Turns an account's premium subscription on or off (cached pages go stale). */
  setPremium(id: number, premium: boolean): void {
    this.accounts.setPremium(id, premium);
    this.touch();
  }

  /** Every song's video id in the order made, read once (the catalogue never changes). */
  private songIds: string[] | null = null;

  /**
   * Adds a batch of logins with their libraries, in one transaction, numbered after the last
   * account; their playlists and likes are drawn from every song of the catalogue. `write` is the
   * catalogue's batch writer: passed in, so the store needs nothing of the catalogue above it.
   */
  addAccounts<T>(write: (writer: CatalogueWriter, firstId: number, songPool: readonly string[]) => T): T {
    this.songIds ??= this.db
      .select({ videoId: t.songs.videoId })
      .from(t.songs)
      .where(eq(t.songs.videoType, "MUSIC_VIDEO_TYPE_ATV"))
      .orderBy(t.songs.id)
      .all()
      .map((s) => s.videoId);
    const pool = this.songIds;
    return this.tx(() => write(new CatalogueWriter(this.db), this.accounts.nextId(), pool));
  }

  counts(): Record<string, number> {
    const n = (table: SQLiteTable) => this.db.select({ n: count() }).from(table).get()!.n;
    return {
      artists: n(t.artists),
      albums: n(t.albums),
      songs: n(t.songs),
      playlists: n(t.playlists),
      podcasts: n(t.podcasts),
      episodes: n(t.episodes),
      accounts: n(t.accounts),
    };
  }
}
