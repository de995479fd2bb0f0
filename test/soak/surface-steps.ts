/**
 * The seed's surfaces (surfaces.ts) woven into its runs: soak.ts calls these at a few
 * points — when it arms the seed, before and after each run, for each recipe it syncs in process,
 * and when a run is made through the page or as a `sync` process with notification targets down.
 * Each surface's own rules are in its module (page.ts, approval.ts, file-attacks.ts,
 * notify-down.ts); this file only knows when they apply.
 */
import type { LoadedRecipe, Project } from "../../engine/recipe/types.js";
import type { EngineEnv, RecipeRun } from "../../engine/run/runner.js";
import { syncRecipe } from "../../engine/run/runner.js";
import { harnessJson } from "../support/harness-fetch.js";
import type { Harness } from "../support/sync-harness.js";
import { WRITE_ENDPOINTS } from "../support/sync-harness.js";
import { judgeApproval } from "./approval.js";
import {
  hungMs,
  judgeRead,
  MAX_RSS,
  type PlacedAttack,
  placeAttack,
  processBounds,
  validateInProcess,
  validateProcess,
  withinLimit,
} from "./file-attacks.js";
import { type Random, type RecipeSpec, rng } from "./generate.js";
import type { Found, Model } from "./invariants.js";
import { javascriptStack, runKilled } from "./kill.js";
import { type NotifyDown, startNotifyDown } from "./notify-down.js";
import { actThroughPage, type PageOutcome } from "./page.js";
import { sourceFilePath } from "./source-files.js";
import { describeSurfaces, type SurfaceOptions, type Surfaces, surfacesOf } from "./surfaces.js";

/** What the steps need of the seed, for one run (`leaks` and `report` name that run). */
export interface SurfaceHost {
  h: Harness;
  recipesDir: string;
  models: readonly Model[];
  loaded(): ReadonlyMap<string, LoadedRecipe>;
  /** `musicsync` as a process, or null where the real process is not run (light seeds). */
  command: readonly string[] | null;
  trace(line: string): void;
  leaks(where: string, text: string): void;
  report(recipe: string, found: readonly Found[]): void;
  /** Writes the recipes (and their files) again and reloads them. */
  rewrite(): Promise<void>;
}

/** Writes and searches the service has received so far (one read of the emulator's counts). */
export async function serviceCounts(h: Harness): Promise<{ writes: number; searches: number }> {
  const stats = await harnessJson<{ requests: Record<string, number> }>(`${h.emulator.url}/_emulator/stats`);
  const writes = WRITE_ENDPOINTS.reduce((n, e) => n + (stats.requests[e] ?? 0), 0);
  return { writes, searches: stats.requests.search ?? 0 };
}

/** A static list to a playlist or likes: a list the soak can write as a file of its own. */
const fileable = (spec: RecipeSpec) =>
  spec.source.type === "static" && (spec.target.type === "playlist" || spec.target.type === "likes");

/** One recipe synced in process: its run (or what it threw), whether it hung, what it sent. */
export interface Attempt {
  /**
   * Its run; under a file attack its outcome says so (`file attack: no_changes`), since what it
   * read is no longer the list the soak computes desired from.
   */
  run: RecipeRun | null;
  error: unknown;
  hung: boolean;
  writes: number;
  searches: number;
}

export class SeedSurfaces {
  private attack: PlacedAttack | null = null;
  private notifyDown: NotifyDown | null = null;
  /** The page's own choices (which hostile Host, in which order): never the seed's main generator. */
  private readonly r: Random;

  constructor(
    seed: number,
    readonly surfaces: Surfaces,
  ) {
    this.r = rng(seed + 0x22e3);
  }

  /** A seed with none of them (until `arm`). */
  static none(seed: number): SeedSurfaces {
    const none: Surfaces = {
      page: null,
      approval: new Map(),
      savedPlan: null,
      files: new Map(),
      fileAttack: null,
      notify: null,
    };
    return new SeedSurfaces(seed, none);
  }

  /** Draws the seed's surfaces and gives its recipes their thresholds and files (before run 1). */
  static async arm(
    seed: number,
    host: SurfaceHost,
    draw: { runs: number; processRuns: ReadonlySet<number>; hostileRun: number | null },
    options: SurfaceOptions,
  ): Promise<SeedSurfaces> {
    const specs = host.models.map((m) => m.spec);
    const surfaces = surfacesOf(
      seed,
      draw.runs,
      draw.processRuns,
      draw.hostileRun,
      specs.map((spec) => ({ fileable: fileable(spec) })),
      options,
    );
    for (const [i, rule] of surfaces.approval) specs[i]!.policy.require_approval = rule;
    for (const [i, format] of surfaces.files)
      specs[i]!.file = { path: sourceFilePath(specs[i]!.id, format).fromRecipe, format };
    const armed = new SeedSurfaces(seed, surfaces);
    if (surfaces.approval.size > 0 || surfaces.files.size > 0) await host.rewrite();
    const words = describeSurfaces(surfaces);
    if (words.length > 0) host.trace(`surfaces: ${words.join(", ")}`);
    return armed;
  }

  describe(): string[] {
    return describeSurfaces(this.surfaces);
  }

  /**
   * Before run `run`: the seed's file attack, if this is its run, placed and read by `sync -r` and
   * `validate` (as processes where the seed runs them, and `validate` in this process).
   */
  async beforeRun(host: SurfaceHost, run: number): Promise<void> {
    const fa = this.surfaces.fileAttack;
    if (!fa || fa.run !== run) return;
    const spec = host.models[fa.recipe]!.spec;
    const a = await placeAttack(
      { h: host.h, spec, recipesDir: host.recipesDir, rewrite: () => host.rewrite() },
      fa.kind,
    );
    this.attack = a;
    host.trace(`  file attack: the file of ${spec.id} is now a ${fa.kind}`);
    const projectFile = host.h.projectFile;
    if (host.command) {
      host.report(spec.id, await this.syncProcess(host, a, host.command, projectFile));
      const v = await validateProcess(a, host.command, projectFile);
      host.leaks("validate (process) with an attacked file", v.text);
      host.report(spec.id, v.found);
    }
    // /dev/zero only in a process of its own (file-attacks.ts).
    if (fa.kind !== "dev-zero") {
      const v = await validateInProcess(a, projectFile);
      host.leaks("validate with an attacked file", v.text);
      host.report(spec.id, v.found);
    }
  }

  /** `sync -r <recipe> --json` as a process on the attacked file: bounded, refused, nothing sent. */
  private async syncProcess(
    host: SurfaceHost,
    a: PlacedAttack,
    command: readonly string[],
    projectFile: string,
  ): Promise<Found[]> {
    const before = await serviceCounts(host.h);
    const p = await runKilled(command, ["sync", "-r", a.recipeId, "--json", "-p", projectFile], null, 0, {
      limitMs: hungMs(),
      maxRssBytes: MAX_RSS,
    });
    const after = await serviceCounts(host.h);
    host.trace(
      `  file attack: sync -r ${a.recipeId} (process): ${p.hung ? "hung" : p.overMemory ? "over memory" : `exit ${p.exitCode}`}`,
    );
    // What a process killed as hung was last doing (its debug log): the trace names the wait.
    if (p.hung) host.trace(`    its stack when killed: ${javascriptStack(p.stderr)}`);
    host.leaks("sync stdout (attacked file)", p.stdout);
    host.leaks("sync stderr (attacked file)", p.stderr);
    const bounds = processBounds(a, "sync (process)", p);
    if (bounds.length > 0) return bounds;
    let outcome = "threw";
    let error = p.stderr;
    try {
      const r = (
        JSON.parse(p.stdout) as { runs: { recipe: string; outcome: string; error: string | null }[] }
      ).runs.find((x) => x.recipe === a.recipeId);
      outcome = r?.outcome ?? "absent";
      error = `${r?.error ?? ""}\n${p.stderr}`;
    } catch {
      // No report: a refusal before any plan, said on stderr.
    }
    return judgeRead(a, "sync (process)", {
      hung: false,
      outcome,
      error,
      writes: after.writes - before.writes,
      searches: after.searches - before.searches,
    });
  }

  /** After run `run`: the attacked file put back. */
  async afterRun(): Promise<void> {
    const a = this.attack;
    this.attack = null;
    await a?.restore();
  }

  /** Whether this recipe is not to be synced in this process this run (its file is /dev/zero). */
  skipsInProcess(recipeId: string): boolean {
    return this.attack?.kind === "dev-zero" && this.attack.recipeId === recipeId;
  }

  /**
   * One recipe synced in this process (as soak.ts's runs do), counted at the service, bounded when
   * its file is under attack, and judged for the surfaces: approval, the attack.
   */
  async syncOne(host: SurfaceHost, loaded: LoadedRecipe, env: EngineEnv, approve: boolean): Promise<Attempt> {
    const id = loaded.recipe.id;
    const before = await serviceCounts(host.h);
    const attacked = this.attack?.recipeId === id ? this.attack : null;
    const sync = () => syncRecipe(loaded, env, { approve });
    const done = attacked
      ? await withinLimit(sync(), attacked.release)
      : await sync().then(
          (value) => ({ value, hung: false }),
          (error: unknown) => ({ error, hung: false }),
        );
    const after = await serviceCounts(host.h);
    const run = "value" in done && done.value ? done.value : null;
    const a: Attempt = {
      run: run && attacked ? { ...run, outcome: `file attack: ${run.outcome}` as RecipeRun["outcome"] } : run,
      error: "error" in done ? done.error : done.hung ? new Error("still running past the limit") : null,
      hung: done.hung,
      writes: after.writes - before.writes,
      searches: after.searches - before.searches,
    };
    if (attacked)
      host.report(
        id,
        judgeRead(attacked, "sync (in process)", {
          hung: a.hung,
          outcome: run ? run.outcome : "threw",
          error: run ? (run.error ?? "") : a.error instanceof Error ? a.error.message : String(a.error),
          writes: a.writes,
          searches: a.searches,
        }),
      );
    const rule = loaded.recipe.policy.require_approval;
    if (rule && run) {
      // The newest by id: a process's runs carry the real clock, this process's a virtual one.
      const [newest] = (await env.state.runs(id, 100)).sort((x, y) => y.id - x.id);
      host.report(
        id,
        judgeApproval(rule, { ...run, writes: a.writes, recorded: newest?.result ?? null }, approve),
      );
    }
    return a;
  }

  /** The recipe this run acts on through the status page, or null. */
  pageRecipe(host: SurfaceHost, run: number): string | null {
    const page = this.surfaces.page;
    if (!page || page.run !== run) return null;
    const ids = [...host.loaded().keys()];
    return ids[run % ids.length] ?? null;
  }

  /** The action posted through the page, the hostile requests before it judged. */
  async throughPage(
    host: SurfaceHost,
    route: { project: Project; projectFile: string },
    env: EngineEnv,
    recipeId: string,
  ): Promise<PageOutcome> {
    const outcome = await actThroughPage(
      {
        project: route.project,
        projectFile: route.projectFile,
        env,
        recipes: [...host.loaded().values()],
        writes: async () => (await serviceCounts(host.h)).writes,
        runs: async () => (await env.state.recentRuns({ limit: 100_000 })).length,
        leaks: host.leaks,
        trace: host.trace,
        r: this.r,
      },
      this.surfaces.page!.action,
      recipeId,
    );
    host.report("*", outcome.found);
    return outcome;
  }

  /** Whether this run is made as `plan -o` then `apply` processes (approval.ts). */
  savedPlanRun(run: number): boolean {
    return this.surfaces.savedPlan?.run === run;
  }

  /** The notify-down project and secret environment for this run's `sync` process, or null. */
  async notifyRoute(host: SurfaceHost, run: number, projectFile: string): Promise<NotifyDown | null> {
    if (this.surfaces.notify?.run !== run) return null;
    await this.notifyDown?.close();
    this.notifyDown = await startNotifyDown(host.h.dir, projectFile);
    host.trace(`  notify: every target down (${this.notifyDown.projectFile})`);
    return this.notifyDown;
  }

  async close(): Promise<void> {
    await this.afterRun().catch(() => {});
    await this.notifyDown?.close();
    this.notifyDown = null;
  }
}
