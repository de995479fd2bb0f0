/** The leak scans' filter: it may let through windows nobody wants, never skip a wanted one. */
import { describe, expect, it } from "vitest";
import { WindowFilter } from "./window-filter.js";

/** A deterministic generator (mulberry32): the same texts on every run. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789%=+/_-é€😀";

function text(r: () => number, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(r() * ALPHABET.length)];
  return out;
}

describe("WindowFilter", () => {
  it("visits, in order, every offset where a wanted window starts, wherever it sits in the text", () => {
    const r = random(7);
    const length = 12;
    const secrets = Array.from({ length: 20 }, () => text(r, 60));
    const wanted = new Set(
      secrets.flatMap((s) => Array.from({ length: s.length - length + 1 }, (_, i) => s.slice(i, i + length))),
    );
    const filter = new WindowFilter(length, wanted);
    for (let round = 0; round < 50; round++) {
      // Pieces of secrets spliced into noise: at the start, at the very end, overlapping.
      let t = text(r, Math.floor(r() * 300));
      for (let k = 0; k < 5; k++) {
        const s = secrets[Math.floor(r() * secrets.length)]!;
        const from = Math.floor(r() * (s.length - length));
        const piece = s.slice(from, from + length + Math.floor(r() * (s.length - from - length)));
        const at = Math.floor(r() * (t.length + 1));
        t = t.slice(0, at) + piece + t.slice(at);
      }
      const expected: number[] = [];
      for (let i = 0; i + length <= t.length; i++) if (wanted.has(t.slice(i, i + length))) expected.push(i);
      const visited: number[] = [];
      filter.scan(t, (i) => {
        visited.push(i);
        return false;
      });
      expect(expected.length).toBeGreaterThan(0);
      expect(visited.filter((i) => wanted.has(t.slice(i, i + length)))).toEqual(expected);
      // A filter that let every window through would save nothing.
      expect(visited.length).toBeLessThan(expected.length + t.length / 10 + 1);
    }
  });

  it("stops when told, and reads a text shorter than a window as holding none", () => {
    const filter = new WindowFilter(4, ["abcd"]);
    const visited: number[] = [];
    filter.scan("abcd-abcd-abcd", (i) => {
      visited.push(i);
      return visited.length === 2;
    });
    expect(visited).toEqual([0, 5]);
    filter.scan("abc", () => {
      throw new Error("visited a window of a text too short to hold one");
    });
    expect(() => new WindowFilter(4, ["abc"])).toThrow(/3 characters, not 4/);
  });
});
