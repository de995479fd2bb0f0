/**
 * Bytes to text. Spreadsheet programs save "Unicode text" as UTF-16 (usually LE with a BOM), so
 * UTF-16 is taken with a BOM and, without one, when the NUL bytes fall in every other position as
 * they do for mostly-ASCII text. Line endings come out as "\n" only, so every reader counts lines
 * the same way.
 */
import { FileSourceError } from "./errors.js";
import { lineOf, sizeProblem } from "./limits.js";

type Encoding = "utf-8" | "utf-16le" | "utf-16be";

const BINARY = "the file looks like a binary file, not a playlist (it holds NUL bytes)";

/** How many bytes to look at when guessing UTF-16 without a BOM. */
const SNIFF_BYTES = 4096;

function bomOf(bytes: Uint8Array): { encoding: Encoding; skip: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: "utf-8", skip: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: "utf-16le", skip: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: "utf-16be", skip: 2 };
  return null;
}

/** UTF-16 without a BOM: NULs in one byte position of each pair (mostly) and never in the other. */
function sniffUtf16(bytes: Uint8Array): Encoding | null {
  const n = Math.min(bytes.length, SNIFF_BYTES) & ~1;
  if (n < 2) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  if (evenZeros === 0 && oddZeros >= pairs / 2) return "utf-16le";
  if (oddZeros === 0 && evenZeros >= pairs / 2) return "utf-16be";
  return null;
}

function decodeUtf16(bytes: Uint8Array, encoding: Encoding): string {
  if (bytes.length % 2 !== 0) {
    throw new FileSourceError(`the file is not valid ${encoding.toUpperCase()}: it ends in half a character`);
  }
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    const loose = new TextDecoder(encoding).decode(bytes);
    const line = lineOf(loose, loose.indexOf("\uFFFD"));
    throw new FileSourceError(
      `the file is not valid ${encoding.toUpperCase()} (an unpaired surrogate)`,
      line,
    );
  }
}

/**
 * Decodes UTF-8 strictly: Node's lenient decoding would turn bad bytes into U+FFFD silently and
 * a recipe or a playlist would then differ from its file. Returns the text or the offset (in the text decoded
 * so far) of the first invalid sequence.
 */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { text: string; bad: number } {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  let byteAt = 0;
  let from = 0;
  for (let i = text.indexOf("\uFFFD"); i !== -1; i = text.indexOf("\uFFFD", i + 1)) {
    byteAt += Buffer.byteLength(text.slice(from, i));
    from = i + 1;
    // A real U+FFFD in the file is EF BF BD; anything else was a decoding failure.
    if (bytes[byteAt] !== 0xef || bytes[byteAt + 1] !== 0xbf || bytes[byteAt + 2] !== 0xbd) {
      return { text, bad: i };
    }
    byteAt += 3;
  }
  return { text };
}

function decodeUtf8Strict(bytes: Uint8Array): string {
  if (bytes.includes(0)) throw new FileSourceError(BINARY);
  const decoded = decodeUtf8(bytes);
  if ("bad" in decoded) {
    throw new FileSourceError(
      "the file is not valid UTF-8 (save it as UTF-8, or as UTF-16 with a BOM)",
      lineOf(decoded.text, decoded.bad),
    );
  }
  return decoded.text;
}

export function decodeText(bytes: Uint8Array): string {
  const size = sizeProblem(bytes.byteLength);
  if (size) throw new FileSourceError(size);
  const bom = bomOf(bytes);
  const body = bom ? bytes.subarray(bom.skip) : bytes;
  const encoding = bom?.encoding ?? sniffUtf16(bytes) ?? "utf-8";
  const text = encoding === "utf-8" ? decodeUtf8Strict(body) : decodeUtf16(body, encoding);
  if (encoding !== "utf-8" && text.includes("\0")) throw new FileSourceError(BINARY);
  return text.replace(/\r\n?/g, "\n");
}
