/**
 * The corpus of broken recipes: each file starts with `# expect: line:col message` comments, one per
 * issue the loader must report for it, in order. Nothing may throw, and no stack trace may leak.
 */
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../cli/musicsync/main.js";
import { mergeReload } from "../../../engine/daemon/recipes.js";
import { formatIssue } from "../../../engine/recipe/errors.js";
import { loadRecipePaths, loadRecipeText, loadRecipeTexts } from "../../../engine/recipe/load.js";
import { SECOND_SCHEDULES_ENV, scheduleProblems } from "../../../engine/recipe/schedule.js";
import { nextRunOf } from "../../../engine/status/next-run.js";
import { startDaemon, writeRecipes } from "../../support/daemon-harness.js";
import { hostileRecipes } from "../../support/hostile-recipes.js";
import { startHarness } from "../../support/sync-harness.js";

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

/** `musicsync validate` in this process, output captured. */
async function validate(args: readonly string[]) {
  const out = { stdout: "", stderr: "" };
  const sink = (which: "stdout" | "stderr") =>
    ({
      write(text: string) {
        out[which] += text;
        return true;
      },
    }) as unknown as NodeJS.WritableStream;
  const env = { MUSICSYNC_LOG_LEVEL: "silent" };
  const code = await main(["validate", "-p", "/nonexistent/musicsync.yaml", ...args], {
    stdout: sink("stdout"),
    stderr: sink("stderr"),
    env,
  });
  return { code, ...out };
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("hostile recipes", () => {
  const corpus = hostileRecipes();
  let dir = "";
  // daemon-harness lifts the once-a-minute rule for the daemon tests; these must see it in force.
  const lifted = process.env[SECOND_SCHEDULES_ENV];
  beforeAll(async () => {
    delete process.env[SECOND_SCHEDULES_ENV];
    dir = await mkdtemp(join(tmpdir(), "musicsync-hostile-"));
    for (const c of corpus) await writeFile(join(dir, `${c.name}.yaml`), c.content);
  });
  afterAll(async () => {
    if (lifted !== undefined) process.env[SECOND_SCHEDULES_ENV] = lifted;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  // docs/ENGINE.md#bad-input
  it.each(corpus.map((c) => [c.name, c] as const))(
    "%s: validate exits 1 with file:line:col lines, no stack trace",
    async (_name, c) => {
      const file = join(dir, `${c.name}.yaml`);
      const r = await validate([file]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      const lines = r.stderr.trimEnd().split("\n");
      for (const line of lines)
        expect(line).toMatch(new RegExp(`^(error: )?${escapeRegex(file)}:\\d+:\\d+ \\S`));
      expect(lines.some((l) => c.expect.test(l))).toBe(true);
      expect(r.stderr).not.toMatch(/\n\s+at |node_modules|Maximum call stack|RangeError|TypeError/);
      expect(r.stderr.length).toBeLessThan(60_000);
    },
  );

  // docs/ENGINE.md#bad-input
  it("the daemon starts with the valid recipes and reports every hostile file", async () => {
    const h = await startHarness();
    try {
      const recipes = join(h.dir, "recipes");
      await writeRecipes(h.dir, [{ id: "fine", cron: "0 7 * * *", ids: ["aaaaaaaaaaa"] }]);
      for (const c of corpus) await writeFile(join(recipes, `${c.name}.yaml`), c.content);
      const d = await startDaemon(h);
      try {
        expect(d.daemon.loaded().map((r) => r.recipe.id)).toEqual(["fine"]);
        expect(d.daemon.nextRun("fine")).not.toBeNull();
        const again = await d.daemon.reload();
        const reported = new Set(again.issues.map((i) => i.file));
        for (const c of corpus) expect(reported).toContain(join(recipes, `${c.name}.yaml`));
      } finally {
        await d.stop();
      }
    } finally {
      await h.stop();
    }
  });
});

describe("schedules: validate and the daemon ask the same parser", () => {
  const recipe = (cron: string, tz?: string) =>
    [
      "apiVersion: musicsync/v1",
      "kind: Recipe",
      "id: timed",
      `schedule: { cron: "${cron}"${tz ? `, timezone: ${tz}` : ""} }`,
      "sources: [{ id: s, type: static, videoIds: [aaaaaaaaaaa] }]",
      "target: { type: playlist, playlist: { title: Timed } }",
      "",
    ].join("\n");

  // docs/ENGINE.md#bad-input
  it.each(["61 7 * * *", "0 25 * * *", "*/0 * * * *", "59-1 * * * *", "a b c d e", "0 7 31 2 *"])(
    "refuses %s at validate, pointing at schedule.cron",
    (cron) => {
      const r = loadRecipeText("t.yaml", recipe(cron));
      expect(r.recipes).toEqual([]);
      expect(r.issues.map(formatIssue)).toEqual([
        expect.stringMatching(new RegExp(`^t\\.yaml:4:19 schedule\\.cron: "${escapeRegex(cron)}" `)),
      ]);
    },
  );

  // docs/ENGINE.md#bad-input
  it("refuses a schedule more often than once a minute, and says so", () => {
    for (const cron of ["* * * * * *", "*/30 * * * * *", "0,30 * * * * *", "0-1 7 * * * *"]) {
      const r = loadRecipeText("t.yaml", recipe(cron));
      expect(r.issues.map((i) => i.message)).toEqual([
        expect.stringMatching(/times a minute; musicsync runs a recipe at most once a minute/),
      ]);
    }
    // One second of a six-field expression is once a minute at most.
    expect(loadRecipeText("t.yaml", recipe("30 * * * * *")).issues).toEqual([]);
  });

  // docs/ENGINE.md#bad-input
  it("checks the time zone as the daemon's node-cron will use it", () => {
    expect(loadRecipeText("t.yaml", recipe("0 7 * * *", "UTC+2")).issues.map(formatIssue)).toEqual([
      't.yaml:4:42 schedule.timezone: unknown time zone "UTC+2"',
    ]);
    expect(loadRecipeText("t.yaml", recipe("0 7 * * *", "Europe/Berlin")).issues).toEqual([]);
    // Names outside the canonical list take the full check: "UTC" and an old alias are zones too.
    for (const tz of ["UTC", "Asia/Calcutta", "US/Eastern"]) {
      expect(loadRecipeText("t.yaml", recipe("0 7 * * *", tz)).issues, tz).toEqual([]);
    }
    expect(loadRecipeText("t.yaml", recipe("0 7 * * *", "Europe/Atlantis")).issues).toHaveLength(1);
  });

  // docs/ENGINE.md#bad-input
  it("every schedule validate accepts, node-cron runs; every one it refuses, the daemon refuses too", () => {
    const crons = [
      "0 7 * * *",
      "*/5 * * * *",
      "0 7 * * MON-FRI",
      "0 0 1 JAN *",
      "15 7 * * 7",
      "30 0 7 * * *",
      "61 7 * * *",
      "0 25 * * *",
      "*/0 * * * *",
      "59-1 * * * *",
      "a b c d e",
      "0 7 31 2 *",
      "* * * * * *",
    ];
    for (const cron of crons) {
      const loaded = loadRecipeTexts([{ file: "t.yaml", text: recipe(cron) }]);
      const accepted = loaded.issues.length === 0;
      expect(accepted).toBe(scheduleProblems({ cron }).length === 0);
      if (accepted) {
        expect(nextRunOf({ cron, timezone: null })).not.toBeNull();
        expect(mergeReload([], loaded).recipes).toHaveLength(1);
      }
    }
  });

  // docs/ENGINE.md#bad-input
  it("a file over 1 MiB is refused by its size before it is read, naming the file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "musicsync-big-"));
    try {
      const file = join(dir, "big.yaml");
      await writeFile(file, `# ${"x".repeat(10 * 1024 * 1024)}\n`);
      const r = await loadRecipePaths([file]);
      expect(r.issues.map(formatIssue)).toEqual([
        `${file}:1:1 the file is 10.0 MiB; a recipe or project file may be at most 1 MiB`,
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
