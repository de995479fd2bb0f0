/**
 * Versions of a song that the service lists as songs of their own, by the same artist: live takes,
 * remasters, edits, remixes. Each changes the title as labels write it and the length as such a
 * recording differs (a remaster keeps it to the second, a sped-up edit plays 0.8 times as long).
 */
import type { Rng } from "../random.js";
import { FIRST_NAMES, LAST_NAMES } from "../words.js";

export interface VersionKind {
  /** The version's title from the original's. */
  title(r: Rng, original: string): string;
  /** The version's length in seconds from the original's. */
  duration(r: Rng, seconds: number): number;
}

const PLACES = [
  "Wembley Stadium",
  "Red Rocks",
  "the Royal Albert Hall",
  "Budokan",
  "Madison Square Garden",
  "Glastonbury",
  "the Hollywood Bowl",
  "Montreux",
];

const year = (r: Rng) => r.int(2005, 2023);
const around = (r: Rng, seconds: number, factor: number, spread: number) =>
  Math.round(seconds * factor) + r.int(-spread, spread);

export const VERSION_KINDS: readonly VersionKind[] = [
  { title: (_, t) => `${t} (Live)`, duration: (r, d) => d + r.int(10, 60) },
  { title: (r, t) => `${t} (Live at ${r.pick(PLACES)})`, duration: (r, d) => d + r.int(15, 90) },
  { title: (r, t) => `${t} - Remastered ${year(r)}`, duration: (r, d) => d + r.int(-1, 1) },
  { title: (r, t) => `${t} (${year(r)} Remaster)`, duration: (r, d) => d + r.int(-1, 1) },
  { title: (_, t) => `${t} (Radio Edit)`, duration: (r, d) => Math.max(90, d - r.int(20, 70)) },
  { title: (_, t) => `${t} (Acoustic)`, duration: (r, d) => d + r.int(-20, 20) },
  {
    title: (r, t) => `${t} (${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)} Remix)`,
    duration: (r, d) => d + r.int(30, 120),
  },
  { title: (_, t) => `${t} (Instrumental)`, duration: (r, d) => d + r.int(-2, 2) },
  { title: (_, t) => `${t} (Demo)`, duration: (r, d) => d + r.int(-30, 10) },
  { title: (_, t) => `${t} (Sped Up)`, duration: (r, d) => around(r, d, 0.8, 2) },
  { title: (_, t) => `${t} (Slowed + Reverb)`, duration: (r, d) => around(r, d, 1.2, 3) },
];

/** `count` different kinds (at most all of them). */
export function pickVersionKinds(r: Rng, count: number): VersionKind[] {
  const left = [...VERSION_KINDS];
  const out: VersionKind[] = [];
  while (out.length < count && left.length > 0) out.push(left.splice(r.int(0, left.length - 1), 1)[0]!);
  return out;
}

/**
 * A variant's views from the original's: mostly a fraction of them, but a `moreOften` share of
 * variants (a live take that went viral, a sped-up edit) is several times as popular.
 */
export function variantViews(r: Rng, views: number, moreOften: number, low: number, high: number): number {
  const factor = r.chance(moreOften) ? 1.5 + r.next() * 6.5 : low + r.next() * (high - low);
  return Math.max(100, Math.floor(views * factor));
}
