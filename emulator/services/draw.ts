/**
 * A list's songs, drawn the same way for every fake: distinct catalogue songs picked by the list's
 * key and the seed, about one in ten a look-alike's version (a live take, a remaster…) and about
 * one in fifteen a song the catalogue does not have. Each knows the video it stands for, or none.
 */
import { hash32, Rng } from "../random.js";
import type { CatalogueSong } from "./catalogue-songs.js";
import { type InventedSong, inventedSong } from "./invented.js";

export type Drawn =
  | { kind: "catalogue"; song: CatalogueSong; key: string }
  | { kind: "invented"; song: InventedSong; key: string };

export const INVENTED_SHARE = 1 / 15;
const VERSION_SHARE = 0.1;

/** `count` songs for the list `listKey`, from position `from` on (so a list can grow the same way). */
export function drawSongs(
  pool: readonly CatalogueSong[],
  seed: number,
  listKey: string,
  count: number,
  from = 0,
  avoid: ReadonlySet<number> = new Set(),
): Drawn[] {
  const versions = pool.filter((s) => s.lookalike === "version");
  const others = pool.filter((s) => s.lookalike !== "version");
  const used = new Set(avoid);
  const out: Drawn[] = [];
  for (let n = from; n < from + count; n++) {
    const key = `${listKey}:${n}`;
    const r = new Rng(hash32(`${seed}:${key}`));
    if (r.chance(INVENTED_SHARE) || others.length === 0) {
      out.push({ kind: "invented", song: inventedSong(`${seed}:${key}`), key });
      continue;
    }
    const [first, second] =
      versions.length > 0 && r.chance(VERSION_SHARE) ? [versions, others] : [others, versions];
    const start = r.next();
    const song = nextUnused(first, start, used) ?? nextUnused(second, start, used) ?? first[0]!;
    used.add(song.id);
    out.push({ kind: "catalogue", song, key });
  }
  return out;
}

/** The first song not `used`, from a place `start` (in [0, 1)) into `list` on; null when all are. */
function nextUnused(
  list: readonly CatalogueSong[],
  start: number,
  used: ReadonlySet<number>,
): CatalogueSong | null {
  const at = Math.floor(start * list.length);
  for (let step = 0; step < list.length; step++) {
    const song = list[(at + step) % list.length]!;
    if (!used.has(song.id)) return song;
  }
  return null;
}
