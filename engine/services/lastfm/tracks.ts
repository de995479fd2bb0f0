/**
 * Last.fm's track rows read into the engine's songs. Pure. Last.fm's JSON is a conversion of its
 * XML: numbers are strings, names sit under "#text" or "name", an unknown MBID is "", a list of
 * one comes as the object itself. A track has no id of its own; its last.fm address
 * (`/music/<artist>/_/<title>`) is the nearest thing, and keys it.
 */
import { at, isObject, mbidOf, num, text } from "../json.js";
import type { ServiceTrack } from "../types.js";

const TRACK_URL = /^https?:\/\/(?:www\.)?last\.fm\/music\/([^/]+)\/_\/([^/?#]+)$/i;

/** A name as Last.fm's addresses write it: percent-encoded, spaces as "+". */
function pathPart(name: string): string {
  return encodeURIComponent(name).replace(/%20/g, "+");
}

/** `lastfm:track:<artist>/<title>`, both parts as the track's last.fm address writes them. */
export function lastfmServiceId(url: string | null, artist: string, title: string): string {
  const m = url ? TRACK_URL.exec(url) : null;
  return m ? `lastfm:track:${m[1]}/${m[2]}` : `lastfm:track:${pathPart(artist)}/${pathPart(title)}`;
}

/** A page's rows: a list, one row written bare, or none. */
export function rowsOf(track: unknown): unknown[] {
  if (Array.isArray(track)) return track;
  return isObject(track) ? [track] : [];
}

/** Whether the row is what the user is playing now (recent tracks), not a finished listen. */
export function isNowPlaying(row: unknown): boolean {
  return text(at(row, "@attr", "nowplaying")) === "true";
}

export function lastfmTrack(row: unknown): ServiceTrack | null {
  const title = text(at(row, "name"));
  const artist = text(at(row, "artist", "name")) ?? text(at(row, "artist", "#text"));
  if (title === null || artist === null) return null;
  const seconds = num(at(row, "duration"));
  const mbid = mbidOf(at(row, "mbid"));
  return {
    title,
    artists: [artist],
    album: text(at(row, "album", "#text")),
    // "0" is Last.fm's "unknown".
    durationSeconds: seconds !== null && seconds > 0 ? seconds : null,
    explicit: null,
    isrc: null,
    mbid,
    serviceId: lastfmServiceId(text(at(row, "url")), artist, title),
  };
}
