/**
 * Ids the fakes derive from what they describe, the same on every run of a seed: MusicBrainz ids
 * (UUIDs) for recordings, artists and releases, the fakes' playlist ids, their tokens and keys.
 */
import { hash32 } from "../random.js";

/** 32 hex digits drawn from `key` (four FNV-1a hashes of it, each salted differently). */
export function hexOf(key: string, digits = 32): string {
  let out = "";
  for (let i = 0; out.length < digits; i++) out += hash32(`${i}\u0000${key}`).toString(16).padStart(8, "0");
  return out.slice(0, digits);
}

/** A version-4-shaped UUID from `key`, as MusicBrainz writes its ids (lower case, dashed). */
export function uuidOf(key: string): string {
  const h = hexOf(key).split("");
  h[12] = "4";
  h[16] = "89ab"[Number.parseInt(h[16]!, 16) % 4]!;
  const s = h.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

/** The MusicBrainz id the fakes give a catalogue row of `kind` (`recording`, `artist`, `release`). */
export function musicbrainzId(seed: number, kind: "recording" | "artist" | "release", rowId: number): string {
  return uuidOf(`musicbrainz:${kind}:${seed}:${rowId}`);
}
