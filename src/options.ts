/**
 * What a MusicClient is made with: its options and the OAuth shapes they hold. Apart from client.ts
 * so that auth/ and transport/, which client.ts builds on, can name them without importing it.
 */
import type { Dispatcher } from "undici";
import type { RetryPolicy } from "../shared/retry.js";
import type { Logger } from "./logger.js";

/** A saved OAuth token: the six keys of the token file (docs/PROTOCOL.md#oauth). */
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
