/** Plain text: one "Artist - Title" per line; blank lines and "#" comment lines skipped. */
import type { SongEntry } from "../match/entry.js";
import type { Rows } from "./entry-fields.js";
import { rowProblem } from "./limits.js";
import { joinArtistTitle, splitArtistTitle } from "./song-text.js";

export function readText(text: string, rows: Rows): void {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    // A comment's "#" is the line's first character; a title starting with "#" is written indented.
    if (lines[i]!.startsWith("#")) continue;
    const line = lines[i]!.trim();
    if (line === "") continue;
    const tooLong = rowProblem("line", line.length);
    if (tooLong) rows.issue(i + 1, tooLong);
    else rows.add(i + 1, splitArtistTitle(line));
  }
}

export function writeText(entries: readonly SongEntry[]): string {
  return entries
    .map((e) => joinArtistTitle(e))
    .map((line) => (line.startsWith("#") ? ` ${line}\n` : `${line}\n`))
    .join("");
}
