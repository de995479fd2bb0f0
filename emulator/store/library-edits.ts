/**
 * Domain operations on an account's own state: ratings, library entries (saved items,
 * subscriptions, pins), history, saved episodes, uploads, the taste profile. None opens a
 * transaction: write routes run inside the server's, and the writes outside the route table
 * (playback pings, upload finalize, taste profile) mark or wrap their own.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { failedStatus, invalidArgument, notFound } from "../errors.js";
import type { IdSource } from "../random.js";
import { ids } from "../random.js";
import type { CatalogueStore } from "./catalogue.js";
import type { Db } from "./db.js";
import type { LibraryStore } from "./library.js";
import type { PlaylistStore } from "./playlists.js";
import type { AccountRow, ArtistRow, UploadRow } from "./rows.js";
import { artists, history, libraryItems, ratings, savedEpisodes, tasteProfile, uploads } from "./schema.js";

export type Rating = "LIKE" | "DISLIKE" | "INDIFFERENT";

/** What a rating or a library entry points at; albums and podcasts go by their playlist id. */
export type TargetKind = "song" | "playlist";

export type NewUpload = Omit<typeof uploads.$inferInsert, "id">;

/** How many artists the taste profile offers: the most subscribed ones. */
const TASTE_ARTISTS = 45;

/** Statements run per item of a request (feedback tokens, channels, episodes, plays): prepared once. */
function prepare(db: Db) {
  const accountId = sql.placeholder("accountId");
  const kind = sql.placeholder("kind");
  const targetId = sql.placeholder("targetId");
  const videoId = sql.placeholder("videoId");
  const now = sql.placeholder("now");
  const li = libraryItems;
  return {
    addEntry: db
      .insert(li)
      .values({ accountId, kind, targetId, addedAt: now })
      .onConflictDoNothing()
      .prepare(),
    removeEntry: db
      .delete(li)
      .where(and(eq(li.accountId, accountId), eq(li.kind, kind), eq(li.targetId, targetId)))
      .prepare(),
    rate: db
      .insert(ratings)
      .values({ accountId, kind, targetId, rating: sql.placeholder("rating"), updatedAt: now })
      .onConflictDoUpdate({
        target: [ratings.accountId, ratings.targetId],
        set: { rating: sql`excluded.rating`, updatedAt: sql`excluded.updated_at` },
      })
      .prepare(),
    unrate: db
      .delete(ratings)
      .where(and(eq(ratings.accountId, accountId), eq(ratings.targetId, targetId)))
      .prepare(),
    play: db.insert(history).values({ accountId, videoId, playedAt: now }).prepare(),
    episodeSaved: db
      .select({ one: sql<number>`1` })
      .from(savedEpisodes)
      .where(and(eq(savedEpisodes.accountId, accountId), eq(savedEpisodes.videoId, videoId)))
      .prepare(),
    saveEpisode: db
      .insert(savedEpisodes)
      .values({ accountId, videoId, setVideoId: sql.placeholder("setVideoId"), addedAt: now })
      .prepare(),
    tasteArtist: db
      .insert(tasteProfile)
      .values({ accountId, artistId: sql.placeholder("artistId") })
      .onConflictDoNothing()
      .prepare(),
  };
}

export class LibraryEdits {
  private readonly q: ReturnType<typeof prepare>;

  constructor(
    private readonly db: Db,
    private readonly catalogue: CatalogueStore,
    private readonly playlists: PlaylistStore,
    private readonly library: LibraryStore,
  ) {
    this.q = prepare(db);
  }

  /**
   * Likes, dislikes or clears the rating of a song or episode (`song`) or of a playlist, album or
   * podcast (`playlist`, by its playlist id); an unknown target is not found.
   */
  rate(accountId: number, kind: TargetKind, targetId: string, rating: Rating, now: number): void {
    const known =
      kind === "song"
        ? this.catalogue.song(targetId) || this.catalogue.episode(targetId)
        : this.playlists.playlist(targetId) ||
          this.catalogue.albumByAudioPlaylist(targetId) ||
          this.catalogue.podcast(targetId);
    if (!known) throw notFound();
    if (rating === "INDIFFERENT") this.q.unrate.run({ accountId, targetId });
    else this.q.rate.run({ accountId, kind, targetId, rating, now });
  }

  /** Adds a library entry (kept as it was when present); a song must exist. */
  addEntry(accountId: number, kind: string, targetId: string, now: number): boolean {
    if (kind === "song" && !this.catalogue.song(targetId)) return false;
    this.q.addEntry.run({ accountId, kind, targetId, now });
    return true;
  }

  removeEntry(accountId: number, kind: string, targetId: string): void {
    this.q.removeEntry.run({ accountId, kind, targetId });
  }

  /** Pins a song to Listen again, or unpins it; false for an unknown song. */
  pin(accountId: number, videoId: string, on: boolean, now: number): boolean {
    if (!this.catalogue.song(videoId)) return false;
    if (on) this.q.addEntry.run({ accountId, kind: "pin", targetId: videoId, now });
    else this.q.removeEntry.run({ accountId, kind: "pin", targetId: videoId });
    return true;
  }

  /**
   * Subscribes to (or unsubscribes from) each channel, in order; an unknown one is not found
   * (the request's transaction undoes the ones before it).
   */
  subscribe(accountId: number, channelIds: readonly string[], on: boolean, now: number): void {
    for (const targetId of channelIds) {
      if (!this.catalogue.artist(targetId)) throw notFound();
      if (on) this.q.addEntry.run({ accountId, kind: "subscription", targetId, now });
      else this.q.removeEntry.run({ accountId, kind: "subscription", targetId });
    }
  }

  /** Records a play of a known song or episode; false (nothing recorded) for an unknown id. */
  recordPlay(accountId: number, videoId: string, now: number): boolean {
    if (!this.catalogue.song(videoId) && !this.catalogue.episode(videoId)) return false;
    this.q.play.run({ accountId, videoId, now });
    return true;
  }

  /** Removes one history entry; false when there is none. */
  removePlay(account: AccountRow, historyId: number): boolean {
    // Known limitation of the service: history removal does not work for brand accounts.
    if (account.parentId !== null) return false;
    const r = this.db
      .delete(history)
      .where(and(eq(history.accountId, account.id), eq(history.id, historyId)))
      .run();
    return r.changes > 0;
  }

  episodeSaved(accountId: number, videoId: string): boolean {
    return this.q.episodeSaved.get({ accountId, videoId }) !== undefined;
  }

  /**
   * Saves an episode and answers its row's setVideoId; null when it was saved already and the
   * caller skips duplicates, a failed request when it does not.
   */
  saveEpisode(accountId: number, videoId: string, skipDuplicate: boolean, now: number, fresh: IdSource) {
    if (!this.catalogue.episode(videoId)) throw invalidArgument("Invalid episode id.");
    if (this.episodeSaved(accountId, videoId)) {
      if (skipDuplicate) return null;
      throw failedStatus("This episode is already saved");
    }
    const setVideoId = ids.setVideo(fresh());
    this.q.saveEpisode.run({ accountId, videoId, setVideoId, now });
    return setVideoId;
  }

  /** Removes a saved episode by its row's setVideoId or by its video id; false when none matched. */
  unsaveEpisode(accountId: number, by: "setVideoId" | "videoId", id: string): boolean {
    const column = by === "setVideoId" ? savedEpisodes.setVideoId : savedEpisodes.videoId;
    const r = this.db
      .delete(savedEpisodes)
      .where(and(eq(savedEpisodes.accountId, accountId), eq(column, id)))
      .run();
    return r.changes > 0;
  }

  /** Stores an uploaded track; false when the account uploaded the same file (name and size) before. */
  addUpload(upload: NewUpload): boolean {
    const u = uploads;
    const duplicate = this.db
      .select({ one: sql<number>`1` })
      .from(u)
      .where(and(eq(u.accountId, upload.accountId), eq(u.fileName, upload.fileName), eq(u.size, upload.size)))
      .get();
    if (duplicate) return false;
    this.db.insert(u).values(upload).run();
    return true;
  }

  /** Deletes one uploaded track; not found when the account has none by that id. */
  deleteUpload(accountId: number, entityId: string): void {
    const r = this.db
      .delete(uploads)
      .where(and(eq(uploads.accountId, accountId), eq(uploads.entityId, entityId)))
      .run();
    if (r.changes === 0) throw notFound();
  }

  /** Deletes the account's uploads that `match` picks (an uploaded album); not found when none. */
  deleteUploads(accountId: number, match: (u: UploadRow) => boolean): void {
    let n = 0;
    for (const u of this.library.uploads(accountId)) {
      if (!match(u)) continue;
      this.db
        .delete(uploads)
        .where(and(eq(uploads.accountId, accountId), eq(uploads.entityId, u.entityId)))
        .run();
      n++;
    }
    if (n === 0) throw notFound();
  }

  /** The artists the taste profile offers. */
  tasteArtists(): ArtistRow[] {
    const a = artists;
    return this.db
      .select({
        id: a.id,
        channelId: a.channelId,
        name: a.name,
        kind: a.kind,
        subscribers: a.subscribers,
        monthlyListeners: a.monthlyListeners,
        description: a.description,
      })
      .from(a)
      .where(eq(a.kind, "artist"))
      .orderBy(desc(a.subscribers), a.id)
      .limit(TASTE_ARTISTS)
      .all();
  }

  /** Remembers artists the account chose (added to the ones chosen before). */
  addTasteArtist(accountId: number, artistId: number): void {
    this.q.tasteArtist.run({ accountId, artistId });
  }
}
