/**
 * Pieces of a response serialized once and reused: a `RawJson` stands in a response object for a
 * value whose JSON text is already known (a playlist row, ~7 KB), and `stringify` splices that text
 * in where the value would be serialized. Serialized anywhere else (`JSON.stringify` directly), a
 * RawJson turns back into its value, so only the cost changes, never the text.
 */
import { randomBytes } from "node:crypto";
import { deflatePiece, ownBytes, type Piece } from "./gzip-pieces.js";

/** What a RawJson serializes to while `stringify` runs; a nonce keeps it apart from any title. */
const MARK = `\u0000raw-json:${randomBytes(6).toString("hex")}\u0000`;
const MARK_JSON = JSON.stringify(MARK);

/** The RawJsons met by the running `pieces`, in document order; null outside it. */
let collecting: RawJson[] | null = null;

export class RawJson {
  /**
   * The text as UTF-8, encoded once, and kept instead of the text (which is decoded again on the
   * rare paths that need it): a cached row then costs its bytes once, not also as a string. Kept
   * apart from the page around it: one non-Latin-1 character there (the header's "•" separator)
   * makes V8 hold the whole joined page as a two-byte string, whose encoding cost most of an
   * uncached playlist read.
   */
  readonly bytes: Buffer;
  private packed: Piece | null = null;

  constructor(text: string) {
    this.bytes = ownBytes(text);
  }

  get text(): string {
    return this.bytes.toString("utf8");
  }

  toJSON(): unknown {
    if (collecting === null) return JSON.parse(this.text);
    collecting.push(this);
    return MARK;
  }

  /** The bytes with their CRC-32 and deflate blocks, computed once for every gzip body holding them. */
  get piece(): Piece {
    this.packed ??= deflatePiece(this.bytes);
    return this.packed;
  }

  /**
   * The text `between` and this one as one piece compressed to follow `previous` (a row after the
   * comma after the row before it on a page), kept for the last few such neighbours: a page read
   * again finds it. A neighbour is held weakly: held strongly, each row would keep the row before
   * it alive, and so a whole playlist's rows, long after the cache let them go.
   */
  pieceAfter(previous: RawJson, between: Buffer): Piece {
    this.after ??= [];
    const hit = this.after.find((a) => a.previous.deref() === previous && a.between.equals(between));
    if (hit) return hit.piece;
    const piece = deflatePiece(Buffer.concat([between, this.bytes]), 6, previous.bytes);
    if (this.after.length >= NEIGHBOURS) this.after.shift();
    this.after.push({ previous: new WeakRef(previous), between, piece });
    return piece;
  }

  private after: { previous: WeakRef<RawJson>; between: Buffer; piece: Piece }[] | null = null;
}

/** Neighbours a row keeps a piece for: a row usually sits on one page, after one other row. */
const NEIGHBOURS = 4;

/**
 * `JSON.stringify(value)` as the texts between RawJsons and the RawJsons themselves, in order;
 * joined, they are the text of `stringify(value)`.
 */
export function pieces(value: unknown): (string | RawJson)[] {
  const raws: RawJson[] = [];
  collecting = raws;
  let skeleton: string;
  try {
    skeleton = JSON.stringify(value);
  } finally {
    collecting = null;
  }
  if (raws.length === 0) return [skeleton];
  const parts = skeleton.split(MARK_JSON);
  const out: (string | RawJson)[] = [parts[0] as string];
  for (let i = 0; i < raws.length; i++) out.push(raws[i] as RawJson, parts[i + 1] as string);
  return out;
}

/** `JSON.stringify(value)`, with each RawJson's text spliced in. */
export function stringify(value: unknown): string {
  return pieces(value)
    .map((p) => (typeof p === "string" ? p : p.text))
    .join("");
}

/**
 * Serialized rendered pieces by a key naming every input of the rendering, bounded in size (oldest
 * out first). Unlike the response cache, a write does not empty it: a key names the state the piece
 * shows, so a piece whose inputs a write changed is simply not asked for again.
 *
 * The bound counts the pieces' UTF-8 bytes (their deflate blocks add about a tenth). It holds two
 * playlists at the service's cap (5,000 rows of ~8 KB): a sync reads a long playlist, or the parts
 * of a split one, in order, again and again, and an oldest-out cache smaller than that cycle
 * keeps nothing a read asks for again — every row was rendered and compressed anew on every read.
 */
export class RenderCache {
  private readonly entries = new Map<string, RawJson>();
  private bytes = 0;

  constructor(private readonly maxBytes = 96 * 1024 * 1024) {}

  get(key: string, render: () => unknown): RawJson {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const piece = new RawJson(JSON.stringify(render()));
    this.bytes += piece.bytes.length;
    this.entries.set(key, piece);
    while (this.bytes > this.maxBytes) {
      const oldest = this.entries.entries().next().value;
      if (!oldest) break;
      this.bytes -= oldest[1].bytes.length;
      this.entries.delete(oldest[0]);
    }
    return piece;
  }

  get size(): number {
    return this.entries.size;
  }
}
