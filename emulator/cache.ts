/**
 * A cache of serialized read responses (plain and gzipped), keyed by the request and the account,
 * valid for one state version: any write empties it. Reads of the same page by the same account
 * then cost a lookup, as they would behind the service's own caches.
 */
import { gzipSync } from "node:zlib";
import { gzipPieces, type Piece } from "./gzip-pieces.js";
import { Memo } from "./memo.js";
import { pieces, RawJson } from "./raw-json.js";

export interface CachedResponse {
  json: Buffer;
  gzip: Buffer | null;
}

export class ResponseCache {
  private entries = new Map<string, CachedResponse>();
  private version = -1;
  private bytes = 0;

  /** Bounded by total size (plain and gzipped bodies), oldest entries leaving first. */
  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  get(key: string, version: number): CachedResponse | undefined {
    if (version !== this.version) {
      this.clear();
      this.version = version;
      return undefined;
    }
    const hit = this.entries.get(key);
    return hit;
  }

  set(key: string, version: number, value: CachedResponse): void {
    if (version !== this.version) {
      this.clear();
      this.version = version;
    }
    const size = value.json.length + (value.gzip?.length ?? 0);
    if (size > this.maxBytes / 4) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.bytes -= previous.json.length + (previous.gzip?.length ?? 0);
      this.entries.delete(key);
    }
    while (this.bytes + size > this.maxBytes) {
      const oldest = this.entries.entries().next().value;
      if (!oldest) break;
      this.bytes -= oldest[1].json.length + (oldest[1].gzip?.length ?? 0);
      this.entries.delete(oldest[0]);
    }
    this.entries.set(key, value);
    this.bytes += size;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}

/** Bodies smaller than this are sent uncompressed (the header costs more than it saves). */
const GZIP_MIN = 1024;

/**
 * The body's bytes, and its gzip when asked for. Cached pieces (RawJson rows) join as the bytes and
 * deflate blocks they keep, so an uncached page of cached rows neither re-encodes nor re-compresses
 * them (gzip-pieces.ts); a body without any is compressed whole, at level 1 (loopback: speed first).
 * The plain bytes of a gzipped body are joined only when `keepJson` (the response cache keeps them
 * for clients without gzip): an 800 KB page copied for nothing costs a fifth of a read.
 */
export function encodeResponse(body: unknown, gzip: boolean, keepJson = true): CachedResponse {
  const parts = pieces(body);
  if (parts.length === 1) {
    const json = Buffer.from(parts[0] as string);
    return { json, gzip: gzip && json.length >= GZIP_MIN ? gzipSync(json, { level: 1 }) : null };
  }
  const encoded = parts.map((p) =>
    typeof p !== "string" ? p : p.length >= GZIP_MIN ? texts.get(p, raw) : Buffer.from(p),
  );
  const size = encoded.reduce((n, p) => n + (Buffer.isBuffer(p) ? p.length : p.bytes.length), 0);
  const joined = () => Buffer.concat(encoded.map((p) => (Buffer.isBuffer(p) ? p : p.bytes)));
  if (!gzip || size < GZIP_MIN) return { json: joined(), gzip: null };
  return { json: keepJson ? joined() : EMPTY, gzip: gzipPieces(gzipParts(encoded)) };
}

const EMPTY = Buffer.alloc(0);

/**
 * Long texts between rows (a page's header and what follows its rows), by their text: a page read
 * again after a write that did not change it finds its header's bytes and deflate blocks here.
 */
const texts = new Memo<string, RawJson>(512);
const raw = (text: string) => new RawJson(text);

/**
 * The parts as the gzip body takes them. A short text between two rows (the comma) joins the row
 * after it in one piece compressed against the row before, as one deflate of the whole would;
 * other short texts are stored as they are, rows and long texts keep their own pieces.
 */
function gzipParts(parts: readonly (Buffer | RawJson)[]): (Piece | Buffer)[] {
  const out: (Piece | Buffer)[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const previous = parts[i - 1];
    const next = parts[i + 1];
    if (Buffer.isBuffer(p) && previous instanceof RawJson && next instanceof RawJson) {
      out.push(next.pieceAfter(previous, p));
      i++;
    } else out.push(Buffer.isBuffer(p) ? p : p.piece);
  }
  return out;
}
