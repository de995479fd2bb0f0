/**
 * The Spotify fake on the emulator's HTTP server: `/spotify/api/v1/…` stands for
 * https://api.spotify.com/v1/…, `/spotify/accounts/…` for https://accounts.spotify.com/…, and
 * `/_emulator/services/spotify/…` holds the controls tests change it with. Faults come from the
 * emulator's injector (emulator/faults.ts) under endpoint keys `spotify/<first path part>` (e.g.
 * `spotify/playlists`, `spotify/me`, `spotify/token`), answered in Spotify's own shapes.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody, sendBody, sendJson } from "../../../shared/http.js";
import type { EmulatorState } from "../../context.js";
import type { Fault } from "../../faults.js";
import { SPOTIFY_FAKE_CLIENT } from "./auth.js";
import {
  apiError,
  badToken,
  expiredToken,
  noToken,
  oauthError,
  rateLimited,
  type SpotifyAnswer,
} from "./errors.js";
import { spotifyFake } from "./fake.js";
import { followArtists, saveAlbums, unfollowArtist, unsaveAlbum } from "./library.js";
import { apiRead } from "./routes.js";

const API = "/spotify/api/v1";
const ACCOUNTS = "/spotify/accounts";
const CONTROL = "/_emulator/services/spotify/";
const MAX_FORM = 64 * 1024;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function send(res: ServerResponse, a: SpotifyAnswer): void {
  sendJson(res, a.status, a.body, a.headers ?? {});
}

/** Answers a fault in Spotify's shape; false when the fault lets the request go on (slow, truncate). */
async function faulted(res: ServerResponse, fault: Fault | null): Promise<boolean> {
  if (!fault) return false;
  switch (fault.kind) {
    case "slow":
      await sleep(fault.delayMs ?? 1000);
      return false;
    case "rate-limit":
    case "throttled":
      send(res, rateLimited(fault.retryAfter ?? 1));
      return true;
    case "server-error":
      send(res, apiError(500, "Server error."));
      return true;
    case "unavailable":
      send(
        res,
        apiError(
          503,
          "Service unavailable",
          fault.retryAfter !== undefined ? { "retry-after": String(fault.retryAfter) } : undefined,
        ),
      );
      return true;
    case "cut":
      res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": "4096" });
      res.write('{"href":"');
      await sleep(5);
      res.socket?.destroy();
      return true;
    default:
      return false;
  }
}

/** A page cut short: half its items and no `next`, while `total` still counts the whole list. */
function truncated(body: unknown): unknown {
  if (!body || typeof body !== "object") return body;
  const b = body as Record<string, unknown>;
  if (Array.isArray(b.items))
    return { ...b, items: b.items.slice(0, Math.ceil(b.items.length / 2)), next: null };
  for (const key of ["tracks", "artists"]) {
    if (b[key] && typeof b[key] === "object") return { ...b, [key]: truncated(b[key]) };
  }
  return body;
}

/** Handles the request when it is the Spotify fake's; false otherwise. */
export async function handleSpotify(
  state: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  const path = url.pathname;
  if (path.startsWith(`${API}/`)) {
    await api(state, req, res, url);
    return true;
  }
  if (path === `${ACCOUNTS}/authorize` || path === `${ACCOUNTS}/api/token`) {
    await accounts(state, req, res, url);
    return true;
  }
  if (path.startsWith(CONTROL)) {
    control(state, req, res, url);
    return true;
  }
  return false;
}

async function api(state: EmulatorState, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const path = url.pathname.slice(API.length);
  const key = `spotify/${path.split("/")[1] ?? ""}`;
  state.counts.set(key, (state.counts.get(key) ?? 0) + 1);
  const fault = state.faults.pick(key, header(req, "x-emulator-fault"));
  if (await faulted(res, fault)) return;
  if (req.method !== "GET") return send(res, apiError(405, "Method not allowed"));
  const fake = spotifyFake(state);
  const bearer = fake.accounts.bearer(header(req, "authorization"));
  if (!bearer.ok)
    return send(
      res,
      bearer.why === "none" ? noToken() : bearer.why === "expired" ? expiredToken() : badToken(),
    );
  const answer = apiRead({
    path,
    query: url.searchParams,
    bearer,
    api: `${state.baseUrl}${API}`,
    data: fake.data,
  });
  send(
    res,
    fault?.kind === "truncate" && answer.status === 200
      ? { ...answer, body: truncated(answer.body) }
      : answer,
  );
}

async function accounts(
  state: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const fake = spotifyFake(state);
  if (url.pathname.endsWith("/authorize")) {
    state.counts.set("spotify/authorize", (state.counts.get("spotify/authorize") ?? 0) + 1);
    const a = fake.accounts.authorize(url.searchParams);
    if ("redirect" in a) {
      res.writeHead(302, { location: a.redirect, "content-length": "0" });
      res.end();
    } else {
      sendBody(res, a.status, a.text, { "content-type": "text/plain; charset=utf-8" });
    }
    return;
  }
  state.counts.set("spotify/token", (state.counts.get("spotify/token") ?? 0) + 1);
  if (await faulted(res, state.faults.pick("spotify/token", header(req, "x-emulator-fault")))) return;
  if (req.method !== "POST") return send(res, oauthError("invalid_request", "Only POST is allowed", 405));
  let body: Buffer;
  try {
    body = await readBody(req, MAX_FORM, () => new Error("too large"));
  } catch {
    return send(res, oauthError("invalid_request", "The request body is too large", 413));
  }
  const form = new URLSearchParams(body.toString("utf8"));
  send(res, fake.accounts.token(form, header(req, "authorization")));
}

/**
 * Controls: `GET playlists` (ids, names, lengths), `POST expire-tokens`, `POST token-lifetime?seconds=N`,
 * `POST playlists/<id>/add?count=N`, `POST playlists/<id>/remove?positions=0,5`; the library's
 * `POST albums/save?count=N`, `POST albums/<id>/unsave`, `POST artists/follow?count=N`,
 * `POST artists/<id>/unfollow` (library.ts).
 */
function control(state: EmulatorState, req: IncomingMessage, res: ServerResponse, url: URL): void {
  req.resume();
  const parts = url.pathname.slice(CONTROL.length).split("/").filter(Boolean);
  const a = controlAnswer(state, req.method === "POST", parts, url.searchParams);
  sendJson(res, a.status, a.body);
}

function controlAnswer(
  state: EmulatorState,
  post: boolean,
  parts: string[],
  q: URLSearchParams,
): SpotifyAnswer {
  const fake = spotifyFake(state);
  const ok = (body: unknown = { ok: true }): SpotifyAnswer => ({ status: 200, body });
  const bad = (message: string): SpotifyAnswer => ({ status: 400, body: { error: { code: 400, message } } });
  const [first, id, action] = parts;
  if (parts.length === 1 && first === "playlists" && !post) {
    return ok({
      playlists: fake.playlists().map((p) => ({ id: p.id, name: p.name, length: p.items.length })),
    });
  }
  // The app registered with the fake, for a client (the engine's `emulator: true`) to sign in as.
  if (parts.length === 1 && first === "app" && !post) {
    return ok({ client_id: SPOTIFY_FAKE_CLIENT.id, client_secret: SPOTIFY_FAKE_CLIENT.secret });
  }
  if (post && parts.length === 1 && first === "expire-tokens") {
    fake.accounts.expireAll();
    return ok();
  }
  if (post && parts.length === 1 && first === "token-lifetime") {
    const seconds = Number(q.get("seconds"));
    if (!Number.isInteger(seconds) || seconds < 1) return bad("seconds must be a positive integer");
    fake.accounts.tokenLifetimeSeconds = seconds;
    return ok();
  }
  if (post && parts.length === 3 && first === "playlists" && fake.data.playlists.has(id!)) {
    if (action === "add") {
      const count = Number(q.get("count") ?? 10);
      if (!Number.isInteger(count) || count < 1 || count > 1000) return bad("count must be 1 to 1000");
      return ok({ added: fake.grow(id!, count).map((t) => t.id) });
    }
    if (action === "remove") {
      const positions = (q.get("positions") ?? "").split(",").map(Number);
      if (!positions.every((n) => Number.isInteger(n) && n >= 0))
        return bad("positions must be 0-based row numbers");
      fake.remove(id!, positions);
      return ok();
    }
  }
  return libraryControl(state, post, parts, q) ?? noControl;
}

const noControl: SpotifyAnswer = {
  status: 404,
  body: { error: { code: 404, message: "No such Spotify control." } },
};

/** A count of things to save or follow, 1 to 20 (the spare ones the fake keeps), default 1. */
function countOf(q: URLSearchParams): number | null {
  const count = Number(q.get("count") ?? 1);
  return Number.isInteger(count) && count >= 1 && count <= 20 ? count : null;
}

/** The library's controls: albums saved and unsaved, artists followed and unfollowed. */
function libraryControl(
  state: EmulatorState,
  post: boolean,
  parts: string[],
  q: URLSearchParams,
): SpotifyAnswer | null {
  if (!post) return null;
  const [what, idOrAction, action] = parts;
  const bad = { status: 400, body: { error: { code: 400, message: "count must be 1 to 20" } } };
  if (parts.length === 2 && what === "albums" && idOrAction === "save") {
    const count = countOf(q);
    return count === null ? bad : { status: 200, body: { saved: saveAlbums(state, count) } };
  }
  if (parts.length === 2 && what === "artists" && idOrAction === "follow") {
    const count = countOf(q);
    return count === null ? bad : { status: 200, body: { followed: followArtists(state, count) } };
  }
  if (parts.length === 3 && what === "albums" && action === "unsave")
    return unsaveAlbum(state, idOrAction!) ? { status: 200, body: { ok: true } } : noControl;
  if (parts.length === 3 && what === "artists" && action === "unfollow")
    return unfollowArtist(state, idOrAction!) ? { status: 200, body: { ok: true } } : noControl;
  return null;
}
