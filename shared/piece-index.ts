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
export const KEY_LENGTH = 3;
export const STRIDE = PIECE_LENGTH - KEY_LENGTH + 1;
/** 2^18 bits (32 KiB) the bitmap, one per client with credentials. */
const BITMAP_BITS = 18;
/** The bitmap's length in 32-bit words. */
export const BITMAP_WORDS = (1 << BITMAP_BITS) / 32;
const BITMAP_MASK = (1 << BITMAP_BITS) - 1;
/** A piece with an escaped character in it lies within this many raw characters of the escape. */
const ESCAPE_REACH = (PIECE_LENGTH - 1) * 6;
/** How far past an escape its decoded stretch goes: escapes close together are searched at once. */
const SEARCH_AHEAD = 1024;

/** Three character codes as a bitmap position: a fold, not a hash; collisions only cost a check. */
export function slot(a: number, b: number, c: number): number {
  return ((a << 12) ^ (b << 6) ^ c) & BITMAP_MASK;
}

/**
 * Three character codes as one number, exactly (UTF-16 units are below 2^16, so it stays below
 * 2^48): the key a probe or a window stands for, compared without making a string of it.
 */
export function keyCode(a: number, b: number, c: number): number {
  return (a * 0x10000 + b) * 0x10000 + c;
}

/** The key of the KEY_LENGTH characters of `text` at `i`. */
export function keyAt(text: string, i: number): number {
  return keyCode(text.charCodeAt(i), text.charCodeAt(i + 1), text.charCodeAt(i + 2));
}

/** Counts `key` up or down; true when it is gone. */
function countIn<K>(map: Map<K, number>, key: K, delta: number): boolean {
  const next = (map.get(key) ?? 0) + delta;
  if (next > 0) map.set(key, next);
  else map.delete(key);
  return next <= 0;
}

/**
 * `[start, end)` added to `spans`: joined to the last span when it overlaps or touches it, as
 * `merged` would join them. A secret spelled out in a body is a run of pieces, one a character:
 * a span each made a page whose titles hold the cookie (the soak's) cost 50 times its JSON.parse,
 * most of it sorting and collecting those spans.
 */
function extend(spans: Span[], start: number, end: number): void {
  const last = spans[spans.length - 1];
  if (last && last[0] <= start && start <= last[1]) last[1] = Math.max(last[1], end);
  else spans.push([start, end]);
}

/** Whether the last span already holds `[start, end)`: adding it would change nothing. */
function covered(spans: readonly Span[], start: number, end: number): boolean {
  const last = spans[spans.length - 1];
  return last !== undefined && last[0] <= start && end <= last[1];
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
  /** Spellings of a long secret: a candidate piece is looked for in them. */
  long: string[];
  /** The long spellings joined by SEPARATOR, so that one search covers them all. */
  joined: string;
  /** KEY_LENGTH-character windows of every spelling, short ones too (keyCode): what a piece is made of. */
  keys: ReadonlySet<number>;
  /**
   * The keys' bitmap slots and their characters, each listed once: what marking the secret in an
   * index costs. A SAPISIDHASH comes every second with some thousand keys drawn from a few dozen
   * characters, so they are worked out here once, not by every client that sees it.
   */
  slots: Uint32Array;
  chars: readonly number[];
}

/**
 * Between the joined spellings: a piece without it that is found in the joined text lies within
 * one spelling. A piece holding it is looked for spelling by spelling.
 */
const SEPARATOR = "\u0000";

/**
 * Whether `piece` is part of a spelling of the secret. Its PIECE_LENGTH-character windows are not
 * kept in a set: making some 13,000 of them (and as many KEY_LENGTH ones) was most of a command's
 * first scrub, run while its code was still cold, and a body has only a few hundred candidates
 * (probes whose key is a secret's) to look for.
 */
function holds(w: SecretWindows, piece: string): boolean {
  if (!piece.includes(SEPARATOR)) return w.joined.includes(piece);
  return w.long.some((form) => form.includes(piece));
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
  // One pass over the spellings' characters, with no string made per window: a command's first
  // scrub makes these while its code is still cold, some 12,000 windows for a browser's cookie.
  const keys = new Set<number>();
  const slots = new Set<number>();
  // Every character of a spelling that has a window is in one of them.
  const chars = new Set<number>();
  for (const form of forms) {
    for (let i = 0; i + KEY_LENGTH <= form.length; i++) {
      const a = form.charCodeAt(i);
      const b = form.charCodeAt(i + 1);
      const c = form.charCodeAt(i + 2);
      keys.add(keyCode(a, b, c));
      slots.add(slot(a, b, c));
    }
    if (form.length >= KEY_LENGTH) for (let i = 0; i < form.length; i++) chars.add(form.charCodeAt(i));
  }
  const made: SecretWindows = {
    whole: long ? [] : forms,
    long: long ? forms : [],
    joined: long ? forms.join(SEPARATOR) : "",
    keys,
    slots: Uint32Array.from(slots),
    chars: [...chars],
  };
  if (windowCache.size >= WINDOW_CACHE_SIZE) windowCache.delete(windowCache.keys().next().value as string);
  windowCache.set(secret, made);
  return made;
}

/** Long secrets that came after the first sync, kept apart at most (a browser client keeps 8 hashes). */
const MOST_PASSING = 16;
/** Candidate pieces remembered with their answer at most, until the secrets change. */
const MOST_LOOKED = 4096;

/**
 * The windows of every spelling of the current secrets. Those of the first sync, and short ones,
 * are counted in one table, so that one that goes takes only its own windows with it. A long
 * secret that comes later (a new SAPISIDHASH each second, the oldest going) is kept apart with its
 * own windows, so that its coming and going costs no counting: a probe's hit is checked against
 * the table and then each of the few passing secrets; a candidate piece is looked for in the
 * spellings of each long secret.
 */
export class PieceIndex {
  private readonly keys = new Map<number, number>();
  /** Every spelling of secrets shorter than PIECE_LENGTH: found only whole. */
  private readonly whole = new Map<string, number>();
  /**
   * The keys' slots: the probe's first, allocation-free test (a bit may outlive its key), and the
   * test of a candidate piece (each of its KEY_LENGTH-character windows is a key).
   */
  private keySlots: Uint32Array = new Uint32Array(0);
  /** Every character of a key: an escape standing for any other cannot be part of a piece. */
  private alphabet = new Set<number>();
  /**
   * Whether every key's characters are ASCII: then a piece in a text is the same bytes in its UTF-8
   * form, and the sampled pass can be asked of the bytes first (`bytesMayHold`).
   */
  private asciiKeys = true;
  /** The secrets counted in the table, with their windows. */
  private current = new Map<string, SecretWindows>();
  /** The counted secrets that are long: those a piece can be part of. */
  private settledLong: SecretWindows[] = [];
  /** The passing secrets' windows, oldest first. */
  private passing = new Map<string, SecretWindows>();
  private last: readonly string[] = [];
  /**
   * Candidates already looked for, and whether they were found: a service that echoes credentials
   * back repeats the same spellings all through a body, and each costs a search of every long
   * secret's spellings. Filled only by candidates (probes whose windows are all keys), so a body
   * without credentials adds next to nothing; emptied whenever the secrets change.
   */
  private looked = new Map<string, boolean>();
  /**
   * Keys gone since the bitmap was built: their bits stay set (a false hit costs
   * only the exact check that follows it) until a rebuild clears them.
   */
  private stale = 0;
  /** How many times the bitmap was made whole (tests read it: a secret that comes should not). */
  rebuilds = 0;
  /** How many times bits were set in the bitmap as it stands (a screen over many indexes follows it). */
  marks = 0;

  /**
   * The bitmap of the keys' slots, read-only: a new one after each rebuild, the same one with more
   * bits after a mark. A screen over many indexes keeps the union of theirs (piece-screen.ts).
   */
  get slots(): Uint32Array {
    return this.keySlots;
  }

  get empty(): boolean {
    return this.settledLong.length === 0 && this.whole.size === 0 && this.passing.size === 0;
  }

  sync(secrets: readonly string[]): void {
    // A frozen list cannot have changed since it was last seen: the common case costs no compare.
    if (secrets === this.last && Object.isFrozen(secrets)) return;
    if (secrets.length === this.last.length && secrets.every((s, i) => s === this.last[i])) return;
    this.last = Object.isFrozen(secrets) ? secrets : [...secrets];
    this.looked.clear();
    const next = new Set(secrets.filter((s) => typeof s === "string" && s.length >= SHORTEST_SECRET));
    const first = this.keySlots.length === 0;
    for (const gone of this.current.keys()) if (!next.has(gone)) this.change(gone, -1);
    for (const [gone, w] of this.passing) {
      if (next.has(gone)) continue;
      this.passing.delete(gone);
      this.stale += w.keys.size;
    }
    const added = [...next].filter((s) => !this.current.has(s) && !this.passing.has(s));
    this.current = new Map([...this.current].filter(([s]) => next.has(s)));
    for (const secret of added) {
      if (first || secret.length < PIECE_LENGTH) this.settle(secret);
      else this.passing.set(secret, windowsOf(secret));
    }
    // Many that come and stay (secrets added one by one) join the counted table after all.
    for (const [secret] of this.passing) if (this.passing.size > MOST_PASSING) this.settle(secret);
    this.settledLong = [...this.current.values()].filter((w) => w.long.length > 0);
    // The newcomer's bits are set; a leaver's stay until the leavers outnumber the live windows.
    if (first || this.stale > this.live()) this.rebuild();
    else for (const secret of added) this.mark(secret);
  }

  private settle(secret: string): void {
    this.passing.delete(secret);
    this.change(secret, 1);
    this.current.set(secret, windowsOf(secret));
  }

  private live(): number {
    let count = this.keys.size;
    for (const w of this.passing.values()) count += w.keys.size;
    return count;
  }

  private hasKey(key: number): boolean {
    if (this.keys.has(key)) return true;
    for (const w of this.passing.values()) if (w.keys.has(key)) return true;
    return false;
  }

  private hasPiece(piece: string): boolean {
    const known = this.looked.get(piece);
    if (known !== undefined) return known;
    const found = this.searchPiece(piece);
    if (this.looked.size >= MOST_LOOKED) this.looked.clear();
    this.looked.set(piece, found);
    return found;
  }

  private searchPiece(piece: string): boolean {
    for (const w of this.settledLong) if (holds(w, piece)) return true;
    for (const w of this.passing.values()) if (holds(w, piece)) return true;
    return false;
  }

  /**
   * The bitmap and the alphabet made anew from the live secrets' windows: the counted table's keys
   * are exactly the windows of the counted secrets, so these give the same bits.
   */
  private rebuild(): void {
    this.keySlots = new Uint32Array(BITMAP_WORDS);
    this.alphabet = new Set();
    this.asciiKeys = true;
    for (const w of this.current.values()) this.markWindows(w);
    for (const w of this.passing.values()) this.markWindows(w);
    this.stale = 0;
    this.rebuilds++;
  }

  /** A new secret's keys set in the bitmap, and their characters in the alphabet. */
  private mark(secret: string): void {
    this.markWindows(windowsOf(secret));
    this.marks++;
  }

  private markWindows(w: SecretWindows): void {
    const bitmap = this.keySlots;
    for (const at of w.slots) bitmap[at >>> 5] = (bitmap[at >>> 5] as number) | (1 << (at & 31));
    for (const unit of w.chars) {
      this.alphabet.add(unit);
      if (unit > 0x7f) this.asciiKeys = false;
    }
  }

  private change(secret: string, delta: number): void {
    const { whole, keys } = windowsOf(secret);
    for (const form of whole) countIn(this.whole, form, delta);
    for (const key of keys) if (countIn(this.keys, key, delta)) this.stale++;
  }

  /**
   * Where `text` holds a piece or a whole short secret, as it stands or as JSON decodes it; merged.
   * `bytes`, when given, are the UTF-8 bytes `text` was decoded from: the sampled pass is asked of
   * them first (`bytesMayHold`), and the text's own pass made only when they may hold a piece.
   */
  spans(text: string, bytes?: Uint8Array): Span[] {
    return this.spansAfterBytes(text, bytes === undefined || this.bytesMayHold(bytes));
  }

  /**
   * `spans` once the bytes' pass has been asked (`probesMayFind`: `mayHoldPiece` of the bytes the
   * text was decoded from, true without them): the text's pass is made only when it may find one.
   */
  spansAfterBytes(text: string, probesMayFind: boolean): Span[] {
    const spans: Span[] = [];
    if (this.empty || text.length < SHORTEST_SECRET) return spans;
    const long = this.settledLong.length > 0 || this.passing.size > 0;
    if (long && probesMayFind) this.probe(text, spans);
    for (const form of this.whole.keys()) {
      for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1)) {
        spans.push([at, at + form.length]);
      }
    }
    this.escapes(text, spans);
    return merged(spans);
  }

  /**
   * Whether the text decoded from `bytes` may hold a piece that the sampled pass finds: false when
   * the bytes' own pass settles that it holds none (ASCII keys), or when no secret is long enough.
   */
  mayHoldPiece(bytes: Uint8Array): boolean {
    if (this.settledLong.length === 0 && this.passing.size === 0) return false;
    return this.bytesMayHold(bytes);
  }

  /**
   * Whether every character of every secret's spellings is ASCII: then a text that differs from
   * another only in how its non-ASCII characters are written (raw, or as JSON escapes) holds the
   * same whole short secrets, and the same pieces behind escapes.
   */
  get asciiOnly(): boolean {
    return this.asciiKeys;
  }

  /** The sampled pass: each probe whose slot is set is checked for the pieces that would cover it. */
  private probe(text: string, spans: Span[]): void {
    const { keySlots } = this;
    const last = text.length - KEY_LENGTH;
    for (let i = 0; i <= last; i += STRIDE) {
      // slotSet written out: this loop runs over every body, and a command's first bodies run it
      // cold, where a call costs as much as the test.
      const at = slot(text.charCodeAt(i), text.charCodeAt(i + 1), text.charCodeAt(i + 2));
      if (((keySlots[at >>> 5] as number) & (1 << (at & 31))) === 0) continue;
      this.piecesAround(text, i, keyAt(text, i), spans);
    }
  }

  /**
   * The sampled pass over a text's UTF-8 bytes: whether they hold a piece. Reading bytes costs about
   * a third of reading the decoded text's characters (most pages decode to two-byte strings), and a
   * body without credentials (nearly every one) then skips the text's pass. With ASCII keys the
   * answer is exact: a piece is a run of ASCII characters, which are the same bytes in UTF-8, a
   * probe at every STRIDE-th byte lands whole inside any PIECE_LENGTH-byte run, as on characters,
   * and a candidate is checked as the text's pass checks it (`pieceAtByte`). Stopping at the first
   * run whose slots are all set instead sent whole pages to the text's pass: the spellings of a
   * browser's cookie (percent-encoded, base64) set the slots of runs in the service's own tokens
   * (`%3D%3D` and base64: 7 of the 113 captured pages for a made-up cookie, none with a piece).
   * With a key outside ASCII it says yes, and the text is searched as before.
   */
  private bytesMayHold(bytes: Uint8Array): boolean {
    if (!this.asciiKeys) return true;
    for (
      let i = nextSetProbe(this.keySlots, bytes, 0);
      i >= 0;
      i = nextSetProbe(this.keySlots, bytes, i + STRIDE)
    ) {
      if (this.pieceAtByte(bytes, i)) return true;
    }
    return false;
  }

  /**
   * `piecesAround` over bytes, asked only whether there is one: the probe's key, then each run
   * that would cover it. A run's bytes read one character each are its characters when it is a
   * piece (ASCII); a run with other bytes reads as characters no spelling has, and is not one.
   */
  private pieceAtByte(bytes: Uint8Array, i: number): boolean {
    // Every window of a piece is a key, so a run that starts before the probe has the window just
    // left of it set, and one that ends after it the window just right: two tests that end most
    // probes whose slot is set (a few hundred on a page).
    const bitmap = this.keySlots;
    const left = i > 0 && slotSet(bitmap, bytes[i - 1] as number, bytes[i] as number, bytes[i + 1] as number);
    const right =
      i + KEY_LENGTH < bytes.length &&
      slotSet(bitmap, bytes[i + 1] as number, bytes[i + 2] as number, bytes[i + 3] as number);
    if (!left && !right) return false;
    // The probe's key is looked up only once a run around it has its slots set: the lookup, in the
    // table and in each passing secret's keys, costs more than the bitmap's tests.
    let keyChecked = false;
    for (let j = Math.max(0, i - STRIDE + 1); j <= i && j + PIECE_LENGTH <= bytes.length; j++) {
      if ((j < i && !left) || (j > i - STRIDE + 1 && !right)) continue;
      if (!keysAlongBytes(bitmap, bytes, j)) continue;
      if (!keyChecked) {
        const key = keyCode(bytes[i] as number, bytes[i + 1] as number, bytes[i + 2] as number);
        if (!this.hasKey(key)) return false;
        keyChecked = true;
      }
      if (this.hasPiece(String.fromCharCode(...bytes.subarray(j, j + PIECE_LENGTH)))) return true;
    }
    return false;
  }

  /** The pieces that hold the probe at `i`, whose slot is set; `key` is the probe's (keyAt). */
  private piecesAround(text: string, i: number, key: number, spans: Span[]): void {
    if (!this.hasKey(key)) return;
    for (let j = Math.max(0, i - STRIDE + 1); j <= i && j + PIECE_LENGTH <= text.length; j++) {
      if (covered(spans, j, j + PIECE_LENGTH) || !keysAlong(this.keySlots, text, j)) continue;
      if (this.hasPiece(text.slice(j, j + PIECE_LENGTH))) extend(spans, j, j + PIECE_LENGTH);
    }
  }

  /**
   * Whether `spans` would find a piece that holds the probe at `i` (a multiple of STRIDE; `key` is
   * the probe's, keyAt): a screen asks this of each index once the union of their bitmaps has the slot.
   */
  pieceAt(text: string, i: number, key: number): boolean {
    if (this.settledLong.length === 0 && this.passing.size === 0) return false;
    if (!slotSet(this.keySlots, text.charCodeAt(i), text.charCodeAt(i + 1), text.charCodeAt(i + 2)))
      return false;
    const spans: Span[] = [];
    this.piecesAround(text, i, key, spans);
    return spans.length > 0;
  }

  /**
   * Whether `spans` would find what no probe finds: a whole short secret, or a piece behind an
   * escape (looked for only when the text holds a backslash, `escaped`).
   */
  findsBesidesProbes(text: string, escaped: boolean): boolean {
    if (this.empty || text.length < SHORTEST_SECRET) return false;
    for (const form of this.whole.keys()) if (text.includes(form)) return true;
    if (!escaped) return false;
    const spans: Span[] = [];
    this.escapes(text, spans);
    return spans.length > 0;
  }

  /**
   * Escapes walked from the first, the last two remembered (they may be an escape's left
   * neighbours). A piece that holds an escaped character holds a key around it, so an escape with
   * no key among its decoded neighbours is passed over; the rest have a stretch of text decoded
   * and searched, which also covers the escapes close after them.
   */
  private escapes(text: string, spans: Span[]): void {
    let before: Escape = { start: -1, end: -1, unit: -1 };
    let last: Escape = { start: -1, end: -1, unit: -1 };
    let searchedTo = -1;
    for (let at = text.indexOf("\\"); at >= 0; ) {
      const here: Escape = { start: at, end: at + escapeLength(text, at), unit: escapedUnit(text, at) };
      const covered = here.end + ESCAPE_REACH <= searchedTo;
      if (!covered && this.alphabet.has(here.unit) && this.keyAround(text, here, last, before)) {
        const stretch = decodeRange(text, at - ESCAPE_REACH, here.end + ESCAPE_REACH + SEARCH_AHEAD);
        this.searchDecoded(stretch, spans);
        searchedTo = stretch.rawAt[stretch.rawAt.length - 1] as number;
      }
      before = last;
      last = here;
      at = text.indexOf("\\", here.end);
    }
  }

  /** Whether a decoded KEY_LENGTH-window that holds the escape `here` is a key (two units each side). */
  private keyAround(text: string, here: Escape, last: Escape, before: Escape): boolean {
    const left1 = last.end === here.start ? last : plainAt(text, here.start - 1);
    const left2 =
      before.end === left1.start ? before : last.end === left1.start ? last : plainAt(text, left1.start - 1);
    const right1 = unitAt(text, here.end);
    const right2 = unitAt(text, right1.end);
    const units = [left2.unit, left1.unit, here.unit, right1.unit, right2.unit];
    for (let from = 0; from + KEY_LENGTH <= units.length; from++) {
      const [a, b, c] = units.slice(from, from + KEY_LENGTH) as [number, number, number];
      if (a < 0 || c < 0 || !slotSet(this.keySlots, a, b, c)) continue;
      if (this.hasKey(keyCode(a, b, c))) return true;
    }
    return false;
  }

  /** Every piece and whole short secret in a decoded stretch, as spans of the raw text. */
  private searchDecoded(near: Decoded, spans: Span[]): void {
    const raw = (from: number, length: number): Span => [
      near.rawAt[from] as number,
      near.rawAt[from + length] as number,
    ];
    const decoded = near.text;
    const { rawAt } = near;
    for (let from = 0; from + PIECE_LENGTH <= decoded.length; from++) {
      const start = rawAt[from] as number;
      const end = rawAt[from + PIECE_LENGTH] as number;
      if (covered(spans, start, end) || !keysAlong(this.keySlots, decoded, from)) continue;
      if (this.hasPiece(decoded.slice(from, from + PIECE_LENGTH))) extend(spans, start, end);
    }
    for (const form of this.whole.keys()) {
      for (let from = decoded.indexOf(form); from >= 0; from = decoded.indexOf(form, from + 1)) {
        spans.push(raw(from, form.length));
      }
    }
  }
}

/** One unit of the text as JSON decodes it: where it stands, and what it is (-1: out of the text). */
interface Escape {
  start: number;
  end: number;
  unit: number;
}

function plainAt(text: string, at: number): Escape {
  return at < 0 ? { start: -1, end: -1, unit: -1 } : { start: at, end: at + 1, unit: text.charCodeAt(at) };
}

/** The unit that starts at `at`, an escape or a plain character. */
function unitAt(text: string, at: number): Escape {
  if (at < 0 || at >= text.length) return { start: -1, end: -1, unit: -1 };
  if (text.charCodeAt(at) !== 92) return plainAt(text, at);
  return { start: at, end: at + escapeLength(text, at), unit: escapedUnit(text, at) };
}

function slotSet(bitmap: Uint32Array, a: number, b: number, c: number): boolean {
  const at = slot(a, b, c);
  return ((bitmap[at >>> 5] as number) & (1 << (at & 31))) !== 0;
}

/**
 * Whether each KEY_LENGTH-character window a PIECE_LENGTH-long run at `at` is cut into has its slot
 * set: a piece's are all keys. Most candidates end here, without a new string or a search of the
 * spellings.
 */
export function keysAlong(bitmap: Uint32Array, text: string, at: number): boolean {
  for (let k = at; k + KEY_LENGTH <= at + PIECE_LENGTH; k += KEY_LENGTH) {
    if (!slotSet(bitmap, text.charCodeAt(k), text.charCodeAt(k + 1), text.charCodeAt(k + 2))) return false;
  }
  return true;
}

/**
 * The first probe of `bytes` from `from` (on; a multiple of STRIDE) whose slot is set, or -1. The
 * loop stands alone, out of the method that checks a hit: written inside it, it took 1.6-2× as long.
 */
function nextSetProbe(bitmap: Uint32Array, bytes: Uint8Array, from: number): number {
  const last = bytes.length - KEY_LENGTH;
  for (let i = from; i <= last; i += STRIDE) {
    const at = slot(bytes[i] as number, bytes[i + 1] as number, bytes[i + 2] as number);
    if (((bitmap[at >>> 5] as number) & (1 << (at & 31))) !== 0) return i;
  }
  return -1;
}

/** `keysAlong` over bytes. */
function keysAlongBytes(bitmap: Uint32Array, bytes: Uint8Array, at: number): boolean {
  for (let k = at; k + KEY_LENGTH <= at + PIECE_LENGTH; k += KEY_LENGTH) {
    if (!slotSet(bitmap, bytes[k] as number, bytes[k + 1] as number, bytes[k + 2] as number)) return false;
  }
  return true;
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
