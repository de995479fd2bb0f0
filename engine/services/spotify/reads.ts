/**
 * The reads the engine's Spotify sources make: a playlist's tracks (all pages), the person's
 * liked songs, saved albums and followed artists, each as a ServiceList. Rows that cannot stand
 * for a song (local files, removed tracks) are left out and counted in `skipped`; `expected` is
 * Spotify's total, which counts them too.
 */
import { ServiceReadError } from "../http.js";
import type { ServiceAlbum, ServiceArtist, ServiceList } from "../types.js";
import { apiUrl, getJson, type SpotifyApi } from "./api.js";
import { looksEditorial, parsePlaylistRef } from "./ids.js";
import { pageOf, readAll } from "./paging.js";
import { albumOf, artistOf, rowOf, SkipCounter } from "./parse.js";

function tracksOf(items: unknown[], total: number | null): ServiceList {
  const skipped = new SkipCounter();
  const entries = [];
  for (const item of items) {
    const row = rowOf(item);
    if ("track" in row) entries.push(row.track);
    else skipped.add(row.skip);
  }
  return { entries, expected: total, skipped: skipped.list() };
}

/** A playlist's tracks; `ref` is an id, an open.spotify.com address or a spotify:playlist: URI. */
export async function readPlaylist(api: SpotifyApi, ref: string): Promise<ServiceList> {
  const id = parsePlaylistRef(ref, "playlist");
  const what = `playlist ${id}`;
  const editorial = () =>
    looksEditorial(id)
      ? new ServiceReadError(
          "spotify",
          404,
          `${what} is one of Spotify's own editorial or algorithmic playlists, which Spotify no longer lets apps registered since November 2024 read (it answers 404)`,
        )
      : null;
  // The playlist comes with its first 100 rows: one request fewer than asking for the rows alone.
  const playlist = await getJson(api, apiUrl(api, `/playlists/${id}`, what), what, editorial);
  const first = pageOf((playlist as { tracks?: unknown } | null)?.tracks, what);
  const all = await readAll(api, what, { first });
  return tracksOf(all.items, all.total);
}

export async function readLikedSongs(api: SpotifyApi): Promise<ServiceList> {
  const all = await readAll(api, "liked songs", { path: "/me/tracks?limit=50" });
  return tracksOf(all.items, all.total);
}

/** Each item read by `parse`; one it cannot read is counted under `reason`. */
function listOf<T>(
  all: { items: unknown[]; total: number | null },
  parse: (item: unknown) => T | null,
  reason: string,
): ServiceList<T> {
  const skipped = new SkipCounter();
  const entries: T[] = [];
  for (const item of all.items) {
    const x = parse(item);
    if (x) entries.push(x);
    else skipped.add(reason);
  }
  return { entries, expected: all.total, skipped: skipped.list() };
}

export async function readSavedAlbums(api: SpotifyApi): Promise<ServiceList<ServiceAlbum>> {
  const all = await readAll(api, "saved albums", { path: "/me/albums?limit=50" });
  return listOf(all, albumOf, "album without an id or title");
}

export async function readFollowedArtists(api: SpotifyApi): Promise<ServiceList<ServiceArtist>> {
  const all = await readAll(
    api,
    "followed artists",
    { path: "/me/following?type=artist&limit=50" },
    (json) => (json as { artists?: unknown } | null)?.artists,
  );
  return listOf(all, artistOf, "artist without an id or name");
}

/** The signed-in person's id and name: what a sign-in check reads. */
export async function readMe(api: SpotifyApi): Promise<{ id: string; displayName: string | null }> {
  const me = (await getJson(api, apiUrl(api, "/me", "the signed-in person"), "the signed-in person")) as {
    id?: unknown;
    display_name?: unknown;
  } | null;
  if (typeof me?.id !== "string")
    throw new ServiceReadError("spotify", 200, "the signed-in person: an answer without an id");
  return { id: me.id, displayName: typeof me.display_name === "string" ? me.display_name : null };
}
