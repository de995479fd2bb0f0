/**
 * The quick structure scan must never disagree with the walk over yaml's CST: when it answers, the
 * answer (message and offset) is the walk's. Checked on the hostile files and on generated texts
 * made of the constructs it models, with the odd character thrown in where it must give up.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Parser } from "yaml";
import { structureProblem } from "../../../engine/recipe/limits.js";
import { quickStructureProblem } from "../../../engine/recipe/structure-scan.js";
import { hostileRecipes } from "../../support/hostile-recipes.js";

const walk = (text: string) => structureProblem([...new Parser().parse(text)]);

/** A small seeded generator (the same texts every run); `budget` bounds the collections of a text. */
function random(seed: number) {
  let s = seed;
  const budget = { left: 0 };
  const next = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
  const int = (a: number, b: number) => a + Math.floor(next() * (b - a + 1));
  const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)] as T;
  return { next, int, pick, budget };
}

type Random = ReturnType<typeof random>;

const ODD = ["#c", " # c", "\t", "!!str ", "'q'", '"q"', "|", ">", "a: b", ",", "[", "]", "{", "}", "&a "];
const ODDER = ["*a", "? ", "- ", ":", "---", "\r", "%", "\uFEFF", "-1", "a#b", "a *b", "\n  x", "\n"];

function scalar(r: Random): string {
  if (r.next() < 0.15) return `*a${r.int(0, 3)}`;
  return r.pick(["1", "x", "musicsync/v1", "'s s'", '"d\\"q"', "a b", "x:y"]);
}

/** Item counts around the limits now and then: 100 aliases, 1,000 keys. */
function count(r: Random, big: number): number {
  const x = r.next();
  return x < 0.04 ? r.int(998, 1003) : x < 0.12 ? r.int(95, 105) : r.int(0, big);
}

function flow(r: Random, depth: number): string {
  if (depth <= 0 || r.budget.left-- <= 0) return scalar(r);
  const map = r.next() < 0.4;
  const n = count(r, 3);
  const items = Array.from({ length: n }, (_, i) => {
    const v = i === n - 1 ? flow(r, depth - 1) : r.next() < 0.2 ? flow(r, Math.min(depth - 1, 2)) : scalar(r);
    return map ? `k${i}: ${v}` : v;
  });
  const anchor = r.next() < 0.1 ? `&a${r.int(0, 3)} ` : "";
  const sep = r.pick([",", ", ", ",\n    "]);
  return `${anchor}${map ? "{" : "["}${items.join(sep)}${map ? "}" : "]"}`;
}

function block(r: Random, depth: number, indent: number): string[] {
  if (depth <= 0 || r.budget.left-- <= 0) return [];
  const kind = r.pick(["map", "map", "seq", "key"]);
  const n = Math.max(1, count(r, 3));
  const pad = " ".repeat(indent);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const head = kind === "map" ? `k${i}:` : kind === "seq" ? "-" : "?";
    const x = r.next();
    if (x < 0.45 && i === n - 1) {
      const step = r.int(kind === "map" ? 0 : 1, 3);
      const inner = block(r, depth - 1, indent + step);
      const compact = kind !== "map" && step === 2 && inner.length > 0 && r.next() < 0.5;
      if (compact) lines.push(`${pad}${head} ${inner[0]!.slice(indent + 2)}`, ...inner.slice(1));
      else lines.push(`${pad}${head}`, ...inner);
    } else lines.push(`${pad}${head} ${x < 0.7 ? flow(r, depth - 1) : scalar(r)}`);
    if (r.next() < 0.05) lines.push(r.pick(["", "# comment", `${pad}  # c`]));
  }
  return lines;
}

function generated(r: Random): string {
  r.budget.left = r.int(30, 120);
  const depth = r.next() < 0.5 ? r.int(60, 70) : r.int(1, 8);
  let text = r.next() < 0.2 ? flow(r, depth) : block(r, depth, 0).join("\n");
  if (r.next() < 0.3) {
    const at = r.int(0, text.length);
    text = text.slice(0, at) + r.pick([...ODD, ...ODDER]) + text.slice(at);
  }
  return r.next() < 0.1 ? text.slice(0, r.int(0, text.length)) : text;
}

describe("quick structure scan", () => {
  it("answers as the CST walk on generated texts, and answers many of them", () => {
    const r = random(25);
    let answered = 0;
    let problems = 0;
    for (let i = 0; i < 120; i++) {
      const text = generated(r);
      const quick = quickStructureProblem(text);
      const expected = walk(text);
      if (expected) problems++;
      if (quick === null) continue;
      answered++;
      expect({ text, problem: quick }).toEqual({ text, problem: expected });
    }
    expect(problems).toBeGreaterThan(20);
    expect(answered).toBeGreaterThan(problems / 3);
  });

  const small = hostileRecipes().filter((c) => typeof c.content === "string" && c.content.length < 100_000);
  it.each(small.map((c) => [c.name, c.content as string] as const))("%s: as the walk", (_name, text) => {
    const quick = quickStructureProblem(text);
    if (quick !== null) expect(quick).toEqual(walk(text));
  });

  const texts = new Map(hostileRecipes().map((c) => [c.name, c.content as string]));
  it.each(["deep-flow-seq", "deep-flow-map", "deep-flow-unclosed", "deep-block-seq", "deep-explicit-keys"])(
    "%s-100000 is answered where its 2,000-level twin is",
    (shape) => {
      const twin = walk(texts.get(`${shape}-2000`)!);
      expect(twin).not.toBeNull();
      expect(quickStructureProblem(texts.get(`${shape}-100000`)!)).toEqual(twin);
    },
  );

  it("150,000 aliases: the walk counts from the end, so the 101st alias from the end is named", () => {
    const text = texts.get("alias-150000")!;
    const stars = [...text.matchAll(/\*x/g)].map((m) => m.index);
    expect(quickStructureProblem(text)).toEqual({
      offset: stars[stars.length - 101],
      message: "more than 100 aliases (*name)",
    });
  });

  it("90,000 keys: the root mapping is named", () => {
    expect(quickStructureProblem(texts.get("ninety-thousand-keys")!)).toEqual({
      offset: 0,
      message: "a mapping with more than 1000 keys",
    });
  });

  it("finds nothing in the shipped recipes, as the walk", () => {
    const dir = new URL("../../../recipes/", import.meta.url);
    for (const f of readdirSync(dir).filter((n) => n.endsWith(".yaml"))) {
      const text = readFileSync(new URL(f, dir), "utf8");
      expect(quickStructureProblem(text)).toBeNull();
      expect(walk(text)).toBeNull();
    }
  });
});
