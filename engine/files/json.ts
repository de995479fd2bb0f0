/**
 * JSON: an array of {title, artists, album, duration, isrc, explicit, videoId}, or {tracks: [...]}.
 * Duration in seconds, or duration_ms; artists a list or one "A, B" string.
 */
import type { SongEntry } from "../match/entry.js";
import { type Draft, parseDuration, type Rows } from "./entry-fields.js";
import { FileSourceError } from "./errors.js";
import { trackLines } from "./json-lines.js";

type Json = Record<string, unknown>;

function str(value: unknown): string | null {
  if (typeof value === "string") return value;
  return typeof value === "number" ? String(value) : null;
}

function artists(value: unknown): string | string[] | null {
  if (Array.isArray(value)) return value.map(str).filter((a): a is string => a !== null);
  return str(value);
}

function duration(track: Json): number | null {
  if (track.duration_ms !== undefined) return parseDuration(str(track.duration_ms), "ms");
  return parseDuration(str(track.duration ?? track.durationSeconds), "s");
}

function draftOf(track: Json): Draft {
  return {
    title: str(track.title),
    artists: artists(track.artists ?? track.artist),
    album: str(track.album),
    durationSeconds: duration(track),
    isrc: str(track.isrc),
    explicit: typeof track.explicit === "boolean" ? track.explicit : null,
    videoId: str(track.videoId ?? track.video_id),
  };
}

function tracksOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  const tracks = (value as Json | null)?.tracks;
  if (value !== null && typeof value === "object" && Array.isArray(tracks)) return tracks;
  throw new FileSourceError(
    'a JSON playlist must be an array of tracks, or an object whose "tracks" is one',
    1,
  );
}

export function readJson(text: string, rows: Rows): void {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new FileSourceError(`not valid JSON: ${(e as Error).message}`);
  }
  const tracks = tracksOf(value);
  const lines = trackLines(text);
  tracks.forEach((track, i) => {
    const line = lines[i] ?? 1;
    if (track === null || typeof track !== "object" || Array.isArray(track)) {
      rows.issue(line, "a track must be an object");
    } else {
      rows.add(line, draftOf(track as Json));
    }
  });
}

export function writeJson(entries: readonly SongEntry[]): string {
  const tracks = entries.map((e) =>
    JSON.stringify({
      title: e.title,
      artists: e.artists,
      album: e.album,
      duration: e.durationSeconds,
      isrc: e.isrc,
      explicit: e.explicit,
      videoId: e.videoId,
    }),
  );
  return tracks.length === 0 ? "[]\n" : `[\n  ${tracks.join(",\n  ")}\n]\n`;
}
