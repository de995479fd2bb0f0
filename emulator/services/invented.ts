/**
 * Songs no catalogue holds: what the fakes mix into their lists (about one in fifteen) so that a
 * matcher meets entries it must leave unmatched. Their words are not the catalogue generator's
 * (emulator/words.ts), so no search can find them by chance.
 */
import { hash32, Rng } from "../random.js";

const WORDS = (
  "quasar marigold lullaby static velour cobalt saffron monsoon zephyr obsidian tangerine " +
  "nebula juniper cassette halcyon paprika origami sorbet tundra ukulele vermilion walrus"
).split(" ");
const ACTS = "Fennimore Quartet,Odalys,Brisk Tamarind,Mopane Drive,The Kestrel Unit,Ysolde Marr".split(",");

export interface InventedSong {
  title: string;
  artist: string;
  album: string;
  durationSeconds: number;
}

const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);

/** The invented song `key` names (a list and a position): the same every time. */
export function inventedSong(key: string): InventedSong {
  const r = new Rng(hash32(`invented:${key}`));
  return {
    title: `${cap(r.pick(WORDS))} ${cap(r.pick(WORDS))}`,
    artist: r.pick(ACTS),
    album: `${cap(r.pick(WORDS))} Sessions`,
    durationSeconds: r.int(150, 320),
  };
}
