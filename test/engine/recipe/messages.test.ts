/**
 * What `validate` says about a few thousand wrong recipes and project files, kept as files written
 * by the loader before the recipe's shape was said once (engine/recipe/schema.ts): each shipped
 * recipe and a full project file, changed at random places by a seeded generator (a value of another
 * type, a key removed, a misspelt key added). Any change to the schema, to how ajv reports against
 * it, or to how its errors are worded shows as a difference in these files.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { modulesOf } from "../../../bench/loaded-modules.js";
import type { RecipeIssue } from "../../../engine/recipe/errors.js";
import { loadProjectText, loadRecipeText } from "../../../engine/recipe/load.js";
import { projectSchema, recipeSchema } from "../../../engine/recipe/schema.js";
import * as publicSchemas from "../../../engine/recipe/schema-data.js";
import { ensureBuilt, MAIN } from "../../support/cli-process.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const MUTANTS = 150;

const VALUES = [
  5,
  "x",
  true,
  null,
  [],
  {},
  "<b>",
  -1,
  1.5,
  "ZZ",
  { bogus: 1 },
  "",
  "playlist",
  ["a"],
  "MPREx",
  0,
];
const KEYS = [
  "bogus",
  "sourcse",
  "titel",
  "type",
  "id",
  "limit",
  "kind",
  "playlist",
  "polcy",
  "mode",
  "events",
];

type Seg = string | number;

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 4294967296;
  };
}

function paths(value: unknown, path: Seg[] = [], out: Seg[][] = []): Seg[][] {
  out.push(path);
  if (Array.isArray(value)) for (const [i, v] of value.entries()) paths(v, [...path, i], out);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) paths(v, [...path, k], out);
  return out;
}

/** The document with one or two random changes. */
function mutate(doc: unknown, rnd: () => number): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const copy = structuredClone(doc);
  const all = paths(copy).filter((p) => p.length > 0);
  for (let n = 1 + Math.floor(rnd() * 2); n > 0; n--) {
    const path = pick(all);
    let parent = copy as Record<Seg, unknown> | null;
    for (const seg of path.slice(0, -1)) parent = (parent?.[seg] ?? null) as Record<Seg, unknown> | null;
    if (parent === null || typeof parent !== "object") continue;
    const last = path[path.length - 1] as Seg;
    const op = rnd();
    if (op < 0.6) parent[last] = structuredClone(pick(VALUES));
    else if (Array.isArray(parent)) parent.push(structuredClone(pick(VALUES)));
    else if (op < 0.8) delete parent[last];
    else parent[pick(KEYS)] = structuredClone(pick(VALUES));
  }
  return copy;
}

function lines(name: string, issues: readonly RecipeIssue[], warnings: readonly RecipeIssue[] = []): string {
  const said = [
    ...issues.map((i) => `  ${i.line}:${i.col} ${i.message}`),
    ...warnings.map((w) => `  warning ${w.line}:${w.col} ${w.message}`),
  ];
  return [`${name}`, ...said].join("\n");
}

const PROJECT = {
  ...(parse(readFileSync(join(ROOT, "examples/musicsync.yaml"), "utf8")) as Record<string, unknown>),
  accounts: {
    default: { auth: "headers.json", language: "en", location: "US" },
    two: {
      token: "oauth.json",
      oauth_client: { id: "i", secret: "s" },
      brand_account: "123456789012345678901",
    },
    emu: { emulator: { db: "e.db", seed: 1, catalogue: 100, account: 1 } },
  },
  notify: [
    { type: "webhook", url: "https://x.example/h", headers: { Authorization: "b" }, events: ["run_failed"] },
    { type: "ntfy", url: "https://ntfy.sh/t", priority: 3, tags: ["a"] },
    { type: "command", command: ["echo", "hi"], name: "say" },
  ],
};

describe("what validate says about wrong recipes and project files", () => {
  const recipes = readdirSync(join(ROOT, "recipes"))
    .filter((f) => f.endsWith(".yaml"))
    .sort();
  for (const file of recipes) {
    it(`${file}, changed ${MUTANTS} ways`, async () => {
      const doc = parse(readFileSync(join(ROOT, "recipes", file), "utf8"));
      const rnd = random(file.length * 7919);
      const said: string[] = [];
      for (let i = 0; i < MUTANTS; i++) {
        const r = loadRecipeText(`/r/${file}`, stringify(mutate(doc, rnd)));
        said.push(lines(`#${i}`, r.issues, r.warnings));
      }
      await expect(`${said.join("\n")}\n`).toMatchFileSnapshot(`messages/${file}.txt`);
    });
  }

  it(`a project file, changed ${MUTANTS * 2} ways`, async () => {
    const rnd = random(24);
    const said: string[] = [];
    for (let i = 0; i < MUTANTS * 2; i++) {
      const r = loadProjectText("/p/musicsync.yaml", stringify(mutate(PROJECT, rnd)));
      said.push(lines(`#${i}`, r.issues));
    }
    await expect(`${said.join("\n")}\n`).toMatchFileSnapshot("messages/project.txt");
  });
});

describe("the schema's builder", () => {
  it("is not loaded by validate, nor by a stored account's checks: commands check with the validators made from it", async () => {
    await ensureBuilt();
    const project = join(ROOT, "examples/musicsync.yaml");
    const validate = modulesOf([MAIN, "validate", "-p", project, join(ROOT, "recipes")]);
    expect(validate).toContain("ajv");
    expect(validate).not.toContain("typebox");
    expect(modulesOf([MAIN, "accounts", "list", "-p", project])).not.toContain("typebox");
  }, 180_000);

  it("nor by a program that imports the engine, which gets the same schemas as plain data", async () => {
    expect(publicSchemas.recipeSchema).toEqual(JSON.parse(JSON.stringify(recipeSchema)));
    expect(publicSchemas.projectSchema).toEqual(JSON.parse(JSON.stringify(projectSchema)));
    const file = JSON.parse(readFileSync(join(ROOT, "recipes/recipe.schema.json"), "utf8"));
    expect(publicSchemas.exportedRecipeSchema()).toEqual(file);
    await ensureBuilt();
    const entry = pathToFileURL(join(ROOT, "dist/engine/index.js")).href;
    const loaded = modulesOf(["--input-type=module", "-e", `await import(${JSON.stringify(entry)})`]);
    expect(loaded).toContain("engine/recipe");
    expect(loaded).not.toContain("typebox");
  }, 180_000);
});
