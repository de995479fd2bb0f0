import type { PieceIndex } from "../shared/piece-index.js";
import * as browsingOps from "./operations/browsing.js";
import * as exploreOps from "./operations/explore.js";
import * as libraryOps from "./operations/library.js";
import * as playlistOps from "./operations/playlists.js";
import * as podcastOps from "./operations/podcasts.js";
import * as searchOps from "./operations/search.js";
import * as songOps from "./operations/song.js";
import * as uploadOps from "./operations/uploads.js";
import * as watchOps from "./operations/watch.js";
import type { MusicClientOptions } from "./options.js";
import { createContext } from "./transport/context.js";
import type { OperationContext } from "./transport/operation-context.js";
import type { Album, Artist, ArtistAlbum, HomeRow, PlaylistCard, User, VideoCard } from "./types/browsing.js";
import type { Charts, Explore, MoodCategories, MoodPlaylists } from "./types/explore.js";
import type {
  AccountInfo,
  HistoryItem,
  HistoryItemResult,
  LibraryAlbum,
  LibraryArtist,
  LibraryListOptions,
  LibraryPlaylist,
  LibraryPodcast,
  LibrarySongsOptions,
  LimitOptions,
  PlaylistTrack,
  Rating,
  SongWithTracking,
} from "./types/library.js";
import type {
  AddPlaylistItemsOptions,
  AddPlaylistItemsResponse,
  CollaborationResult,
  CreatePlaylistOptions,
  EditPlaylistOptions,
  EditPlaylistResponse,
  GetPlaylistOptions,
  Playlist,
  PlaylistItemRef,
  ServiceResponse,
  WriteFailure,
  WriteStatus,
} from "./types/playlists.js";
import type { Channel, Episode, EpisodePage, EpisodesPlaylist, Podcast } from "./types/podcasts.js";
import type { SearchOptions, SearchResult, SearchSuggestion } from "./types/search.js";
import type { Lyrics, Song, TasteProfile } from "./types/song.js";
import type {
  UploadAlbum,
  UploadArtistOptions,
  UploadFailure,
  UploadListOptions,
  UploadSong,
} from "./types/uploads.js";
import type { WatchPlaylist } from "./types/watch.js";

export type { MusicClientOptions, OAuthCredentials, OAuthToken } from "./options.js";

/**
 * A client for the YouTube Music web API: one method per operation of the ytmusicapi interface,
 * with camelCase names, positional required parameters and a trailing options object.
 *
 * ```ts
 * const music = new MusicClient({ auth: "browser.json" });
 * const results = await music.search("daft punk", { filter: "songs" });
 * ```
 */
export class MusicClient {
  /** What every operation uses: transport, auth, language, logger. */
  protected readonly ctx: OperationContext;

  constructor(options: MusicClientOptions = {}) {
    this.ctx = createContext(options);
  }

  /**
   * Scrubs this client's credentials (the cookie and each of its values, the SAPISID and
   * SAPISIDHASH, OAuth tokens, the client secret), in every spelling and any piece of 12 or more
   * characters, out of a value before you log or store it. What the client returns and raises is
   * scrubbed already; this is for text your own code puts together.
   *
   * @param value - Text, a JSON-like value (a copy is returned when anything changed), or an error
   *   (scrubbed in place).
   * @returns The value with each credential replaced by `[redacted]`.
   */
  redact<T>(value: T): T {
    return this.ctx.redact(value);
  }

  /**
   * @internal The index of this client's credentials as they stand now: a process with a client per
   * account screens its outputs for all of them in one pass (engine/output/scrub.ts).
   */
  secretIndex(): PieceIndex {
    return this.ctx.secretIndex();
  }

  // ── search: search, getSearchSuggestions ─────────────────────────────────────────────────────

  /**
   * Searches the catalogue, or the signed-in user's library or uploads.
   *
   * @param query - What to search for.
   * @param options.filter - One kind of result only: `songs`, `videos`, `albums`, `artists`,
   *   `playlists`, `community_playlists`, `featured_playlists`, `profiles`, `podcasts`, `episodes`.
   *   Default none: every kind, one shelf each (with a "Top result" card).
   * @param options.scope - `library` or `uploads` (both need auth); default the whole catalogue.
   * @param options.limit - With a filter (or uploads), fetch continuation pages until at least this
   *   many results; default 20, `null` for all.
   * @param options.ignoreSpelling - Search exactly what was typed, no spelling correction; default false.
   * @returns The results; the keys of each depend on its `resultType` (song, video, album, artist,
   *   playlist, profile, podcast, episode…).
   * @throws ArgumentError for an unknown filter or scope, or a forbidden combination (any filter with
   *   `uploads`; `community_playlists`/`featured_playlists` with `library`), before any request.
   * @throws AuthError when a scope is given without credentials.
   */
  search(query: string, options: SearchOptions = {}): Promise<SearchResult[]> {
    return searchOps.search(this.ctx, query, options);
  }

  /**
   * Completions the service suggests for a partial query.
   *
   * @param query - The text typed so far.
   * @param options.detailedRuns - Return `{text, runs, fromHistory, feedbackToken}` objects (runs
   *   matching the typed text are `bold`) instead of plain strings; default false.
   * @returns Suggestion strings, or suggestion objects with `detailedRuns`.
   * @throws ArgumentError when `query` is not a string.
   */
  getSearchSuggestions(query: string, options?: { detailedRuns?: false }): Promise<string[]>;
  getSearchSuggestions(query: string, options: { detailedRuns: true }): Promise<SearchSuggestion[]>;
  getSearchSuggestions(
    query: string,
    options?: { detailedRuns?: boolean },
  ): Promise<string[] | SearchSuggestion[]>;
  getSearchSuggestions(
    query: string,
    options: { detailedRuns?: boolean } = {},
  ): Promise<string[] | SearchSuggestion[]> {
    return searchOps.getSearchSuggestions(this.ctx, query, options);
  }
  // ── end search ──

  // ── browsing: home, artist, artist albums, album, user, song related ──────────────────────────

  /**
   * The home feed: titled rows of cards (albums, artists, playlists, songs, videos, episodes).
   *
   * @param options.limit - At least this many rows (continuation pages are whole); default 3,
   *   `null` for every row the service has.
   * @returns Rows `{title, contents}`; a description row's `contents` is its text, and a card of a
   *   page type no parser knows is `null`.
   * @throws ArgumentError for a negative or non-integer limit.
   */
  getHome(options: { limit?: number | null } = {}): Promise<HomeRow[]> {
    return browsingOps.getHome(this.ctx, options);
  }

  /**
   * An artist page: header facts, top songs and the album, single, video, playlist and related
   * artist carousels (each with the `browseId`/`params` of its full list when linked).
   *
   * @param channelId - The artist's channel id (`UC…`; a `MPLA` prefix is accepted and removed).
   * @returns The artist; `channelId` is the one to subscribe to (it can differ from the argument).
   * @throws ArgumentError for an empty id; ParseError when the page has no artist header.
   */
  getArtist(channelId: string): Promise<Artist> {
    return browsingOps.getArtist(this.ctx, channelId);
  }

  /**
   * An artist's full list of albums (or singles, shows), from the `browseId` and `params` of a
   * `getArtist` category.
   *
   * @param channelId - The category's `browseId`.
   * @param params - The category's `params`.
   * @param options.limit - At least this many albums; default 100, `null` for all.
   * @param options.order - `Recency`, `Popularity` or `Alphabetical order`; default the page's order.
   * @throws ArgumentError for an unknown order or a bad limit; ParseError when the page offers no
   *   list (or not the sort option asked for).
   */
  getArtistAlbums(
    channelId: string,
    params: string,
    options: browsingOps.ArtistAlbumsOptions = {},
  ): Promise<ArtistAlbum[]> {
    return browsingOps.getArtistAlbums(this.ctx, channelId, params, options);
  }

  /**
   * An album page: header facts, tracks, and other versions / recommendations.
   *
   * @param browseId - The album's browse id (`MPREb_…`; see `getAlbumBrowseId` for audio playlists).
   * @returns The album; `duration_seconds` is the sum of its tracks' durations.
   * @throws ArgumentError when `browseId` does not start with `MPRE`.
   */
  getAlbum(browseId: string): Promise<Album> {
    return browsingOps.getAlbum(this.ctx, browseId);
  }

  /**
   * The album browse id (`MPREb_…`) of an album's audio playlist, read from its playlist web page.
   *
   * @param audioPlaylistId - The album's playlist id (`OLAK5uy_…`).
   * @returns The browse id, or `null` when the page names none.
   * @throws ArgumentError for an empty id.
   */
  getAlbumBrowseId(audioPlaylistId: string): Promise<string | null> {
    return browsingOps.getAlbumBrowseId(this.ctx, audioPlaylistId);
  }

  /**
   * A user (profile) page: name, and the videos and playlists carousels.
   *
   * @param channelId - The user's channel id.
   * @throws ArgumentError for an empty id.
   */
  getUser(channelId: string): Promise<User> {
    return browsingOps.getUser(this.ctx, channelId);
  }

  /**
   * All playlists of a user.
   *
   * @param channelId - The user's channel id.
   * @param params - `getUser(channelId).playlists.params`.
   * @returns Playlist cards (`[]` when the page has none).
   */
  getUserPlaylists(channelId: string, params: string): Promise<PlaylistCard[]> {
    return browsingOps.getUserPlaylists(this.ctx, channelId, params);
  }

  /**
   * All videos of a user.
   *
   * @param channelId - The user's channel id.
   * @param params - `getUser(channelId).videos.params`.
   * @returns Video cards (`[]` when the page has none).
   */
  getUserVideos(channelId: string, params: string): Promise<VideoCard[]> {
    return browsingOps.getUserVideos(this.ctx, channelId, params);
  }

  /**
   * The "Related" tab of a song: rows of cards like the home feed's, and description rows.
   *
   * @param browseId - The `related` browse id (`MPTRt_…`) from `getWatchPlaylist`.
   * @throws ArgumentError for an empty id; ParseError when the page has no section list.
   */
  getSongRelated(browseId: string): Promise<HomeRow[]> {
    return browsingOps.getSongRelated(this.ctx, browseId);
  }
  // ── end browsing ──

  // ── song: getSong, getLyrics, getTasteProfile, setTasteProfile ───────────────────────────────

  /**
   * The player data of a song or video: `videoDetails`, `playabilityStatus`, `streamingData`,
   * `microformat` and `playbackTracking` (each `null` when the service left it out, e.g. no
   * `streamingData` for an unplayable video). Pass the result to `addHistoryItem` to record a play.
   *
   * @param videoId the video id, e.g. `"FZ8BxMU3BYc"`.
   * @param options.signatureTimestamp the player version's signature timestamp that stream URLs
   *   must match. Default: read the current one as the web client does — the start page
   *   (`${baseUrl}/`) names the player script (`jsUrl`), whose text holds `signatureTimestamp`; when
   *   that fails (network, changed page), the computed default (whole days since the Unix epoch,
   *   minus one) is used and a warning saying why is logged. A value read is reused for an hour.
   * @returns the five player sections as the service sent them.
   * @throws ArgumentError for an empty `videoId` or a `signatureTimestamp` that is not a
   *   non-negative integer (before any request); ServiceError / TransportError from the request;
   *   ParseError when the answer is not an object.
   */
  getSong(videoId: string, options: songOps.GetSongOptions = {}): Promise<Song> {
    return songOps.getSong(this.ctx, videoId, options);
  }

  /**
   * The lyrics of a song.
   *
   * @param browseId the lyrics page id (`MPLYt_…`), the `lyrics` value of `getWatchPlaylist`.
   * @param options.timestamps ask for timed lyrics (line by line, with start and end in
   *   milliseconds). Default `false`. Only the mobile app's client is given them, so the request
   *   is sent as `ANDROID_MUSIC`; when the answer has none, the plain lyrics in it are returned.
   * @returns `{lyrics, source, hasTimestamps}` — `lyrics` a string (plain) or `LyricLine[]`
   *   (timed), `source` e.g. `"Source: LyricFind"` or `null` — or `null` when the song has no lyrics.
   * @throws ArgumentError for an empty `browseId` (before any request); ParseError when a timed
   *   line lacks its text or times.
   */
  getLyrics(browseId: string, options: songOps.GetLyricsOptions = {}): Promise<Lyrics | null> {
    return songOps.getLyrics(this.ctx, browseId, options);
  }

  /**
   * The artists the taste builder offers, keyed by name, with the form values `setTasteProfile`
   * sends. Needs credentials.
   *
   * @returns `{ [artistName]: { selectionValue, impressionValue } }`.
   * @throws AuthError (AUTH_REQUIRED) without credentials, before any request; ParseError when the
   *   taste builder is missing from the answer.
   */
  getTasteProfile(): Promise<TasteProfile> {
    return songOps.getTasteProfile(this.ctx);
  }

  /**
   * Tells the service which artists you like (the taste builder of a new account). Needs credentials.
   *
   * @param artists names exactly as `getTasteProfile` lists them.
   * @param options.tasteProfile a result of `getTasteProfile` to choose from. Default: fetched first.
   * @returns nothing; the service's answer (a refreshed home page) is not used.
   * @throws AuthError (AUTH_REQUIRED) without credentials; ArgumentError (`artists`) naming an
   *   artist the profile does not offer — before the write is sent.
   */
  setTasteProfile(artists: string[], options: songOps.SetTasteProfileOptions = {}): Promise<void> {
    return songOps.setTasteProfile(this.ctx, artists, options);
  }
  // ── end song ──

  // ── explore: moods, charts, explore ──────────────────────────────────────────────────────────

  /**
   * The "Moods & genres" buttons, by section.
   *
   * @returns `{ [sectionTitle]: [{ title, params }] }`, e.g. `For you`, `Genres`, `Moods & moments`;
   *   pass a `params` to `getMoodPlaylists`.
   * @throws ParseError when the page has no section list.
   */
  getMoodCategories(): Promise<MoodCategories> {
    return exploreOps.getMoodCategories(this.ctx);
  }

  /**
   * The playlists of one mood or genre.
   *
   * @param params the `params` of a `getMoodCategories` entry.
   * @returns playlist cards (`title`, `playlistId`, `thumbnails`, `owned`, `description`…) of every
   *   section of the category's page, in page order.
   * @throws ArgumentError when `params` is not a string (before any request); ParseError when the
   *   page has no section list.
   */
  getMoodPlaylists(params: string): Promise<MoodPlaylists> {
    return exploreOps.getMoodPlaylists(this.ctx, params);
  }

  /**
   * The charts of a country: the country menu, video chart playlists, ranked artists, and the
   * sections the page carries for that country and account (see `CHART_SECTIONS`: genre charts for
   * the US, language charts for India, separate daily/weekly charts and ranked songs for premium
   * accounts). Sections the page lacks are absent; `rank`/`trend` are null without credentials.
   *
   * @param options.country `ZZ` (global, the default) or a supported location code (`LOCATIONS`).
   * @throws ArgumentError for another `country` (before any request); ParseError when the page has
   *   no section list.
   */
  getCharts(options: exploreOps.GetChartsOptions = {}): Promise<Charts> {
    return exploreOps.getCharts(this.ctx, options);
  }

  /**
   * The explore page: `new_releases` (album cards), `moods_and_genres`, `top_episodes`,
   * `trending` (`{playlist, items}`), `new_videos`, and `top_songs` for premium accounts. Each key
   * is absent when the page does not carry that carousel.
   *
   * @throws ParseError when the page has no section list.
   */
  getExplore(): Promise<Explore> {
    return exploreOps.getExplore(this.ctx);
  }
  // ── end explore ──

  // ── watch: getWatchPlaylist ──────────────────────────────────────────────────────────────────

  /**
   * The play queue that starts when you play a song, a playlist or a radio, with the first track's
   * lyrics and related-content page ids.
   *
   * @param options.videoId the song or video played. With no `playlistId`, its radio (`RDAMVM…`)
   *   is the queue.
   * @param options.playlistId the playlist or album playlist played (a `VL` prefix is removed).
   *   At least one of `videoId` and `playlistId` is required.
   * @param options.limit the least number of tracks to return, default 25: continuation pages are
   *   fetched until it is reached or the queue ends (whole pages, so there may be more). `null`
   *   fetches all, allowed only for finite playlists (`PL…`, `OLA…`) — a radio never ends.
   * @param options.radio play a radio of the song/playlist instead (it differs each time). Default `false`.
   * @param options.shuffle shuffle the playlist (needs a playlist; ignored with `radio`). Default `false`.
   * @returns `{tracks, playlistId, lyrics, related}`; a track may carry the `counterpart` of the
   *   song/video switch. Note: the queue reports DISLIKE as INDIFFERENT.
   * @throws ArgumentError without `videoId` and `playlistId`, or for an invalid `limit` (before any
   *   request); ServiceError (NO_CONTENT) when the service returns no queue (private or unavailable
   *   playlist); ParseError when the watch page's tabs are missing.
   */
  getWatchPlaylist(options: watchOps.GetWatchPlaylistOptions = {}): Promise<WatchPlaylist> {
    return watchOps.getWatchPlaylist(this.ctx, options);
  }
  // ── end watch ──

  // ── podcasts: channel, podcast, episode ───────────────────────────────────────────────────────

  /**
   * A podcast channel's page.
   *
   * @param channelId the channel id (`UC…`).
   * @returns `{title, thumbnails}` and the page's carousels keyed as on artist pages: `episodes`
   *   (latest, with `browseId` and `params` for `getChannelEpisodes`), `podcasts`, `playlists`…;
   *   carousels the page lacks are absent.
   * @throws ArgumentError for an empty `channelId` (before any request); ParseError when the
   *   channel header or the section list is missing.
   */
  getChannel(channelId: string): Promise<Channel> {
    return podcastOps.getChannel(this.ctx, channelId);
  }

  /**
   * Every episode of a podcast channel, in one page (the service does not page this list).
   *
   * @param channelId the channel id (`UC…`), the `episodes.browseId` of `getChannel`.
   * @param params the `episodes.params` of `getChannel`.
   * @returns episode rows (`title`, `description`, `duration`, `videoId`, `browseId`, `date`…).
   * @throws ArgumentError for an empty `channelId` or `params` (before any request); ParseError
   *   when the page has no episode grid.
   */
  getChannelEpisodes(channelId: string, params: string): Promise<Episode[]> {
    return podcastOps.getChannelEpisodes(this.ctx, channelId, params);
  }

  /**
   * A podcast show: its header and episodes.
   *
   * @param playlistId the show's playlist id (`PL…`) or browse id (`MPSP…`; the prefix is added
   *   when missing).
   * @param options.limit the least number of episodes to return, default 100; continuation pages
   *   are fetched until it is reached (whole pages, so there may be more). `null` fetches all.
   * @returns `{author, title, thumbnails, description, saved, episodes}`.
   * @throws ArgumentError for an empty `playlistId` or an invalid `limit` (before any request);
   *   ParseError when the show header is missing.
   */
  getPodcast(playlistId: string, options: podcastOps.GetPodcastOptions = {}): Promise<Podcast> {
    return podcastOps.getPodcast(this.ctx, playlistId, options);
  }

  /**
   * A podcast episode's page.
   *
   * @param videoId the episode's video id (or its `MPED…` browse id).
   * @returns `{author, title, thumbnails, date, duration, progressPercentage, saved, playlistId,
   *   description}` — `playlistId` is the show's browse id (`MPSP…`); `description` is a list of
   *   pieces: `{text}`, links `{text, url}`, and jumps within the episode `{text, seconds}`.
   * @throws ArgumentError for an empty `videoId` (before any request); ParseError when the episode
   *   header is missing.
   */
  getEpisode(videoId: string): Promise<EpisodePage> {
    return podcastOps.getEpisode(this.ctx, videoId);
  }

  /**
   * An episode playlist, by default "New episodes" of the podcasts in your library.
   *
   * @param playlistId default `"RDPN"` (New episodes). Positional although it has a default: the
   *   interface's calls (`cases.json`) pass it so.
   * @returns the playlist header (`title`, `owned`, `privacy`, `description`, `thumbnails`,
   *   `views`, `duration`, `trackCount`, `year`) and its `episodes`.
   * @throws ArgumentError for an empty `playlistId` (before any request); ParseError when the
   *   playlist header is missing.
   */
  getEpisodesPlaylist(playlistId = "RDPN"): Promise<EpisodesPlaylist> {
    return podcastOps.getEpisodesPlaylist(this.ctx, playlistId);
  }
  // ── end podcasts ──

  // ── library: library lists, history, ratings, subscriptions, account ─────────────────────────

  /**
   * The playlists in the account's library ("Liked Music" first; the "New playlist" card is left
   * out). Needs credentials.
   *
   * @param options.limit how many playlists at least; whole pages are kept, so more may come back.
   *   `null` = all. Default 25.
   * @returns playlist cards: `title`, `playlistId`, `thumbnails`, `owned`, `description`, and `count`
   *   and `author` when the card shows them.
   * @throws AuthError (AUTH_REQUIRED) without credentials and ArgumentError for a bad `limit`, both
   *   before any request; ServiceError / TransportError from the requests (ParseError for a body
   *   that is not JSON). A page without the list gives an empty list.
   */
  getLibraryPlaylists(options: LimitOptions = {}): Promise<LibraryPlaylist[]> {
    return libraryOps.getLibraryPlaylists(this.ctx, options);
  }

  /**
   * The songs saved to the library. Needs credentials.
   *
   * @param options.limit how many songs at least (pages of 25); `null` = all. Default 25.
   * @param options.order `a_to_z`, `z_to_a` or `recently_added`. Default: the service's order.
   * @param options.validateResponses re-request a page that came back shorter than expected, up to
   *   3 more times, keeping the largest answer (the service sometimes sends partial pages). Needs a
   *   numeric `limit`. Default `false`.
   * @returns playlist-item rows (`videoId`, `title`, `artists`, `album`, `likeStatus`, `inLibrary`,
   *   `feedbackTokens`, `duration`, `duration_seconds`, …).
   * @throws AuthError (AUTH_REQUIRED) without credentials; ArgumentError for a bad `limit`, `order`,
   *   or `validateResponses` with `limit: null` — all before any request; ServiceError /
   *   TransportError / ParseError from the requests.
   */
  getLibrarySongs(options: LibrarySongsOptions = {}): Promise<PlaylistTrack[]> {
    return libraryOps.getLibrarySongs(this.ctx, options);
  }

  /**
   * The albums saved to the library. Needs credentials.
   *
   * @param options.limit how many albums at least (whole pages); `null` = all. Default 25.
   * @param options.order `a_to_z`, `z_to_a` or `recently_added`. Default: the service's order.
   * @returns album cards: `browseId`, `playlistId`, `title`, `thumbnails`, `type`, `artists`, `year`.
   * @throws AuthError (AUTH_REQUIRED) / ArgumentError (`limit`, `order`) before any request;
   *   ServiceError / TransportError from the requests. A page without the list gives an empty list.
   */
  getLibraryAlbums(options: LibraryListOptions = {}): Promise<LibraryAlbum[]> {
    return libraryOps.getLibraryAlbums(this.ctx, options);
  }

  /**
   * The artists of the songs in the library. Needs credentials.
   *
   * @param options.limit how many artists at least (whole pages); `null` = all. Default 25.
   * @param options.order `a_to_z`, `z_to_a` or `recently_added`. Default: the service's order.
   * @returns artist rows: `browseId`, `artist`, `subscribers` (here the song count), `thumbnails`,
   *   and `type`, `shuffleId`, `radioId` when the row has them.
   * @throws AuthError (AUTH_REQUIRED) / ArgumentError (`limit`, `order`) before any request;
   *   ServiceError / TransportError from the requests. A page without the list gives an empty list.
   */
  getLibraryArtists(options: LibraryListOptions = {}): Promise<LibraryArtist[]> {
    return libraryOps.getLibraryArtists(this.ctx, options);
  }

  /**
   * The artists the account is subscribed to. Needs credentials.
   *
   * @param options.limit how many at least (whole pages); `null` = all. Default 25.
   * @param options.order `a_to_z`, `z_to_a` or `recently_added`. Default: the service's order.
   * @returns artist rows as `getLibraryArtists` (`subscribers` = the subscriber count).
   * @throws AuthError (AUTH_REQUIRED) / ArgumentError (`limit`, `order`) before any request;
   *   ServiceError / TransportError from the requests. A page without the list gives an empty list.
   */
  getLibrarySubscriptions(options: LibraryListOptions = {}): Promise<LibraryArtist[]> {
    return libraryOps.getLibrarySubscriptions(this.ctx, options);
  }

  /**
   * The podcasts saved to the library; the "New Episodes" and "Episodes for Later" lists may come
   * first (the "Add podcast" card is left out). Needs credentials.
   *
   * @param options.limit how many at least (whole pages); `null` = all. Default 25.
   * @param options.order `a_to_z`, `z_to_a` or `recently_added`. Default: the service's order.
   * @returns podcast cards: `title`, `channel` (`{id, name}`), `browseId`, `podcastId`, `thumbnails`.
   * @throws AuthError (AUTH_REQUIRED) / ArgumentError (`limit`, `order`) before any request;
   *   ServiceError / TransportError from the requests. A page without the list gives an empty list.
   */
  getLibraryPodcasts(options: LibraryListOptions = {}): Promise<LibraryPodcast[]> {
    return libraryOps.getLibraryPodcasts(this.ctx, options);
  }

  /**
   * The podcast channels the account follows. Needs credentials.
   *
   * @param options.limit how many at least (whole pages); `null` = all. Default 25.
   * @param options.order `a_to_z`, `z_to_a` or `recently_added`. Default: the service's order.
   * @returns artist rows as `getLibraryArtists`, with `type: "channel"`.
   * @throws AuthError (AUTH_REQUIRED) / ArgumentError (`limit`, `order`) before any request;
   *   ServiceError / TransportError from the requests. A page without the list gives an empty list.
   */
  getLibraryChannels(options: LibraryListOptions = {}): Promise<LibraryArtist[]> {
    return libraryOps.getLibraryChannels(this.ctx, options);
  }

  /**
   * The "Liked Music" playlist (`LM`). Needs credentials.
   *
   * @param options.limit how many tracks at least (whole pages); `null` = all. Default 100.
   * @returns the playlist as `getPlaylist` returns it.
   * @throws AuthError (AUTH_REQUIRED) / ArgumentError (`limit`) before any request; ServiceError /
   *   TransportError / ParseError from the requests.
   */
  getLikedSongs(options: LimitOptions = {}): Promise<Playlist> {
    return playlistOps.getLikedSongs(this.ctx, options);
  }

  /**
   * The "Episodes for Later" playlist (`SE`). Needs credentials.
   *
   * @param options.limit how many episodes at least (whole pages); `null` = all. Default 100.
   * @returns the playlist as `getPlaylist` returns it.
   * @throws AuthError (AUTH_REQUIRED) / ArgumentError (`limit`) before any request; ServiceError /
   *   TransportError / ParseError from the requests.
   */
  getSavedEpisodes(options: LimitOptions = {}): Promise<Playlist> {
    return playlistOps.getSavedEpisodes(this.ctx, options);
  }

  /**
   * The listening history, newest period first (the service sends it all at once). Needs credentials.
   *
   * @returns playlist-item rows, each with `played` (the period: `Today`, `Yesterday`, a month…) and
   *   `feedbackToken` (for `removeHistoryItems`).
   * @throws AuthError (AUTH_REQUIRED) before any request; ServiceError (NO_CONTENT) with the
   *   service's notice when the page has no tracks (e.g. history paused); TransportError /
   *   ParseError from the request.
   */
  getHistory(): Promise<HistoryItem[]> {
    return libraryOps.getHistory(this.ctx);
  }

  /**
   * Records a play of a song in the history, as the web player does: a GET of the song's playback
   * tracking URL with `ver=2`, `c=WEB_REMIX` and a fresh client playback nonce. Needs credentials.
   *
   * @param song a `getSong` result of this same client (its `playbackTracking`).
   * @returns `{status}` of the tracking endpoint's answer — 204 when recorded.
   * @throws AuthError (AUTH_REQUIRED) without credentials and ArgumentError (`song`) without a
   *   tracking URL, both before any request; ServiceError (HTTP_ERROR) for an HTTP error status.
   */
  addHistoryItem(song: SongWithTracking): Promise<HistoryItemResult> {
    return libraryOps.addHistoryItem(this.ctx, song);
  }

  /**
   * Removes rows from the history. Needs credentials.
   *
   * @param feedbackTokens the `feedbackToken` of each row, from `getHistory`.
   * @returns the service's response as is; `feedbackResponses[*].isProcessed` says what was removed.
   * @throws AuthError (AUTH_REQUIRED) / ArgumentError (`feedbackTokens` empty or not strings) before
   *   any request; ServiceError / TransportError from the request.
   */
  removeHistoryItems(feedbackTokens: string[]): Promise<ServiceResponse> {
    return libraryOps.removeHistoryItems(this.ctx, feedbackTokens);
  }

  /**
   * Rates a song: `LIKE` adds it to "Liked Music", `DISLIKE`, or `INDIFFERENT` to clear the rating.
   * Needs credentials.
   *
   * @param videoId the song's video id.
   * @param rating `LIKE`, `DISLIKE` or `INDIFFERENT`. Default `INDIFFERENT`.
   * @returns the service's response as is (an `actions` array with a toast on success).
   * @throws AuthError (AUTH_REQUIRED) / ArgumentError (`videoId`, `rating`) before any request;
   *   ServiceError / TransportError from the request.
   */
  rateSong(videoId: string, rating: Rating = "INDIFFERENT"): Promise<ServiceResponse> {
    return libraryOps.rateSong(this.ctx, videoId, rating);
  }

  /**
   * Adds songs to or removes them from the library, or pins / unpins them in "Listen again", with the
   * tokens the song rows carry. Needs credentials. (The interface gives `feedbackTokens` a default of
   * none, which only makes an empty request; here it is required.)
   *
   * @param feedbackTokens `feedbackTokens.add` / `.remove` or `listenAgainFeedbackTokens.pin` /
   *   `.unpin` values of song rows.
   * @returns the service's response as is; `feedbackResponses[0].isProcessed` is true on success.
   * @throws AuthError (AUTH_REQUIRED) / ArgumentError (`feedbackTokens`) before any request;
   *   ServiceError / TransportError from the request.
   */
  editSongLibraryStatus(feedbackTokens: string[]): Promise<ServiceResponse> {
    return libraryOps.editSongLibraryStatus(this.ctx, feedbackTokens);
  }

  /**
   * Rates a playlist, album or podcast by its playlist id: `LIKE` saves it to the library,
   * `INDIFFERENT` removes it, `DISLIKE`. Needs credentials.
   *
   * @param playlistId the playlist id (an album's or podcast's audio playlist id for those).
   * @param rating `LIKE`, `DISLIKE` or `INDIFFERENT`. Default `INDIFFERENT`.
   * @returns the service's response as is.
   * @throws AuthError (AUTH_REQUIRED) / ArgumentError (`playlistId`, `rating`) before any request;
   *   ServiceError / TransportError from the request.
   */
  ratePlaylist(playlistId: string, rating: Rating = "INDIFFERENT"): Promise<ServiceResponse> {
    return libraryOps.ratePlaylist(this.ctx, playlistId, rating);
  }

  /**
   * Subscribes to an artist. The service takes ONE channel per call (since 2025), so exactly one id
   * is accepted: more than one is refused before anything is sent rather than subscribing to the
   * first only — call once per artist. Needs credentials.
   *
   * @param channelIds a one-element array with the artist's channel id (`UC…`, the `channelId` of
   *   `getArtist`).
   * @returns the service's response as is.
   * @throws AuthError (AUTH_REQUIRED) / ArgumentError (`channelIds` empty, not strings, or more than
   *   one) before any request; ServiceError / TransportError from the request.
   */
  subscribeArtists(channelIds: string[]): Promise<ServiceResponse> {
    return libraryOps.subscribeArtists(this.ctx, channelIds);
  }

  /**
   * Unsubscribes from artists (several in one call). Needs credentials.
   *
   * @param channelIds the artists' channel ids.
   * @returns the service's response as is.
   * @throws AuthError (AUTH_REQUIRED) / ArgumentError (`channelIds`) before any request;
   *   ServiceError / TransportError from the request.
   */
  unsubscribeArtists(channelIds: string[]): Promise<ServiceResponse> {
    return libraryOps.unsubscribeArtists(this.ctx, channelIds);
  }

  /**
   * The signed-in account's name, channel handle and photo. Needs credentials.
   *
   * @returns `{accountName, channelHandle, accountPhotoUrl}`; `channelHandle` is null for an account
   *   without a channel.
   * @throws AuthError (AUTH_REQUIRED) before any request; ParseError (naming the path) when the
   *   account menu lacks its header; ServiceError / TransportError from the request.
   */
  getAccountInfo(): Promise<AccountInfo> {
    return libraryOps.getAccountInfo(this.ctx);
  }
  // ── end library ──

  // ── playlists: get, create, edit, delete, add and remove items ────────────────────────────────

  /**
   * A playlist: header fields and tracks. Works without credentials for public playlists; with them
   * for private and owned ones (`owned`, `privacy`, and each track's `setVideoId`).
   *
   * @param playlistId the playlist id, with or without the `VL` browse prefix (`PL…`, `RDCLAK…`,
   *   `OLAK5uy_…` album audio playlists, `LM`, `SE`).
   * @param options.limit how many tracks at least; continuation pages are followed whole, so more may
   *   come back. `null` = all. Default 100.
   * @param options.related also fetch the related playlists (`related`). Default false.
   * @param options.suggestionsLimit how many suggested tracks to fetch for an owned playlist
   *   (`suggestions`, about 7 per request). Default 0.
   * @returns `{owned, id, privacy, description, views, duration, trackCount, title, thumbnails,
   *   author | collaborators, year, related, tracks, suggestions?, duration_seconds}`.
   * @throws ArgumentError (`playlistId`, `limit`, `related`, `suggestionsLimit`) before any request;
   *   ServiceError / TransportError from the requests; ParseError naming the path when the page
   *   has no playlist header.
   */
  getPlaylist(playlistId: string, options: GetPlaylistOptions = {}): Promise<Playlist> {
    return playlistOps.getPlaylist(this.ctx, playlistId, options);
  }

  /**
   * Creates a playlist. Needs credentials.
   *
   * @param title at most 150 characters, without `<` or `>` (the service refuses those).
   * @param description at most 5,000 characters, without `<` or `>`.
   * @param options.privacyStatus `PUBLIC`, `PRIVATE` or `UNLISTED`. Default `PRIVATE`.
   * @param options.videoIds videos to put in it.
   * @param options.sourcePlaylist a playlist whose items are copied into it.
   * @returns the new playlist's id, or the service's whole response when it created none.
   * @throws ArgumentError (`title`, `description`, `privacyStatus`, `videoIds`, `sourcePlaylist`) and
   *   AuthError (AUTH_REQUIRED), before any request; ServiceError with code GATED when the service
   *   only asks the account to enable a feature first; ServiceError / TransportError otherwise.
   */
  createPlaylist(
    title: string,
    description: string,
    options: CreatePlaylistOptions = {},
  ): Promise<string | WriteFailure> {
    return playlistOps.createPlaylist(this.ctx, title, description, options);
  }

  /**
   * Changes a playlist: any of its title, description, privacy, item order, collaboration, voting,
   * or appends another playlist. Needs credentials.
   *
   * @param playlistId the playlist id (a `VL` prefix is removed).
   * @param options.title / options.description as `createPlaylist` checks them.
   * @param options.privacyStatus `PUBLIC`, `PRIVATE` or `UNLISTED`.
   * @param options.moveItem a `setVideoId` to move to the end, or `[setVideoId, successorSetVideoId]`.
   * @param options.addPlaylistId a playlist whose items are appended.
   * @param options.addToTop whether new items go to the top.
   * @param options.collaboration `true` opens it to collaborators, `false` closes it.
   * @param options.sortOrder `MANUAL`, `NEWEST_FIRST`, `NEWEST_LAST` or `TOP_VOTED`.
   * @param options.voteOption `EVERYONE_CAN_VOTE`, `COLLABORATORS_ONLY` or `OFF`.
   * @returns `"STATUS_SUCCEEDED"` (with `collaboration: true`, `{status, joinCollaborationToken}`),
   *   or the service's whole response when the edit did not succeed (a failed status is never
   *   reported as success). The result's type follows `collaboration` when it is a literal.
   * @throws ArgumentError naming the option (or `options` when none is given) and AuthError
   *   (AUTH_REQUIRED), before any request; ParseError when a collaboration answer has no invite
   *   link; ServiceError / TransportError from the request.
   */
  editPlaylist(
    playlistId: string,
    options: EditPlaylistOptions & { collaboration: true },
  ): Promise<CollaborationResult | WriteFailure>;
  editPlaylist(
    playlistId: string,
    options?: EditPlaylistOptions & { collaboration?: false },
  ): Promise<WriteStatus>;
  editPlaylist(playlistId: string, options?: EditPlaylistOptions): Promise<EditPlaylistResponse>;
  editPlaylist(playlistId: string, options: EditPlaylistOptions = {}): Promise<EditPlaylistResponse> {
    return playlistOps.editPlaylist(this.ctx, playlistId, options);
  }

  /**
   * Deletes a playlist. Needs credentials.
   *
   * @param playlistId the playlist id (a `VL` prefix is removed).
   * @returns `"STATUS_SUCCEEDED"`, or the service's whole response.
   * @throws ArgumentError (`playlistId`) / AuthError (AUTH_REQUIRED) before any request; ServiceError
   *   / TransportError from the request.
   */
  deletePlaylist(playlistId: string): Promise<WriteStatus> {
    return playlistOps.deletePlaylist(this.ctx, playlistId);
  }

  /**
   * Adds videos (and/or all items of another playlist) to a playlist. Needs credentials.
   *
   * @param playlistId the playlist id (a `VL` prefix is removed).
   * @param videoIds the videos to add; may be omitted when `sourcePlaylist` is given.
   * @param options.sourcePlaylist a playlist whose items are all added.
   * @param options.duplicates add videos already in the playlist too. Default false: with a duplicate
   *   present the service adds NOTHING and its failure response is returned.
   * @returns `{status: "STATUS_SUCCEEDED", playlistEditResults: [{videoId, setVideoId, …}]}`, or the
   *   service's whole response when nothing was added.
   * @throws ArgumentError (`playlistId`, `videoIds`, `sourcePlaylist`, `duplicates`; neither videos nor
   *   a source) / AuthError (AUTH_REQUIRED) before any request; ServiceError / TransportError.
   */
  addPlaylistItems(
    playlistId: string,
    videoIds?: string[] | null,
    options: AddPlaylistItemsOptions = {},
  ): Promise<AddPlaylistItemsResponse> {
    return playlistOps.addPlaylistItems(this.ctx, playlistId, videoIds, options);
  }

  /**
   * Removes items from a playlist you own. Needs credentials.
   *
   * @param playlistId the playlist id (a `VL` prefix is removed).
   * @param videos track rows of `getPlaylist` for this playlist (`playlist.tracks` as it came): each
   *   needs `videoId` and `setVideoId`.
   * @returns `"STATUS_SUCCEEDED"`, or the service's whole response.
   * @throws ArgumentError (`videos`, naming the first item without a `setVideoId`) / AuthError
   *   (AUTH_REQUIRED) before any request; ServiceError / TransportError from the request.
   */
  removePlaylistItems(playlistId: string, videos: readonly PlaylistItemRef[]): Promise<WriteStatus> {
    return playlistOps.removePlaylistItems(this.ctx, playlistId, videos);
  }
  // ── end playlists ──

  // ── uploads ──────────────────────────────────────────────────────────────────────────────────

  /**
   * The uploaded tracks. Needs credentials.
   *
   * @param options.limit how many at least (whole pages); `null` = all. Default 25.
   * @param options.order `a_to_z`, `z_to_a` or `recently_added`. Default: the service's order.
   * @returns upload rows: `entityId` (for `deleteUploadEntity`), `videoId`, `title`, `duration`,
   *   `duration_seconds`, `artists`, `album`, `likeStatus`, `thumbnails`.
   * @throws AuthError (AUTH_REQUIRED) / ArgumentError (`limit`, `order`) before any request;
   *   ServiceError / TransportError from the requests. A page without the list gives an empty list.
   */
  getLibraryUploadSongs(options: UploadListOptions = {}): Promise<UploadSong[]> {
    return uploadOps.getLibraryUploadSongs(this.ctx, options);
  }

  /**
   * The artists of the uploaded tracks. Needs credentials.
   *
   * @param options.limit how many at least (whole pages); `null` = all. Default 25.
   * @param options.order `a_to_z`, `z_to_a` or `recently_added`. Default: the service's order.
   * @returns artist rows as `getLibraryArtists` (`subscribers` = the track count).
   * @throws AuthError (AUTH_REQUIRED) / ArgumentError (`limit`, `order`) before any request;
   *   ServiceError / TransportError from the requests. A page without the list gives an empty list.
   */
  getLibraryUploadArtists(options: UploadListOptions = {}): Promise<LibraryArtist[]> {
    return uploadOps.getLibraryUploadArtists(this.ctx, options);
  }

  /**
   * The albums of the uploaded tracks. Needs credentials.
   *
   * @param options.limit how many at least (whole pages); `null` = all. Default 25.
   * @param options.order `a_to_z`, `z_to_a` or `recently_added`. Default: the service's order.
   * @returns album cards as `getLibraryAlbums`.
   * @throws AuthError (AUTH_REQUIRED) / ArgumentError (`limit`, `order`) before any request;
   *   ServiceError / TransportError from the requests. A page without the list gives an empty list.
   */
  getLibraryUploadAlbums(options: UploadListOptions = {}): Promise<LibraryAlbum[]> {
    return uploadOps.getLibraryUploadAlbums(this.ctx, options);
  }

  /**
   * The uploaded tracks of one artist. Needs credentials.
   *
   * @param browseId the artist's `browseId` from `getLibraryUploadArtists` (or a track's artist id).
   * @param options.limit how many at least (whole pages); `null` = all. Default 25.
   * @returns upload rows as `getLibraryUploadSongs`.
   * @throws AuthError (AUTH_REQUIRED) / ArgumentError (`browseId`, `limit`) before any request;
   *   ServiceError / TransportError from the requests. A page without the list gives an empty list.
   */
  getLibraryUploadArtist(browseId: string, options: UploadArtistOptions = {}): Promise<UploadSong[]> {
    return uploadOps.getLibraryUploadArtist(this.ctx, browseId, options);
  }

  /**
   * An uploaded album: its header and tracks. Needs credentials.
   *
   * @param browseId the album's `browseId` from `getLibraryUploadAlbums` (or a track's album id).
   * @returns `{title, type, thumbnails, isExplicit, artists, year, trackCount, duration,
   *   audioPlaylistId, tracks, duration_seconds}`.
   * @throws AuthError (AUTH_REQUIRED) / ArgumentError (`browseId`) before any request; ParseError
   *   naming the path when the page has no album header or track shelf; ServiceError /
   *   TransportError from the request.
   */
  getLibraryUploadAlbum(browseId: string): Promise<UploadAlbum> {
    return uploadOps.getLibraryUploadAlbum(this.ctx, browseId);
  }

  /**
   * Uploads an audio file to the account's uploads, streaming it from disk. Needs browser-header
   * credentials (the upload host does not take OAuth tokens). The track appears in the upload lists
   * once the service has processed it.
   *
   * @param filepath an `mp3`, `m4a`, `wma`, `flac` or `ogg` file under 300 MiB.
   * @returns `"STATUS_SUCCEEDED"`, or `{status, body}` of the upload host's answer otherwise (409
   *   when the same file is already uploaded).
   * @throws ArgumentError (`filepath`: extension, missing file, size), AuthError (AUTH_REQUIRED
   *   without credentials, AUTH_INVALID with OAuth) — all before anything is sent; ServiceError when
   *   the host gives no usable upload session; TransportError.
   */
  uploadSong(filepath: string): Promise<"STATUS_SUCCEEDED" | UploadFailure> {
    return uploadOps.uploadSong(this.ctx, filepath);
  }

  /**
   * Deletes an uploaded track or album. Needs credentials.
   *
   * @param entityId a track's `entityId` (`t_po_…`), or an album's `browseId`
   *   (`FEmusic_library_privately_owned_release_detail…`) or entity id (`b_po_…`).
   * @returns `"STATUS_SUCCEEDED"`, or the service's `error` value.
   * @throws ArgumentError (`entityId`) / AuthError (AUTH_REQUIRED) before any request; ServiceError /
   *   TransportError from the request.
   */
  deleteUploadEntity(entityId: string): Promise<"STATUS_SUCCEEDED" | ServiceResponse> {
    return uploadOps.deleteUploadEntity(this.ctx, entityId);
  }
  // ── end uploads ──
}
