/**
 * One pass over a text for many piece indexes at once (one per client: a worker holds one client
 * per account). Asking each index in turn costs a pass over the text per index; the screen makes
 * the sampled pass once, against the union of the indexes' bitmaps, and asks an index only about a
 * probe whose slot its own bitmap has. It answers exactly what the indexes would: a text is clean
 * when no index's `spans` would find anything in it.
 *
 * The union follows the indexes without being made whole at each change: a browser client's index
 * sets the bits of a new SAPISIDHASH every second (a mark: its bits are OR-ed in), and is made
 * whole only now and then (a rebuild, which may clear bits: then the union is made again).
 */
import {
  BITMAP_WORDS,
  KEY_LENGTH,
  keyAt,
  keysAlong,
  PIECE_LENGTH,
  type PieceIndex,
  SHORTEST_SECRET,
  STRIDE,
  slot,
} from "./piece-index.js";

/** What the union last took from an index: its bitmap (replaced by a rebuild) and its marks. */
interface Taken {
  slots: Uint32Array;
  marks: number;
}

export class PieceScreen {
  private readonly union = new Uint32Array(BITMAP_WORDS);
  private taken = new Map<PieceIndex, Taken>();
  /** How many times the union was made again from every index (tests read it). */
  remakes = 0;

  /**
   * Whether no index finds anything in `text`: no piece, no whole short secret, nothing behind an
   * escape. Each index must be synced to its secrets already (a Redactor's `index()` is).
   */
  clean(text: string, indexes: readonly PieceIndex[]): boolean {
    if (text.length < SHORTEST_SECRET) return true;
    const live = indexes.filter((index) => !index.empty);
    if (live.length === 0) return true;
    this.follow(live);
    const { union } = this;
    const last = text.length - KEY_LENGTH;
    for (let i = 0; i <= last; i += STRIDE) {
      const at = slot(text.charCodeAt(i), text.charCodeAt(i + 1), text.charCodeAt(i + 2));
      if (((union[at >>> 5] as number) & (1 << (at & 31))) === 0) continue;
      // A piece holding the probe has every key along it set in some bitmap, so in the union: most
      // hits end here, before any index is asked.
      if (!pieceMayHold(union, text, i)) continue;
      const key = keyAt(text, i);
      for (const index of live) if (index.pieceAt(text, i, key)) return false;
    }
    const escaped = text.includes("\\");
    for (const index of live) if (index.findsBesidesProbes(text, escaped)) return false;
    return true;
  }

  /** The union brought up to the indexes' bitmaps: marks OR-ed in, made again after a rebuild. */
  private follow(live: readonly PieceIndex[]): void {
    let remake = live.length !== this.taken.size;
    for (const index of live) {
      const taken = this.taken.get(index);
      if (taken === undefined || taken.slots !== index.slots) remake = true;
      else if (taken.marks !== index.marks && !remake) {
        orInto(this.union, index.slots);
        taken.marks = index.marks;
      }
    }
    if (!remake) return;
    this.union.fill(0);
    for (const index of live) orInto(this.union, index.slots);
    this.taken = new Map(live.map((index) => [index, { slots: index.slots, marks: index.marks }]));
    this.remakes++;
  }
}

/** Whether a PIECE_LENGTH-long run that holds the probe at `i` has all its keys' slots set. */
function pieceMayHold(bitmap: Uint32Array, text: string, i: number): boolean {
  for (let j = Math.max(0, i - STRIDE + 1); j <= i && j + PIECE_LENGTH <= text.length; j++) {
    if (keysAlong(bitmap, text, j)) return true;
  }
  return false;
}

function orInto(union: Uint32Array, bits: Uint32Array): void {
  for (let i = 0; i < bits.length; i++) union[i] = (union[i] as number) | (bits[i] as number);
}
