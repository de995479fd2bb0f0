/**
 * matches.yaml as a hostile or merely large file (issue 22): a key given twice is named with both
 * lines, and a drafted file for a large library parses in one pass (yaml's own unique-key check
 * compared every key with every one before it: 60,000 lines took 87 s).
 */
import { describe, expect, it } from "vitest";
import { OverridesError, parseOverrides } from "../../../engine/match/overrides.js";

describe("parseOverrides", () => {
  it("names a key given twice, with the line of each", () => {
    const text = '"a - b": skip\n"c - d": dQw4w9WgXcQ\n"a - b": YQHsXMglC9A\n';
    expect(() => parseOverrides("matches.yaml", text)).toThrow(
      new OverridesError("matches.yaml", 3, 1, '"a - b" is given twice (also on line 1)'),
    );
  });

  it("reads 40,000 drafted lines, each with its comment", () => {
    const n = 40_000;
    const lines = Array.from(
      { length: n },
      (_, i) =>
        `"artist ${i} - song ${i}": dQw4w9WgXcQ  # Artist ${i} - Song ${i}; score 0.93: title, artists`,
    );
    const read = parseOverrides("matches.yaml", `${lines.join("\n")}\n`);
    expect(read.size).toBe(n);
    expect(read.get(`artist ${n - 1} - song ${n - 1}`)).toBe("dQw4w9WgXcQ");
  });
});
