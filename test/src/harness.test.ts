import { describe, expect, it } from "vitest";
import { diffValues, pathMatches } from "../support/fixtures.js";
import { extraParams } from "../support/replay-server.js";

describe("the capture harness", () => {
  it("names every differing field by its path", () => {
    const { diffs, fields } = diffValues(
      { a: 1, b: [{ c: "x" }, { c: "y" }], d: null },
      { a: 1, b: [{ c: "x" }, { c: "z" }], e: 2 },
      "",
    );
    expect(diffs).toEqual([
      'b[1].c: expected "y", got "z"',
      "d: missing (expected null)",
      "e: unexpected field (got 2)",
    ]);
    expect(fields).toBe(5);
  });

  it("reports a different array length and a different kind", () => {
    expect(diffValues([1, 2], [1], "").diffs).toEqual(["(root): expected 2 items, got 1"]);
    expect(diffValues({ a: [] }, { a: {} }, "").diffs).toEqual(["a: expected an array, got {}"]);
  });

  it("matches deliberate-difference paths with wildcards and sub-paths", () => {
    expect(pathMatches("tracks[*].isExplicit", "tracks[12].isExplicit")).toBe(true);
    expect(pathMatches("radioId", "radioId")).toBe(true);
    expect(pathMatches("album", "album.name")).toBe(true);
    expect(pathMatches("album", "albums")).toBe(false);
    expect(pathMatches("tracks[*].isExplicit", "tracks.isExplicit")).toBe(false);
  });

  it("keeps only the operation's own query parameters", () => {
    expect(extraParams("alt=json&prettyPrint=false&key=K&ctoken=T&continuation=T")).toBe(
      "&ctoken=T&continuation=T",
    );
    expect(extraParams("alt=json")).toBe("");
  });
});
