import type { ReadBounds } from "./read-regular.js";

/**
 * Bounds on what a playlist file may hold. The biggest real exports seen are a few MB (a
 * 10,000-song library from Exportify is about 3 MB); anything far past that is a mistake or an attack.
 */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;

/** One CSV record or one line: a song row is a few hundred characters; a megabyte line is refused. */
export const MAX_ROW_CHARS = 100_000;

/** One title, album or artist list: longer is not a song name, and it would bloat every report. */
export const MAX_FIELD_CHARS = 4096;

/** XML nesting: XSPF needs 4 levels (playlist, trackList, track, field); extensions a few more. */
export const MAX_XML_DEPTH = 64;

export function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** `over`: the size is not known, only that the file holds more than `bytes` (it was read until then). */
function tooBig(bytes: number, over: boolean): string {
  return `the file is ${over ? "over " : ""}${mib(bytes)}; a playlist file may be at most ${mib(MAX_FILE_BYTES)}`;
}

export function sizeProblem(bytes: number): string | null {
  return bytes <= MAX_FILE_BYTES ? null : tooBig(bytes, false);
}

/** How a playlist file is read (engine/files/read-regular.ts). */
export const PLAYLIST_FILE_BOUNDS: ReadBounds = { maxBytes: MAX_FILE_BYTES, tooBig };

/** The 1-based line of a UTF-16 offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

export function rowProblem(what: "row" | "line", length: number): string | null {
  if (length <= MAX_ROW_CHARS) return null;
  return `the ${what} is ${length} characters long; at most ${MAX_ROW_CHARS} are read`;
}
