/**
 * Where a text may hold one of many wanted windows (every 12-character piece of every spelling of
 * every secret): a rolling hash of each window of the text, looked up in a bitmap of the wanted
 * windows' hashes. The leak scans sliced out and looked up every window of every plan, log, answer
 * and state database they read (a string per character); through this filter they slice only the
 * windows whose hash a wanted one shares. A wanted window always passes, so a scan finds exactly
 * what it found before.
 */

/** Bits of the bitmap: 512 KiB, a few per cent set for the ~100,000 windows of the soak's secrets. */
const BITS = 22;
const MULTIPLIER = 0x01000193;

function slot(hash: number): number {
  return Math.imul(hash, 0x9e3779b1) >>> (32 - BITS);
}

export class WindowFilter {
  private readonly bitmap = new Int32Array(1 << (BITS - 5));
  /** MULTIPLIER to the power length − 1 (mod 2³²): the weight of a window's first character. */
  private readonly first: number;

  constructor(
    readonly length: number,
    windows: Iterable<string>,
  ) {
    let first = 1;
    for (let i = 1; i < length; i++) first = Math.imul(first, MULTIPLIER);
    this.first = first;
    for (const w of windows) {
      if (w.length !== length) throw new Error(`a window of ${w.length} characters, not ${length}`);
      const at = slot(this.hashAt(w, 0));
      this.bitmap[at >>> 5]! |= 1 << (at & 31);
    }
  }

  private hashAt(text: string, from: number): number {
    let h = 0;
    for (let k = from; k < from + this.length; k++) h = (Math.imul(h, MULTIPLIER) + text.charCodeAt(k)) | 0;
    return h;
  }

  /**
   * Each offset of `text` whose window may be a wanted one, in order, to `visit`; stops when
   * `visit` says true.
   */
  scan(text: string, visit: (at: number) => boolean | undefined): void {
    const { length, first, bitmap } = this;
    const last = text.length - length;
    if (last < 0) return;
    let h = this.hashAt(text, 0);
    for (let i = 0; ; i++) {
      const at = slot(h);
      if (((bitmap[at >>> 5] as number) & (1 << (at & 31))) !== 0 && visit(i) === true) return;
      if (i === last) return;
      h = (Math.imul(h - Math.imul(text.charCodeAt(i), first), MULTIPLIER) + text.charCodeAt(i + length)) | 0;
    }
  }
}
