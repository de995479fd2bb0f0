import { basename } from "node:path";
import { readCsv } from "./csv.js";
import { decodeText } from "./decode.js";
import { Rows } from "./entry-fields.js";
import { FileSourceError } from "./errors.js";
import { formatOf } from "./format.js";
import { readJson } from "./json.js";
import { PLAYLIST_FILE_BOUNDS } from "./limits.js";
import { readM3u } from "./m3u.js";
import { FileReadError, readRegularFile } from "./read-regular.js";
import { readText } from "./text.js";
import type { EntriesRead, ReadOptions } from "./types.js";
import { readXspf } from "./xspf.js";

/** Reads a playlist file's bytes; throws FileSourceError when the whole file is refused. */
export function readEntries(bytes: Uint8Array, options: ReadOptions): EntriesRead {
  const text = decodeText(bytes);
  const format = options.format ?? formatOf(options.fileName, text);
  const rows = new Rows();
  if (format === "csv") readCsv(text, rows, options.columns);
  else if (format === "m3u") readM3u(text, rows);
  else if (format === "xspf") readXspf(text, rows);
  else if (format === "json") readJson(text, rows);
  else readText(text, rows);
  const first = rows.issues[0];
  if (options.strict && first) throw new FileSourceError(first.message, first.line);
  return { format, entries: rows.entries, issues: rows.issues };
}

/**
 * The edge: only a regular file, read up to the bound (read-regular.ts); `within`, the folders it
 * must really be in (a `file` source's, checked again here since a link can change after loading).
 */
export async function readEntriesFile(
  path: string,
  options: Omit<ReadOptions, "fileName"> & { within?: readonly string[] },
): Promise<EntriesRead> {
  const { within, ...rest } = options;
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(path, within ? { ...PLAYLIST_FILE_BOUNDS, within } : PLAYLIST_FILE_BOUNDS);
  } catch (err) {
    if (err instanceof FileReadError && err.code !== "ENOENT") throw new FileSourceError(err.message);
    throw err;
  }
  return readEntries(bytes, { ...rest, fileName: basename(path) });
}
