import type { Dispatcher } from "undici";
import type { Logger } from "./logger.js";
import type { OperationContext } from "./operations/context.js";
import { createContext } from "./transport/context.js";
import type { RetryPolicy } from "./transport/retry.js";

/** A saved OAuth token: the six keys of the token file (PROTOCOL §2.2). */
export interface OAuthToken {
  access_token: string;
  refresh_token: string;
  token_type: string;
  scope: string;
  /** Unix seconds when the access token expires. */
  expires_at?: number;
  expires_in?: number;
}

/** The OAuth client ("TVs and Limited Input devices") the token was issued to. */
export interface OAuthCredentials {
  clientId: string;
  clientSecret: string;
  /** Device-code and token endpoints; default Google's. Tests point them at a local server. */
  deviceCodeUrl?: string;
  tokenUrl?: string;
}

export interface MusicClientOptions {
  /**
   * Credentials: raw browser request headers (a string), a JSON headers string, a path to a headers
   * file or an OAuth token file, or a token object. Omit for unauthenticated use (catalogue reads).
   */
  auth?: string | OAuthToken | Record<string, string>;
  /** Brand account id, sent as `context.user.onBehalfOfUser` on every request. */
  user?: string;
  /** Display language (`hl`), default `en`; one of the languages the service supports. */
  language?: string;
  /** Location (`gl`), an ISO 3166-1 alpha-2 code the service supports; default none. */
  location?: string;
  /** Origin of the service, default `https://music.youtube.com`; point it at the emulator in tests. */
  baseUrl?: string;
  /** Read time-out per request in milliseconds, default 30000. */
  timeoutMs?: number;
  /** HTTP(S) proxy URL, used through undici's ProxyAgent. */
  proxy?: string;
  /** Your own undici dispatcher, or `false` for a fresh connection per request (no reuse). */
  dispatcher?: Dispatcher | false;
  /** The OAuth client, required with an OAuth token. */
  oauthCredentials?: OAuthCredentials;
  /** Where warnings (skipped renderers, retries) go; a pino logger fits. Default: silent. */
  logger?: Logger;
  /** Retries of reads on 429/5xx/connection resets; `false` turns them off. */
  retry?: Partial<RetryPolicy> | false;
  /** Upload host origin, default `https://upload.youtube.com`. */
  uploadUrl?: string;
}

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

  // ── search: search, getSearchSuggestions ─────────────────────────────────────────────────────
  // ── end search ──

  // ── browsing: home, artist, artist albums, album, user, song related ──────────────────────────
  // ── end browsing ──

  // ── song: getSong, getLyrics, getTasteProfile, setTasteProfile ───────────────────────────────
  // ── end song ──

  // ── explore: moods, charts, explore ──────────────────────────────────────────────────────────
  // ── end explore ──

  // ── watch: getWatchPlaylist ──────────────────────────────────────────────────────────────────
  // ── end watch ──

  // ── podcasts: channel, podcast, episode ───────────────────────────────────────────────────────
  // ── end podcasts ──

  // ── library: library lists, history, ratings, subscriptions, account ─────────────────────────
  // ── end library ──

  // ── playlists: get, create, edit, delete, add and remove items ────────────────────────────────
  // ── end playlists ──

  // ── uploads ──────────────────────────────────────────────────────────────────────────────────
  // ── end uploads ──
}
