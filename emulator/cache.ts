/**
 * A cache of serialized read responses (plain and gzipped), keyed by the request and the account,
 * valid for one state version: any write empties it. Reads of the same page by the same account
 * then cost a lookup, as they would behind the service's own caches.
 */
import { gzipSync } from "node:zlib";
import { stringify } from "./raw-json.js";

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
    return this.entries.get(key);
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

export function encodeResponse(body: unknown, gzip: boolean): CachedResponse {
  const json = Buffer.from(stringify(body));
  return { json, gzip: gzip && json.length >= GZIP_MIN ? gzipSync(json, { level: 1 }) : null };
}
