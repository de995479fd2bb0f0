/**
 * examples/recipe-repo is a template people copy: its recipes must run, not only validate. Each one
 * is run against the emulator through the repository's own project file (its defaults, time zone
 * and pacing), fitted to the generated catalogue as `musicsync demo` fits the shipped recipes, and
 * must write something and then plan no changes. Its files must point editors at the right schema.
 */
import { spawnSync } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { findSubstitutes, fitRecipe } from "../../engine/demo/demo.js";
import { loadProjectFile, loadRecipePaths } from "../../engine/recipe/load.js";
import { projectSchema } from "../../engine/recipe/schema.js";
import type { Project } from "../../engine/recipe/types.js";
import { createEnv } from "../../engine/run/env.js";
import { createLogger } from "../../engine/run/logger.js";
import { planRecipe, syncRecipe } from "../../engine/run/runner.js";
import { ROOT } from "../support/cli-process.js";
import { type Harness, startHarness } from "../support/sync-harness.js";

const REPO = join(ROOT, "examples/recipe-repo");
const RECIPES = ["morning-chart", "podcast-queue", "weekly-mix"];

/** The `$schema` a file's yaml-language-server line names, resolved as it would be in a copy of the template. */
async function schemaOf(file: string): Promise<{ path: string; schema: Record<string, unknown> }> {
  const text = await readFile(file, "utf8");
  const named = /^# yaml-language-server: \$schema=(\S+)$/m.exec(text)?.[1];
  if (!named) throw new Error(`${file} names no schema`);
  // In a copy, `node_modules/musicapi` is this package: resolve it to the repository root.
  const [, inPackage] = /\/node_modules\/musicapi\/(.*)$/.exec(join(file, "..", named)) ?? [];
  const path = inPackage ? join(ROOT, inPackage) : join(file, "..", named);
  return { path, schema: JSON.parse(await readFile(path, "utf8")) as Record<string, unknown> };
}

describe("examples/recipe-repo: editor schemas", () => {
  it("points musicsync.yaml at the project schema, which accepts it (the recipe schema does not)", async () => {
    const file = join(REPO, "musicsync.yaml");
    const { path, schema } = await schemaOf(file);
    expect(path).toBe(join(ROOT, "recipes/project.schema.json"));
    const document = parseYaml(await readFile(file, "utf8")) as unknown;
    const ajv = new Ajv({ strict: false, allErrors: true });
    expect(ajv.validate(schema, document), JSON.stringify(ajv.errors)).toBe(true);
    const recipeSchema = JSON.parse(await readFile(join(ROOT, "recipes/recipe.schema.json"), "utf8"));
    expect(ajv.validate(recipeSchema, document)).toBe(false);
  });

  it("points every recipe at the recipe schema", async () => {
    for (const id of RECIPES) {
      const { path } = await schemaOf(join(REPO, "recipes", `${id}.yaml`));
      expect(path).toBe(join(ROOT, "recipes/recipe.schema.json"));
    }
  });

  it("ships recipes/project.schema.json in step with the schema the loader checks", async () => {
    const text = await readFile(join(ROOT, "recipes/project.schema.json"), "utf8");
    const expected = { $schema: "http://json-schema.org/draft-07/schema#", ...projectSchema };
    expect(text).toBe(`${JSON.stringify(expected, null, 2)}\n`);
  });
});

describe("examples/recipe-repo: installs with npm ci", () => {
  it("depends on this repository, installed packed, through a lockfile derived from ours", async () => {
    const pkg = JSON.parse(await readFile(join(REPO, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    // A version range would be looked up in the registry, which refuses the name (a 404).
    expect(pkg.dependencies.musicapi).toBe("file:../..");
    expect(await readFile(join(REPO, ".npmrc"), "utf8")).toMatch(/^install-links=true$/m);
    // npm ci refuses a folder without a lockfile; this one must hold our tested versions.
    const check = spawnSync(process.execPath, [join(ROOT, "scripts/recipe-repo-lock.mjs"), "--check"], {
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
    const lock = JSON.parse(await readFile(join(REPO, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version?: string; resolved?: string; dev?: boolean }>;
    };
    const root = JSON.parse(await readFile(join(ROOT, "package-lock.json"), "utf8")) as typeof lock;
    expect(lock.packages["node_modules/musicapi"]?.resolved).toBe("file:../..");
    expect(lock.packages["node_modules/better-sqlite3"]?.version).toBe(
      root.packages["node_modules/better-sqlite3"]?.version,
    );
    expect(lock.packages["node_modules/vitest"]).toBeUndefined();
  });
});

describe("examples/recipe-repo: every recipe runs against the emulator", () => {
  let h: Harness;
  let project: Project;

  beforeAll(async () => {
    h = await startHarness({ catalogueSize: 400, seed: 1 });
    // The repository's own project file, its secrets given as CI would give them.
    const loaded = await loadProjectFile(join(REPO, "musicsync.yaml"), {
      MUSICSYNC_AUTH: join(h.dir, "headers.json"),
      MUSICSYNC_STATE: join(h.dir, "repo.db"),
    });
    if (!loaded.project) throw new Error(loaded.issues.map((i) => i.message).join("; "));
    const copy = structuredClone(loaded.project) as { accounts: Record<string, { base_url: string | null }> };
    copy.accounts.default!.base_url = h.emulator.url;
    project = copy as unknown as Project;
  });
  afterAll(() => h?.stop());

  it("fits each recipe, applies it (something written), then plans no changes", async () => {
    const { recipes, issues } = await loadRecipePaths([join(REPO, "recipes")], { project });
    expect(issues).toEqual([]);
    expect(recipes.map((r) => r.recipe.id).sort()).toEqual(RECIPES);
    const env = createEnv({
      project,
      projectFile: join(REPO, "musicsync.yaml"),
      logger: createLogger("silent"),
      pacing: { minIntervalMs: 0, maxPerMinute: 0 },
    });
    try {
      const subs = await findSubstitutes(env.clientFor("default"));
      for (const r of recipes) {
        const { loaded, notes } = fitRecipe(r, subs);
        // Ids swapped for the emulator's are fine; a chart only premium accounts get is not.
        expect(notes.filter((n) => n.includes("no songs chart"))).toEqual([]);
        const run = await syncRecipe(loaded, env);
        const id = loaded.recipe.id;
        expect({ id, outcome: run.outcome, error: run.error }).toEqual({
          id,
          outcome: "converged",
          error: null,
        });
        expect(run.plan!.actions.length, `${id} wrote nothing`).toBeGreaterThan(0);
        const again = await planRecipe(loaded, env);
        expect({ id, actions: again.plan.actions }).toEqual({ id, actions: [] });
      }
    } finally {
      await env.close();
    }
  });
});

/** A new folder of shell scripts standing for commands (`npx`, `gh`), one per name, each given its lines. */
async function commandsFolder(prefix: string, scripts: Record<string, string[]>): Promise<string> {
  const bin = await mkdtemp(join(tmpdir(), prefix));
  for (const [name, lines] of Object.entries(scripts)) {
    await writeFile(join(bin, name), ["#!/bin/sh", ...lines, ""].join("\n"));
    await chmod(join(bin, name), 0o755);
  }
  return bin;
}

describe("examples/recipe-repo: the apply job and a plan held for approval", () => {
  let bin: string;
  beforeAll(async () => {
    // Stands for `npx musicsync …`: a sync whose plan is held (exit 5), status listing it, approve.
    bin = await commandsFolder("recipe-repo-ci-", {
      npx: [
        'echo "npx $*" >> "$CALLS"',
        'case "$*" in',
        '  "musicsync sync") echo "weekly-mix: Not applied: held for approval"; exit 5 ;;',
        `  "musicsync status --json") echo '{"approvals":[{"recipe":"weekly-mix","runId":7,"reason":"25 removals, over require_approval.removals 20","command":"musicsync approve 7"}]}' ;;`,
        '  "musicsync approve 7") echo "weekly-mix: Applied"; exit 0 ;;',
        "  *) exit 1 ;;",
        "esac",
      ],
    });
  });
  afterAll(() => rm(bin, { recursive: true, force: true }));

  async function applyStep(approve: string) {
    const wf = parseYaml(await readFile(join(REPO, ".github/workflows/musicsync.yml"), "utf8")) as {
      jobs: Record<string, { steps: { name?: string; run?: string }[] }>;
    };
    const script = wf.jobs.apply!.steps.find((s) => s.name === "Apply")!.run!;
    const summary = join(bin, `summary-${approve || "none"}`);
    const calls = join(bin, `calls-${approve || "none"}`);
    await writeFile(summary, "");
    await writeFile(calls, "");
    // As GitHub's runner runs a step: bash -eo pipefail.
    const r = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], {
      encoding: "utf8",
      env: {
        PATH: [bin, dirname(process.execPath), "/usr/bin", "/bin"].join(delimiter),
        GITHUB_STEP_SUMMARY: summary,
        APPROVE: approve,
        CALLS: calls,
      },
    });
    return { ...r, summary: await readFile(summary, "utf8"), calls: await readFile(calls, "utf8") };
  }

  it("fails the job with exit 5, naming the recipe, the reason and the run id to approve", async () => {
    const r = await applyStep("");
    expect(r.status, r.stderr).toBe(5);
    expect(r.stdout).toContain(
      "::error title=Held for approval::weekly-mix: held for approval: 25 removals, over require_approval.removals 20.",
    );
    expect(r.stdout).toContain("with approve = 7, which runs musicsync approve 7");
    expect(r.summary).toContain("weekly-mix: held for approval");
  });

  it("run by hand with approve = <run id>, applies that plan with musicsync approve", async () => {
    const r = await applyStep("7");
    expect(r.status, r.stderr).toBe(0);
    expect(r.calls.trim()).toBe("npx musicsync approve 7");
    expect(r.stdout).not.toContain("::error");
  });
});

describe("examples/recipe-repo: the plan job comments the plan, even when a recipe failed", () => {
  let bin: string;
  // The expressions the plan job's steps read, as GitHub would fill them in for pull request 42.
  const EXPRESSIONS: Record<string, string> = {
    "${{ github.token }}": "gh-token-of-the-job",
    "${{ github.event.pull_request.number }}": "42",
  };

  beforeAll(async () => {
    // `npx musicsync plan --markdown` prints $PLAN_TEXT and exits $PLAN_EXIT; `gh` keeps each
    // comment's body.
    bin = await commandsFolder("recipe-repo-plan-", {
      npx: [
        '[ "$*" = "musicsync plan --markdown" ] || exit 99',
        'printf "%s" "$PLAN_TEXT"',
        'exit "$PLAN_EXIT"',
      ],
      gh: [
        'echo "gh $*" >> "$CALLS"',
        'while [ "$#" -gt 0 ]; do [ "$1" = "--body-file" ] && cat "$2" >> "$BODIES"; shift; done',
      ],
    });
  });
  afterAll(() => rm(bin, { recursive: true, force: true }));

  /**
   * The plan job from its `musicsync plan` step on, as GitHub runs it: each step in bash -eo
   * pipefail, and after a failed step only those whose `if:` asks for always() or failure().
   */
  async function planJob(planExit: number, planText: string) {
    const wf = parseYaml(await readFile(join(REPO, ".github/workflows/musicsync.yml"), "utf8")) as {
      jobs: Record<string, { steps: { if?: string; run?: string; env?: Record<string, string> }[] }>;
    };
    const steps = wf.jobs.plan!.steps;
    const from = steps.findIndex((s) => s.run?.includes("musicsync plan"));
    const work = await mkdtemp(join(bin, "job-"));
    const files = { CALLS: join(work, "calls"), BODIES: join(work, "bodies") };
    for (const f of Object.values(files)) await writeFile(f, "");
    let code = 0;
    for (const step of steps.slice(from)) {
      if (!step.run) continue;
      if (code !== 0 && !/always\(\)|failure\(\)/.test(step.if ?? "")) continue;
      const env = Object.fromEntries(
        Object.entries(step.env ?? {}).map(([k, v]) => {
          if (!(v in EXPRESSIONS))
            throw new Error(`the plan job reads ${v}, which this test does not fill in`);
          return [k, EXPRESSIONS[v]!];
        }),
      );
      const r = spawnSync("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", step.run], {
        cwd: work,
        encoding: "utf8",
        timeout: 10_000,
        env: {
          PATH: [bin, "/usr/bin", "/bin"].join(delimiter),
          PLAN_EXIT: String(planExit),
          PLAN_TEXT: planText,
          ...files,
          ...env,
        },
      });
      if (code === 0) code = r.status ?? 1;
    }
    return { code, calls: await readFile(files.CALLS, "utf8"), bodies: await readFile(files.BODIES, "utf8") };
  }

  const FAILED_PLAN =
    "## musicsync plan\n\n| weekly-mix | | | | | | | | **failed** |\n\n1 of 3 recipes failed\n";

  it("comments the plan of a run where one recipe failed, then fails the job (exit 1)", async () => {
    const job = await planJob(1, FAILED_PLAN);
    expect(job.calls.trim()).toBe("gh pr comment 42 --body-file plan.md --edit-last");
    expect(job.bodies).toBe(FAILED_PLAN);
    expect(job.code).toBe(1);
  });

  it("comments a plan with changes and passes (exit 2), and fails on refused credentials (exit 4) after commenting", async () => {
    const pending = await planJob(2, "## musicsync plan\n\n+ 3 to add\n");
    expect(pending).toMatchObject({ code: 0, bodies: "## musicsync plan\n\n+ 3 to add\n" });
    const refused = await planJob(4, FAILED_PLAN);
    expect(refused).toMatchObject({ code: 4, bodies: FAILED_PLAN });
  });

  it("says there is no plan when the command printed none, so the last push's plan is not left standing", async () => {
    const job = await planJob(1, "");
    expect(job.code).toBe(1);
    expect(job.bodies).toBe(
      "No plan: `musicsync plan` exited 1 before planning a recipe; the job log says why.\n",
    );
  });
});
