/**
 * Control routes of the ListenBrainz fake, under `/_emulator/services/listenbrainz/` (not part of
 * the service): the users and their tokens, a series moved on by one period (a new Weekly
 * Exploration appears), a playlist edited (songs added, songs removed), the rate limit set.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody, sendJson } from "../../../shared/http.js";
import type { EmulatorState } from "../../context.js";
import { json } from "../../control.js";
import { invalidArgument, notFound } from "../../errors.js";
import { catalogueSongs } from "../catalogue-songs.js";
import { drawSongs } from "../draw.js";
import {
  findPlaylist,
  LB_USERS,
  playlistTracks,
  SERIES,
  type Series,
  seriesPlaylists,
  userExists,
  userToken,
} from "./data.js";
import { describeForListenBrainz } from "./describe.js";
import { DEFAULT_RATE, keepEdit, lbState, moveOn } from "./state.js";

export const LB_CONTROL_PREFIX = "/_emulator/services/listenbrainz/";

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return json(await readBody(req, 64 * 1024, () => invalidArgument("Body too large.")));
}

const wholeNumber = (v: unknown, name: string, max: number): number => {
  if (v === undefined) return 0;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > max) {
    throw invalidArgument(`${name} must be an integer from 0 to ${max}`);
  }
  return v;
};

export async function handleListenBrainzControl(
  state: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  if (!url.pathname.startsWith(LB_CONTROL_PREFIX)) return false;
  const [first, second, third] = url.pathname.slice(LB_CONTROL_PREFIX.length).split("/").filter(Boolean);
  const { seed } = catalogueSongs(state);
  const lb = lbState(state);
  if (first === "users" && !second) {
    sendJson(res, 200, {
      users: Object.keys(LB_USERS).map((name) => ({ name, token: userToken(seed, name) })),
    });
    return true;
  }
  if (first === "users" && second && third === "next" && req.method === "POST") {
    // `{series}`: the recommender runs again; the newest playlist of that series is a new one.
    if (!userExists(second)) throw notFound("No such user.");
    const series = (await jsonBody(req)).series;
    if (typeof series !== "string" || !Object.hasOwn(SERIES, series)) {
      throw invalidArgument(`series must be one of ${Object.keys(SERIES).join(", ")}`);
    }
    moveOn(state, `${second}:${series}`);
    const newest = seriesPlaylists(state, second, series as Series)[0];
    sendJson(res, 200, { mbid: newest?.mbid ?? null, title: newest?.title ?? null });
    return true;
  }
  if (first === "playlists" && second && !third && req.method === "POST") {
    // `{add?: n, remove?: [positions]}`: songs appended, songs at those positions taken out.
    const p = findPlaylist(state, second);
    if (!p) throw notFound("No such playlist.");
    const body = await jsonBody(req);
    const add = wholeNumber(body.add, "add", 500);
    const remove = body.remove ?? [];
    const tracks = playlistTracks(state, p);
    if (!Array.isArray(remove) || !remove.every((i) => Number.isInteger(i) && i >= 0 && i < tracks.length)) {
      throw invalidArgument(`remove must be a list of positions from 0 to ${tracks.length - 1}`);
    }
    const gone = new Set(remove as number[]);
    const before = lb.added.get(p.mbid) ?? 0;
    const { songs } = catalogueSongs(state);
    const added = drawSongs(songs, seed, `${p.listKey}:added`, add, before).map((d) =>
      describeForListenBrainz(d, seed),
    );
    const next = [...tracks.filter((_, i) => !gone.has(i)), ...added];
    keepEdit(state, p.mbid, next, before + add);
    sendJson(res, 200, { mbid: p.mbid, length: next.length });
    return true;
  }
  if (first === "rate-limit" && !second) {
    // POST `{limit, windowSeconds}` sets the window; DELETE puts the default back.
    if (req.method === "DELETE") Object.assign(lb.rate, DEFAULT_RATE, { used: 0, startedAt: state.now() });
    else if (req.method === "POST") {
      const body = await jsonBody(req);
      const limit = wholeNumber(body.limit, "limit", 1_000_000);
      const seconds = wholeNumber(body.windowSeconds, "windowSeconds", 3600) || 10;
      Object.assign(lb.rate, { limit, windowMs: seconds * 1000, used: 0, startedAt: state.now() });
    }
    sendJson(res, 200, { limit: lb.rate.limit, windowSeconds: lb.rate.windowMs / 1000 });
    return true;
  }
  throw notFound("No such control endpoint.");
}
