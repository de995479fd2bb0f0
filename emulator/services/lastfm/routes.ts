/**
 * The Last.fm fake on the wire, at `/lastfm/2.0/` (standing for https://ws.audioscrobbler.com/2.0/):
 * `user.getLovedTracks`, `user.getTopTracks`, `user.getRecentTracks`, by GET query or POST form,
 * `format=json`, paged by `page` and `limit`. Errors as Last.fm sends them: `{"error": N,
 * "message": "…"}` with its codes and the HTTP statuses it gives them.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody } from "../../../shared/http.js";
import type { EmulatorState } from "../../context.js";
import { invalidArgument } from "../../errors.js";
import { applyServiceFault, type FaultAnswers, type Reply, send } from "../reply.js";
import { keyAccepted, LFM_USERS, lovedTracks, PERIODS, recentTracks, topTracks } from "./data.js";
import { listPage, lovedRow, recentRow, topRow } from "./shapes.js";

export const LASTFM_PATH = "/lastfm/2.0/";

const lfmError = (
  status: number,
  error: number,
  message: string,
  headers?: Record<string, string>,
): Reply => ({
  status,
  body: { error, message },
  ...(headers ? { headers } : {}),
});

const OPERATION_FAILED = "Operation failed - Most likely the backend service failed. Please try again.";

const FAULTS: FaultAnswers = {
  rateLimited: (s) =>
    lfmError(
      429,
      29,
      "Rate Limit Exceeded - This application has made too many requests in a short period.",
      { "retry-after": String(s) },
    ),
  serverError: () => lfmError(500, 8, OPERATION_FAILED),
  unavailable: (s) =>
    lfmError(
      503,
      11,
      "Service Offline - This service is temporarily offline. Try again later.",
      s !== undefined ? { "retry-after": String(s) } : undefined,
    ),
  failedInOk: () => lfmError(200, 8, OPERATION_FAILED),
};

const METHODS = new Set(["user.getlovedtracks", "user.gettoptracks", "user.getrecenttracks"]);

/** `page` and `limit`: whole numbers from 1, `limit` at most 1000 (defaults 1 and 50). */
function paging(params: URLSearchParams): { page: number; limit: number } | Reply {
  const read = (name: string, fallback: number): number | null => {
    const v = params.get(name);
    if (v === null || v === "") return fallback;
    return /^\d+$/.test(v) && Number(v) >= 1 ? Number(v) : null;
  };
  const page = read("page", 1);
  const limit = read("limit", 50);
  if (page === null || limit === null)
    return lfmError(400, 6, "Invalid parameters - page and limit must be positive numbers");
  return { page, limit: Math.min(limit, 1000) };
}

function answer(state: EmulatorState, params: URLSearchParams, cut: boolean): Reply {
  const key = params.get("api_key");
  if (!key || !keyAccepted(state, key)) {
    return lfmError(403, 10, "Invalid API key - You must be granted a valid key by last.fm");
  }
  const method = (params.get("method") ?? "").toLowerCase();
  if (!METHODS.has(method))
    return lfmError(400, 3, "Invalid Method - No method with that name in this package");
  if ((params.get("format") ?? "xml").toLowerCase() !== "json") {
    // The fake speaks JSON only; Last.fm's default is XML.
    return lfmError(400, 6, "Invalid parameters - the fake answers format=json only");
  }
  const user = params.get("user");
  if (!user) return lfmError(400, 6, "Invalid parameters - Your request is missing a required parameter");
  const spec = LFM_USERS[user];
  if (!spec) return lfmError(404, 6, "User not found");
  const paged = paging(params);
  if ("status" in paged) return paged;
  const { page, limit } = paged;
  const start = (page - 1) * limit;
  const take = <T>(rows: T[]) => {
    const slice = rows.slice(start, start + limit);
    return cut ? slice.slice(0, Math.ceil(slice.length / 2)) : slice;
  };
  const facts = (total: number) => ({ user, page, perPage: limit, total });
  if (method === "user.getlovedtracks") {
    const all = lovedTracks(state, user);
    return { status: 200, body: listPage("lovedtracks", take(all).map(lovedRow), facts(all.length)) };
  }
  if (method === "user.gettoptracks") {
    const period = params.get("period") ?? "overall";
    if (!Object.hasOwn(PERIODS, period)) return lfmError(400, 6, "Invalid parameters - period");
    const all = topTracks(state, user, period);
    const rows = take(all).map((r, i) => topRow(r, start + i + 1));
    return { status: 200, body: listPage("toptracks", rows, facts(all.length)) };
  }
  if (spec.hidesRecent) return lfmError(403, 17, "Login: User required to be logged in");
  const bound = (name: string) => {
    const v = params.get(name);
    return v !== null && /^\d+$/.test(v) ? { [name]: Number(v) } : {};
  };
  const { nowPlaying, scrobbles } = recentTracks(state, user, { ...bound("from"), ...bound("to") });
  // What plays now is not a scrobble: it comes on top of the first page, beyond its limit.
  const rows = take(scrobbles).map((d) => recentRow(d.track, d.at));
  if (nowPlaying && page === 1) rows.unshift(recentRow(nowPlaying, null));
  return { status: 200, body: listPage("recenttracks", rows, facts(scrobbles.length)) };
}

/** The request's parameters: the query, and for a POST its form body too. */
async function params(req: IncomingMessage, url: URL): Promise<URLSearchParams> {
  const all = new URLSearchParams(url.searchParams);
  if (req.method === "POST") {
    const body = await readBody(req, 64 * 1024, () => invalidArgument("Body too large."));
    for (const [k, v] of new URLSearchParams(body.toString("utf8"))) all.set(k, v);
  }
  return all;
}

export async function handleLastfmApi(
  state: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  if (url.pathname !== LASTFM_PATH && url.pathname !== LASTFM_PATH.slice(0, -1)) return false;
  const p = await params(req, url);
  const endpoint = `lastfm/${(p.get("method") ?? "").toLowerCase() || "none"}`;
  state.counts.set("lastfm", (state.counts.get("lastfm") ?? 0) + 1);
  const fault = await applyServiceFault(state, req, res, endpoint, FAULTS);
  if (fault === "answered") return true;
  const reply =
    req.method === "GET" || req.method === "POST"
      ? answer(state, p, fault === "truncate")
      : lfmError(405, 3, "Invalid Method - GET or POST only");
  send(res, reply);
  return true;
}
