/**
 * From the loose values a file holds to a checked `FileEntry`, the same way for every format:
 * trimmed text, empty as null, one check for the title and for oversized fields.
 */

import { isVideoId } from "../match/entry.js";
import { MAX_FIELD_CHARS } from "./limits.js";
import { splitArtists } from "./song-text.js";
import type { FileEntry, FileIssue } from "./types.js";

/** What a reader found for one row, before checking. */
export interface Draft {
  title?: string | null;
  /** A list as written, or one string to split on ",". */
  artists?: string | readonly string[] | null;
  album?: string | null;
  durationSeconds?: number | null;
  isrc?: string | null;
  explicit?: boolean | null;
  videoId?: string | null;
}

function text(value: string | null | undefined): string | null {
  const t = value?.trim() ?? "";
  return t === "" ? null : t;
}

function artistsOf(value: Draft["artists"]): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value === "string") return splitArtists(value);
  return value.map((a) => a.trim()).filter((a) => a !== "");
}

/** ISRCs are printed with or without hyphens ("US-RC1-76-07839"); anything else is not one. */
function isrcOf(value: string | null | undefined): string | null {
  const t = text(value)?.replace(/[-\s]/g, "").toUpperCase() ?? null;
  return t !== null && /^[A-Z]{2}[A-Z0-9]{3}\d{7}$/.test(t) ? t : null;
}

function tooLong(entry: FileEntry): string | null {
  const fields: [string, string | null][] = [
    ["title", entry.title],
    ["artist", entry.artists.join(", ")],
    ["album", entry.album],
  ];
  for (const [name, value] of fields) {
    if (value !== null && value.length > MAX_FIELD_CHARS) {
      return `the ${name} is ${value.length} characters long; at most ${MAX_FIELD_CHARS} are read`;
    }
  }
  return null;
}

/** The entry, or why the row cannot be read. */
function checkedEntry(line: number, draft: Draft): FileEntry | string {
  const title = text(draft.title);
  if (title === null) return "no title";
  const videoId = text(draft.videoId);
  if (videoId !== null && !isVideoId(videoId)) return `"${videoId.slice(0, 40)}" is not a YouTube video id`;
  const duration = draft.durationSeconds ?? null;
  const entry: FileEntry = {
    title,
    artists: artistsOf(draft.artists),
    album: text(draft.album),
    durationSeconds: duration !== null && Number.isFinite(duration) && duration >= 0 ? duration : null,
    isrc: isrcOf(draft.isrc),
    explicit: draft.explicit ?? null,
    videoId,
    line,
  };
  return tooLong(entry) ?? entry;
}

/** The entries and issues of one file, in file order. */
export class Rows {
  readonly entries: FileEntry[] = [];
  readonly issues: FileIssue[] = [];

  issue(line: number, message: string): void {
    this.issues.push({ line, message });
  }

  add(line: number, draft: Draft): void {
    const checked = checkedEntry(line, draft);
    if (typeof checked === "string") this.issue(line, checked);
    else this.entries.push(checked);
  }
}

/** "3:45" or "1:02:03" always as clock time; a bare number in the given unit. */
export function parseDuration(value: string | null | undefined, unit: "ms" | "s"): number | null {
  const t = text(value);
  if (t === null) return null;
  if (/^\d+(:[0-5]?\d){1,2}(\.\d+)?$/.test(t)) {
    return t.split(":").reduce((total, part) => total * 60 + Number(part), 0);
  }
  const n = Number(t);
  if (!Number.isFinite(n) || n < 0) return null;
  return unit === "ms" ? n / 1000 : n;
}

const YES = new Set(["true", "yes", "y", "1", "explicit", "e"]);
const NO = new Set(["false", "no", "n", "0", "clean"]);

export function parseExplicit(value: string | null | undefined): boolean | null {
  const t = value?.trim().toLowerCase();
  if (t === undefined) return null;
  if (YES.has(t)) return true;
  if (NO.has(t)) return false;
  return null;
}
