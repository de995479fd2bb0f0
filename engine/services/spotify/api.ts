/**
 * Authorised GETs of the Web API and their failures in a person's words. A 401 renews the token
 * once and asks again; 429 and 5xx are waited out by serviceJson; anything else throws a
 * ServiceReadError naming what was read (never the address's query, nor the service's text when
 * it could hold a credential). `next` addresses are followed only below the configured base, so a
 * page cannot send the token elsewhere.
 */
import { engineScrubber } from "../../output/scrub.js";
import { type ServiceHttp, ServiceReadError, serviceJson } from "../http.js";
import { trimSlash } from "./pkce.js";
import type { TokenKeeper } from "./token.js";

const SERVICE = "spotify";

/** The Web API's real base. */
export const SPOTIFY_API = "https://api.spotify.com/v1";

export interface SpotifyApi {
  base: string;
  tokens: TokenKeeper;
  http: ServiceHttp;
}

/** What a read was, for messages: "playlist 3cEY…", "liked songs". */
export type What = string;

/** The address of `path` (below the base) or of a `next` link, checked to be below the base. */
export function apiUrl(api: SpotifyApi, pathOrNext: string, what: What): URL {
  const base = trimSlash(api.base);
  if (pathOrNext.startsWith("/")) return new URL(`${base}${pathOrNext}`);
  if (!pathOrNext.startsWith(`${base}/`)) {
    throw new ServiceReadError(
      SERVICE,
      null,
      `${what}: a page pointed outside ${new URL(base).origin}; the read stopped`,
    );
  }
  return new URL(pathOrNext);
}

/** Spotify's error message, when its body has one and it holds nothing the scrubber knows. */
function serviceMessage(json: unknown): string {
  const m = (json as { error?: { message?: unknown } } | null)?.error?.message;
  if (typeof m !== "string" || m === "") return "";
  const text = m.slice(0, 120);
  return engineScrubber.value(text) === text ? `: ${text}` : "";
}

function failure(status: number, json: unknown, what: What): ServiceReadError {
  const said = serviceMessage(json);
  switch (status) {
    case 401:
      return new ServiceReadError(
        SERVICE,
        401,
        `${what}: Spotify refused the token even after renewing it (HTTP 401${said}); sign in again`,
      );
    case 403:
      return new ServiceReadError(
        SERVICE,
        403,
        `${what}: Spotify refused access (HTTP 403${said}); the sign-in may lack a permission (scope)`,
      );
    case 404:
      return new ServiceReadError(
        SERVICE,
        404,
        `${what} was not found (HTTP 404): it may be private or deleted`,
      );
    default:
      return new ServiceReadError(SERVICE, status, `${what}: Spotify answered HTTP ${status}${said}`);
  }
}

/**
 * GETs `url` with the token; returns the parsed body of a 200. `explain404` may give a 404 its own
 * meaning (an editorial playlist).
 */
export async function getJson(
  api: SpotifyApi,
  url: URL,
  what: What,
  explain404?: () => ServiceReadError | null,
): Promise<unknown> {
  for (let attempt = 1; ; attempt++) {
    const token = await api.tokens.current();
    const a = await serviceJson(SERVICE, { url, headers: { authorization: `Bearer ${token}` } }, api.http);
    if (a.status === 200) return a.json;
    if (a.status === 401 && attempt === 1) {
      await api.tokens.renew();
      continue;
    }
    if (a.status === 404) throw explain404?.() ?? failure(404, a.json, what);
    throw failure(a.status, a.json, what);
  }
}
