/** "did you mean …?": the near known word for a typo, and none when it would be a guess. */
import { describe, expect, it } from "vitest";
import { loadProjectText } from "../../../engine/recipe/load.js";
import { didYouMean, editDistance, nearest } from "../../../engine/recipe/suggest.js";

describe("nearest known word", () => {
  it("counts edits, a swap of neighbours as one", () => {
    expect(editDistance("souces", "sources")).toBe(1);
    expect(editDistance("tagret", "target")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("abc", "abc")).toBe(0);
  });

  it("suggests within reach, case ignored, and nothing for a far word, a tie or a short word", () => {
    expect(nearest("souces", ["sources", "target"])).toBe("sources");
    expect(nearest("Mode", ["mode"])).toBe("mode");
    expect(nearest("schedul", ["schedule"])).toBe("schedule");
    expect(nearest("language", ["available", "explicit", "title"])).toBeNull();
    // "cat" is one edit from both: no guess.
    expect(nearest("cat", ["bat", "car"])).toBeNull();
    // Two letters leave no room for an edit.
    expect(nearest("id", ["io"])).toBeNull();
    expect(nearest("k".repeat(100_000), ["key"])).toBeNull();
    expect(didYouMean("sources", ["sources"])).toBe("");
  });

  it("names the near key in the project file's errors, at the key's line and column", () => {
    const text = "apiVersion: musicsync/v1\nkind: Project\nacounts:\n  me: { auth: a.json }\n";
    const { issues } = loadProjectText("musicsync.yaml", text);
    expect(issues.map((i) => `${i.line}:${i.col} ${i.message}`)).toEqual([
      expect.stringMatching(
        /^3:1 acounts: unknown property "acounts", did you mean "accounts"\? \(expected one of: /,
      ),
    ]);
  });
});
