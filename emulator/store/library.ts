/**
 * Each account's own state as pages read it: ratings, library items (songs, subscriptions, pins,
 * playlists), history, saved episodes, uploads. Songs come from the catalogue's memory.
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { CatalogueStore } from "./catalogue.js";
import type { Db } from "./db.js";
import type { EpisodeRow, SongRow, UploadRow } from "./rows.js";
import {
  artists,
  episodes,
  history,
  libraryItems,
  podcasts,
  ratings,
  savedEpisodes,
  songs,
  uploads,
} from "./schema.js";
import { episodeFields, jsonList } from "./selections.js";

const p = sql.placeholder;

export type HistoryRow = SongRow & { playedAt: number; historyId: number };

export class LibraryStore {
  private readonly q;

  constructor(
    readonly db: Db,
    private readonly catalogue: CatalogueStore,
  ) {
    this.q = { ...ratingQueries(db), ...libraryQueries(db) };
  }

  /** LIKE, DISLIKE or INDIFFERENT (no rating). */
  rating(accountId: number, targetId: string): string {
    return this.q.rating.get({ accountId, targetId })?.rating ?? "INDIFFERENT";
  }

  inLibrary(accountId: number, kind: string, targetId: string): boolean {
    return this.q.inLibrary.get({ accountId, kind, targetId }) !== undefined;
  }

  /** The ratings of `targetIds` that are not INDIFFERENT. */
  ratingsOf(accountId: number, targetIds: readonly string[]): { targetId: string; rating: string }[] {
    return this.q.ratingsOf.all({ accountId, ids: JSON.stringify(targetIds) });
  }

  /** The library items (any kind) of `targetIds`. */
  libraryItemsOf(accountId: number, targetIds: readonly string[]): { kind: string; targetId: string }[] {
    return this.q.libraryOf.all({ accountId, ids: JSON.stringify(targetIds) });
  }

  /** Library items of one kind, newest first. */
  libraryTargets(accountId: number, kind: string): { targetId: string; addedAt: number }[] {
    return this.q.libraryTargets.all({ accountId, kind });
  }

  likedSongs(accountId: number): SongRow[] {
    return this.catalogue.songsOf(this.q.likedSongs.all({ accountId }).map((r) => r.videoId));
  }

  likedPlaylistIds(accountId: number): string[] {
    return this.q.likedPlaylists.all({ accountId }).map((r) => r.targetId);
  }

  /** The latest 200 plays, newest first. */
  history(accountId: number): HistoryRow[] {
    const out: HistoryRow[] = [];
    for (const r of this.q.history.all({ accountId })) {
      const song = this.catalogue.song(r.videoId);
      if (song) out.push({ ...song, playedAt: r.playedAt, historyId: r.historyId });
    }
    return out;
  }

  savedEpisodes(accountId: number): (EpisodeRow & { setVideoId: string })[] {
    return this.q.savedEpisodes.all({ accountId });
  }

  uploads(accountId: number): UploadRow[] {
    return this.q.uploads.all({ accountId });
  }
}

/** Ratings: one target's, a page's at once, and the liked lists. */
function ratingQueries(db: Db) {
  const mine = eq(ratings.accountId, p("accountId"));
  return {
    rating: db
      .select({ rating: ratings.rating })
      .from(ratings)
      .where(and(mine, eq(ratings.targetId, p("targetId"))))
      .prepare(),
    // One page's marks in two queries: the ids travel as one JSON array (json_each), so the
    // statement is prepared once whatever the page's length.
    ratingsOf: db
      .select({ targetId: ratings.targetId, rating: ratings.rating })
      .from(ratings)
      .where(and(mine, inArray(ratings.targetId, jsonList(p("ids")))))
      .prepare(),
    // Liked songs the catalogue holds (the join), newest rating first.
    likedSongs: db
      .select({ videoId: ratings.targetId })
      .from(ratings)
      .innerJoin(songs, eq(songs.videoId, ratings.targetId))
      .where(and(mine, eq(ratings.kind, "song"), eq(ratings.rating, "LIKE")))
      .orderBy(desc(ratings.updatedAt), desc(ratings.id))
      .prepare(),
    likedPlaylists: db
      .select({ targetId: ratings.targetId })
      .from(ratings)
      .where(and(mine, eq(ratings.kind, "playlist"), eq(ratings.rating, "LIKE")))
      .orderBy(desc(ratings.updatedAt), desc(ratings.id))
      .prepare(),
    history: db
      .select({ historyId: history.id, playedAt: history.playedAt, videoId: history.videoId })
      .from(history)
      .innerJoin(songs, eq(songs.videoId, history.videoId))
      .where(eq(history.accountId, p("accountId")))
      .orderBy(desc(history.playedAt), desc(history.id))
      .limit(200)
      .prepare(),
  };
}

/** Library items, history, saved episodes and uploads. */
function libraryQueries(db: Db) {
  return {
    inLibrary: db
      .select({ id: libraryItems.id })
      .from(libraryItems)
      .where(
        and(
          eq(libraryItems.accountId, p("accountId")),
          eq(libraryItems.kind, p("kind")),
          eq(libraryItems.targetId, p("targetId")),
        ),
      )
      .prepare(),
    libraryOf: db
      .select({ kind: libraryItems.kind, targetId: libraryItems.targetId })
      .from(libraryItems)
      .where(
        and(eq(libraryItems.accountId, p("accountId")), inArray(libraryItems.targetId, jsonList(p("ids")))),
      )
      .prepare(),
    libraryTargets: db
      .select({ targetId: libraryItems.targetId, addedAt: libraryItems.addedAt })
      .from(libraryItems)
      .where(and(eq(libraryItems.accountId, p("accountId")), eq(libraryItems.kind, p("kind"))))
      .orderBy(desc(libraryItems.addedAt), desc(libraryItems.id))
      .prepare(),
    savedEpisodes: db
      .select({ setVideoId: savedEpisodes.setVideoId, ...episodeFields })
      .from(savedEpisodes)
      .innerJoin(episodes, eq(episodes.videoId, savedEpisodes.videoId))
      .innerJoin(podcasts, eq(podcasts.id, episodes.podcastId))
      .innerJoin(artists, eq(artists.id, podcasts.channelId))
      .where(eq(savedEpisodes.accountId, p("accountId")))
      .orderBy(desc(savedEpisodes.addedAt), desc(savedEpisodes.id))
      .prepare(),
    uploads: db
      .select({
        entityId: uploads.entityId,
        videoId: uploads.videoId,
        title: uploads.title,
        artistName: uploads.artistName,
        albumTitle: uploads.albumTitle,
        durationSeconds: uploads.durationSeconds,
        fileName: uploads.fileName,
        createdAt: uploads.createdAt,
      })
      .from(uploads)
      .where(eq(uploads.accountId, p("accountId")))
      .orderBy(desc(uploads.createdAt), desc(uploads.id))
      .prepare(),
  };
}
