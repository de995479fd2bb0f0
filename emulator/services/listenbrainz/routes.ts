/**
 * The ListenBrainz fake on the wire, under `/listenbrainz/1/…` (standing for
 * https://api.listenbrainz.org/1/…): the playlists made for a user, a user's playlists, one playlist
 * in JSPF, a user's top recordings. Errors as ListenBrainz sends them (`{"code": N, "error": "…"}`),
 * the rate limit's `X-RateLimit-*` headers on every answer and a 429 past it.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { EmulatorState } from "../../context.js";
import { catalogueSongs } from "../catalogue-songs.js";
import { applyServiceFault, type FaultAnswers, type Reply, send } from "../reply.js";
import {
  createdFor,
  findPlaylist,
  type LbPlaylist,
  ownPlaylists,
  playlistTracks,
  STAT_RANGES,
  tokenOwner,
  userExists,
} from "./data.js";
import { playlistJspf } from "./jspf.js";
import { lbState, takeRequest } from "./state.js";
import { statsPayload } from "./stats.js";

export const LB_PREFIX = "/listenbrainz/1/";

const lbError = (code: number, error: string, headers?: Record<string, string>): Reply => ({
  status: code,
  body: { code, error },
  ...(headers ? { headers } : {}),
});

class LbRefusal extends Error {
  constructor(readonly reply: Reply) {
    super(String((reply.body as { error?: string })?.error));
  }
}
const refuse = (code: number, error: string): never => {
  throw new LbRefusal(lbError(code, error));
};

const rateHeaders = (limit: number, remaining: number, resetInMs: number, now: number) => ({
  "x-ratelimit-limit": String(limit),
  "x-ratelimit-remaining": String(remaining),
  "x-ratelimit-reset-in": String(Math.ceil(resetInMs / 1000)),
  "x-ratelimit-reset": String(Math.ceil((now + resetInMs) / 1000)),
});

const RATE_LIMITED =
  "You have exceeded your rate limit. See the X-RateLimit-* response headers for more information on your current rate limit.";

const FAULTS = (limit: number, now: number): FaultAnswers => ({
  rateLimited: (s) => lbError(429, RATE_LIMITED, rateHeaders(limit, 0, s * 1000, now)),
  serverError: () => lbError(500, "An unknown error occurred."),
  unavailable: (s) =>
    lbError(
      503,
      "The service is temporarily unavailable.",
      s !== undefined ? { "retry-after": String(s) } : undefined,
    ),
});

/** `count` and `offset` as ListenBrainz reads them: whole numbers, `count` capped at `max`. */
function paging(query: URLSearchParams, max: number): { count: number; offset: number } {
  const read = (name: string, fallback: number) => {
    const v = query.get(name);
    if (v === null || v === "") return fallback;
    if (!/^\d+$/.test(v)) refuse(400, `Invalid ${name} argument: ${v}`);
    return Number(v);
  };
  return { count: Math.min(read("count", 25), max), offset: read("offset", 0) };
}

/** Who the `Authorization: Token …` header says asks; null without one; a bad one is refused. */
function asker(state: EmulatorState, req: IncomingMessage): string | null {
  const h = req.headers.authorization;
  if (h === undefined) return null;
  const m = /^Token\s+(\S+)$/i.exec(h);
  if (!m) refuse(401, "You need to provide an Authorization header.");
  const owner = tokenOwner(catalogueSongs(state).seed, m![1]!);
  if (owner === null) refuse(401, "Invalid authorization token.");
  return owner;
}

function knownUser(user: string): string {
  if (!userExists(user)) refuse(404, `Cannot find user: ${user}`);
  return user;
}

const halve = <T>(items: readonly T[], cut: boolean): T[] =>
  cut ? items.slice(0, Math.ceil(items.length / 2)) : items.slice();

function playlistPage(list: LbPlaylist[], query: URLSearchParams, cut: boolean): Reply {
  const { count, offset } = paging(query, 100);
  const page = list.slice(offset, offset + count);
  return {
    status: 200,
    body: {
      count: page.length,
      offset,
      playlist_count: list.length,
      playlists: halve(page, cut).map((p) => playlistJspf(p, null)),
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The API's answer to one GET; `endpoint` names it for faults and counts. */
function answer(
  state: EmulatorState,
  req: IncomingMessage,
  parts: string[],
  query: URLSearchParams,
  cut: boolean,
): Reply {
  const who = asker(state, req);
  const [a, b, c, d, e] = parts;
  if (a === "user" && b && c === "playlists" && d === "createdfor" && !e) {
    return playlistPage(createdFor(state, knownUser(b)), query, cut);
  }
  if (a === "user" && b && c === "playlists" && !d) {
    const mine = who === knownUser(b);
    return playlistPage(
      ownPlaylists(state, b).filter((p) => p.public || mine),
      query,
      cut,
    );
  }
  if (a === "playlist" && b && !c) {
    if (!UUID.test(b)) refuse(400, "Provided playlist ID is invalid.");
    const p = findPlaylist(state, b.toLowerCase());
    // A private playlist is not found by anyone but its owner, as if it did not exist.
    if (!p || (!p.public && who !== p.creator)) refuse(404, `Cannot find playlist: ${b}`);
    // JSPF carries no track count, so a playlist cut short could not be told from a shorter one:
    // the `truncate` fault leaves it whole.
    return { status: 200, body: playlistJspf(p!, playlistTracks(state, p!)) };
  }
  if (a === "stats" && b === "user" && c && d === "recordings" && !e) {
    const user = knownUser(c);
    const range = query.get("range") ?? "all_time";
    if (!Object.hasOwn(STAT_RANGES, range)) refuse(400, `Invalid range: ${range}`);
    return statsPayload(state, user, range, paging(query, 1000), cut);
  }
  return refuse(404, "The requested URL was not found on the server.");
}

/** A path segment decoded; one with a broken escape stays as sent (and so names nothing). */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function endpointOf(parts: string[]): string {
  if (parts[0] === "playlist") return "listenbrainz/playlist";
  if (parts[0] === "stats") return "listenbrainz/stats";
  return parts[3] === "createdfor" ? "listenbrainz/createdfor" : "listenbrainz/playlists";
}

/** Answers a request to the ListenBrainz API; false when the path is not its. */
export async function handleListenBrainzApi(
  state: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  if (!url.pathname.startsWith(LB_PREFIX)) return false;
  const parts = url.pathname.slice(LB_PREFIX.length).split("/").filter(Boolean).map(decoded);
  const endpoint = endpointOf(parts);
  state.counts.set(endpoint, (state.counts.get(endpoint) ?? 0) + 1);
  const now = state.now();
  const rate = lbState(state).rate;
  const fault = await applyServiceFault(state, req, res, endpoint, FAULTS(rate.limit, now));
  if (fault === "answered") return true;
  const taken = takeRequest(rate, now);
  const headers = rateHeaders(rate.limit, taken.remaining, taken.resetInMs, now);
  let reply: Reply;
  if (!taken.allowed) reply = lbError(429, RATE_LIMITED);
  else if (req.method !== "GET" && req.method !== "HEAD")
    reply = lbError(405, "The method is not allowed for the requested URL.");
  else {
    try {
      reply = answer(state, req, parts, url.searchParams, fault === "truncate");
    } catch (e) {
      if (!(e instanceof LbRefusal)) throw e;
      reply = e.reply;
    }
  }
  send(res, { ...reply, headers: { ...reply.headers, ...headers } });
  return true;
}
