import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expandReferences } from "../../../engine/recipe/env.js";
import { formatIssue } from "../../../engine/recipe/errors.js";
import { schemaFileText } from "../../../engine/recipe/export-schema.js";
import {
  loadProjectFile,
  loadProjectText,
  loadRecipePaths,
  loadRecipeText,
  loadRecipeTexts,
} from "../../../engine/recipe/load.js";
import type { Project } from "../../../engine/recipe/types.js";
import { compiledOnLoad, validatorsModuleText } from "../../../engine/recipe/validators-code.js";

const minimal = `apiVersion: musicsync/v1
kind: Recipe
id: mix
sources:
  - { id: chart, type: chart }
target:
  type: playlist
  playlist: { title: Mix }
`;

const project = `apiVersion: musicsync/v1
kind: Project
accounts:
  default:
    auth: \${HOME_DIR}/browser.json
    language: de
    location: DE
  emulator:
    auth: ./emu.json
    base_url: "\${EMULATOR_URL:-http://127.0.0.1:8080}"
defaults:
  mode: mirror
  timezone: Europe/Berlin
  policy: { max_removals: 20, batch_size: 50 }
pacing: { min_interval_ms: 500 }
`;

describe("loading recipes", () => {
  it("fills every default and freezes the result", () => {
    const { recipes, issues } = loadRecipeText("mix.yaml", minimal);
    expect(issues).toEqual([]);
    const [loaded] = recipes;
    expect(loaded?.recipe).toMatchObject({
      id: "mix",
      account: "default",
      description: null,
      schedule: null,
      mode: "sync",
      pipeline: [],
      sources: [{ id: "chart", type: "chart", country: "ZZ", section: "songs", limit: null }],
      target: {
        type: "playlist",
        playlist: { id: null, title: "Mix", description: null, privacy: null },
        allow_delete: false,
      },
      policy: {
        max_removals: 100,
        allow_empty: false,
        order: "source",
        on_drift: "adopt",
        overflow: "truncate",
      },
    });
    expect(Object.isFrozen(loaded!.recipe)).toBe(true);
    expect(Object.isFrozen(loaded!.recipe.sources[0])).toBe(true);
    expect(Object.isFrozen(loaded!.recipe.policy)).toBe(true);
    expect(() => {
      (loaded!.recipe.policy as { max_removals: number }).max_removals = 1;
    }).toThrow(TypeError);
  });

  it("reads several documents of one file, each with its position", () => {
    const text = `${minimal}---\n${minimal.replace("id: mix", "id: other").replace("title: Mix", "title: Other")}`;
    const { recipes, issues } = loadRecipeText("two.yaml", text);
    expect(issues).toEqual([]);
    expect(recipes.map((r) => [r.recipe.id, r.line])).toEqual([
      ["mix", 1],
      ["other", 10],
    ]);
  });

  it("normalises steps and ids written in short forms", () => {
    const text = minimal
      .replace(
        "target:",
        `pipeline:
  - dedupe: {}
  - shuffle: {}
  - exclude: { liked: true }
  - sort: { by: title }
target:`,
      )
      .replace("{ title: Mix }", "{ id: VLPL123, title: Mix }");
    const { recipes, issues } = loadRecipeText("mix.yaml", text);
    expect(issues).toEqual([]);
    const r = recipes[0]!.recipe;
    expect(r.pipeline).toEqual([
      { dedupe: { by: "videoId" } },
      { shuffle: { period: "week", seed: "" } },
      { exclude: { sources: [], liked: true, tombstones: false } },
      { sort: { by: "title", order: "asc" } },
    ]);
    expect(r.target).toMatchObject({ playlist: { id: "PL123" } });
  });

  it("understands anchors and merge keys within a document", () => {
    const text = `apiVersion: musicsync/v1
kind: Recipe
id: two-charts
sources:
  - &us { id: us, type: chart, country: US }
  - { <<: *us, id: us-videos, section: vids }
target: { type: likes }
`;
    expect(loadRecipeText("m.yaml", text).issues.map(formatIssue)).toEqual([
      "m.yaml:6:40 sources[1].section: must be one of: songs, videos, artists, trending",
    ]);
    const ok = loadRecipeText("m.yaml", text.replace("vids", "videos"));
    expect(ok.recipes[0]!.recipe.sources[1]).toMatchObject({
      id: "us-videos",
      country: "US",
      section: "videos",
    });
  });

  it("gives the same hash for the same recipe written differently, another for a change", () => {
    const a = loadRecipeText("a.yaml", minimal).recipes[0]!;
    const b = loadRecipeText(
      "b.yaml",
      `# comment\n${minimal.replace("{ id: chart, type: chart }", "{ type: chart, id: chart }")}`,
    ).recipes[0]!;
    const c = loadRecipeText("c.yaml", minimal.replace("title: Mix", "title: Mix 2")).recipes[0]!;
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(b.hash).toBe(a.hash);
    expect(c.hash).not.toBe(a.hash);
  });

  it("reports every issue of a file at once, across documents", () => {
    const text = `${minimal.replace("type: chart }", "type: chart, country: us }")}---\n${minimal.replace("id: mix", "id: Bad")}`;
    const { recipes, issues } = loadRecipeText("bad.yaml", text);
    expect(recipes).toEqual([]);
    expect(issues.map(formatIssue)).toEqual([
      "bad.yaml:5:40 sources[0].country: must be a two-letter upper-case code",
      "bad.yaml:12:5 id: must be lower-case letters, digits and dashes",
    ]);
  });

  it("finds two recipes writing one target across files", () => {
    const other = minimal.replace("id: mix", "id: mix-two");
    const { recipes, issues } = loadRecipeTexts([
      { file: "a.yaml", text: minimal },
      { file: "b.yaml", text: other },
    ]);
    expect(issues.map(formatIssue)).toEqual([
      'b.yaml:6:1 target is already written by recipe "mix" (a.yaml:3:5)',
    ]);
    // The file without the problem still loads.
    expect(recipes.map((r) => r.recipe.id)).toEqual(["mix"]);
  });

  it("treats targets on different accounts as different", () => {
    const other = minimal.replace("id: mix", "id: mix-two\naccount: second");
    expect(
      loadRecipeTexts([
        { file: "a.yaml", text: minimal },
        { file: "b.yaml", text: other },
      ]).issues,
    ).toEqual([]);
  });

  it("checks accounts and takes defaults from the project", () => {
    const p = loadProjectText("musicsync.yaml", project, { HOME_DIR: "/home/me" }).project as Project;
    expect(p).not.toBeNull();
    const ok = loadRecipeText(
      "mix.yaml",
      minimal.replace("id: mix", "id: mix\nschedule: { cron: '0 7 * * *' }"),
      { project: p },
    );
    expect(ok.issues).toEqual([]);
    expect(ok.recipes[0]!.recipe).toMatchObject({
      mode: "mirror",
      schedule: { cron: "0 7 * * *", timezone: "Europe/Berlin" },
      policy: { max_removals: 20, batch_size: 50, on_drift: "adopt" },
    });
    const bad = loadRecipeText("mix.yaml", minimal.replace("id: mix", "id: mix\naccount: work"), {
      project: p,
    });
    expect(bad.issues.map(formatIssue)).toEqual([
      'mix.yaml:4:10 account: unknown account "work" (accounts: default, emulator)',
    ]);
  });

  it("takes undo's age limit from the project (default 90 days) and refuses one that is not a whole number", () => {
    expect(loadProjectText("musicsync.yaml", project, { HOME_DIR: "/home/me" }).project?.undo).toEqual({
      max_age_days: 90,
    });
    const set = loadProjectText("musicsync.yaml", `${project}undo: { max_age_days: 14 }\n`, {
      HOME_DIR: "/x",
    });
    expect(set.issues).toEqual([]);
    expect(set.project?.undo).toEqual({ max_age_days: 14 });
    for (const bad of ["undo: { max_age_days: -1 }", "undo: { max_age_days: 1.5 }", "undo: { days: 3 }"]) {
      const r = loadProjectText("musicsync.yaml", `${project}${bad}\n`, { HOME_DIR: "/x" });
      expect(r.project, bad).toBeNull();
      expect(r.issues.map(formatIssue).join("\n"), bad).toMatch(/undo/);
    }
  });

  it("yields no recipe and one issue for an empty file", () => {
    const r = loadRecipeText("empty.yaml", "# nothing here\n");
    expect(r.issues.map(formatIssue)).toEqual(["empty.yaml:1:1 the file holds no recipe"]);
  });

  it("reports a path it cannot read as an issue, not an exception", async () => {
    const missing = "/nonexistent/recipes";
    const r = await loadRecipePaths([missing]);
    expect(r.issues.map(formatIssue)).toEqual([`${missing}:1:1 cannot read: no such file or directory`]);
    const p = await loadProjectFile("/nonexistent/musicsync.yaml");
    expect(p.issues.map(formatIssue)).toEqual([
      "/nonexistent/musicsync.yaml:1:1 cannot read: no such file or directory",
    ]);
  });

  it("loads a folder, skipping the project file", async () => {
    const { recipes, issues } = await loadRecipePaths([
      new URL("../../../recipes/", import.meta.url).pathname,
    ]);
    expect(issues).toEqual([]);
    expect(recipes.length).toBe(
      readdirSync(new URL("../../../recipes/", import.meta.url)).filter((f) => f.endsWith(".yaml")).length,
    );
  });
  it("passes over matches.yaml in a folder of recipes (the song matches, not a recipe)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "recipes-"));
    try {
      writeFileSync(join(dir, "mix.yaml"), minimal);
      writeFileSync(join(dir, "matches.yaml"), '"adele - hello": YQHsXMglC9A\n"rain - 10 hours": skip\n');
      mkdirSync(join(dir, "more"));
      writeFileSync(join(dir, "more", "matches.yaml"), "# drafted\n");
      const r = await loadRecipePaths([dir]);
      expect(r.issues).toEqual([]);
      expect(r.recipes.map((x) => x.recipe.id)).toEqual(["mix"]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});

describe("the project file", () => {
  it("substitutes environment references and fills defaults", () => {
    const { project: p, issues } = loadProjectText("musicsync.yaml", project, { HOME_DIR: "/home/me" });
    expect(issues).toEqual([]);
    expect(p!.accounts.default).toEqual({
      auth: "/home/me/browser.json",
      token: null,
      oauth_client: null,
      brand_account: null,
      language: "de",
      location: "DE",
      base_url: null,
      emulator: null,
    });
    expect(p!.accounts.emulator!.base_url).toBe("http://127.0.0.1:8080");
    expect(p!.pacing).toEqual({ min_interval_ms: 500, max_writes_per_minute: 30, suspend_after_failures: 5 });
    expect(Object.isFrozen(p!.accounts.default)).toBe(true);
  });

  it("prefers a set variable over the fallback", () => {
    const { project: p } = loadProjectText("m.yaml", project, {
      HOME_DIR: "/h",
      EMULATOR_URL: "http://127.0.0.1:9",
    });
    expect(p!.accounts.emulator!.base_url).toBe("http://127.0.0.1:9");
  });

  it("keeps an account's value whose variable is not set as written, with its place, for the command that uses it", () => {
    const { project: p, issues } = loadProjectText("musicsync.yaml", project, {});
    expect(issues).toEqual([]);
    expect(p!.unresolved).toEqual([
      {
        path: ["accounts", "default", "auth"],
        variables: ["HOME_DIR"],
        file: "musicsync.yaml",
        line: 5,
        col: 11,
      },
    ]);
  });

  it("reports schema errors and account rules with positions", () => {
    const text = `apiVersion: musicsync/v1
kind: Project
accounts:
  main:
    auth: a.json
    token: t.json
    location: germany
defaults: { account: other }
`;
    const { issues } = loadProjectText("musicsync.yaml", text, {});
    expect(issues.map(formatIssue)).toEqual([
      "musicsync.yaml:7:15 accounts.main.location: must be a two-letter upper-case code",
    ]);
    const fixed = text.replace("germany", "DE");
    expect(loadProjectText("musicsync.yaml", fixed, {}).issues.map(formatIssue)).toEqual([
      "musicsync.yaml:5:5 an OAuth token needs oauth_client (id and secret)",
      "musicsync.yaml:6:5 give either auth or token, not both",
      'musicsync.yaml:8:22 default account "other" is not among the accounts (main)',
    ]);
  });
});

describe("recipes/", () => {
  const dir = new URL("../../../recipes/", import.meta.url);
  const shipped = readdirSync(dir).filter((f) => f.endsWith(".yaml"));

  it("ships the eight ready-made recipes", () => {
    expect(shipped.sort()).toEqual([
      "artist-mix.yaml",
      "chart-mirror.yaml",
      "lastfm-loved-likes.yaml",
      "listenbrainz-weekly-archive.yaml",
      "new-podcast-episodes.yaml",
      "playlist-cleanup.yaml",
      "save-playlist-songs.yaml",
      "spotify-mirror.yaml",
    ]);
  });

  it.each(shipped)("%s is valid on its own and together with the others", (file) => {
    const r = loadRecipeText(file, readFileSync(new URL(file, dir), "utf8"));
    expect(r.issues.map(formatIssue)).toEqual([]);
    expect(r.recipes.length).toBe(1);
  });

  it("keeps recipe.schema.json in step with the schema object", () => {
    expect(readFileSync(new URL("recipe.schema.json", dir), "utf8")).toBe(schemaFileText());
  });

  it("keeps the validators made at build time in step with the schema objects", () => {
    const file = new URL("../../../engine/recipe/validators.generated.ts", import.meta.url);
    expect(readFileSync(file, "utf8")).toBe(validatorsModuleText());
  });

  it("makes each validator a parenthesised function, compiled with its module, and refuses code of another shape", () => {
    const text = validatorsModuleText();
    // Every validator the module exports is bound to a parenthesised function expression.
    const exported = [...text.matchAll(/export \{ (validate\d+) as (\w+) \};/g)].map((m) => m[1]);
    expect(exported).toHaveLength(2);
    for (const name of exported) expect(text).toContain(`const ${name} = (function ${name}(`);
    expect(text).not.toMatch(/(?<![\w$(])function validate\d+\(/);
    const two = "export const a = validate1;function validate1(data){return errors === 0;}";
    expect(compiledOnLoad(two, ["a"])).toBe(
      "export { validate1 as a };const validate1 = (function validate1(data){return errors === 0;});",
    );
    expect(() => compiledOnLoad(`${two}function validate2(data){return errors === 0;}`, ["a"])).toThrow(
      /changed shape: 1 exports, 2 validators, 2 ends/,
    );
  });
});

describe("environment references", () => {
  // Written with concatenation: these are the literal `${…}` texts a project file contains.
  const ref = (body: string) => "$" + "{" + body + "}";

  it("expands set variables and fallbacks, keeps $${ literal, and names what is missing", () => {
    expect(expandReferences(`${ref("A")}/x/${ref("B:-b")}`, { A: "a" })).toEqual({
      value: "a/x/b",
      missing: [],
    });
    expect(expandReferences(`cost $${ref("A")}`, { A: "a" })).toEqual({
      value: `cost ${ref("A")}`,
      missing: [],
    });
    expect(expandReferences(`${ref("A")}${ref("C")}`, { A: "" })).toEqual({ value: "", missing: ["A", "C"] });
  });
});
