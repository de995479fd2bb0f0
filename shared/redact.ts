/**
 * Scrubs credentials out of whatever the client hands out: response bodies, error messages and
 * properties, headers, log fields. A service that echoes a credential back may spell it in many
 * ways or cut it short, so every spelling (secret-forms.ts) is found, and so is any piece of
 * PIECE_LENGTH characters or more of one. The secrets are read on each use, since an OAuth refresh
 * replaces the token and every request carries a new SAPISIDHASH.
 */
import { secretForms } from "./secret-forms.js";

export const REDACTED = "[redacted]";

/** Pieces this long or longer are scrubbed wherever they appear. */
export const PIECE_LENGTH = 12;
/** Shorter values (an authuser index, the consent cookie) are not secrets and would mangle text. */
export const SHORTEST_SECRET = 8;

/**
 * The text is probed at every STRIDE-th position for a KEY_LENGTH-character window of a spelling
 * (first by a hash, allocating nothing); any PIECE_LENGTH-long match covers one such probe, which
 * is then checked exactly. Every response body passes through here, so the stride is as long as
 * the piece length allows: bench/parse measured the scan at stride 4 adding about a quarter to the
 * client's time per response, and at stride 10 under a tenth.
 */
const STRIDE = 10;
const KEY_LENGTH = PIECE_LENGTH - STRIDE + 1;

type Span = [start: number, end: number];

function countIn(map: Map<string, number>, key: string, delta: number): void {
  const next = (map.get(key) ?? 0) + delta;
  if (next > 0) map.set(key, next);
  else map.delete(key);
}

/** A 32-bit hash of `length` characters from `at`: probes compare numbers, not new strings. */
function hashAt(text: string, at: number, length: number): number {
  let h = 0x811c9dc5;
  for (let i = at; i < at + length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

function windows(text: string, length: number): string[] {
  const out: string[] = [];
  for (let i = 0; i + length <= text.length; i++) out.push(text.slice(i, i + length));
  return out;
}

/** Merges overlapping or touching spans (sorted by start) so that each run is redacted once. */
function merged(spans: Span[]): Span[] {
  spans.sort((a, b) => a[0] - b[0]);
  const out: Span[] = [];
  for (const span of spans) {
    const last = out[out.length - 1];
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else out.push([span[0], span[1]]);
  }
  return out;
}

/** The escape (`\"`, `\u003d`, `\x3D`) that starts at `at`, as its end; null when none does. */
function escapeEnd(text: string, at: number): number | null {
  if (text[at] !== "\\") return null;
  let before = 0;
  while (at - before - 1 >= 0 && text[at - before - 1] === "\\") before++;
  // An escaped backslash (`\\`) does not start an escape with the character after it.
  if (before % 2 === 1) return null;
  const kind = text[at + 1];
  return at + (kind === "u" ? 6 : kind === "x" ? 4 : 2);
}

/**
 * A span widened to whole escapes at both ends. Redacting half of `\u003d` or the backslash of `\"`
 * would leave text that no longer parses: a scrubbed JSON document or log line must stay JSON.
 */
function wholeEscapes(text: string, [start, end]: Span): Span {
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

interface SecretWindows {
  /** Spellings of a secret too short for pieces: found only whole. */
  whole: string[];
  keys: string[];
  pieces: string[];
}

/**
 * The windows of each secret's spellings, kept for the secrets seen last: every client made with the
 * same cookie (one per account in the engine, one per call in some scripts) reuses them instead of
 * spelling the cookie a few dozen ways again.
 */
const windowCache = new Map<string, SecretWindows>();
const WINDOW_CACHE_SIZE = 64;

function windowsOf(secret: string): SecretWindows {
  const known = windowCache.get(secret);
  if (known) return known;
  const forms = secretForms(secret);
  const made: SecretWindows =
    secret.length < PIECE_LENGTH
      ? { whole: forms, keys: [], pieces: [] }
      : {
          whole: [],
          keys: [...new Set(forms.flatMap((f) => windows(f, KEY_LENGTH)))],
          pieces: [...new Set(forms.flatMap((f) => windows(f, PIECE_LENGTH)))],
        };
  if (windowCache.size >= WINDOW_CACHE_SIZE) windowCache.delete(windowCache.keys().next().value as string);
  windowCache.set(secret, made);
  return made;
}

/**
 * The windows of every spelling of the current secrets, counted so that a secret that comes or
 * goes (a new SAPISIDHASH each second) updates the index without rebuilding it.
 */
class PieceIndex {
  private readonly keys = new Map<string, number>();
  /** Hashes of `keys`, rebuilt when they change: the probe's first, allocation-free test. */
  private keyHashes = new Set<number>();
  private readonly pieces = new Map<string, number>();
  /** Every spelling of secrets shorter than PIECE_LENGTH: found only whole. */
  private readonly whole = new Map<string, number>();
  private current = new Set<string>();
  private last: readonly string[] = [];

  get empty(): boolean {
    return this.pieces.size === 0 && this.whole.size === 0;
  }

  sync(secrets: readonly string[]): void {
    if (secrets.length === this.last.length && secrets.every((s, i) => s === this.last[i])) return;
    this.last = [...secrets];
    const next = new Set(secrets.filter((s) => typeof s === "string" && s.length >= SHORTEST_SECRET));
    for (const gone of this.current) if (!next.has(gone)) this.change(gone, -1);
    for (const added of next) if (!this.current.has(added)) this.change(added, 1);
    this.current = next;
    this.keyHashes = new Set([...this.keys.keys()].map((k) => hashAt(k, 0, k.length)));
  }

  private change(secret: string, delta: number): void {
    const { whole, keys, pieces } = windowsOf(secret);
    for (const form of whole) countIn(this.whole, form, delta);
    for (const key of keys) countIn(this.keys, key, delta);
    for (const piece of pieces) countIn(this.pieces, piece, delta);
  }

  /** Where `text` holds a piece or a whole short secret, as merged spans. */
  spans(text: string): Span[] {
    const spans: Span[] = [];
    for (let i = 0; i + KEY_LENGTH <= text.length; i += STRIDE) {
      if (!this.keyHashes.has(hashAt(text, i, KEY_LENGTH))) continue;
      if (!this.keys.has(text.slice(i, i + KEY_LENGTH))) continue;
      for (let j = Math.max(0, i - STRIDE + 1); j <= i && j + PIECE_LENGTH <= text.length; j++) {
        if (this.pieces.has(text.slice(j, j + PIECE_LENGTH))) spans.push([j, j + PIECE_LENGTH]);
      }
    }
    for (const form of this.whole.keys()) {
      for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1)) {
        spans.push([at, at + form.length]);
      }
    }
    return merged(spans);
  }

  scrub(text: string): string {
    if (text.length < SHORTEST_SECRET || this.empty) return text;
    const spans = merged(this.spans(text).map((span) => wholeEscapes(text, span)));
    if (spans.length === 0) return text;
    let out = "";
    let from = 0;
    for (const [start, end] of spans) {
      out += text.slice(from, start) + REDACTED;
      from = end;
    }
    return out + text.slice(from);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * A JSON-like value with every string (object keys too) scrubbed; unchanged parts are shared. A
 * response is scrubbed on every read, so the walk allocates nothing until a string changes.
 */
function scrubDeep(value: unknown, index: PieceIndex, seen: WeakSet<object>): unknown {
  if (typeof value === "string") return index.scrub(value);
  if (typeof value !== "object" || value === null || seen.has(value)) return value;
  if (Array.isArray(value)) return scrubArray(value, index, seen);
  return isPlainObject(value) ? scrubObject(value, index, seen) : value;
}

function scrubArray(value: unknown[], index: PieceIndex, seen: WeakSet<object>): unknown[] {
  seen.add(value);
  let out: unknown[] | null = null;
  for (let i = 0; i < value.length; i++) {
    const item = value[i];
    const next = scrubDeep(item, index, seen);
    if (next === item) continue;
    out ??= value.slice();
    out[i] = next;
  }
  return out ?? value;
}

function scrubObject(
  value: Record<string, unknown>,
  index: PieceIndex,
  seen: WeakSet<object>,
): Record<string, unknown> {
  seen.add(value);
  const keys = Object.keys(value);
  // Entries are copied only from the first one that changes; the copy keeps the key order.
  let out: Record<string, unknown> | null = null;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const item = value[key];
    const nextKey = index.scrub(key);
    const next = scrubDeep(item, index, seen);
    if (out === null && nextKey === key && next === item) continue;
    if (out === null) {
      out = {};
      for (const before of keys.slice(0, i)) out[before] = value[before];
    }
    out[nextKey] = next;
  }
  return out ?? value;
}

export class Redactor {
  private readonly index = new PieceIndex();

  constructor(private readonly secrets: () => readonly string[]) {}

  private ready(): PieceIndex {
    this.index.sync(this.secrets());
    return this.index;
  }

  text(value: string): string {
    return this.ready().scrub(value);
  }

  /** A JSON-like value (a parsed response, a log record) scrubbed; the input is not modified. */
  value<T>(value: T): T {
    const index = this.ready();
    if (index.empty) return value;
    return scrubDeep(value, index, new WeakSet()) as T;
  }

  /**
   * Scrubs an error in place: its message, stack and every own property (a service error's
   * `serviceMessage` and `serviceStatus`, a failed write's whole `response`), and its cause's.
   * Errors are built from scrubbed text already; this is the net under that.
   */
  error<E>(error: E): E {
    if (!(error instanceof Error)) return this.value(error);
    const index = this.ready();
    if (index.empty) return error;
    for (const key of [...Object.getOwnPropertyNames(error), "message", "stack"]) {
      const before = (error as unknown as Record<string, unknown>)[key];
      const after = key === "cause" ? this.error(before) : scrubDeep(before, index, new WeakSet());
      if (after !== before) {
        Object.defineProperty(error, key, { value: after, writable: true, configurable: true });
      }
    }
    return error;
  }
}
