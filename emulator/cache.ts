/**
 * A cache of serialized read responses (plain and gzipped), keyed by the request and the account,
 * valid for one state version: any write empties it. Reads of the same page by the same account
 * then cost a lookup, as they would behind the service's own caches.
 */
import { gzipSync } from "node:zlib";
import { deflatePiece, gzipPieces, type Piece } from "./gzip-pieces.js";
import { pieces, type RawJson } from "./raw-json.js";

export interface CachedResponse {
  json: Buffer;
  gzip: Buffer | null;
  /** The gzip was joined from rows compressed apart: fast to make, but larger than one deflate. */
  spliced?: boolean;
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
    if (hit?.gzip && hit.spliced) {
      // A response read again is worth one deflate of the whole (a page of rows compressed apart
      // is about 4 times larger, and every hit sends it).
      const gzip = gzipSync(hit.json, { level: 1 });
      this.bytes += gzip.length - hit.gzip.length;
      hit.gzip = gzip;
      hit.spliced = false;
    }
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
 */
export function encodeResponse(body: unknown, gzip: boolean): CachedResponse {
  const parts = pieces(body);
  if (parts.length === 1) {
    const json = Buffer.from(parts[0] as string);
    return { json, gzip: gzip && json.length >= GZIP_MIN ? gzipSync(json, { level: 1 }) : null };
  }
  const encoded = parts.map((p) => (typeof p === "string" ? Buffer.from(p) : p));
  const json = Buffer.concat(encoded.map((p) => (Buffer.isBuffer(p) ? p : p.bytes)));
  if (!gzip || json.length < GZIP_MIN) return { json, gzip: null };
  return { json, gzip: gzipPieces(encoded.map(pieceOf)), spliced: true };
}

/** Texts between rows are mostly a comma: stored as they are, but a long one (a page header) is deflated. */
function pieceOf(p: Buffer | RawJson): Piece | Buffer {
  if (!Buffer.isBuffer(p)) return p.piece;
  return p.length >= GZIP_MIN ? deflatePiece(p, 1) : p;
}
