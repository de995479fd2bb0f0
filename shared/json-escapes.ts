/**
 * Reading backslash escapes in text that is, or may be, JSON: where one starts and ends, what it
 * stands for, and a stretch of text as a parser would decode it. The scrubber (redact.ts) searches
 * raw text, where `\u0041` hides an `A` that the parsed string holds; these let it look at the few
 * places that need it. Pure.
 */

export type Span = [start: number, end: number];

const BACKSLASH = 92;
/** JSON's one-letter escapes (`\n`, `\"`, `\/`…), by the letter's code. */
const SIMPLE: Record<number, number> = { 34: 34, 47: 47, 92: 92, 98: 8, 102: 12, 110: 10, 114: 13, 116: 9 };

/** The value of a hex digit's code, or -1. */
function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 32;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

function hexAt(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const digit = hexDigit(text.charCodeAt(i));
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/**
 * How many characters the JSON escape at `at` (which holds a backslash) takes: 6 for `\u003d`, 2
 * for `\n` or `\"`, 1 when the backslash starts no JSON escape (it then stands for itself).
 */
export function escapeLength(text: string, at: number): number {
  const kind = text.charCodeAt(at + 1);
  if (kind === 117) return hexAt(text, at + 2, 4) >= 0 && at + 6 <= text.length ? 6 : 1;
  return SIMPLE[kind] === undefined ? 1 : 2;
}

/** The UTF-16 unit the escape at `at` stands for (a lone backslash for none). */
export function escapedUnit(text: string, at: number): number {
  const kind = text.charCodeAt(at + 1);
  if (kind === 117) {
    const code = hexAt(text, at + 2, 4);
    return code >= 0 && at + 6 <= text.length ? code : BACKSLASH;
  }
  return SIMPLE[kind] ?? BACKSLASH;
}

/** Whether the backslash at `at` is itself escaped (the second of `\\`), by the run before it. */
function escapedItself(text: string, at: number): boolean {
  let before = 0;
  while (at - before - 1 >= 0 && text.charCodeAt(at - before - 1) === BACKSLASH) before++;
  return before % 2 === 1;
}

/** The escape (`\"`, `\u003d`, `\x3D`) that starts at `at`, as its end; null when none does. */
export function escapeEnd(text: string, at: number): number | null {
  if (text.charCodeAt(at) !== BACKSLASH || escapedItself(text, at)) return null;
  const kind = text[at + 1];
  return at + (kind === "u" ? 6 : kind === "x" ? 4 : 2);
}

/**
 * A span widened to whole escapes at both ends. Redacting half of `\u003d` or the backslash of `\"`
 * would leave text that no longer parses: a scrubbed JSON document or log line must stay JSON.
 */
export function wholeEscapes(text: string, [start, end]: Span): Span {
  let from = start;
  let to = end;
  for (let at = Math.max(0, start - 5); at < start; at++) {
    const stop = escapeEnd(text, at);
    if (stop !== null && stop > start) {
      from = at;
      break;
    }
  }
  for (let at = Math.max(0, end - 5); at < end; at++) {
    const stop = escapeEnd(text, at);
    if (stop !== null && stop > end) to = Math.max(to, Math.min(stop, text.length));
  }
  return [from, to];
}

/** `at`, or the start of the escape it falls inside: decoding must not begin half-way into one. */
function escapeBoundary(text: string, at: number): number {
  for (let start = Math.max(0, at - 5); start < at; start++) {
    if (text.charCodeAt(start) !== BACKSLASH || escapedItself(text, start)) continue;
    if (start + escapeLength(text, start) > at) return start;
  }
  return at;
}

/** A stretch of text decoded; `rawAt[i]` is where its i-th unit starts in the text (and one past the end). */
export interface Decoded {
  text: string;
  rawAt: number[];
}

/** The text from about `from` to `to` as a JSON string's contents decode (escapes read, the rest as is). */
export function decodeRange(text: string, from: number, to: number): Decoded {
  const units: number[] = [];
  const rawAt: number[] = [];
  let at = escapeBoundary(text, Math.max(0, from));
  const stop = Math.min(to, text.length);
  while (at < stop) {
    rawAt.push(at);
    if (text.charCodeAt(at) === BACKSLASH) {
      units.push(escapedUnit(text, at));
      at += escapeLength(text, at);
    } else {
      units.push(text.charCodeAt(at));
      at++;
    }
  }
  rawAt.push(at);
  return { text: String.fromCharCode(...units), rawAt };
}
