/**
 * Which CSV column holds what: the recipe's mapping when given, else the headers common exporters
 * write — Exportify ("Track Name", "Artist Name(s)", "Duration (ms)"…), TuneMyMusic, Soundiiz and
 * iTunes-style lists ("Title"/"Name", "Artist", "Album", "Time").
 */
import { FileSourceError } from "./errors.js";
import type { CsvColumns } from "./types.js";

type Field = "title" | "artists" | "album" | "duration" | "isrc" | "explicit" | "video_id";

/** Lower-case header names by field, best first. */
const KNOWN_HEADERS: Record<Field, readonly string[]> = {
  title: ["track name", "title", "track title", "song", "song name", "name", "track"],
  artists: ["artist name(s)", "artist", "artists", "artist name", "artist(s)", "artist names"],
  album: ["album name", "album", "album title"],
  duration: ["duration (ms)", "track duration (ms)", "duration_ms", "duration", "time", "length"],
  isrc: ["isrc"],
  explicit: ["explicit"],
  video_id: ["video id", "videoid", "youtube id"],
};

export interface ColumnIndex {
  title: number;
  artists: number | null;
  album: number | null;
  duration: number | null;
  durationUnit: "ms" | "s";
  isrc: number | null;
  explicit: number | null;
  videoId: number | null;
}

function known(header: readonly string[], field: Field): number | null {
  for (const name of KNOWN_HEADERS[field]) {
    const at = header.indexOf(name);
    if (at !== -1) return at;
  }
  return null;
}

function mapped(header: readonly string[], field: keyof CsvColumns, name: string | undefined): number | null {
  if (name === undefined) return null;
  const at = header.indexOf(name.trim().toLowerCase());
  if (at === -1) throw new FileSourceError(`the CSV header has no column "${name}" (columns.${field})`, 1);
  return at;
}

function fromMapping(header: readonly string[], c: CsvColumns): Omit<ColumnIndex, "durationUnit"> {
  return {
    title: mapped(header, "title", c.title)!,
    artists: mapped(header, "artists", c.artists),
    album: mapped(header, "album", c.album),
    duration: mapped(header, "duration", c.duration),
    isrc: mapped(header, "isrc", c.isrc),
    explicit: mapped(header, "explicit", c.explicit),
    videoId: mapped(header, "video_id", c.video_id),
  };
}

function fromKnownHeaders(header: readonly string[]): Omit<ColumnIndex, "durationUnit"> {
  const title = known(header, "title");
  if (title === null) {
    throw new FileSourceError(
      'the CSV header names no title column ("Track Name", "Title", "Name"…); give the columns in the recipe',
      1,
    );
  }
  return {
    title,
    artists: known(header, "artists"),
    album: known(header, "album"),
    duration: known(header, "duration"),
    isrc: known(header, "isrc"),
    explicit: known(header, "explicit"),
    videoId: known(header, "video_id"),
  };
}

export function columnIndex(headerCells: readonly string[], columns?: CsvColumns): ColumnIndex {
  const header = headerCells.map((h) => h.trim().toLowerCase());
  const index = columns ? fromMapping(header, columns) : fromKnownHeaders(header);
  const durationHeader = index.duration === null ? "" : (header[index.duration] ?? "");
  const durationUnit = columns?.duration_unit ?? (/(\bms\b|_ms\b|millis)/.test(durationHeader) ? "ms" : "s");
  return { ...index, durationUnit };
}
