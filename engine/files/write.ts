import type { SongEntry } from "../match/entry.js";
import { writeCsv } from "./csv.js";
import { writeJson } from "./json.js";
import { writeM3u } from "./m3u.js";
import { writeText } from "./text.js";
import type { FileFormat } from "./types.js";
import { writeXspf } from "./xspf.js";

const WRITERS: Record<FileFormat, (entries: readonly SongEntry[]) => string> = {
  csv: writeCsv,
  m3u: writeM3u,
  xspf: writeXspf,
  json: writeJson,
  text: writeText,
};

/** A playlist file's text (UTF-8 when written out); each format reads back to the same songs. */
export function writeEntries(entries: readonly SongEntry[], format: FileFormat): string {
  return WRITERS[format](entries);
}
