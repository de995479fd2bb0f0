/**
 * The emulator's state as drizzle tables: a generated catalogue (read-only after start) and the
 * per-account state that writes change. Migrations are generated from this file into
 * `migrations/emulator/` with `npx drizzle-kit generate --config drizzle.emulator.config.ts`.
 */
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Key/value facts about the database: the seed and size it was generated with. */
export const meta = sqliteTable("meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/** Artists, and the non-artist channels that own podcasts or playlists. */
export const artists = sqliteTable("artists", {
  id: integer("id").primaryKey(),
  channelId: text("channel_id").notNull().unique(),
  name: text("name").notNull(),
  /** `artist` (MUSIC_PAGE_TYPE_ARTIST) or `channel` (MUSIC_PAGE_TYPE_USER_CHANNEL). */
  kind: text("kind").notNull(),
  subscribers: integer("subscribers").notNull(),
  monthlyListeners: integer("monthly_listeners").notNull(),
  description: text("description").notNull(),
  searchText: text("search_text").notNull(),
  /** The name as people write it in Latin letters, for a name in another script; else null. */
  latinName: text("latin_name"),
});

export const albums = sqliteTable(
  "albums",
  {
    id: integer("id").primaryKey(),
    browseId: text("browse_id").notNull().unique(),
    audioPlaylistId: text("audio_playlist_id").notNull().unique(),
    title: text("title").notNull(),
    artistId: integer("artist_id").notNull(),
    /** `Album`, `Single` or `EP`, as the service displays it. */
    type: text("type").notNull(),
    year: integer("year").notNull(),
    explicit: integer("explicit", { mode: "boolean" }).notNull(),
    searchText: text("search_text").notNull(),
  },
  (t) => [index("albums_artist").on(t.artistId), index("albums_year").on(t.year)],
);

/** Songs (audio tracks) and videos; a song may have a video counterpart and the reverse. */
export const songs = sqliteTable(
  "songs",
  {
    id: integer("id").primaryKey(),
    videoId: text("video_id").notNull().unique(),
    title: text("title").notNull(),
    artistId: integer("artist_id").notNull(),
    albumId: integer("album_id"),
    trackNumber: integer("track_number"),
    durationSeconds: integer("duration_seconds").notNull(),
    views: integer("views").notNull(),
    explicit: integer("explicit", { mode: "boolean" }).notNull(),
    available: integer("available", { mode: "boolean" }).notNull(),
    /** musicVideoType: MUSIC_VIDEO_TYPE_ATV (song), _OMV (official video), _UGC. */
    videoType: text("video_type").notNull(),
    counterpartId: text("counterpart_id"),
    /** Lyrics provider shown under the lyrics, or null when the song has none. */
    lyricsSource: text("lyrics_source"),
    searchText: text("search_text").notNull(),
    /** A second artist (the service's "A & B" artist runs), or null. */
    featuredArtistId: integer("featured_artist_id"),
    /** The title as people write it in Latin letters, for a title in another script; else null. */
    latinTitle: text("latin_title"),
    /**
     * What makes the song hard to tell apart by search (docs/ENGINE.md#sources): `version`, `cover`, `karaoke`
     * (each of the song `variantOf`), `same-title`, `featured`, `script`; null for the songs the
     * catalogue had before them.
     */
    lookalike: text("lookalike"),
    /** The song this one is a version, cover or karaoke take of; null for an original. */
    variantOf: integer("variant_of"),
    /**
     * The recording's ISRC, 12 characters without dashes (catalogue/isrcs.ts); an official video
     * shares its song's or has none. Search answers a query that is exactly one with its song.
     */
    isrc: text("isrc"),
  },
  (t) => [
    index("songs_isrc").on(t.isrc),
    index("songs_album").on(t.albumId),
    index("songs_artist").on(t.artistId),
    // Search walks songs by popularity and stops at the page size (docs/PROTOCOL.md#search ordering).
    index("songs_type_views").on(t.videoType, t.views),
  ],
);

export const playlists = sqliteTable(
  "playlists",
  {
    id: integer("id").primaryKey(),
    playlistId: text("playlist_id").notNull().unique(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    /** Owning account for user playlists; null for catalogue playlists. */
    ownerAccountId: integer("owner_account_id"),
    authorName: text("author_name").notNull(),
    authorChannelId: text("author_channel_id"),
    privacy: text("privacy").notNull(),
    /** `editorial` (featured), `community`, `user`, `chart`, `mood`. */
    kind: text("kind").notNull(),
    addToTop: integer("add_to_top", { mode: "boolean" }).notNull(),
    views: integer("views").notNull(),
    createdAt: integer("created_at").notNull(),
    searchText: text("search_text").notNull(),
  },
  (t) => [index("playlists_owner").on(t.ownerAccountId), index("playlists_views").on(t.views)],
);

export const playlistItems = sqliteTable(
  "playlist_items",
  {
    id: integer("id").primaryKey(),
    playlistId: text("playlist_id").notNull(),
    videoId: text("video_id").notNull(),
    setVideoId: text("set_video_id").notNull(),
    position: real("position").notNull(),
  },
  (t) => [
    index("playlist_items_order").on(t.playlistId, t.position),
    uniqueIndex("playlist_items_set").on(t.playlistId, t.setVideoId),
  ],
);

export const podcasts = sqliteTable("podcasts", {
  id: integer("id").primaryKey(),
  playlistId: text("playlist_id").notNull().unique(),
  title: text("title").notNull(),
  description: text("description").notNull(),
  channelId: integer("channel_id").notNull(),
  searchText: text("search_text").notNull(),
});

export const episodes = sqliteTable(
  "episodes",
  {
    id: integer("id").primaryKey(),
    videoId: text("video_id").notNull().unique(),
    podcastId: integer("podcast_id").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    /**
     * Publication day, counted back from the emulator's today (0 today, -7 a week ago; see
     * `episodeFields`). Catalogues generated by older emulators hold whole days since 1970-01-01.
     */
    publishedDay: integer("published_day").notNull(),
    durationSeconds: integer("duration_seconds").notNull(),
    searchText: text("search_text").notNull(),
  },
  (t) => [index("episodes_podcast").on(t.podcastId)],
);

/** Chart entries: per country, a section (`videos`, `genres`, `artists`) and a ranked target. */
export const charts = sqliteTable(
  "charts",
  {
    id: integer("id").primaryKey(),
    country: text("country").notNull(),
    section: text("section").notNull(),
    position: integer("position").notNull(),
    targetId: text("target_id").notNull(),
    /** `up`, `down`, `neutral` for ranked artists; null for playlists. */
    trend: text("trend"),
  },
  (t) => [index("charts_country").on(t.country, t.section, t.position)],
);

export const moodCategories = sqliteTable("mood_categories", {
  id: integer("id").primaryKey(),
  section: text("section").notNull(),
  title: text("title").notNull(),
  params: text("params").notNull().unique(),
});

export const moodPlaylists = sqliteTable(
  "mood_playlists",
  {
    categoryId: integer("category_id").notNull(),
    playlistId: text("playlist_id").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.categoryId, t.position] })],
);

// ── per-account state ──

/** Google logins and the brand accounts under them (`parentId` set, `pageId` = onBehalfOfUser). */
export const accounts = sqliteTable("accounts", {
  id: integer("id").primaryKey(),
  email: text("email").notNull(),
  name: text("name").notNull(),
  handle: text("handle"),
  channelId: text("channel_id").notNull(),
  sapisid: text("sapisid").notNull(),
  parentId: integer("parent_id"),
  pageId: text("page_id"),
  /** Index of the login in a multi-login browser (`x-goog-authuser`). */
  authUser: integer("auth_user").notNull(),
  /** A premium subscription: the charts and explore pages carry the song charts (docs/PROTOCOL.md#explore). */
  premium: integer("premium", { mode: "boolean" }).notNull().default(false),
});

/** Library entries: `song`, `album`, `playlist`, `podcast`, `channel`, `subscription` (artist). */
export const libraryItems = sqliteTable(
  "library_items",
  {
    id: integer("id").primaryKey(),
    accountId: integer("account_id").notNull(),
    kind: text("kind").notNull(),
    targetId: text("target_id").notNull(),
    addedAt: integer("added_at").notNull(),
  },
  (t) => [uniqueIndex("library_items_unique").on(t.accountId, t.kind, t.targetId)],
);

export const ratings = sqliteTable(
  "ratings",
  {
    id: integer("id").primaryKey(),
    accountId: integer("account_id").notNull(),
    /** `song` or `playlist` (albums and podcasts are rated by their playlist id). */
    kind: text("kind").notNull(),
    targetId: text("target_id").notNull(),
    rating: text("rating").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("ratings_unique").on(t.accountId, t.targetId)],
);

export const history = sqliteTable(
  "history",
  {
    id: integer("id").primaryKey(),
    accountId: integer("account_id").notNull(),
    videoId: text("video_id").notNull(),
    playedAt: integer("played_at").notNull(),
  },
  (t) => [index("history_account").on(t.accountId, t.playedAt)],
);

export const savedEpisodes = sqliteTable(
  "saved_episodes",
  {
    id: integer("id").primaryKey(),
    accountId: integer("account_id").notNull(),
    videoId: text("video_id").notNull(),
    setVideoId: text("set_video_id").notNull(),
    addedAt: integer("added_at").notNull(),
  },
  (t) => [uniqueIndex("saved_episodes_unique").on(t.accountId, t.videoId)],
);

export const uploads = sqliteTable(
  "uploads",
  {
    id: integer("id").primaryKey(),
    accountId: integer("account_id").notNull(),
    entityId: text("entity_id").notNull().unique(),
    videoId: text("video_id").notNull().unique(),
    title: text("title").notNull(),
    artistName: text("artist_name").notNull(),
    albumTitle: text("album_title").notNull(),
    durationSeconds: integer("duration_seconds").notNull(),
    fileName: text("file_name").notNull(),
    size: integer("size").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("uploads_account").on(t.accountId)],
);

export const tasteProfile = sqliteTable(
  "taste_profile",
  {
    accountId: integer("account_id").notNull(),
    artistId: integer("artist_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.artistId] })],
);

export const oauthDeviceCodes = sqliteTable("oauth_device_codes", {
  deviceCode: text("device_code").primaryKey(),
  userCode: text("user_code").notNull().unique(),
  clientId: text("client_id").notNull(),
  polls: integer("polls").notNull(),
  /** The account that approved the code, or null while pending. */
  accountId: integer("account_id"),
  expiresAt: integer("expires_at").notNull(),
  used: integer("used", { mode: "boolean" }).notNull(),
});

export const oauthTokens = sqliteTable("oauth_tokens", {
  token: text("token").primaryKey(),
  /** `access` or `refresh`. */
  kind: text("kind").notNull(),
  accountId: integer("account_id").notNull(),
  clientId: text("client_id").notNull(),
  /** Unix milliseconds; null for refresh tokens (they do not expire here). */
  expiresAt: integer("expires_at"),
});

/**
 * Tokens the Spotify stand-in issued (emulator/services/spotify/auth.ts): kept with the database
 * so that a sign-in made with one start of the emulator still works with the next, as each
 * musicsync command starts the embedded emulator anew.
 */
export const spotifyTokens = sqliteTable("spotify_tokens", {
  token: text("token").primaryKey(),
  /** `access` or `refresh`. */
  kind: text("kind").notNull(),
  /** `app` (client credentials) or `user` (a person's sign-in). */
  grant: text("grant").notNull(),
  clientId: text("client_id").notNull(),
  /** The granted scopes, space-separated. */
  scope: text("scope").notNull(),
  /** Unix milliseconds; null for refresh tokens (they do not expire here). */
  expiresAt: integer("expires_at"),
});

/**
 * Changes made to the other services' stand-ins through their controls (a Spotify playlist
 * gaining songs, a new Weekly Exploration, loved tracks edited), in the order made: the stand-ins'
 * data is generated again from the seed at each start, then these are made again on it.
 */
export const standInChanges = sqliteTable("stand_in_changes", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** `spotify`, `listenbrainz` or `lastfm`. */
  service: text("service").notNull(),
  /** The change as JSON, in the stand-in's own terms. */
  change: text("change").notNull(),
});
