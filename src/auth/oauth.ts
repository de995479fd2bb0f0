import type { Dispatcher } from "undici";
import { Redactor } from "../../shared/redact.js";
import {
  ArgumentError,
  AuthError,
  ErrorCodes,
  type MusicApiError,
  ParseError,
  ServiceError,
} from "../errors.js";
import type { Logger } from "../logger.js";
import type { OAuthCredentials } from "../options.js";
import { encodeHeaderValue, isDropped } from "./browser.js";
import { endpointUrl, type FormReply, oauthError, postForm, TOKEN_URL } from "./oauth-http.js";
import { parseCookieHeader } from "./sapisid.js";
import { type StoredToken, writeToken } from "./token-file.js";
import type { AuthProvider } from "./types.js";

/** Refresh when the access token has less than this left (docs/PROTOCOL.md#oauth). */
export const REFRESH_MARGIN_SECONDS = 60;

const OPERATION = "oauth_refresh";

export interface OAuthProviderOptions {
  credentials: OAuthCredentials | undefined;
  /** The token file the token came from; a refreshed token is written back there. */
  filepath?: string;
  dispatcher?: Dispatcher;
  timeoutMs: number;
  logger: Logger;
  /** Milliseconds since the epoch. */
  now?: () => number;
}

/** The client id and secret, checked: a token without the client it was issued to cannot refresh. */
export function checkCredentials(credentials: OAuthCredentials | undefined): OAuthCredentials {
  if (credentials === undefined) {
    throw new AuthError(
      ErrorCodes.AUTH_INVALID,
      "an OAuth token needs `oauthCredentials` (the clientId and clientSecret of the OAuth client it " +
        "was issued to)",
    );
  }
  if (typeof credentials.clientId !== "string" || credentials.clientId.trim() === "") {
    throw new ArgumentError("oauthCredentials.clientId", "must be a non-empty string");
  }
  if (typeof credentials.clientSecret !== "string" || credentials.clientSecret.trim() === "") {
    throw new ArgumentError("oauthCredentials.clientSecret", "must be a non-empty string");
  }
  return credentials;
}

/** What a failed refresh means for the caller; the message names the OAuth error word, never a token. */
function refreshFailure(reply: FormReply, redactor: Redactor): MusicApiError {
  const reason = oauthError(reply);
  const options = { operation: OPERATION };
  if (reason === "invalid_client" || reason === "unauthorized_client") {
    return new AuthError(
      ErrorCodes.AUTH_INVALID,
      `the token endpoint refused the OAuth client (${reason}): check oauthCredentials and that the ` +
        "token was issued to that client, with the YouTube Data API enabled for its project",
      options,
    );
  }
  if (reason === "invalid_grant") {
    return new AuthError(
      ErrorCodes.AUTH_EXPIRED,
      "the refresh token is no longer accepted (invalid_grant): it was revoked or has expired; run " +
        "`musicapi oauth` again",
      options,
    );
  }
  if (reply.status >= 500) {
    return new ServiceError(ErrorCodes.HTTP_ERROR, `the token endpoint answered HTTP ${reply.status}`, {
      ...options,
      status: reply.status,
    });
  }
  const word = reason === undefined ? "" : ` (${redactor.text(reason)})`;
  return new AuthError(
    ErrorCodes.AUTH_EXPIRED,
    `the access token could not be refreshed: HTTP ${reply.status}${word}`,
    options,
  );
}

/**
 * OAuth with the user's own client (docs/PROTOCOL.md#oauth): `authorization: Bearer …` on every request, the
 * access token refreshed shortly before it expires. Parallel requests share one refresh.
 */
class OAuthSession implements AuthProvider {
  readonly kind = "oauth" as const;
  readonly sendsApiKey = false;
  readonly authUser = "0";
  private readonly credentials: OAuthCredentials;
  private readonly tokenUrl: string;
  private readonly now: () => number;
  /** Every token this session has held: an old one may still sit in a late error message. */
  private readonly held = new Set<string>();
  private readonly redactor: Redactor;
  private refreshing: Promise<void> | null = null;

  constructor(
    private readonly stored: StoredToken,
    private readonly options: OAuthProviderOptions,
  ) {
    this.credentials = checkCredentials(options.credentials);
    this.tokenUrl = endpointUrl("oauthCredentials.tokenUrl", this.credentials.tokenUrl, TOKEN_URL);
    this.now = options.now ?? Date.now;
    this.held.add(stored.token.access_token);
    this.held.add(stored.token.refresh_token);
    this.redactor = new Redactor(() => this.secrets());
  }

  private seconds(): number {
    return Math.floor(this.now() / 1000);
  }

  async headers(): Promise<Record<string, string>> {
    if (this.stored.token.expires_at - this.seconds() < REFRESH_MARGIN_SECONDS) await this.refreshOnce();
    return { authorization: this.authorization(), "x-goog-request-time": String(this.seconds()) };
  }

  async renew(refused: Record<string, string>): Promise<void> {
    // Parallel requests refused with the same token share one refresh; a request that went out
    // with an older token simply takes the current one.
    if (refused.authorization === this.authorization() || this.refreshing !== null) await this.refreshOnce();
  }

  private authorization(): string {
    const { token_type, access_token } = this.stored.token;
    return encodeHeaderValue(`${token_type} ${access_token}`);
  }

  private refreshOnce(): Promise<void> {
    this.refreshing ??= this.refresh().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async refresh(): Promise<void> {
    const { token } = this.stored;
    const reply = await postForm({
      operation: OPERATION,
      url: this.tokenUrl,
      form: {
        client_id: this.credentials.clientId,
        client_secret: this.credentials.clientSecret,
        grant_type: "refresh_token",
        refresh_token: token.refresh_token,
      },
      dispatcher: this.options.dispatcher,
      timeoutMs: this.options.timeoutMs,
      secrets: () => this.secrets(),
    });
    if (reply.status >= 400 || oauthError(reply) !== undefined) throw refreshFailure(reply, this.redactor);
    const body = reply.body;
    if (body === null)
      throw new ParseError("(body)", "the token endpoint's answer is not JSON", { operation: OPERATION });
    const access = body.access_token;
    if (typeof access !== "string" || access === "") {
      throw new ParseError("access_token", "the refreshed token is missing", { operation: OPERATION });
    }
    const expiresIn = typeof body.expires_in === "number" ? body.expires_in : Number(body.expires_in);
    if (!Number.isFinite(expiresIn)) {
      throw new ParseError("expires_in", "the refreshed token has no lifetime", { operation: OPERATION });
    }
    this.held.add(access);
    token.access_token = access;
    // Only the access token's expiry moves; the stored `expires_in` keeps what setup recorded.
    token.expires_at = this.seconds() + Math.floor(expiresIn);
    if (typeof body.token_type === "string" && body.token_type !== "") token.token_type = body.token_type;
    if (typeof body.scope === "string" && body.scope !== "") token.scope = body.scope;
    // Google does not rotate refresh tokens for this flow, but take a new one if it ever does.
    if (typeof body.refresh_token === "string" && body.refresh_token !== "") {
      this.held.add(body.refresh_token);
      token.refresh_token = body.refresh_token;
    }
    this.options.logger.debug({ operation: OPERATION, expiresIn }, "refreshed the OAuth access token");
    if (this.options.filepath !== undefined) {
      try {
        await writeToken(this.options.filepath, this.stored);
      } catch (error) {
        // The new token works in memory; the file's old one will simply be refreshed again next time.
        this.options.logger.warn(
          { operation: OPERATION, file: this.options.filepath, code: (error as { code?: unknown }).code },
          "could not save the refreshed OAuth token",
        );
      }
    }
  }

  secrets(): readonly string[] {
    const { token_type, access_token } = this.stored.token;
    return [...this.held, `${token_type} ${access_token}`, this.credentials.clientSecret];
  }
}

export function oauthProvider(stored: StoredToken, options: OAuthProviderOptions): AuthProvider {
  return new OAuthSession(stored, options);
}

/**
 * The full-header variant (docs/PROTOCOL.md#oauth): a header set whose `authorization` is already a bearer
 * token. Sent as given (names lower-cased, values percent-encoded when not ASCII) and never
 * refreshed: whoever supplied it owns its lifetime.
 */
export function fullHeaderProvider(headers: Record<string, string>): AuthProvider {
  const fixed: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    // Connection headers the HTTP client owns, and encodings the transport cannot decode; `sec-*`
    // fetch metadata is kept here, since these headers are meant to go out as supplied.
    if (!lower.startsWith("sec") && isDropped(lower)) continue;
    fixed[lower] = encodeHeaderValue(value);
  }
  const authorization = fixed.authorization ?? "";
  const secrets = [authorization, authorization.replace(/^bearer\s+/i, "")];
  if (fixed.cookie) secrets.push(fixed.cookie, ...parseCookieHeader(fixed.cookie).values());
  return {
    kind: "oauth-headers",
    sendsApiKey: false,
    authUser: fixed["x-goog-authuser"]?.trim() || "0",
    async headers() {
      return { ...fixed };
    },
    secrets: () => secrets,
  };
}
