/**
 * The generated catalogue: songs, albums, artists, podcasts and episodes, and their search. The
 * catalogue never changes after the emulator starts, so songs, albums and artists once read are
 * kept (bounded): a page of 100 rows reads its row ids, then the rows from memory, which is what
 * makes uncached pages fast. Every query is prepared once, with placeholders.
 */
import { Memo } from "../memo.js";
import { catalogueQueries } from "./catalogue-queries.js";
import type { Db } from "./db.js";
import type { AlbumOrder, AlbumRow, ArtistRow, EpisodeRow, PodcastRow, SongRow } from "./rows.js";
import { containsPattern } from "./selections.js";
import { SongSearch } from "./song-search.js";

/** A song as `matchAnswers` lists it. */
export interface MatchAnswer {
  videoId: string;
  title: string;
  /** The title in Latin letters when it is written in another script, else null. */
  latinTitle: string | null;
  /** The artist, then the featured artist when there is one. */
  artists: string[];
  /** Per artist, the name in Latin letters when it is written in another script, else null. */
  latinArtists: (string | null)[];
  albumTitle: string | null;
  durationSeconds: number;
  views: number;
  /** Not a version, cover or karaoke take of another song. */
  original: boolean;
  /** The video id of the song this one is a variant of, or null for an original. */
  variantOf: string | null;
  /** `version`, `cover`, `karaoke`, `same-title`, `featured`, `script`, or null (the first songs). */
  lookalike: string | null;
  /** The recording's ISRC, when it has one (catalogue/isrcs.ts). */
  isrc: string | null;
  explicit: boolean;
  /** The year of the release the song is on. */
  year: number | null;
}

/** An album as pages show it, with what the sort menu's "Popularity" orders by. */
type AlbumEntry = AlbumRow & { views: number };

export class CatalogueStore {
  private readonly q;
  private readonly songs = new Memo<string, SongRow | null>(200_000);
  private readonly albumsById = new Memo<number, AlbumEntry | null>(50_000);
  private readonly artistsById = new Memo<number, ArtistRow | null>(50_000);
  private readonly songSearch;

  constructor(db: Db) {
    this.q = catalogueQueries(db);
    this.songSearch = new SongSearch(db);
  }

  // ── songs ──

  song(videoId: string): SongRow | null {
    return this.songs.get(videoId, (id) => this.q.song.get({ videoId: id }) ?? null);
  }

  /** Whether a playlist may hold `videoId`: a song, a video or a podcast episode of the catalogue. */
  holds(videoId: string): boolean {
    return this.song(videoId) !== null || this.episode(videoId) !== null;
  }

  /** Songs by video id, in the order given, leaving out ids the catalogue does not hold. */
  songsOf(videoIds: readonly string[]): SongRow[] {
    const out: SongRow[] = [];
    for (const id of videoIds) {
      const s = this.song(id);
      if (s) out.push(s);
    }
    return out;
  }

  albumTracks(albumId: number): SongRow[] {
    return this.songsOf(this.q.albumTracks.all({ albumId }).map((r) => r.videoId));
  }

  artistSongs(artistId: number, videoType: string, limit: number): SongRow[] {
    return this.songsOf(this.q.artistSongs.all({ artistId, videoType, limit }).map((r) => r.videoId));
  }

  /**
   * The videos on a user's channel page. The catalogue has no uploader for its user-made (UGC)
   * videos, so they are shared out among the accounts by id, the same ones every time.
   */
  userVideos(accountId: number, limit: number): SongRow[] {
    const rows = this.q.userVideos.all({ share: accountId % 4, limit });
    return this.songsOf(rows.map((r) => r.videoId));
  }

  /** `limit` different songs spread over the catalogue, the same ones for the same seed. */
  randomSongs(seed: number, limit: number, videoType = "MUSIC_VIDEO_TYPE_ATV"): SongRow[] {
    this.lastSongId ??= this.q.lastSongId.get()?.n ?? 0;
    const out: SongRow[] = [];
    // Drawn ids repeat on a small catalogue: a set, not a scan of `out` per draw (600 × 200 per radio).
    const drawn = new Set<string>();
    for (let i = 0; out.length < limit && i < limit * 3; i++) {
      const id = 1 + ((seed + i * 7919) % Math.max(1, this.lastSongId));
      const videoId = this.firstOfTypeFrom(id, videoType);
      if (videoId === null || drawn.has(videoId)) continue;
      drawn.add(videoId);
      const song = this.song(videoId);
      if (song) out.push(song);
    }
    return out;
  }

  /** The row id `randomSongs` draws below (the last original song's), read once. */
  private lastSongId: number | null = null;

  /**
   * Per video type, its songs' row ids in order and their video ids, read once. In SQL, "the first
   * of a type from row id n" took the (type, views) index and sorted every song of the type per
   * draw: a radio of 200 cost seconds on a 300-song catalogue, and minutes on a large one.
   */
  private readonly ofType = new Map<string, { ids: Int32Array; videoIds: string[] }>();

  /** The video id of the first song of `videoType` at row id `from` or after, or null. */
  private firstOfTypeFrom(from: number, videoType: string): string | null {
    let list = this.ofType.get(videoType);
    if (list === undefined) {
      const rows = this.q.songsOfType.all({ videoType });
      list = { ids: Int32Array.from(rows, (r) => r.id), videoIds: rows.map((r) => r.videoId) };
      this.ofType.set(videoType, list);
    }
    let lo = 0;
    let hi = list.ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list.ids[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    return list.videoIds[lo] ?? null;
  }

  // ── artists ──

  artist(channelId: string): ArtistRow | null {
    const row = this.q.artist.get({ channelId });
    return row ? this.artistById(row.id) : null;
  }

  artistById(id: number): ArtistRow | null {
    return this.artistsById.get(id, (key) => this.q.artistById.get({ id: key }) ?? null);
  }

  /**
   * Other artists for an artist's pages ("Fans might also like", a song's related page): those
   * whose id leaves the same remainder by `every`, so the same few every time.
   */
  relatedArtists(artistId: number, every: number, limit: number): ArtistRow[] {
    const rows = this.q.related.all({ artistId, every, share: artistId % every, limit });
    return rows.map((r) => this.artistById(r.id)).filter((a): a is ArtistRow => a !== null);
  }

  /** The number of episodes of a podcast. */
  episodeCount(podcastId: number): number {
    return this.q.episodeCount.get({ podcastId })?.n ?? 0;
  }

  // ── albums ──

  album(browseId: string): AlbumRow | null {
    const row = this.q.albumId.get({ browseId });
    return row ? this.albumById(row.id) : null;
  }

  albumByAudioPlaylist(playlistId: string): AlbumRow | null {
    const row = this.q.albumIdByPlaylist.get({ playlistId });
    return row ? this.albumById(row.id) : null;
  }

  private albumById(id: number): AlbumEntry | null {
    return this.albumsById.get(id, (key) => {
      const base = this.q.album.get({ id: key });
      if (!base) return null;
      const stats = this.q.albumStats.get({ albumId: key });
      const first = this.q.albumFirst.get({ albumId: key });
      return {
        ...base,
        trackCount: stats?.tracks ?? 0,
        durationSeconds: Number(stats?.seconds ?? 0),
        firstVideoId: first?.videoId ?? null,
        firstVideoType: first?.videoType ?? null,
        views: Number(stats?.views ?? 0),
      };
    });
  }

  private albumsOf(ids: readonly { id: number }[]): AlbumEntry[] {
    return ids.map((r) => this.albumById(r.id)).filter((a): a is AlbumEntry => a !== null);
  }

  /**
   * An artist's albums of the given types (Album, Single, EP) in one of the sort menu's orders,
   * each breaking ties by id; an artist has a handful, so they are ordered here.
   */
  artistAlbums(artistId: number, types: readonly string[], order: AlbumOrder, limit = 1000): AlbumRow[] {
    const own = this.albumsOf(this.q.artistAlbumIds.all({ artistId })).filter((a) => types.includes(a.type));
    return own.sort(ALBUM_ORDER[order]).slice(0, limit);
  }

  otherAlbums(album: AlbumRow, limit: number): AlbumRow[] {
    return this.albumsOf(this.q.otherAlbumIds.all({ artistId: album.artistId, albumId: album.id, limit }));
  }

  // ── podcasts ──

  podcast(playlistId: string): PodcastRow | null {
    return this.q.podcast.get({ playlistId }) ?? null;
  }

  podcastsOfChannel(channelRowId: number): PodcastRow[] {
    return this.q.podcastsOfChannel.all({ channelId: channelRowId });
  }

  episodes(podcastId: number, offset: number, limit: number): EpisodeRow[] {
    return this.q.episodes.all({ podcastId, offset, limit });
  }

  episodesOfChannel(channelRowId: number, limit: number): EpisodeRow[] {
    return this.q.episodesOfChannel.all({ channelId: channelRowId, limit });
  }

  episode(videoId: string): EpisodeRow | null {
    return this.q.episode.get({ videoId }) ?? null;
  }

  // ── search ──

  /** The song (MUSIC_VIDEO_TYPE_ATV) with this ISRC, or null. */
  songByIsrc(isrc: string): SongRow | null {
    const row = this.q.songByIsrc.get({ isrc });
    return row ? this.song(row.videoId) : null;
  }

  /** Songs (or videos) with every token of `query`, ranked (song-search.ts), from `offset`. */
  searchSongs(kind: "songs" | "videos", query: string, offset: number, limit: number): SongRow[] {
    return this.songSearch.search(kind, query, offset, limit, (id) => this.song(id));
  }

  /**
   * Every song (MUSIC_VIDEO_TYPE_ATV) as a matching benchmark's known answer: what an export from
   * another service would say of it, and whether it is an original or a variant (a version, cover
   * or karaoke take) of another, in id order.
   */
  matchAnswers(): MatchAnswer[] {
    return this.q.matchAnswers.all().map((a) => ({
      videoId: a.videoId,
      title: a.title,
      latinTitle: a.latinTitle,
      artists: a.featuredName ? [a.artistName, a.featuredName] : [a.artistName],
      latinArtists: a.featuredName ? [a.artistLatinName, a.featuredLatinName] : [a.artistLatinName],
      albumTitle: a.albumTitle,
      durationSeconds: a.durationSeconds,
      views: a.views,
      original: a.variantOf === null,
      variantOf: a.variantOf,
      lookalike: a.lookalike,
      isrc: a.isrc,
      explicit: a.explicit,
      year: a.year,
    }));
  }

  searchAlbums(query: string, offset: number, limit: number): AlbumRow[] {
    return this.albumsOf(this.q.searchAlbums.all({ pattern: containsPattern(query), offset, limit }));
  }

  searchArtists(query: string, offset: number, limit: number): ArtistRow[] {
    const rows = this.q.searchArtists.all({ pattern: containsPattern(query), offset, limit });
    return rows.map((r) => this.artistById(r.id)).filter((a): a is ArtistRow => a !== null);
  }

  searchPodcasts(query: string, offset: number, limit: number): PodcastRow[] {
    return this.q.searchPodcasts.all({ pattern: containsPattern(query), offset, limit });
  }

  searchEpisodes(query: string, offset: number, limit: number): EpisodeRow[] {
    return this.q.searchEpisodes.all({ pattern: containsPattern(query), offset, limit });
  }
}

/** SQLite's NOCASE: ASCII letters folded, nothing else. */
const nocase = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
const byId = (a: AlbumEntry, b: AlbumEntry) => a.id - b.id;

const ALBUM_ORDER: Record<AlbumOrder, (a: AlbumEntry, b: AlbumEntry) => number> = {
  Recency: (a, b) => b.year - a.year || byId(a, b),
  Popularity: (a, b) => b.views - a.views || byId(a, b),
  "Alphabetical order": (a, b) => {
    const x = nocase(a.title);
    const y = nocase(b.title);
    return x < y ? -1 : x > y ? 1 : byId(a, b);
  },
};
