/**
 * The catalogue store's queries, each prepared once with placeholders: the catalogue's data access
 * in one place, read by catalogue.ts.
 */
import { and, count, desc, eq, isNull, max, ne, sql, sum } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "./db.js";
import { albums, artists, episodes, podcasts, songs } from "./schema.js";
import { artistFields, contains, fromEpisodes, podcastFields, songFields } from "./selections.js";

const p = sql.placeholder;

/** The second artist of a song that has one (`songs.featured_artist_id`). */
const featured = alias(artists, "featured");

/**
 * A song row as the catalogue serves it: `SongRow` with the featured artist and the Latin title,
 * null for most songs. Renderers that name a song's artists read the featured one (items.ts
 * `artistRuns`); the others see a `SongRow`.
 */
const catalogueSongFields = {
  ...songFields,
  artistLatinName: artists.latinName,
  featuredName: featured.name,
  featuredChannelId: featured.channelId,
  latinTitle: songs.latinTitle,
};

const fromCatalogueSongs = (db: Db) =>
  db
    .select(catalogueSongFields)
    .from(songs)
    .innerJoin(artists, eq(artists.id, songs.artistId))
    .leftJoin(albums, eq(albums.id, songs.albumId))
    .leftJoin(featured, eq(featured.id, songs.featuredArtistId));

const albumBase = {
  id: albums.id,
  browseId: albums.browseId,
  audioPlaylistId: albums.audioPlaylistId,
  title: albums.title,
  artistId: albums.artistId,
  artistName: artists.name,
  channelId: artists.channelId,
  type: albums.type,
  year: albums.year,
  explicit: albums.explicit,
};

const fromAlbums = (db: Db) =>
  db.select(albumBase).from(albums).innerJoin(artists, eq(artists.id, albums.artistId));

const fromPodcasts = (db: Db) =>
  db.select(podcastFields).from(podcasts).innerJoin(artists, eq(artists.id, podcasts.channelId));

export function catalogueQueries(db: Db) {
  return {
    ...songQueries(db),
    ...artistQueries(db),
    ...albumQueries(db),
    ...podcastQueries(db),
    ...searchQueries(db),
    ...answerQueries(db),
  };
}

/** Songs, by video id and in the lists pages show (an album, an artist's top songs, a user's videos). */
function songQueries(db: Db) {
  return {
    song: fromCatalogueSongs(db)
      .where(eq(songs.videoId, p("videoId")))
      .prepare(),
    songByIsrc: db
      .select({ videoId: songs.videoId })
      .from(songs)
      .where(and(eq(songs.isrc, p("isrc")), eq(songs.videoType, "MUSIC_VIDEO_TYPE_ATV")))
      .limit(1)
      .prepare(),
    albumTracks: db
      .select({ videoId: songs.videoId })
      .from(songs)
      .where(eq(songs.albumId, p("albumId")))
      .orderBy(songs.trackNumber)
      .prepare(),
    artistSongs: db
      .select({ videoId: songs.videoId })
      .from(songs)
      .where(and(eq(songs.artistId, p("artistId")), eq(songs.videoType, p("videoType"))))
      .orderBy(desc(songs.views))
      .limit(p("limit"))
      .prepare(),
    userVideos: db
      .select({ videoId: songs.videoId })
      .from(songs)
      .where(and(eq(songs.videoType, "MUSIC_VIDEO_TYPE_UGC"), eq(sql`${songs.id} % 4`, p("share"))))
      .orderBy(desc(songs.views), songs.id)
      .limit(p("limit"))
      .prepare(),
    // Look-alike songs (docs/ENGINE.md#sources) came later and sit above the first songs' ids: leaving them out
    // keeps the random picks (home's "Listen again") what they were.
    lastSongId: db
      .select({ n: max(songs.id) })
      .from(songs)
      .where(and(eq(songs.videoType, "MUSIC_VIDEO_TYPE_ATV"), isNull(songs.lookalike)))
      .prepare(),
    songsOfType: db
      .select({ id: songs.id, videoId: songs.videoId })
      .from(songs)
      .where(eq(songs.videoType, p("videoType")))
      .orderBy(songs.id)
      .prepare(),
  };
}

/** Artists, by channel id and by row id, and the related ones an artist page shows. */
function artistQueries(db: Db) {
  return {
    related: db
      .select({ id: artists.id })
      .from(artists)
      .where(
        and(
          eq(artists.kind, "artist"),
          ne(artists.id, p("artistId")),
          eq(sql`${artists.id} % ${p("every")}`, p("share")),
        ),
      )
      .orderBy(artists.id)
      .limit(p("limit"))
      .prepare(),
    artist: db
      .select(artistFields)
      .from(artists)
      .where(eq(artists.channelId, p("channelId")))
      .prepare(),
    artistById: db
      .select(artistFields)
      .from(artists)
      .where(eq(artists.id, p("id")))
      .prepare(),
  };
}

/** Albums: their ids by browse id or audio playlist, their rows, their track totals. */
function albumQueries(db: Db) {
  return {
    album: fromAlbums(db)
      .where(eq(albums.id, p("id")))
      .prepare(),
    albumId: db
      .select({ id: albums.id })
      .from(albums)
      .where(eq(albums.browseId, p("browseId")))
      .prepare(),
    albumIdByPlaylist: db
      .select({ id: albums.id })
      .from(albums)
      .where(eq(albums.audioPlaylistId, p("playlistId")))
      .prepare(),
    albumStats: db
      .select({ tracks: count(), seconds: sum(songs.durationSeconds), views: sum(songs.views) })
      .from(songs)
      .where(eq(songs.albumId, p("albumId")))
      .prepare(),
    albumFirst: db
      .select({ videoId: songs.videoId, videoType: songs.videoType })
      .from(songs)
      .where(eq(songs.albumId, p("albumId")))
      .orderBy(songs.trackNumber)
      .limit(1)
      .prepare(),
    artistAlbumIds: db
      .select({ id: albums.id })
      .from(albums)
      .where(eq(albums.artistId, p("artistId")))
      .orderBy(albums.id)
      .prepare(),
    otherAlbumIds: db
      .select({ id: albums.id })
      .from(albums)
      .where(and(eq(albums.artistId, p("artistId")), ne(albums.id, p("albumId"))))
      .orderBy(desc(albums.year))
      .limit(p("limit"))
      .prepare(),
  };
}

/** Podcasts and their episodes. */
function podcastQueries(db: Db) {
  return {
    podcast: fromPodcasts(db)
      .where(eq(podcasts.playlistId, p("playlistId")))
      .prepare(),
    podcastsOfChannel: fromPodcasts(db)
      .where(eq(podcasts.channelId, p("channelId")))
      .orderBy(podcasts.id)
      .prepare(),
    episodes: fromEpisodes(db)
      .where(eq(podcasts.id, p("podcastId")))
      .orderBy(desc(episodes.publishedDay), episodes.id)
      .limit(p("limit"))
      .offset(p("offset"))
      .prepare(),
    episodesOfChannel: fromEpisodes(db)
      .where(eq(podcasts.channelId, p("channelId")))
      .orderBy(desc(episodes.publishedDay), episodes.id)
      .limit(p("limit"))
      .prepare(),
    episodeCount: db
      .select({ n: count() })
      .from(episodes)
      .where(eq(episodes.podcastId, p("podcastId")))
      .prepare(),
    episode: fromEpisodes(db)
      .where(eq(episodes.videoId, p("videoId")))
      .prepare(),
  };
}

const original = alias(songs, "original");

/**
 * Every song (MUSIC_VIDEO_TYPE_ATV) with what a matcher would be told about it and whether it is
 * the original, in id order: the known answers of matching benchmarks (`CatalogueStore.matchAnswers`).
 */
function answerQueries(db: Db) {
  return {
    matchAnswers: db
      .select({
        videoId: songs.videoId,
        title: songs.title,
        latinTitle: songs.latinTitle,
        artistName: artists.name,
        artistLatinName: artists.latinName,
        featuredName: featured.name,
        featuredLatinName: featured.latinName,
        albumTitle: albums.title,
        durationSeconds: songs.durationSeconds,
        views: songs.views,
        lookalike: songs.lookalike,
        variantOf: original.videoId,
        isrc: songs.isrc,
        explicit: songs.explicit,
        year: albums.year,
      })
      .from(songs)
      .innerJoin(artists, eq(artists.id, songs.artistId))
      .leftJoin(albums, eq(albums.id, songs.albumId))
      .leftJoin(featured, eq(featured.id, songs.featuredArtistId))
      .leftJoin(original, eq(original.id, songs.variantOf))
      .where(eq(songs.videoType, "MUSIC_VIDEO_TYPE_ATV"))
      .orderBy(songs.id)
      .prepare(),
  };
}

/** Searches other than songs': titles and names containing the query, in the catalogue's order. */
function searchQueries(db: Db) {
  return {
    searchAlbums: db
      .select({ id: albums.id })
      .from(albums)
      .where(contains(albums.searchText, "pattern"))
      .orderBy(desc(albums.year))
      .limit(p("limit"))
      .offset(p("offset"))
      .prepare(),
    searchArtists: db
      .select({ id: artists.id })
      .from(artists)
      .where(and(eq(artists.kind, "artist"), contains(artists.searchText, "pattern")))
      .orderBy(desc(artists.subscribers), artists.id)
      .limit(p("limit"))
      .offset(p("offset"))
      .prepare(),
    searchPodcasts: fromPodcasts(db)
      .where(contains(podcasts.searchText, "pattern"))
      .orderBy(podcasts.id)
      .limit(p("limit"))
      .offset(p("offset"))
      .prepare(),
    searchEpisodes: fromEpisodes(db)
      .where(contains(episodes.searchText, "pattern"))
      .orderBy(desc(episodes.publishedDay), episodes.id)
      .limit(p("limit"))
      .offset(p("offset"))
      .prepare(),
  };
}
