import type { SongEntry } from "../match/entry.js";
import { type ColumnIndex, columnIndex } from "./csv-columns.js";
import { neutraliseFormula, restoreFormula } from "./csv-formulas.js";
import { csvRecords, detectDelimiter } from "./csv-records.js";
import { parseDuration, parseExplicit, type Rows } from "./entry-fields.js";
import { FileSourceError } from "./errors.js";
import { joinArtists } from "./song-text.js";
import type { CsvColumns } from "./types.js";

/** A cell as the file means it: a formula our export neutralised reads as it was (csv-formulas.ts). */
function cell(fields: readonly string[], at: number | null): string | null {
  const value = at === null ? undefined : fields[at];
  return value === undefined ? null : restoreFormula(value);
}

function addRow(rows: Rows, line: number, fields: readonly string[], c: ColumnIndex): void {
  if (fields.every((f) => f.trim() === "")) return;
  rows.add(line, {
    title: cell(fields, c.title),
    artists: cell(fields, c.artists),
    album: cell(fields, c.album),
    durationSeconds: parseDuration(cell(fields, c.duration), c.durationUnit),
    isrc: cell(fields, c.isrc),
    explicit: parseExplicit(cell(fields, c.explicit)),
    videoId: cell(fields, c.videoId),
  });
}

export function readCsv(text: string, rows: Rows, columns?: CsvColumns): void {
  const records = csvRecords(text, detectDelimiter(text));
  const first = records.next();
  if (first.done) return;
  if (first.value.fields === null) throw new FileSourceError(`the header: ${first.value.problem}`, 1);
  const index = columnIndex(first.value.fields, columns);
  for (const record of records) {
    if (record.fields === null) rows.issue(record.line, record.problem ?? "unreadable row");
    else addRow(rows, record.line, record.fields, index);
  }
}

/** Exportify's header names, so tools that read Exportify files read ours, plus our own "Video ID". */
const HEADER = [
  "Track Name",
  "Artist Name(s)",
  "Album Name",
  "Duration (ms)",
  "Explicit",
  "ISRC",
  "Video ID",
];

/** A cell a spreadsheet would run is neutralised (csv-formulas.ts) and, as OWASP advises, quoted. */
function quote(raw: string): string {
  const { value, neutralised } = neutraliseFormula(raw);
  return neutralised || /[",\n\r]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function csvRow(e: SongEntry): string[] {
  return [
    e.title,
    joinArtists(e.artists),
    e.album ?? "",
    e.durationSeconds === null ? "" : String(Math.round(e.durationSeconds * 1000)),
    e.explicit === null ? "" : String(e.explicit),
    e.isrc ?? "",
    e.videoId ?? "",
  ];
}

export function writeCsv(entries: readonly SongEntry[]): string {
  return [HEADER, ...entries.map(csvRow)].map((r) => r.map(quote).join(",")).join("\n") + "\n";
}
