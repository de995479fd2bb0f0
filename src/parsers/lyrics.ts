import { ParseError } from "../errors.js";
import type { LyricLine, PlainLyrics, TimedLyrics } from "../types/song.js";
import { formatPath, get, mustStr, type Path, str } from "./nav.js";
import { DESCRIPTION_TEXT, SL0 } from "./paths.js";

/** The lyrics page (docs/PROTOCOL.md#browsing get_lyrics): one description shelf in a section list. */
const SHELF: Path = ["contents", ...SL0, "musicDescriptionShelfRenderer"];
const TEXT: Path = DESCRIPTION_TEXT;
/**
 * `Source: LyricFind`. The reference implementation reads this without `footer` since its 1.9.0
 * (a path that never exists, so its `source` is always null); the captures carry it here.
 */
const SOURCE: Path = ["footer", "runs", 0, "text"];

/** Plain lyrics, or `null` when the page has none (the service answers such pages without the shelf). */
export function parseLyrics(response: unknown): PlainLyrics | null {
  const shelf = get(response, SHELF);
  const lyrics = str(shelf, TEXT);
  if (lyrics === null) return null;
  return { lyrics, source: str(shelf, SOURCE), hasTimestamps: false };
}

/** Where the mobile (ANDROID_MUSIC) client's answer carries timed lyrics. */
const TIMED: Path = [
  "contents",
  "elementRenderer",
  "newElement",
  "type",
  "componentType",
  "model",
  "timedLyricsModel",
  "lyricsData",
];
const LINES: Path = ["timedLyricsData"];
const LINE_TEXT: Path = ["lyricLine"];
const START: Path = ["cueRange", "startTimeMilliseconds"];
const END: Path = ["cueRange", "endTimeMilliseconds"];
const ID: Path = ["cueRange", "metadata", "id"];
const SOURCE_MESSAGE: Path = ["sourceMessage"];

/**
 * Timed lyrics from an ANDROID_MUSIC answer, or `null` when it has none (then the caller falls back
 * to the plain shape, which the same answer may carry). Times and ids come as decimal strings.
 */
export function parseTimedLyrics(response: unknown): TimedLyrics | null {
  const data = get(response, TIMED);
  const lines = get(data, LINES);
  if (!Array.isArray(lines)) return null;
  const base = `${formatPath(TIMED)}.timedLyricsData`;
  const lyrics: LyricLine[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const at = `${base}[${i}]`;
    lyrics.push({
      // An instrumental break comes as an empty line; a missing text would be a different shape.
      text: mustStr(line, LINE_TEXT, at),
      start_time: integer(line, START, at),
      end_time: integer(line, END, at),
      id: integer(line, ID, at),
    });
  }
  return { lyrics, source: str(data, SOURCE_MESSAGE), hasTimestamps: true };
}

/** An integer sent as a decimal string (or, tolerated, as a number). */
function integer(node: unknown, path: Path, base: string): number {
  const value = get(node, path);
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  throw new ParseError(formatPath(path, base), "expected an integer (a decimal string)");
}
