/**
 * A JSON body's text in one byte a character. A page with a single character outside ASCII (most
 * have a few dozen `•` and `é`) decodes to a two-byte string: twice the memory of its bytes, and
 * JSON.parse reads two-byte text slower than one-byte text. JSON lets any character of a string be
 * written `\uXXXX`, so the body is rewritten with each non-ASCII character as that escape: the
 * text is then ASCII (a one-byte string, copied from the bytes) and parses to the same value,
 * since a valid body has such characters only inside strings.
 */
import { isAscii } from "node:buffer";

/** Bytes checked at once for a non-ASCII one (a native, vectorised test); a failing block is split. */
const BLOCK = 4096;
/** Below this many bytes a block is read byte by byte. */
const LEAF = 128;
/**
 * More non-ASCII bytes than one in this many (and more than a few) and the escapes (six bytes for
 * each character of two to four) would cost more than they save: the page is decoded as UTF-8.
 */
const MOST_NON_ASCII = 32;
const FEW = 64;
const HEX = "0123456789abcdef";
const BACKSLASH = 0x5c;

/** The runs of non-ASCII bytes found so far, as [start, end) pairs, and how many bytes they hold. */
interface Found {
  runs: number[];
  bytes: number;
}

/** The non-ASCII runs of `bytes[from, to)` added to `found` (runs that touch merged); false past `budget` bytes. */
function nonAsciiRuns(bytes: Uint8Array, from: number, to: number, found: Found, budget: number): boolean {
  if (to - from > LEAF) {
    if (isAscii(bytes.subarray(from, to))) return true;
    const mid = from + ((to - from) >> 1);
    return nonAsciiRuns(bytes, from, mid, found, budget) && nonAsciiRuns(bytes, mid, to, found, budget);
  }
  const { runs } = found;
  for (let i = from; i < to; i++) {
    if ((bytes[i] as number) < 0x80) continue;
    const last = runs.length - 1;
    if (last > 0 && runs[last] === i) runs[last] = i + 1;
    else runs.push(i, i + 1);
    found.bytes++;
  }
  return found.bytes <= budget;
}

/**
 * The text of `bytes[start…]` as ASCII that JSON.parse reads exactly as it reads the UTF-8
 * decoding, or undefined when that is not worth it (many non-ASCII bytes) or not sure: a
 * non-ASCII character right after a backslash (`"\é"`, not JSON) would, escaped, read as an
 * escaped backslash, and parse where the decoded text does not.
 */
export function asciiJsonText(bytes: Buffer, start: number): string | undefined {
  const found: Found = { runs: [], bytes: 0 };
  const budget = Math.max(FEW, (bytes.length - start) / MOST_NON_ASCII);
  for (let from = start; from < bytes.length; from += BLOCK) {
    if (!nonAsciiRuns(bytes, from, Math.min(from + BLOCK, bytes.length), found, budget)) return undefined;
  }
  const { runs } = found;
  if (runs.length === 0) return bytes.toString("latin1", start);
  // Each run decoded on its own reads as it does in the whole: a sequence cut short by an ASCII
  // byte decodes to U+FFFD either way.
  const decoded: string[] = [];
  let length = bytes.length - start;
  for (let r = 0; r < runs.length; r += 2) {
    const at = runs[r] as number;
    if (at > start && bytes[at - 1] === BACKSLASH) return undefined;
    const text = bytes.toString("utf8", at, runs[r + 1]);
    decoded.push(text);
    length += text.length * 6 - ((runs[r + 1] as number) - at);
  }
  const out = Buffer.allocUnsafe(length);
  let written = 0;
  let from = start;
  for (let r = 0; r < runs.length; r += 2) {
    written += bytes.copy(out, written, from, runs[r]);
    written = writeEscapes(out, written, decoded[r >> 1] as string);
    from = runs[r + 1] as number;
  }
  written += bytes.copy(out, written, from, bytes.length);
  return out.toString("latin1", 0, written);
}

/** Each UTF-16 unit of `text` as `\uXXXX` into `out` at `at`; the position after them. */
function writeEscapes(out: Buffer, at: number, text: string): number {
  let o = at;
  for (let k = 0; k < text.length; k++) {
    const unit = text.charCodeAt(k);
    out[o++] = BACKSLASH;
    out[o++] = 0x75; // u
    out[o++] = HEX.charCodeAt(unit >> 12);
    out[o++] = HEX.charCodeAt((unit >> 8) & 15);
    out[o++] = HEX.charCodeAt((unit >> 4) & 15);
    out[o++] = HEX.charCodeAt(unit & 15);
  }
  return o;
}
