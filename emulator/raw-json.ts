/**
 * Pieces of a response serialized once and reused: a `RawJson` stands in a response object for a
 * value whose JSON text is already known (a playlist row, ~7 KB), and `stringify` splices that text
 * in where the value would be serialized. Serialized anywhere else (`JSON.stringify` directly), a
 * RawJson turns back into its value, so only the cost changes, never the text.
 */
import { randomBytes } from "node:crypto";

/** What a RawJson serializes to while `stringify` runs; a nonce keeps it apart from any title. */
const MARK = `\u0000raw-json:${randomBytes(6).toString("hex")}\u0000`;
const MARK_JSON = JSON.stringify(MARK);

/** The texts met by the running `stringify`, in document order; null outside it. */
let collecting: string[] | null = null;

export class RawJson {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    if (collecting === null) return JSON.parse(this.text);
    collecting.push(this.text);
    return MARK;
  }
}

/** `JSON.stringify(value)`, with each RawJson's text spliced in. */
export function stringify(value: unknown): string {
  const texts: string[] = [];
  collecting = texts;
  let skeleton: string;
  try {
    skeleton = JSON.stringify(value);
  } finally {
    collecting = null;
  }
  if (texts.length === 0) return skeleton;
  const parts = skeleton.split(MARK_JSON);
  let out = parts[0] as string;
  for (let i = 0; i < texts.length; i++) out += (texts[i] as string) + (parts[i + 1] as string);
  return out;
}

/**
 * Serialized rendered pieces by a key naming every input of the rendering, bounded in size (oldest
 * out first). Unlike the response cache, a write does not empty it: a key names the state the piece
 * shows, so a piece whose inputs a write changed is simply not asked for again.
 */
export class RenderCache {
  private readonly entries = new Map<string, RawJson>();
  private chars = 0;

  constructor(private readonly maxChars = 32 * 1024 * 1024) {}

  get(key: string, render: () => unknown): RawJson {
    const hit = this.entries.get(key);
    if (hit !== undefined) {
      // Most recently used last.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const piece = new RawJson(JSON.stringify(render()));
    this.chars += piece.text.length;
    this.entries.set(key, piece);
    while (this.chars > this.maxChars) {
      const oldest = this.entries.entries().next().value;
      if (!oldest) break;
      this.chars -= oldest[1].text.length;
      this.entries.delete(oldest[0]);
    }
    return piece;
  }

  get size(): number {
    return this.entries.size;
  }
}
