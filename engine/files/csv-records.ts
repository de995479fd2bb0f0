/**
 * CSV records with the line each starts on: quoted fields, "" escapes, newlines inside quotes.
 * The text's line endings are already "\n". Hand-written rather than csv-parse: csv-parse reports
 * only the line count where a record ends, and one unclosed quote there ends the whole parse.
 */
import { MAX_ROW_CHARS, rowProblem } from "./limits.js";

export interface CsvRecord {
  line: number;
  /** Null when the record cannot be read; `problem` says why. */
  fields: string[] | null;
  problem?: string;
}

const QUOTE = 34;
const NEWLINE = 10;

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) count++;
  return count;
}

/** A quoted field from the opening quote; ends after the closing quote (or at the end of the text). */
function quoted(text: string, at: number): { value: string; end: number; closed: boolean } {
  let value = "";
  let from = at + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q === -1) return { value: value + text.slice(from), end: text.length, closed: false };
    value += text.slice(from, q);
    if (text.charCodeAt(q + 1) !== QUOTE) return { value, end: q + 1, closed: true };
    value += '"';
    from = q + 2;
  }
}

/** Up to the next delimiter or newline, char by char: indexOf could rescan the rest of the file per field. */
function bare(text: string, at: number, delimiter: number): number {
  let i = at;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === delimiter || c === NEWLINE) break;
    i++;
  }
  return i;
}

export function* csvRecords(text: string, delimiterChar: string): Generator<CsvRecord> {
  const delimiter = delimiterChar.charCodeAt(0);
  let i = 0;
  let line = 1;
  while (i < text.length) {
    const start = i;
    const fields: string[] = [];
    let problem: string | undefined;
    for (;;) {
      let value: string;
      if (text.charCodeAt(i) === QUOTE) {
        const q = quoted(text, i);
        if (!q.closed) problem = "a quoted field is never closed";
        // Text after the closing quote ("a"b) is kept, as spreadsheet programs do.
        const end = bare(text, q.end, delimiter);
        value = q.value + text.slice(q.end, end);
        i = end;
      } else {
        const end = bare(text, i, delimiter);
        value = text.slice(i, end);
        i = end;
      }
      // Past the bound the fields are dropped but the scan goes on, to find where the record ends.
      if (i - start <= MAX_ROW_CHARS) fields.push(value);
      if (text.charCodeAt(i) !== delimiter) break;
      i++;
    }
    const recordLine = line;
    line += countNewlines(text, start, i) + 1;
    i++; // the newline
    problem = rowProblem("row", i - start) ?? problem;
    yield problem ? { line: recordLine, fields: null, problem } : { line: recordLine, fields };
  }
}

/** The delimiter used most in the first line (outside quotes): ",", ";" or tab. */
export function detectDelimiter(text: string): string {
  const firstLine = text.slice(0, bare(text, 0, -1)).replace(/"[^"]*"/g, "");
  let best = ",";
  let bestCount = 0;
  for (const d of [",", ";", "\t"]) {
    const count = firstLine.split(d).length - 1;
    if (count > bestCount) [best, bestCount] = [d, count];
  }
  return best;
}
