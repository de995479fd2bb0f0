/**
 * A small seeded PRNG and the id shapes of the service, so that one seed always yields the same
 * catalogue (mulberry32: fast, 32-bit state, good enough for test data).
 */

/** Fresh random ids for what a request creates (a playlist id, set-video ids, invite tokens). */
export type IdSource = () => Rng;

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both ends included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** `length` characters from `alphabet`. */
  chars(length: number, alphabet: string = ID_ALPHABET): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
}

/** The URL-safe base64 alphabet YouTube ids are written in. */
export const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const HEX = "0123456789ABCDEF";

/** A string hash (FNV-1a) to derive per-entity generators from an id. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export const ids = {
  video: (r: Rng) => r.chars(11),
  channel: (r: Rng) => "UC" + r.chars(22),
  album: (r: Rng) => "MPREb_" + r.chars(11),
  audioPlaylist: (r: Rng) => "OLAK5uy_" + r.chars(33),
  playlist: (r: Rng) => "PL" + r.chars(32),
  curated: (r: Rng) => "RDCLAK5uy_" + r.chars(33),
  podcastPlaylist: (r: Rng) => "PL" + r.chars(32),
  setVideo: (r: Rng) => r.chars(16, HEX),
  sapisid: (r: Rng) => r.chars(16) + "/" + r.chars(17),
  pageId: (r: Rng) => String(r.int(1, 9)) + r.chars(20, "0123456789"),
};

/** A setVideoId (16 upper-case hex digits) derived from a key, for lists computed on the fly. */
export function stableSetVideoId(key: string): string {
  const a = hash32(key).toString(16).padStart(8, "0");
  const b = hash32(`${key}\u0000`).toString(16).padStart(8, "0");
  return (a + b).toUpperCase();
}
