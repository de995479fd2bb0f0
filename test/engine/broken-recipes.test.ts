/**
 * The corpus of broken recipes: each file starts with `# expect: line:col message` comments, one per
 * issue the loader must report for it, in order. Nothing may throw, and no stack trace may leak.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatIssue } from "../../engine/recipe/errors.js";
import { loadRecipeText } from "../../engine/recipe/load.js";

const dir = new URL("./broken-recipes/", import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".yaml"))
  .sort();

function expectations(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    const m = /^# expect: (.*)$/.exec(line);
    if (!m) break;
    out.push(m[1]!);
  }
  return out;
}

describe("broken recipes", () => {
  it("has a corpus of at least 40 files covering YAML, schema and semantic errors", () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
    for (const kind of ["yaml-", "schema-", "semantic-"]) {
      expect(files.filter((f) => f.startsWith(kind)).length).toBeGreaterThanOrEqual(8);
    }
  });

  it.each(files)("%s reports exactly its expected file:line:col messages", (file) => {
    const text = readFileSync(new URL(file, dir), "utf8");
    const expected = expectations(text);
    expect(expected.length).toBeGreaterThan(0);
    const result = loadRecipeText(file, text);
    expect(result.recipes).toEqual([]);
    expect(result.issues.map(formatIssue)).toEqual(expected.map((e) => `${file}:${e}`));
    for (const issue of result.issues) {
      expect(issue.message).not.toMatch(/\n|\s+at\s+\S+\s+\(|node_modules/);
      expect(issue.line).toBeGreaterThan(0);
      expect(issue.col).toBeGreaterThan(0);
    }
  });
});
