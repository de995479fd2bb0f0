/**
 * Signing a person in with the authorization code flow and PKCE (RFC 7636, S256), as pure pieces:
 * the verifier, its challenge, the address to open, and the code exchange's request. The command
 * that runs the local redirect (127.0.0.1) puts them together; nothing here keeps or prints a
 * secret.
 */
import { createHash } from "node:crypto";
import type { ServiceRequest } from "../http.js";

/** Spotify's accounts host. */
export const SPOTIFY_ACCOUNTS = "https://accounts.spotify.com";

/** What reading a person's playlists, likes, albums and followed artists needs. */
export const SPOTIFY_READ_SCOPES = Object.freeze([
  "playlist-read-private",
  "user-library-read",
  "user-follow-read",
]);

/**
 * A code verifier from random bytes (at least 32: the verifier must hold 43 to 128 characters of
 * [A-Za-z0-9-._~]; base64url's alphabet is within it).
 */
export function pkceVerifier(random: Uint8Array): string {
  if (random.length < 32 || random.length > 96)
    throw new RangeError("a PKCE verifier needs 32 to 96 random bytes");
  return Buffer.from(random).toString("base64url");
}

/** The S256 challenge: the verifier's SHA-256, base64url without padding. */
export function pkceChallenge(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

export interface AuthorizeParams {
  accountsBase?: string;
  clientId: string;
  redirectUri: string;
  scopes: readonly string[];
  /** An unguessable value the redirect must bring back (against a forged redirect). */
  state: string;
  challenge: string;
}

/** The address the person opens to approve the app. */
export function authorizeUrl(p: AuthorizeParams): URL {
  const url = new URL(`${trimSlash(p.accountsBase ?? SPOTIFY_ACCOUNTS)}/authorize`);
  url.search = new URLSearchParams({
    client_id: p.clientId,
    response_type: "code",
    redirect_uri: p.redirectUri,
    scope: p.scopes.join(" "),
    state: p.state,
    code_challenge_method: "S256",
    code_challenge: p.challenge,
  }).toString();
  return url;
}

/**
 * The code from the redirect the browser came back with, after checking its `state`; throws when
 * the person refused, or the state is not the one sent (a redirect this sign-in did not start).
 */
export function codeFromRedirect(redirect: URL, expectedState: string): string {
  const error = redirect.searchParams.get("error");
  if (error) throw new Error(`Spotify sign-in did not complete: ${error.slice(0, 60)}`);
  if (redirect.searchParams.get("state") !== expectedState)
    throw new Error("Spotify sign-in: the redirect's state is not the one sent; start the sign-in again");
  const code = redirect.searchParams.get("code");
  if (!code) throw new Error("Spotify sign-in: the redirect holds no code");
  return code;
}

export interface CodeExchange {
  accountsBase?: string;
  clientId: string;
  code: string;
  redirectUri: string;
  verifier: string;
}

/** The token request that trades the code for tokens (a public client: no secret, the verifier instead). */
export function codeExchangeRequest(p: CodeExchange): ServiceRequest {
  return {
    url: new URL(`${trimSlash(p.accountsBase ?? SPOTIFY_ACCOUNTS)}/api/token`),
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code: p.code,
      redirect_uri: p.redirectUri,
      client_id: p.clientId,
      code_verifier: p.verifier,
    }).toString(),
  };
}

export function trimSlash(base: string): string {
  return base.replace(/\/+$/, "");
}
