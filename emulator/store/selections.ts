/**
 * The column selections the store's read modules share, as drizzle selections: a song with its
 * artist and album, an episode with its podcast and channel, a playlist, a podcast, an artist. The
 * row types in rows.ts are what these select.
 */
import { eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { Db } from "./db.js";
import { albums, artists, episodes, playlists, podcasts, songs } from "./schema.js";

export const songFields = {
  videoId: songs.videoId,
  title: songs.title,
  artistId: songs.artistId,
  artistName: artists.name,
  channelId: artists.channelId,
  albumId: songs.albumId,
  albumBrowseId: albums.browseId,
  albumTitle: albums.title,
  albumAudioPlaylistId: albums.audioPlaylistId,
  year: albums.year,
  trackNumber: songs.trackNumber,
  durationSeconds: songs.durationSeconds,
  views: songs.views,
  explicit: songs.explicit,
  available: songs.available,
  videoType: songs.videoType,
  counterpartId: songs.counterpartId,
  lyricsSource: songs.lyricsSource,
};

export const artistFields = {
  id: artists.id,
  channelId: artists.channelId,
  name: artists.name,
  kind: artists.kind,
  subscribers: artists.subscribers,
  monthlyListeners: artists.monthlyListeners,
  description: artists.description,
};

export const playlistFields = {
  id: playlists.id,
  playlistId: playlists.playlistId,
  title: playlists.title,
  description: playlists.description,
  ownerAccountId: playlists.ownerAccountId,
  authorName: playlists.authorName,
  authorChannelId: playlists.authorChannelId,
  privacy: playlists.privacy,
  kind: playlists.kind,
  addToTop: playlists.addToTop,
  views: playlists.views,
  createdAt: playlists.createdAt,
};

export const podcastFields = {
  id: podcasts.id,
  playlistId: podcasts.playlistId,
  title: podcasts.title,
  description: podcasts.description,
  channelId: artists.channelId,
  channelName: artists.name,
};

/** The SQL function `Store` defines as the emulator's current day, in whole days since 1970. */
export const TODAY_FUNCTION = "emulator_today";

/**
 * An episode's publication day as rows carry it, in whole days since 1970. The column holds it
 * counted back from the emulator's today (0 today, -7 a week ago), so a catalogue's newest
 * episodes stay a few days old whatever the clock says, across restarts. Catalogues generated
 * before held the day itself (always positive): those are read as they are.
 */
function publishedDayOf(column: SQLiteColumn): SQL<number> {
  return sql<number>`(case when ${column} > 0 then ${column} else ${column} + ${sql.raw(TODAY_FUNCTION)}() end)`;
}

export const episodeFields = {
  videoId: episodes.videoId,
  podcastId: episodes.podcastId,
  podcastPlaylistId: podcasts.playlistId,
  podcastTitle: podcasts.title,
  channelId: artists.channelId,
  channelName: artists.name,
  title: episodes.title,
  description: episodes.description,
  publishedDay: publishedDayOf(episodes.publishedDay),
  durationSeconds: episodes.durationSeconds,
};

/** Episodes with their podcast and the podcast's channel. */
export const fromEpisodes = (db: Db) =>
  db
    .select(episodeFields)
    .from(episodes)
    .innerJoin(podcasts, eq(podcasts.id, episodes.podcastId))
    .innerJoin(artists, eq(artists.id, podcasts.channelId));

/**
 * `column` contains the text whose pattern (`containsPattern`) the placeholder `name` holds,
 * wildcards included: drizzle's `like` has no ESCAPE clause, so this one operator is written out.
 * The search columns hold lower-cased text.
 */
export function contains(column: SQLiteColumn | SQL, name: string): SQL {
  return sql`${column} LIKE ${sql.placeholder(name)} ESCAPE '\\'`;
}

/** `column` lower-cased (ASCII letters, as SQLite's lower() does). */
export const lower = (column: SQLiteColumn): SQL => sql`lower(${column})`;

/** The LIKE pattern of "contains `text`", its wildcards escaped. */
export const containsPattern = (text: string): string =>
  `%${text.toLowerCase().replace(/[%_\\]/g, (c) => "\\" + c)}%`;

/** The values of a JSON array parameter as a one-column table, for `inArray` (SQLite's json_each). */
export const jsonList = (param: Placeholder): SQL => sql`(SELECT value FROM json_each(${param}))`;
