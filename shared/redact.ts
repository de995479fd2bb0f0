/**
 * Scrubs credentials out of whatever the client hands out: response bodies, error messages and
 * properties, headers, log fields. A service that echoes a credential back may spell it in many
 * ways or cut it short, so every spelling and every 12-character piece of one is found (where and
 * how: piece-index.ts), and cut out so that JSON text stays JSON. The secrets are read on each use, since an OAuth refresh
 * replaces the token and every request carries a new SAPISIDHASH.
 */
import { cut, PieceIndex } from "./piece-index.js";

export const REDACTED = "[redacted]";

function scrubText(text: string, index: PieceIndex): string {
  return cut(text, index.spans(text), REDACTED);
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
  if (typeof value === "string") return scrubText(value, index);
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
    const nextKey = scrubText(key, index);
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

  /**
   * The index of the secrets as they stand now: what a screen over many redactors searches with
   * (piece-screen.ts), one pass for all of them.
   */
  ready(): PieceIndex {
    this.index.sync(this.secrets());
    return this.index;
  }

  text(value: string): string {
    return scrubText(value, this.ready());
  }

  /** `text` of a body, given the UTF-8 bytes it was decoded from: the scrub reads them first. */
  body(text: string, bytes: Uint8Array): string {
    const index = this.ready();
    return cut(text, index.spans(text, bytes), REDACTED);
  }

  /**
   * A JSON body scrubbed, its text made by `decode` from its UTF-8 `bytes`. `decode(exact)` must
   * give the bytes' exact decoding when `exact`, and may otherwise give any text JSON.parse reads
   * the same (non-ASCII characters written as escapes): that is asked only when the bytes' pass
   * settles that no piece is in them and every spelling is ASCII, so what the rest of the scrub
   * looks for (whole short secrets, pieces behind the service's escapes) reads the same in both.
   */
  jsonBody(bytes: Uint8Array, decode: (exact: boolean) => string): string {
    const index = this.ready();
    const probesMayFind = index.mayHoldPiece(bytes);
    const text = decode(probesMayFind || !index.asciiOnly);
    return cut(text, index.spansAfterBytes(text, probesMayFind), REDACTED);
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
