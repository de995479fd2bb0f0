/**
 * The Web API's JSON objects (track, album, artist, playlist, paging) as its OpenAPI description
 * gives them, from the fake's records. `api` is where the fake's `/v1` stands
 * (`<emulator>/spotify/api/v1`), so `href` and `next` point back at the fake.
 */
import type { FakeArtist, FakePlaylist, FakeSavedAlbum, SpotifyData } from "./data.js";
import type { FakeAlbumRef, FakeTrack } from "./tracks.js";

type Json = Record<string, unknown>;

const OPEN = "https://open.spotify.com";

function artistRef(api: string, a: { id: string | null; name: string }): Json {
  if (a.id === null)
    return { id: null, name: a.name, type: "artist", uri: null, href: null, external_urls: {} };
  return {
    id: a.id,
    name: a.name,
    type: "artist",
    uri: `spotify:artist:${a.id}`,
    href: `${api}/artists/${a.id}`,
    external_urls: { spotify: `${OPEN}/artist/${a.id}` },
  };
}

function albumRef(api: string, album: FakeAlbumRef, artists: FakeTrack["artists"]): Json {
  const linked = album.id !== null;
  return {
    album_type: album.type,
    total_tracks: linked ? 1 : 0,
    id: album.id,
    name: album.name,
    release_date: album.releaseDate,
    release_date_precision: album.precision,
    type: "album",
    uri: linked ? `spotify:album:${album.id}` : null,
    href: linked ? `${api}/albums/${album.id}` : null,
    external_urls: linked ? { spotify: `${OPEN}/album/${album.id}` } : {},
    images: [],
    artists: artists.map((a) => artistRef(api, a)),
  };
}

/** A local file's URI: its artist, album, title and seconds, as Spotify writes them. */
function localUri(t: FakeTrack): string {
  const part = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");
  return `spotify:local:${part(t.artists[0]?.name ?? "")}:${part(t.album.name)}:${part(t.name)}:${Math.round(t.durationMs / 1000)}`;
}

export function trackObject(api: string, t: FakeTrack): Json {
  const externalIds = t.isrc === undefined ? {} : { isrc: t.isrc };
  return {
    album: albumRef(api, t.album, t.artists),
    artists: t.artists.map((a) => artistRef(api, a)),
    disc_number: t.local ? 0 : 1,
    duration_ms: t.durationMs,
    explicit: t.explicit,
    external_ids: externalIds,
    external_urls: t.id ? { spotify: `${OPEN}/track/${t.id}` } : {},
    href: t.id ? `${api}/tracks/${t.id}` : null,
    id: t.id,
    is_local: t.local,
    is_playable: !t.local,
    name: t.name,
    popularity: t.local ? 0 : 50,
    preview_url: null,
    track_number: t.local ? 0 : 1,
    type: "track",
    uri: t.id ? `spotify:track:${t.id}` : localUri(t),
  };
}

const ADDED_AT = "2026-01-15T09:30:00Z";

/** A playlist's row: who added it and when, and the track (null: removed from Spotify since). */
export function playlistItem(api: string, owner: Json, t: FakeTrack | null): Json {
  return {
    added_at: ADDED_AT,
    added_by: owner,
    is_local: t?.local ?? false,
    primary_color: null,
    track: t ? trackObject(api, t) : null,
  };
}

/** Offset paging: `next` is null on the last page, `href` names this page's request. */
export function offsetPage(base: string, items: Json[], offset: number, limit: number, total: number): Json {
  const at = (o: number) => `${base}${base.includes("?") ? "&" : "?"}offset=${o}&limit=${limit}`;
  return {
    href: at(offset),
    items,
    limit,
    next: offset + limit < total ? at(offset + limit) : null,
    offset,
    previous: offset > 0 ? at(Math.max(0, offset - limit)) : null,
    total,
  };
}

export function userObject(api: string, data: SpotifyData, full: boolean): Json {
  const u = data.user;
  const base = {
    display_name: u.displayName,
    external_urls: { spotify: `${OPEN}/user/${u.id}` },
    href: `${api}/users/${u.id}`,
    id: u.id,
    type: "user",
    uri: `spotify:user:${u.id}`,
  };
  if (!full) return base;
  return {
    ...base,
    country: u.country,
    explicit_content: { filter_enabled: false, filter_locked: false },
    followers: { href: null, total: 3 },
    images: [],
    product: u.product,
  };
}

export function playlistObject(api: string, data: SpotifyData, p: FakePlaylist, tracks: Json): Json {
  return {
    collaborative: false,
    description: p.description,
    external_urls: { spotify: `${OPEN}/playlist/${p.id}` },
    followers: { href: null, total: p.followers },
    href: `${api}/playlists/${p.id}`,
    id: p.id,
    images: [],
    name: p.name,
    owner: userObject(api, data, false),
    primary_color: null,
    public: true,
    snapshot_id: Buffer.from(`${p.id}:${p.snapshot}`).toString("base64"),
    tracks,
    type: "playlist",
    uri: `spotify:playlist:${p.id}`,
  };
}

export function savedAlbumObject(api: string, a: FakeSavedAlbum): Json {
  return {
    added_at: ADDED_AT,
    album: {
      album_type: a.albumType,
      total_tracks: a.totalTracks,
      external_urls: { spotify: `${OPEN}/album/${a.id}` },
      href: `${api}/albums/${a.id}`,
      id: a.id,
      images: [],
      name: a.name,
      release_date: a.releaseDate,
      release_date_precision: a.precision,
      type: "album",
      uri: `spotify:album:${a.id}`,
      artists: a.artists.map((x) => artistRef(api, x)),
      external_ids: a.upc === null ? {} : { upc: a.upc },
      label: a.label,
      popularity: 40,
      copyrights: [],
      genres: [],
    },
  };
}

export function artistObject(api: string, a: FakeArtist): Json {
  return {
    ...artistRef(api, a),
    followers: { href: null, total: a.followers },
    genres: [],
    images: [],
    popularity: 30,
  };
}
