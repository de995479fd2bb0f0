import { randomInt } from "node:crypto";
import { ArgumentError, ErrorCodes, ServiceError } from "../errors.js";
import { parseAccountInfo } from "../parsers/account.js";
import { classicToken } from "../parsers/continuation-tokens.js";
import { parseHistory } from "../parsers/history.js";
import {
  containerItems,
  type LibraryContainer,
  libraryContents,
  parseLibraryAlbums,
  parseLibraryArtists,
  parseLibraryPlaylists,
  parseLibraryPodcasts,
  withoutShuffleRow,
} from "../parsers/library.js";
import { get, isObject, type JsonObject, str } from "../parsers/nav.js";
import type { ParseNotes } from "../parsers/notes.js";
import { parsePlaylistItems } from "../parsers/song-row.js";
import type { OperationContext } from "../transport/operation-context.js";
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
} from "../types/library.js";
import type { ServiceResponse } from "../types/playlists.js";
import { parseFor } from "./context.js";
import { ctokenParams, followClassic } from "./continuations.js";
import {
  checkBoolean,
  checkId,
  checkIdList,
  checkLimit,
  checkOptions,
  orderParams,
  ratingEndpoint,
} from "./library-arguments.js";
import { sendWrite } from "./playlists.js";

// ── ratings, library status, subscriptions, history writes ─────────────────────────────────────

/** `rate_song`: like, dislike or clear the rating of a song; the service's response as is. */
export async function rateSong(ctx: OperationContext, videoId: string, rating: unknown = "INDIFFERENT") {
  const operation = "rate_song";
  const target = { videoId: checkId(operation, "videoId", videoId) };
  const endpoint = ratingEndpoint(operation, rating);
  ctx.requireAuth(operation);
  return sendWrite(ctx, operation, endpoint, { target });
}

/**
 * `rate_playlist`: like (= save to the library), dislike or clear the rating of a playlist, album or
 * podcast (by its playlist id); the service's response as is.
 */
export async function ratePlaylist(
  ctx: OperationContext,
  playlistId: string,
  rating: unknown = "INDIFFERENT",
) {
  const operation = "rate_playlist";
  const target = { playlistId: checkId(operation, "playlistId", playlistId) };
  const endpoint = ratingEndpoint(operation, rating);
  ctx.requireAuth(operation);
  return sendWrite(ctx, operation, endpoint, { target });
}

/** `edit_song_library_status`: send library (`add`/`remove`) or pin (`pin`/`unpin`) tokens. */
export async function editSongLibraryStatus(ctx: OperationContext, feedbackTokens: string[]) {
  return feedback(ctx, "edit_song_library_status", feedbackTokens);
}

/** `remove_history_items`: send the `feedbackToken`s of history rows. */
export async function removeHistoryItems(ctx: OperationContext, feedbackTokens: string[]) {
  return feedback(ctx, "remove_history_items", feedbackTokens);
}

async function feedback(
  ctx: OperationContext,
  operation: string,
  tokens: string[],
): Promise<ServiceResponse> {
  const feedbackTokens = checkIdList(operation, "feedbackTokens", tokens);
  ctx.requireAuth(operation);
  return sendWrite(ctx, operation, "feedback", { feedbackTokens });
}

/**
 * `subscribe_artists`: the service subscribes to one channel per call (docs/PROTOCOL.md#changes-over-time, 2025), so more
 * than one id is refused rather than silently subscribing to the first only.
 */
export async function subscribeArtists(ctx: OperationContext, channelIds: string[]) {
  const operation = "subscribe_artists";
  const ids = checkIdList(operation, "channelIds", channelIds);
  if (ids.length > 1) {
    throw new ArgumentError(
      "channelIds",
      `the service subscribes to one channel per call; got ${ids.length} ids, call once per id`,
      { operation },
    );
  }
  ctx.requireAuth(operation);
  return sendWrite(ctx, operation, "subscription/subscribe", { channelIds: ids });
}

/** `unsubscribe_artists`: unsubscribe from every given channel in one call. */
export async function unsubscribeArtists(ctx: OperationContext, channelIds: string[]) {
  const operation = "unsubscribe_artists";
  const ids = checkIdList(operation, "channelIds", channelIds);
  ctx.requireAuth(operation);
  return sendWrite(ctx, operation, "subscription/unsubscribe", { channelIds: ids });
}

// ── account ─────────────────────────────────────────────────────────────────────────────────────

/** `get_account_info`: the signed-in account's name, channel handle and photo. */
export async function getAccountInfo(ctx: OperationContext): Promise<AccountInfo> {
  const operation = "get_account_info";
  ctx.requireAuth(operation);
  const response = await ctx.send({ operation, endpoint: "account/account_menu", body: {} });
  return parseFor(operation, () => parseAccountInfo(response));
}

// ── add history item ────────────────────────────────────────────────────────────────────────────

const PLAYBACK_URL = ["playbackTracking", "videostatsPlaybackUrl", "baseUrl"] as const;
const CPN_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_";

/**
 * A client playback nonce (docs/PROTOCOL.md#player): 16 characters, each the alphabet entry at a random
 * integer in 0..256 (both ends) masked to 6 bits, as the web player draws it.
 */
export function clientPlaybackNonce(
  random: (maxExclusive: number) => number = (max) => randomInt(max),
): string {
  let out = "";
  for (let i = 0; i < 16; i++) out += CPN_ALPHABET[random(257) & 63];
  return out;
}

/** The playback-tracking URL of a `getSong` result with the parameters the player adds. */
export function historyUrl(song: unknown): URL {
  const base = str(song, PLAYBACK_URL);
  let url: URL | null = null;
  try {
    url = base === null ? null : new URL(base);
  } catch {
    url = null;
  }
  if (url === null || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new ArgumentError(
      "song",
      "must be a getSong result with playbackTracking.videostatsPlaybackUrl.baseUrl (an http(s) URL)",
      { operation: "add_history_item" },
    );
  }
  url.searchParams.set("ver", "2");
  url.searchParams.set("c", "WEB_REMIX");
  url.searchParams.set("cpn", clientPlaybackNonce());
  return url;
}

/**
 * `add_history_item`: reports a play of `song` (a `getSong` result of this same client) by calling
 * its playback-tracking URL with the account's credentials; the service answers 204 No Content.
 */
export async function addHistoryItem(ctx: OperationContext, song: unknown): Promise<HistoryItemResult> {
  const operation = "add_history_item";
  const url = historyUrl(song);
  ctx.requireAuth(operation);
  const response = await ctx.raw({ operation, method: "GET", url: url.toString(), authenticated: true });
  if (response.status >= 400) {
    throw new ServiceError(ErrorCodes.HTTP_ERROR, `the tracking endpoint answered HTTP ${response.status}`, {
      operation,
      status: response.status,
    });
  }
  return { status: response.status };
}

// ── library lists ───────────────────────────────────────────────────────────────────────────────

interface ListSpec<T> {
  operation: string;
  browseId: string;
  container: LibraryContainer;
  params: string | undefined;
  limit: number | null;
  /** Items of one grid / shelf; `first` is true for the first page (which may open with a button row). */
  parse(items: readonly unknown[], notes: ParseNotes, first: boolean): T[];
  /** Re-request short pages (library songs' `validateResponses`): expected rows per page. */
  perPage?: number;
}

const CONTINUATION_TYPE: Record<LibraryContainer, string> = {
  gridRenderer: "gridContinuation",
  musicShelfRenderer: "musicShelfContinuation",
};

/**
 * One library (or upload) list: the first page located by the library rules, then classic
 * continuations until `limit` items (whole pages) or the end. Needs credentials.
 */
export async function libraryList<T>(ctx: OperationContext, spec: ListSpec<T>): Promise<T[]> {
  const { operation } = spec;
  ctx.requireAuth(operation);
  const notes = ctx.notes(operation);
  const body: JsonObject = { browseId: spec.browseId };
  if (spec.params !== undefined) body.params = spec.params;
  if (spec.perPage !== undefined) return validatedList(ctx, spec, body, notes);

  const response = await ctx.send({ operation, endpoint: "browse", body });
  const container = libraryContents(response, spec.container);
  const items = parseFor(operation, () => spec.parse(containerItems(container), notes, true));
  const more = await followClassic(ctx, {
    operation,
    endpoint: "browse",
    body,
    token: classicToken(container),
    type: CONTINUATION_TYPE[spec.container],
    limit: spec.limit === null ? null : spec.limit - items.length,
    parse: (page) => parseFor(operation, () => spec.parse(containerItems(page), notes, false)),
  });
  for (const item of more) items.push(item);
  return items;
}

interface Page<T> {
  items: T[];
  token: string | null;
}

/**
 * The validated loop (docs/PROTOCOL.md#reading-to-a-limit): the service sometimes answers a library page with fewer rows
 * than it has; a page shorter than `min(perPage, still wanted)` is asked for again up to 3 more
 * times and the largest answer kept.
 */
async function validatedList<T>(
  ctx: OperationContext,
  spec: ListSpec<T>,
  body: JsonObject,
  notes: ParseNotes,
): Promise<T[]> {
  const { operation } = spec;
  const limit = spec.limit as number;
  const perPage = spec.perPage as number;
  const type = CONTINUATION_TYPE[spec.container];
  const firstPage = async (): Promise<Page<T>> => {
    const container = libraryContents(
      await ctx.send({ operation, endpoint: "browse", body }),
      spec.container,
    );
    const items = parseFor(operation, () => spec.parse(containerItems(container), notes, true));
    return { items, token: classicToken(container) };
  };
  const nextPage = async (token: string): Promise<Page<T>> => {
    const response = await ctx.send({
      operation,
      endpoint: "browse",
      body,
      additionalParams: ctokenParams(token),
    });
    const page = get(response, ["continuationContents", type]);
    if (!isObject(page)) return { items: [], token: null };
    const items = parseFor(operation, () => spec.parse(containerItems(page), notes, false));
    return { items, token: classicToken(page) };
  };
  const largest = async (fetch: () => Promise<Page<T>>, wanted: number): Promise<Page<T>> => {
    let best = await fetch();
    for (let retry = 0; retry < 3 && best.items.length < Math.min(perPage, wanted); retry++) {
      const again = await fetch();
      if (again.items.length > best.items.length) best = again;
    }
    return best;
  };
  const first = await largest(firstPage, limit);
  const out = first.items;
  let token = first.token;
  while (token !== null && out.length < limit) {
    const current = token;
    const page = await largest(() => nextPage(current), limit - out.length);
    if (page.items.length === 0) break;
    for (const item of page.items) out.push(item);
    token = page.token;
  }
  return out;
}

/** The options every library and upload list takes: `limit` (default 25) and `order`. */
export function listArguments(operation: string, options: unknown, defaultLimit = 25) {
  const opts = checkOptions<LibraryListOptions & LibrarySongsOptions>(operation, options);
  return {
    limit: checkLimit(operation, "limit", opts.limit === undefined ? defaultLimit : opts.limit),
    params: orderParams(operation, opts.order),
    opts,
  };
}

/** `get_library_playlists`: the playlists in the library (the "New playlist" card skipped). */
export async function getLibraryPlaylists(
  ctx: OperationContext,
  options?: LimitOptions,
): Promise<LibraryPlaylist[]> {
  const operation = "get_library_playlists";
  const opts = checkOptions<LimitOptions>(operation, options);
  return libraryList(ctx, {
    operation,
    browseId: "FEmusic_liked_playlists",
    container: "gridRenderer",
    params: undefined,
    limit: checkLimit(operation, "limit", opts.limit === undefined ? 25 : opts.limit),
    parse: (items, notes) => parseLibraryPlaylists(items, notes),
  });
}

/** Library songs come 25 to a page (plus the shuffle row on the first). */
const SONGS_PER_PAGE = 25;

/** `get_library_songs`: the songs saved to the library. */
export async function getLibrarySongs(
  ctx: OperationContext,
  options?: LibrarySongsOptions,
): Promise<PlaylistTrack[]> {
  const operation = "get_library_songs";
  const { limit, params, opts } = listArguments(operation, options);
  const validate = checkBoolean(operation, "validateResponses", opts.validateResponses) ?? false;
  if (validate && limit === null) {
    throw new ArgumentError("validateResponses", "needs a numeric `limit` (how long a full answer is)", {
      operation,
    });
  }
  return libraryList(ctx, {
    operation,
    browseId: "FEmusic_liked_videos",
    container: "musicShelfRenderer",
    params,
    limit,
    perPage: validate ? SONGS_PER_PAGE : undefined,
    parse: (items, notes, first) =>
      parsePlaylistItems(first ? withoutShuffleRow(items) : items, {}, notes, "library songs"),
  });
}

/** `get_library_albums`: the albums saved to the library. */
export async function getLibraryAlbums(
  ctx: OperationContext,
  options?: LibraryListOptions,
): Promise<LibraryAlbum[]> {
  const operation = "get_library_albums";
  const { limit, params } = listArguments(operation, options);
  return libraryList(ctx, {
    operation,
    browseId: "FEmusic_liked_albums",
    container: "gridRenderer",
    params,
    limit,
    parse: (items, notes) => parseLibraryAlbums(items, notes),
  });
}

/** The artist-row lists: library artists, subscriptions, podcast channels. */
async function artistList(ctx: OperationContext, operation: string, browseId: string, options: unknown) {
  const { limit, params } = listArguments(operation, options);
  return libraryList(ctx, {
    operation,
    browseId,
    container: "musicShelfRenderer",
    params,
    limit,
    parse: (items, notes) => parseLibraryArtists(items, notes),
  });
}

/** `get_library_artists`: artists of the songs in the library. */
export async function getLibraryArtists(
  ctx: OperationContext,
  options?: LibraryListOptions,
): Promise<LibraryArtist[]> {
  return artistList(ctx, "get_library_artists", "FEmusic_library_corpus_track_artists", options);
}

/** `get_library_subscriptions`: artists the account is subscribed to. */
export async function getLibrarySubscriptions(
  ctx: OperationContext,
  options?: LibraryListOptions,
): Promise<LibraryArtist[]> {
  return artistList(ctx, "get_library_subscriptions", "FEmusic_library_corpus_artists", options);
}

/** `get_library_channels`: podcast channels the account follows. */
export async function getLibraryChannels(
  ctx: OperationContext,
  options?: LibraryListOptions,
): Promise<LibraryArtist[]> {
  return artistList(ctx, "get_library_channels", "FEmusic_library_non_music_audio_channels_list", options);
}

/** `get_library_podcasts`: podcasts saved to the library ("New Episodes" and "Episodes for Later" first). */
export async function getLibraryPodcasts(
  ctx: OperationContext,
  options?: LibraryListOptions,
): Promise<LibraryPodcast[]> {
  const operation = "get_library_podcasts";
  const { limit, params } = listArguments(operation, options);
  return libraryList(ctx, {
    operation,
    browseId: "FEmusic_library_non_music_audio_list",
    container: "gridRenderer",
    params,
    limit,
    parse: (items, notes) => parseLibraryPodcasts(items, notes),
  });
}

// ── history ─────────────────────────────────────────────────────────────────────────────────────

/** `get_history`: every history row, newest period first, each with `played` and `feedbackToken`. */
export async function getHistory(ctx: OperationContext): Promise<HistoryItem[]> {
  const operation = "get_history";
  ctx.requireAuth(operation);
  const response = await ctx.send({ operation, endpoint: "browse", body: { browseId: "FEmusic_history" } });
  const notes = ctx.notes(operation);
  return parseFor(operation, () => parseHistory(response, notes));
}
