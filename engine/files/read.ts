import { readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import { readCsv } from "./csv.js";
import { decodeText } from "./decode.js";
import { Rows } from "./entry-fields.js";
import { FileSourceError } from "./errors.js";
import { formatOf } from "./format.js";
import { readJson } from "./json.js";
import { sizeProblem } from "./limits.js";
import { readM3u } from "./m3u.js";
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

/** The edge: the size is checked by `stat` before anything is read. */
export async function readEntriesFile(
  path: string,
  options: Omit<ReadOptions, "fileName">,
): Promise<EntriesRead> {
  const size = sizeProblem((await stat(path)).size);
  if (size) throw new FileSourceError(size);
  return readEntries(await readFile(path), { ...options, fileName: basename(path) });
}
