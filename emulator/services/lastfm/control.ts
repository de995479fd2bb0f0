/**
 * Control routes of the Last.fm fake, under `/_emulator/services/lastfm/` (not part of the
 * service): the API key and users, songs loved or unloved, the now-playing song switched.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody, sendJson } from "../../../shared/http.js";
import type { EmulatorState } from "../../context.js";
import { json } from "../../control.js";
import { invalidArgument, notFound } from "../../errors.js";
import { catalogueSongs } from "../catalogue-songs.js";
import { acceptKey, editLoved, isPlaying, LFM_USERS, lastfmApiKey, lfmState, lovedTracks } from "./data.js";

export const LASTFM_CONTROL_PREFIX = "/_emulator/services/lastfm/";

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return json(await readBody(req, 64 * 1024, () => invalidArgument("Body too large.")));
}

export async function handleLastfmControl(
  state: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  if (!url.pathname.startsWith(LASTFM_CONTROL_PREFIX)) return false;
  const [first, second, third] = url.pathname.slice(LASTFM_CONTROL_PREFIX.length).split("/").filter(Boolean);
  if (first === "keys" && !second) {
    // GET: the key the fake gives out; POST `{apiKey}`: one more accepted.
    if (req.method === "POST") {
      const key = (await jsonBody(req)).apiKey;
      if (typeof key !== "string" || !/^[0-9a-f]{32}$/.test(key))
        throw invalidArgument("apiKey must be 32 hex digits");
      acceptKey(state, key);
    }
    sendJson(res, 200, { apiKey: lastfmApiKey(catalogueSongs(state).seed) });
    return true;
  }
  if (first === "users" && !second) {
    sendJson(res, 200, {
      users: Object.keys(LFM_USERS).map((name) => ({ name, nowPlaying: isPlaying(state, name) })),
    });
    return true;
  }
  const user = second ?? "";
  if (first === "users" && Object.hasOwn(LFM_USERS, user) && req.method === "POST") {
    const body = await jsonBody(req);
    if (third === "loved") {
      // `{add?: n, remove?: [positions]}`: songs loved now (first in the list), loves taken back.
      const add = body.add ?? 0;
      const remove = body.remove ?? [];
      const length = lovedTracks(state, user).length;
      if (typeof add !== "number" || !Number.isInteger(add) || add < 0 || add > 500) {
        throw invalidArgument("add must be an integer from 0 to 500");
      }
      if (!Array.isArray(remove) || !remove.every((i) => Number.isInteger(i) && i >= 0 && i < length)) {
        throw invalidArgument(`remove must be a list of positions from 0 to ${length - 1}`);
      }
      sendJson(res, 200, { user, loved: editLoved(state, user, add, remove as number[]) });
      return true;
    }
    if (third === "now-playing") {
      if (typeof body.playing !== "boolean") throw invalidArgument("playing must be true or false");
      lfmState(state).playing.set(user, body.playing);
      sendJson(res, 200, { user, nowPlaying: body.playing });
      return true;
    }
  }
  throw notFound("No such control endpoint.");
}
