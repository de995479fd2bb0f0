/**
 * ListenBrainz's playlists (JSPF) read into the engine's songs. Pure. A track's recording MBID
 * comes from its `identifier` (a list of URIs in today's JSPF, a single string in older files);
 * its artists from the MusicBrainz extension's artist credit when given, else the `creator` text.
 * The series a playlist belongs to is read from the recommender's `source_patch`, and from the
 * title only where that is missing (playlists made before ListenBrainz recorded it).
 */
import { at, isObject, mbidOf, num, text } from "../json.js";
import type { ServiceSkip, ServiceTrack } from "../types.js";

import { LISTENBRAINZ_SERIES_TITLES, type ListenBrainzSeries } from "../words.js";

const PLAYLIST_EXTENSION = "https://musicbrainz.org/doc/jspf#playlist";
const TRACK_EXTENSION = "https://musicbrainz.org/doc/jspf#track";
const RECORDING_URI = /^https?:\/\/musicbrainz\.org\/recording\/([0-9a-f-]{36})$/i;
const PLAYLIST_URI = /^https?:\/\/listenbrainz\.org\/playlist\/([0-9a-f-]{36})\/?$/i;

/** The playlists ListenBrainz's recommender makes, by the `source_patch` it records. */
export const SERIES = LISTENBRAINZ_SERIES_TITLES;
export type Series = ListenBrainzSeries;

export function isSeries(v: unknown): v is Series {
  return typeof v === "string" && Object.hasOwn(SERIES, v);
}

export interface PlaylistInfo {
  mbid: string;
  title: string;
  /** When it was made, as ListenBrainz wrote it (ISO 8601); null when absent. */
  date: string | null;
  series: Series | null;
  createdFor: string | null;
  /** null when the playlist does not say. */
  public: boolean | null;
}

/** A playlist's facts from `{playlist: …}` or the playlist object itself; null without an MBID. */
export function playlistInfo(raw: unknown): PlaylistInfo | null {
  const p = isObject(raw) && isObject(raw.playlist) ? raw.playlist : raw;
  const id = text(at(p, "identifier"));
  const m = id !== null ? PLAYLIST_URI.exec(id) : null;
  const mbid = m ? mbidOf(m[1]) : mbidOf(id);
  if (mbid === null) return null;
  const title = text(at(p, "title")) ?? "";
  const ext = at(p, "extension", PLAYLIST_EXTENSION);
  const visible = at(ext, "public");
  return {
    mbid,
    title,
    date: text(at(p, "date")),
    series: seriesOf(at(ext, "additional_metadata", "algorithm_metadata", "source_patch"), title),
    createdFor: text(at(ext, "created_for")),
    public:
      typeof visible === "boolean" ? visible : visible === "true" ? true : visible === "false" ? false : null,
  };
}

function seriesOf(patch: unknown, title: string): Series | null {
  if (isSeries(patch)) return patch;
  if (patch !== undefined) return null;
  for (const [slug, name] of Object.entries(SERIES)) {
    if (title.startsWith(`${name} for `)) return slug as Series;
  }
  return null;
}

/** The recording MBID among a track's identifiers (a string or a list of them). */
export function recordingMbid(identifier: unknown): string | null {
  const all = Array.isArray(identifier) ? identifier : [identifier];
  for (const v of all) {
    const m = typeof v === "string" ? RECORDING_URI.exec(v.trim()) : null;
    if (m) return mbidOf(m[1]);
  }
  return null;
}

/** The artist credit's names, in order, from `[{artist_credit_name}]`; null when not given. */
export function creditNames(artists: unknown): string[] | null {
  if (!Array.isArray(artists)) return null;
  const names = artists.map((a) => text(at(a, "artist_credit_name"))).filter((n): n is string => n !== null);
  return names.length > 0 ? names : null;
}

/** A listen's key when it has no MBID: its artist credit and title, as the truth of a read names it. */
export function unmappedId(creator: string, title: string): string {
  return `listenbrainz:listen:${creator}/${title}`;
}

export function jspfTrack(raw: unknown): ServiceTrack | null {
  const title = text(at(raw, "title"));
  if (title === null) return null;
  const creator = text(at(raw, "creator")) ?? "";
  const ext = at(raw, "extension", TRACK_EXTENSION);
  const mbid = recordingMbid(at(raw, "identifier"));
  const ms = num(at(raw, "duration"));
  return {
    title,
    artists: creditNames(at(ext, "additional_metadata", "artists")) ?? (creator ? [creator] : []),
    album: text(at(raw, "album")),
    durationSeconds: ms !== null && ms > 0 ? Math.round(ms / 1000) : null,
    explicit: null,
    isrc: null,
    mbid,
    serviceId: mbid !== null ? `musicbrainz:recording:${mbid}` : unmappedId(creator, title),
  };
}

/** A playlist's songs, in order; tracks without a title are counted, not guessed at. */
export function jspfTracks(raw: unknown): { entries: ServiceTrack[]; skipped: ServiceSkip[] } {
  const tracks = at(raw, "playlist", "track");
  const entries: ServiceTrack[] = [];
  let untitled = 0;
  for (const t of Array.isArray(tracks) ? tracks : []) {
    const track = jspfTrack(t);
    if (track) entries.push(track);
    else untitled++;
  }
  return { entries, skipped: untitled > 0 ? [{ reason: "tracks without a title", count: untitled }] : [] };
}
