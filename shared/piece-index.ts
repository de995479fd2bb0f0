/**
 * Where a text holds a credential: any spelling of one (secret-forms.ts), or any piece of
 * PIECE_LENGTH characters or more of one, found in one sampled pass over the text. Every response
 * body passes through here, so the pass is made to cost a small part of JSON.parse of the same text
 * (bench/parse measures both): it reads three characters at every STRIDE-th position and looks them
 * up in a bitmap, and only a hit is checked exactly. JSON escapes hide characters from a search of
 * the raw text (`\u0041` is an `A` once parsed), so the few escapes that could be part of a piece
 * are decoded and their neighbourhood checked as the parsed string will read.
 */
import {
  type Decoded,
  decodeRange,
  escapedUnit,
  escapeLength,
  type Span,
  wholeEscapes,
} from "./json-escapes.js";
import { secretForms } from "./secret-forms.js";

/** Pieces this long or longer are scrubbed wherever they appear. */
export const PIECE_LENGTH = 12;
/** Shorter values (an authuser index, the consent cookie) are not secrets and would mangle text. */
export const SHORTEST_SECRET = 8;

/**
 * Probes read KEY_LENGTH characters every STRIDE positions: any PIECE_LENGTH-long run then holds
 * one probe whole. Three characters keep the probes few and the bitmap's false hits rare.
 */
const KEY_LENGTH = 3;
const STRIDE = PIECE_LENGTH - KEY_LENGTH + 1;
/** 2^18 bits (32 KiB) per client with credentials. */
const BITMAP_BITS = 18;
const BITMAP_MASK = (1 << BITMAP_BITS) - 1;
/** A piece with an escaped character in it lies within this many raw characters of the escape. */
const ESCAPE_REACH = (PIECE_LENGTH - 1) * 6;

/** Three character codes as a bitmap position: a fold, not a hash; collisions only cost a check. */
function slot(a: number, b: number, c: number): number {
  return ((a << 12) ^ (b << 6) ^ c) & BITMAP_MASK;
}

function countIn(map: Map<string, number>, key: string, delta: number): void {
  const next = (map.get(key) ?? 0) + delta;
  if (next > 0) map.set(key, next);
  else map.delete(key);
}

function windows(text: string, length: number): string[] {
  const out: string[] = [];
  for (let i = 0; i + length <= text.length; i++) out.push(text.slice(i, i + length));
  return out;
}

/** Merges overlapping or touching spans (sorted by start) so that each run is redacted once. */
export function merged(spans: Span[]): Span[] {
  spans.sort((a, b) => a[0] - b[0]);
  const out: Span[] = [];
  for (const span of spans) {
    const last = out[out.length - 1];
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else out.push([span[0], span[1]]);
  }
  return out;
}

interface SecretWindows {
  /** Spellings of a secret too short for pieces: found only whole. */
  whole: string[];
  /** KEY_LENGTH-character windows of every spelling, short ones too: what a piece is made of. */
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
  const long = secret.length >= PIECE_LENGTH;
  const made: SecretWindows = {
    whole: long ? [] : forms,
    keys: [...new Set(forms.flatMap((f) => windows(f, KEY_LENGTH)))],
    pieces: long ? [...new Set(forms.flatMap((f) => windows(f, PIECE_LENGTH)))] : [],
  };
  if (windowCache.size >= WINDOW_CACHE_SIZE) windowCache.delete(windowCache.keys().next().value as string);
  windowCache.set(secret, made);
  return made;
}

/**
 * The windows of every spelling of the current secrets, counted so that a secret that comes or
 * goes (a new SAPISIDHASH each second) updates the index without spelling the others again.
 */
export class PieceIndex {
  private readonly keys = new Map<string, number>();
  private readonly pieces = new Map<string, number>();
  /** Every spelling of secrets shorter than PIECE_LENGTH: found only whole. */
  private readonly whole = new Map<string, number>();
  /** The keys' slots, rebuilt when they change: the probe's first, allocation-free test. */
  private bitmap = new Uint32Array(0);
  /** Every character of a key: an escape standing for any other cannot be part of a piece. */
  private alphabet = new Set<number>();
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
    this.bitmap = new Uint32Array(this.keys.size === 0 ? 0 : (1 << BITMAP_BITS) / 32);
    this.alphabet = new Set();
    for (const key of this.keys.keys()) {
      const at = slot(key.charCodeAt(0), key.charCodeAt(1), key.charCodeAt(2));
      this.bitmap[at >>> 5] = (this.bitmap[at >>> 5] as number) | (1 << (at & 31));
      for (let i = 0; i < KEY_LENGTH; i++) this.alphabet.add(key.charCodeAt(i));
    }
  }

  private change(secret: string, delta: number): void {
    const { whole, keys, pieces } = windowsOf(secret);
    for (const form of whole) countIn(this.whole, form, delta);
    for (const key of keys) countIn(this.keys, key, delta);
    for (const piece of pieces) countIn(this.pieces, piece, delta);
  }

  /** Where `text` holds a piece or a whole short secret, as it stands or as JSON decodes it; merged. */
  spans(text: string): Span[] {
    const spans: Span[] = [];
    if (this.empty || text.length < SHORTEST_SECRET) return spans;
    if (this.pieces.size > 0) this.probe(text, spans);
    for (const form of this.whole.keys()) {
      for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1)) {
        spans.push([at, at + form.length]);
      }
    }
    this.escapes(text, spans);
    return merged(spans);
  }

  /** The sampled pass: each probe whose slot is set is checked for the pieces that would cover it. */
  private probe(text: string, spans: Span[]): void {
    const bitmap = this.bitmap;
    const last = text.length - KEY_LENGTH;
    for (let i = 0; i <= last; i += STRIDE) {
      const at = slot(text.charCodeAt(i), text.charCodeAt(i + 1), text.charCodeAt(i + 2));
      if (((bitmap[at >>> 5] as number) & (1 << (at & 31))) === 0) continue;
      if (!this.keys.has(text.slice(i, i + KEY_LENGTH))) continue;
      for (let j = Math.max(0, i - STRIDE + 1); j <= i && j + PIECE_LENGTH <= text.length; j++) {
        if (this.pieces.has(text.slice(j, j + PIECE_LENGTH))) spans.push([j, j + PIECE_LENGTH]);
      }
    }
  }

  /**
   * Escapes walked from the first: a piece that holds an escaped character must hold that character
   * with a neighbour on each side or two on one side, so an escape whose three-character windows,
   * decoded, are no key is passed over; the rest have their neighbourhood decoded and searched.
   */
  private escapes(text: string, spans: Span[]): void {
    for (let at = text.indexOf("\\"); at >= 0; ) {
      const end = at + escapeLength(text, at);
      if (this.alphabet.has(escapedUnit(text, at)) && this.keyAround(text, at, end)) {
        this.searchDecoded(decodeRange(text, at - ESCAPE_REACH, end + ESCAPE_REACH), at, spans);
      }
      at = text.indexOf("\\", end);
    }
  }

  /** Whether a decoded KEY_LENGTH-window that holds the escape at `at` is a key. */
  private keyAround(text: string, at: number, end: number): boolean {
    const near = decodeRange(text, at - 2 * 6, end + 2 * 6);
    const [first, last] = around(near, at, KEY_LENGTH);
    for (let from = first; from <= last; from++) {
      if (this.keys.has(near.text.slice(from, from + KEY_LENGTH))) return true;
    }
    return false;
  }

  /** Pieces and whole short secrets of a decoded neighbourhood that hold the escape at `at`, as raw spans. */
  private searchDecoded(near: Decoded, at: number, spans: Span[]): void {
    const raw = (from: number, length: number): Span => [
      near.rawAt[from] as number,
      near.rawAt[from + length] as number,
    ];
    const [first, last] = around(near, at, PIECE_LENGTH);
    for (let from = first; from <= last; from++) {
      if (this.pieces.has(near.text.slice(from, from + PIECE_LENGTH))) spans.push(raw(from, PIECE_LENGTH));
    }
    for (const form of this.whole.keys()) {
      for (let from = near.text.indexOf(form); from >= 0; from = near.text.indexOf(form, from + 1)) {
        spans.push(raw(from, form.length));
      }
    }
  }
}

/**
 * The first and last start of a `length`-unit window of `near` that holds the unit the escape at
 * `at` decodes to; every window when that unit cannot be told (never expected: a safe default).
 */
function around(near: Decoded, at: number, length: number): [first: number, last: number] {
  const k = near.rawAt.indexOf(at);
  const most = near.text.length - length;
  return k < 0 ? [0, most] : [Math.max(0, k - length + 1), Math.min(k, most)];
}

/** `text` with every span replaced by REDACTED; spans widened to whole escapes, so JSON stays JSON. */
export function cut(text: string, spans: Span[], redacted: string): string {
  if (spans.length === 0) return text;
  let out = "";
  let from = 0;
  for (const [start, end] of merged(spans.map((span) => wholeEscapes(text, span)))) {
    out += text.slice(from, start) + redacted;
    from = end;
  }
  return out + text.slice(from);
}
