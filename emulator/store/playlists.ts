/**
 * Playlists and their rows, as pages read them. A page reads its rows' video ids and set-video ids
 * here and the songs themselves from the catalogue's memory (they never change).
 */
import { and, count, desc, eq, inArray, ne, sql, sum } from "drizzle-orm";
import { Memo } from "../memo.js";
import type { CatalogueStore } from "./catalogue.js";
import type { Db } from "./db.js";
import type { EpisodeRow, PlaylistItemRow, PlaylistRow } from "./rows.js";
import { accounts, episodes, libraryItems, playlistItems, playlists, songs } from "./schema.js";
import { contains, containsPattern, playlistFields } from "./selections.js";

const p = sql.placeholder;

/** Which public playlists a search looks in: all, or the community's or the editors' only. */
export type PlaylistSearchKind = "all" | "community" | "editorial";

export class PlaylistStore {
  private readonly q;
  /**
   * Rows as pages show them, by set-video id and video id: a row's song never changes and its
   * set-video id names it for good, so the joined object is made once.
   */
  private readonly rows = new Memo<string, PlaylistItemRow | null>(100_000);

  constructor(
    private readonly db: Db,
    private readonly catalogue: CatalogueStore,
  ) {
    this.q = this.prepare();
  }

  private prepare() {
    const db = this.db;
    const all = () => db.select(playlistFields).from(playlists);
    // Every row's video is a song, video or episode of the catalogue (adds are checked against it,
    // the seed draws from it), so rows are read without a join.
    const rows = () =>
      db.select({ setVideoId: playlistItems.setVideoId, videoId: playlistItems.videoId }).from(playlistItems);
    const search = (kinds: readonly string[] | null) =>
      all()
        .where(
          and(
            eq(playlists.privacy, "PUBLIC"),
            kinds ? inArray(playlists.kind, [...kinds]) : undefined,
            contains(playlists.searchText, "pattern"),
          ),
        )
        .orderBy(...(kinds ? [desc(playlists.views), playlists.id] : [desc(playlists.views)]))
        .limit(p("limit"))
        .offset(p("offset"))
        .prepare();
    return {
      playlist: all()
        .where(eq(playlists.playlistId, p("playlistId")))
        .prepare(),
      byAuthorChannel: all()
        .where(and(eq(playlists.authorChannelId, p("channelId")), eq(playlists.privacy, "PUBLIC")))
        .orderBy(desc(playlists.views), playlists.id)
        .prepare(),
      playlistsOf: all()
        .where(eq(playlists.ownerAccountId, p("accountId")))
        .orderBy(desc(playlists.createdAt), desc(playlists.id))
        .prepare(),
      items: rows()
        .where(eq(playlistItems.playlistId, p("playlistId")))
        .orderBy(playlistItems.position)
        .limit(p("limit"))
        .offset(p("offset"))
        .prepare(),
      count: db
        .select({ count: count() })
        .from(playlistItems)
        .where(eq(playlistItems.playlistId, p("playlistId")))
        .prepare(),
      songSeconds: db
        .select({ seconds: sum(songs.durationSeconds) })
        .from(playlistItems)
        .innerJoin(songs, eq(songs.videoId, playlistItems.videoId))
        .where(eq(playlistItems.playlistId, p("playlistId")))
        .prepare(),
      episodeSeconds: db
        .select({ seconds: sum(episodes.durationSeconds) })
        .from(playlistItems)
        .innerJoin(episodes, eq(episodes.videoId, playlistItems.videoId))
        .where(eq(playlistItems.playlistId, p("playlistId")))
        .prepare(),
      collaborators: db
        .select({ name: accounts.name, channelId: accounts.channelId })
        .from(libraryItems)
        .innerJoin(accounts, eq(accounts.id, libraryItems.accountId))
        .where(and(eq(libraryItems.kind, "collaboration"), eq(libraryItems.targetId, p("playlistId"))))
        .orderBy(libraryItems.addedAt, libraryItems.id)
        .prepare(),
      publicBesides: db
        .select({ id: playlists.playlistId })
        .from(playlists)
        .where(
          and(inArray(playlists.kind, ["editorial", "community"]), ne(playlists.playlistId, p("playlistId"))),
        )
        .orderBy(playlists.playlistId)
        .limit(p("limit"))
        .prepare(),
      searchAll: search(null),
      searchCommunity: search(["community", "user"]),
      searchEditorial: search(["editorial", "mood"]),
    };
  }

  playlist(playlistId: string): PlaylistRow | null {
    return this.q.playlist.get({ playlistId }) ?? null;
  }

  /**
   * The public playlists whose author has this channel, most viewed first: how the catalogue's
   * community playlists' authors, who have no account, get a channel page.
   */
  playlistsByAuthor(channelId: string): PlaylistRow[] {
    return this.q.byAuthorChannel.all({ channelId });
  }

  /** An account's own playlists, newest first. */
  playlistsOf(accountId: number): PlaylistRow[] {
    return this.q.playlistsOf.all({ accountId });
  }

  /** One page of a playlist's rows, in order. */
  playlistItems(playlistId: string, offset: number, limit: number): PlaylistItemRow[] {
    const out: PlaylistItemRow[] = [];
    for (const [setVideoId, videoId] of this.q.items.values({ playlistId, offset, limit }) as [
      string,
      string,
    ][]) {
      const row = this.rows.get(`${setVideoId}\n${videoId}`, () => {
        const song = this.catalogue.song(videoId);
        if (song) return { ...song, setVideoId };
        const episode = this.catalogue.episode(videoId);
        return episode ? episodeItem(episode, setVideoId) : null;
      });
      if (row) out.push(row);
    }
    return out;
  }

  /**
   * One page of rows and whether more follow (one more row is asked for, to know): all that a
   * continuation needs. Its totals would cost a pass over the whole playlist, on every page.
   */
  rowsFrom(playlistId: string, offset: number, limit: number): { rows: PlaylistItemRow[]; more: boolean } {
    const rows = this.playlistItems(playlistId, offset, limit + 1);
    return rows.length > limit ? { rows: rows.slice(0, limit), more: true } : { rows, more: false };
  }

  /**
   * One page of rows with the playlist's totals (what a header shows). A first page that holds
   * every row gives the totals itself; a longer playlist counts them in the database.
   */
  page(
    playlistId: string,
    offset: number,
    limit: number,
  ): { rows: PlaylistItemRow[]; count: number; seconds: number } {
    const { rows, more } = this.rowsFrom(playlistId, offset, limit);
    if (offset === 0 && !more) {
      return { rows, count: rows.length, seconds: rows.reduce((n, r) => n + r.durationSeconds, 0) };
    }
    return { rows, ...this.playlistStats(playlistId) };
  }

  /** A playlist's row count and length (songs and podcast episodes alike). */
  playlistStats(playlistId: string): { count: number; seconds: number } {
    const count = this.q.count.get({ playlistId })?.count ?? 0;
    const songs = Number(this.q.songSeconds.get({ playlistId })?.seconds ?? 0);
    const episodes = Number(this.q.episodeSeconds.get({ playlistId })?.seconds ?? 0);
    return { count, seconds: songs + episodes };
  }

  /** The accounts that joined a playlist as collaborators, in the order they joined. */
  collaborators(playlistId: string): { name: string; channelId: string }[] {
    return this.q.collaborators.all({ playlistId });
  }

  /** Up to `limit` editorial and community playlists other than `playlistId`, by id. */
  publicPlaylistsBesides(playlistId: string, limit: number): string[] {
    return this.q.publicBesides.all({ playlistId, limit }).map((r) => r.id);
  }

  /**
   * Public playlists whose search text contains `query`, most viewed first: their title and author,
   * and for the catalogue's own playlists the names of the artists they hold (seed.ts).
   */
  search(query: string, kind: PlaylistSearchKind, offset: number, limit: number): PlaylistRow[] {
    const statement =
      kind === "all"
        ? this.q.searchAll
        : kind === "community"
          ? this.q.searchCommunity
          : this.q.searchEditorial;
    return statement.all({ pattern: containsPattern(query), offset, limit });
  }
}

/**
 * A podcast episode as a playlist row (a person's playlist may hold episodes, capture
 * yt_get_playlist_20240624; so do Episodes for Later): the podcast stands where a song's artist
 * would, and the row plays as an episode.
 */
export function episodeItem(e: EpisodeRow, setVideoId: string): PlaylistItemRow {
  return {
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
    setVideoId,
  };
}
