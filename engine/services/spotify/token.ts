/**
 * Spotify access tokens: fetched with the app's credentials (public playlists), or a person's
 * from the PKCE sign-in (their library), refreshed shortly before they expire or once after a 401,
 * the refreshed one handed to a callback to be kept. Every token and secret is registered with the
 * engine's scrubber the moment it is known, and no message here holds one.
 */
import { engineScrubber } from "../../output/scrub.js";
import { type ServiceHttp, ServiceReadError, type ServiceRequest, serviceJson } from "../http.js";
import { type CodeExchange, codeExchangeRequest, SPOTIFY_ACCOUNTS, trimSlash } from "./pkce.js";

const SERVICE = "spotify";

/** A token as kept between runs. */
export interface SpotifyToken {
  access_token: string;
  /** Null for an app's token (client credentials): a new one is fetched instead. */
  refresh_token: string | null;
  /** Unix milliseconds. */
  expires_at: number;
  scope: string;
}

/** Refreshed this long before it expires: a read of many pages should not cross the expiry. */
export const REFRESH_MARGIN_MS = 60_000;

/** The app's own credentials (client credentials grant); the secret never leaves the Basic header. */
export interface SpotifyApp {
  clientId: string;
  clientSecret?: string;
}

function remember(values: (string | null | undefined)[]): void {
  engineScrubber.addSecrets(values.filter((v): v is string => typeof v === "string" && v.length > 0));
}

/** Reads a token answer; `previous` is the refresh token to keep when the answer brings none. */
export function tokenFromAnswer(json: unknown, now: number, previous: string | null): SpotifyToken {
  const j = (json ?? {}) as Record<string, unknown>;
  const access = j.access_token;
  const expiresIn = j.expires_in;
  if (typeof access !== "string" || access === "" || typeof expiresIn !== "number" || !(expiresIn > 0)) {
    throw new ServiceReadError(SERVICE, 200, "the token answer holds no access token and lifetime");
  }
  const refresh = typeof j.refresh_token === "string" && j.refresh_token !== "" ? j.refresh_token : previous;
  remember([access, refresh]);
  return {
    access_token: access,
    refresh_token: refresh,
    expires_at: now + expiresIn * 1000,
    scope: typeof j.scope === "string" ? j.scope : "",
  };
}

/** Why the accounts host refused, in its own words when they are one of its OAuth error codes. */
function refusal(status: number, json: unknown, what: string): ServiceReadError {
  const code = (json as { error?: unknown } | null)?.error;
  // Only the OAuth error code is shown: its description is the service's text, which a hostile
  // or broken server could fill with anything.
  // An error word that is a secret it was sent (the code, echoed back) is not shown either.
  const shown = typeof code === "string" && /^[a-z_]{1,40}$/.test(code) && engineScrubber.text(code) === code;
  const why = shown ? ` (${code})` : "";
  const hint = code === "invalid_grant" ? "; sign in to Spotify again" : "";
  return new ServiceReadError(SERVICE, status, `${what} was refused: HTTP ${status}${why}${hint}`);
}

async function tokenRequest(
  req: ServiceRequest,
  http: ServiceHttp,
  what: string,
  previous: string | null,
): Promise<SpotifyToken> {
  const a = await serviceJson(SERVICE, req, http);
  if (a.status !== 200) throw refusal(a.status, a.json, what);
  return tokenFromAnswer(a.json, http.now(), previous);
}

function form(
  accountsBase: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): ServiceRequest {
  return {
    url: new URL(`${trimSlash(accountsBase)}/api/token`),
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  };
}

/** An app token for public data (client credentials, Basic auth of id:secret). */
export function clientCredentialsToken(
  app: Required<SpotifyApp>,
  http: ServiceHttp,
  accountsBase = SPOTIFY_ACCOUNTS,
): Promise<SpotifyToken> {
  const basic = Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64");
  remember([app.clientSecret, basic]);
  const req = form(accountsBase, { grant_type: "client_credentials" }, { authorization: `Basic ${basic}` });
  return tokenRequest(req, http, "the app's token request", null);
}

/** Trades the sign-in's code for a person's tokens (PKCE: no secret). */
export function exchangeCode(p: CodeExchange, http: ServiceHttp): Promise<SpotifyToken> {
  remember([p.code, p.verifier]);
  return tokenRequest(codeExchangeRequest(p), http, "the sign-in's code exchange", null);
}

/** A new access token for the refresh token (Spotify may hand a new refresh token too). */
export function refreshToken(
  token: SpotifyToken,
  app: SpotifyApp,
  http: ServiceHttp,
  accountsBase = SPOTIFY_ACCOUNTS,
): Promise<SpotifyToken> {
  if (!token.refresh_token)
    throw new ServiceReadError(SERVICE, null, "the token cannot be refreshed (it has no refresh token)");
  remember([token.refresh_token, app.clientSecret]);
  const fields = { grant_type: "refresh_token", refresh_token: token.refresh_token, client_id: app.clientId };
  const req = app.clientSecret
    ? form(accountsBase, fields, {
        authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}`,
      })
    : form(accountsBase, fields);
  return tokenRequest(req, http, "the token refresh", token.refresh_token);
}

export interface TokenKeeperOptions {
  app: SpotifyApp;
  /** A person's token; without one, an app token is fetched with the client secret. */
  token?: SpotifyToken | null;
  /** Called with each refreshed token, to be kept (sealed with the accounts, on PostgreSQL). */
  onRefresh?: (token: SpotifyToken) => void | Promise<void>;
  /**
   * The kept token read again, when a refresh is refused: another process sharing it (a worker
   * on another machine, a `sync` beside the daemon) may have renewed it first, and Spotify ends
   * the refresh token a renewal replaces.
   */
  reload?: () => Promise<SpotifyToken | null>;
  accountsBase?: string;
  http: ServiceHttp;
}

/** The token the reads send: refreshed before it expires, and once more when Spotify says 401. */
export class TokenKeeper {
  private token: SpotifyToken | null;

  constructor(private readonly o: TokenKeeperOptions) {
    this.token = o.token ?? null;
    if (this.token) remember([this.token.access_token, this.token.refresh_token]);
    remember([o.app.clientSecret]);
  }

  /** The kept token, when a refused refresh is explained by another process having renewed it. */
  private async renewedElsewhere(refused: SpotifyToken, e: unknown): Promise<SpotifyToken | null> {
    if (!this.o.reload || !(e instanceof ServiceReadError) || e.status !== 400) return null;
    const kept = await this.o.reload();
    if (!kept?.refresh_token || kept.refresh_token === refused.refresh_token) return null;
    remember([kept.access_token, kept.refresh_token]);
    return kept;
  }

  /** A token good for at least REFRESH_MARGIN_MS more. */
  async current(): Promise<string> {
    if (!this.token || this.token.expires_at - REFRESH_MARGIN_MS <= this.o.http.now()) await this.renew();
    return this.token!.access_token;
  }

  /** A new token now (after a 401, or near expiry). */
  async renew(): Promise<void> {
    const { app, http, accountsBase } = this.o;
    if (this.token?.refresh_token) {
      const refused = this.token;
      try {
        this.token = await refreshToken(refused, app, http, accountsBase);
      } catch (e) {
        const kept = await this.renewedElsewhere(refused, e);
        if (kept === null) throw e;
        this.token = kept;
        // Renewed by the other process moments ago: good as it is, and kept already.
        if (kept.expires_at - REFRESH_MARGIN_MS > http.now()) return;
        this.token = await refreshToken(kept, app, http, accountsBase);
      }
      await this.o.onRefresh?.(this.token);
      return;
    }
    if (this.o.token) {
      throw new ServiceReadError(
        SERVICE,
        401,
        "the person's token expired and has no refresh token; sign in to Spotify again",
      );
    }
    if (!app.clientSecret)
      throw new ServiceReadError(
        SERVICE,
        null,
        "reading Spotify needs the app's client secret or a person's sign-in",
      );
    this.token = await clientCredentialsToken(
      { clientId: app.clientId, clientSecret: app.clientSecret },
      http,
      accountsBase,
    );
  }
}
