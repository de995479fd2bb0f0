/**
 * The fake Web API's reads (api.spotify.com/v1): a playlist with its first page of tracks, a
 * playlist's tracks, the person's liked songs, saved albums, followed artists and profile. Paging
 * as Spotify pages: offset and limit (with each endpoint's maximum) and a `next` address, or for
 * followed artists a cursor (`after`). Answers are data; index.ts sends them.
 */
import type { Bearer } from "./auth.js";
import { type FakePlaylist, SPOTIFY_OWNED_PREFIX, type SpotifyData } from "./data.js";
import { apiError, notFound, type SpotifyAnswer } from "./errors.js";
import {
  artistObject,
  offsetPage,
  playlistItem,
  playlistObject,
  savedAlbumObject,
  trackObject,
  userObject,
} from "./objects.js";

export interface ApiRequest {
  /** The path after `/v1`, e.g. `/playlists/<id>/tracks`. */
  path: string;
  query: URLSearchParams;
  bearer: Bearer & { ok: true };
  /** Where the fake's `/v1` stands, for `href` and `next`. */
  api: string;
  data: SpotifyData;
}

/** A page's `limit` and `offset`, or Spotify's 400 for a bad one. */
function paging(
  q: URLSearchParams,
  defaultLimit: number,
  maxLimit: number,
): { limit: number; offset: number } | SpotifyAnswer {
  const limit = q.has("limit") ? Number(q.get("limit")) : defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) return apiError(400, "Invalid limit");
  const offset = q.has("offset") ? Number(q.get("offset")) : 0;
  if (!Number.isInteger(offset) || offset < 0) return apiError(400, "Invalid offset");
  return { limit, offset };
}

const isAnswer = (x: object): x is SpotifyAnswer => "status" in x;

const BASE62_ID = /^[0-9A-Za-z]{22}$/;

function playlistOf(data: SpotifyData, id: string): FakePlaylist | SpotifyAnswer {
  if (!BASE62_ID.test(id)) return apiError(400, "Invalid base62 id");
  // Spotify's own editorial and algorithmic playlists: 404 to apps registered since 2024-11-27.
  if (id.startsWith(SPOTIFY_OWNED_PREFIX)) return notFound();
  return data.playlists.get(id) ?? notFound();
}

function tracksPage(r: ApiRequest, p: FakePlaylist, offset: number, limit: number) {
  const owner = userObject(r.api, r.data, false);
  const items = p.items.slice(offset, offset + limit).map((t) => playlistItem(r.api, owner, t));
  return offsetPage(`${r.api}/playlists/${p.id}/tracks`, items, offset, limit, p.items.length);
}

/** Library reads need a person's token with the scope; an app's token is not a person. */
function needsUser(r: ApiRequest, scope: string | null): SpotifyAnswer | null {
  if (r.bearer.grant !== "user") return apiError(401, "Valid user authentication required");
  if (scope && !r.bearer.scope.includes(scope)) return apiError(403, "Insufficient client scope");
  return null;
}

export function apiRead(r: ApiRequest): SpotifyAnswer {
  const parts = r.path.split("/").filter(Boolean);
  const ok = (body: unknown): SpotifyAnswer => ({ status: 200, body });
  if (parts[0] === "playlists" && parts.length >= 2 && parts.length <= 3) {
    const p = playlistOf(r.data, decodeURIComponent(parts[1]!));
    if (isAnswer(p)) return p;
    if (parts.length === 2) return ok(playlistObject(r.api, r.data, p, tracksPage(r, p, 0, 100)));
    if (parts[2] !== "tracks") return apiError(404, "Service not found");
    const pg = paging(r.query, 100, 100);
    return isAnswer(pg) ? pg : ok(tracksPage(r, p, pg.offset, pg.limit));
  }
  if (parts[0] !== "me") return apiError(404, "Service not found");
  const refusal = needsUser(r, scopeOf(parts[1]));
  if (refusal) return refusal;
  switch (parts.slice(1).join("/")) {
    case "":
      return ok(userObject(r.api, r.data, true));
    case "tracks": {
      const pg = paging(r.query, 20, 50);
      if (isAnswer(pg)) return pg;
      const items = r.data.liked
        .slice(pg.offset, pg.offset + pg.limit)
        .map((t) => ({ added_at: "2026-02-01T12:00:00Z", track: trackObject(r.api, t) }));
      return ok(offsetPage(`${r.api}/me/tracks`, items, pg.offset, pg.limit, r.data.liked.length));
    }
    case "albums": {
      const pg = paging(r.query, 20, 50);
      if (isAnswer(pg)) return pg;
      const items = r.data.albums
        .slice(pg.offset, pg.offset + pg.limit)
        .map((a) => savedAlbumObject(r.api, a));
      return ok(offsetPage(`${r.api}/me/albums`, items, pg.offset, pg.limit, r.data.albums.length));
    }
    case "following":
      return followed(r);
    default:
      return apiError(404, "Service not found");
  }
}

function scopeOf(what: string | undefined): string | null {
  if (what === "tracks" || what === "albums") return "user-library-read";
  if (what === "following") return "user-follow-read";
  return null;
}

/** Followed artists: cursor paging, `after` the last id of the page before (ids in order). */
function followed(r: ApiRequest): SpotifyAnswer {
  if (r.query.get("type") !== "artist") return apiError(400, "Only valid type is 'artist'");
  const pg = paging(r.query, 20, 50);
  if (isAnswer(pg)) return pg;
  const after = r.query.get("after");
  if (after !== null && !BASE62_ID.test(after)) return apiError(400, "Invalid 'after' parameter");
  const all = r.data.artists;
  const start = after === null ? 0 : all.findIndex((a) => a.id > after);
  const from = start < 0 ? all.length : start;
  const page = all.slice(from, from + pg.limit);
  const last = page.at(-1);
  const more = from + pg.limit < all.length && last !== undefined;
  const base = `${r.api}/me/following?type=artist`;
  return {
    status: 200,
    body: {
      artists: {
        href: `${base}&limit=${pg.limit}${after ? `&after=${after}` : ""}`,
        items: page.map((a) => artistObject(r.api, a)),
        limit: pg.limit,
        next: more ? `${base}&limit=${pg.limit}&after=${last.id}` : null,
        cursors: { after: more ? last.id : null },
        total: all.length,
      },
    },
  };
}
