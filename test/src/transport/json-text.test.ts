/**
 * A JSON body read as ASCII text, its other characters written as escapes (src/transport/json-text.ts):
 * it must parse to exactly what the body's UTF-8 decoding parses to, or not be made at all.
 */
import { describe, expect, it } from "vitest";
import { asciiJsonText } from "../../../src/transport/json-text.js";

const decoded = (bytes: Buffer, start = 0) => bytes.toString("utf8", start);
const ascii = (text: string) => /^[\x00-\x7f]*$/.test(text);

/** A page's worth of ASCII around `inner`, so that the non-ASCII bytes fall at many offsets. */
function page(inner: string[]): Buffer {
  const rows = inner.map((text, i) => `{"id":${i},"pad":"${"x".repeat((i * 37) % 300)}","title":"${text}"}`);
  return Buffer.from(`{"rows":[${rows.join(",")}],"${inner[0]}":true}`);
}

describe("a JSON body read as ASCII text", () => {
  it("parses as its UTF-8 text does: accents, separators, CJK, emoji, in keys and values", () => {
    const words = [
      "Beyoncé",
      "Song • Artist • 3:12",
      "日本の歌",
      "🎵 live",
      "a\u2028b",
      'q\\"é\\n',
      "\\u00e9é",
    ];
    const bytes = page(Array.from({ length: 400 }, (_, i) => words[i % words.length] as string));
    const text = asciiJsonText(bytes, 0);
    expect(text).toBeDefined();
    expect(ascii(text as string)).toBe(true);
    expect(JSON.parse(text as string)).toEqual(JSON.parse(decoded(bytes)));
  });

  it("reads bytes that are not UTF-8 as the decoder does (U+FFFD where it puts one)", () => {
    const broken = [
      Buffer.from([0x80]),
      Buffer.from([0xc3]),
      Buffer.from([0xe6, 0x97]),
      Buffer.from([0xf0, 0x9f, 0x8e]),
      Buffer.from([0xc0, 0xaf]),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from([0xff, 0xfe, 0xc3, 0xa9]),
    ];
    for (const bad of broken) {
      const bytes = Buffer.concat([
        Buffer.from('{"a":"x'),
        bad,
        Buffer.from('y","b":"'),
        bad,
        Buffer.from('"}'),
      ]);
      const text = asciiJsonText(bytes, 0) as string;
      expect(JSON.parse(text), bad.toString("hex")).toEqual(JSON.parse(decoded(bytes)));
    }
  });

  it("starts where it is told (after a byte order mark)", () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"t":"café"}')]);
    expect(JSON.parse(asciiJsonText(bytes, 3) as string)).toEqual({ t: "café" });
    // From the start, the mark stays, and neither text is JSON.
    expect(() => JSON.parse(asciiJsonText(bytes, 0) as string)).toThrow();
    expect(() => JSON.parse(decoded(bytes))).toThrow();
  });

  it("is not made for a backslash before a non-ASCII character, which escaped would parse", () => {
    const bytes = Buffer.from('{"t":"a\\é"}');
    expect(() => JSON.parse(decoded(bytes))).toThrow();
    expect(asciiJsonText(bytes, 0)).toBeUndefined();
  });

  it("keeps text that is not JSON from parsing: a non-ASCII character outside a string", () => {
    const bytes = Buffer.from('{"t":1é}');
    expect(() => JSON.parse(asciiJsonText(bytes, 0) as string)).toThrow();
  });

  it("is not made for a page mostly outside ASCII, where the escapes cost more than they save", () => {
    expect(asciiJsonText(Buffer.from(`{"t":"${"日本の歌".repeat(2000)}"}`), 0)).toBeUndefined();
    const text = asciiJsonText(Buffer.from('{"t":"plain"}'), 0);
    expect(text).toBe('{"t":"plain"}');
  });
});
