/**
 * One seed of the soak: an emulator of its own, 1–2 random recipes, 3–5 runs of the real engine
 * with faults at random rates and the person editing between them, now and then the real
 * `musicsync` process killed at a random point, then one fault-free run that must settle. After
 * every run the promises (invariants.ts) are checked by reading the service back without faults.
 * The attacks of attacks.ts join in: in some seeds one or two runs go through a proxy that echoes
 * the credentials back (echo.ts), and a hostile recipe file sits beside the recipes (hostile.ts).
 * The surfaces join in too (surfaces.ts, surface-steps.ts): a run made through the status
 * page after hostile requests, recipes holding big removals for approval, file sources swapped for
 * links, pipes and huge files, and notification targets that are all down.
 * The engine's state is SQLite, or — given a server — a fresh PostgreSQL database (state.ts); there,
 * some seeds have a fleet of real workers between two runs, under database faults (fleet.ts).
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { PlanAction, PlanLine } from "../../engine/plan/types.js";
import { loadRecipePaths } from "../../engine/recipe/load.js";
import type { LoadedRecipe, Project } from "../../engine/recipe/types.js";
import { renderPlansJson } from "../../engine/render/json.js";
import { renderPlanText } from "../../engine/render/text.js";
import { createEnv } from "../../engine/run/env.js";
import { createLogger } from "../../engine/run/logger.js";
import { planRecipe, type RecipeRun } from "../../engine/run/runner.js";
import { credentialSecrets, describePieces, findCredentialPieces } from "../support/credential-leaks.js";
import { harnessFetch } from "../support/harness-fetch.js";
import { hostileRecipes } from "../support/hostile-recipes.js";
import type { PostgresServer } from "../support/postgres-server.js";
import { catalogueSongs, type Harness, startHarness, virtualClock } from "../support/sync-harness.js";
import { heldPlanStep, judgeHeldSync } from "./approval.js";
import { type Attacks, attacksOf } from "./attacks.js";
import { captureLog } from "./capture.js";
import { type EchoRoute, requestSecrets, startEchoRoute } from "./echo.js";
import { runFleet } from "./fleet.js";
import { type FleetMode, type FleetPlan, fleetPlanOf } from "./fleet-plan.js";
import {
  type Catalogue,
  chance,
  desiredOf,
  edits,
  exact,
  type FaultPlan,
  faultPlan,
  int,
  type Random,
  type RecipeSpec,
  recipeSpec,
  recipeYaml,
  rng,
  shuffled,
} from "./generate.js";
import { dropHostile, type HostileContext, removeHostile } from "./hostile.js";
import {
  type Claim,
  checkAppendKeeps,
  checkConfirmed,
  checkDuplicates,
  checkNoRunning,
  checkOnePlaylist,
  checkPersonKept,
  checkPlaylistDesired,
  checkQuarantine,
  checkRefusedWrites,
  checkSetDesired,
  claimsConverged,
  type Found,
  type Model,
  newModel,
  quarantineSaid,
  reportedQuarantine,
  type Violation,
} from "./invariants.js";
import { musicsyncCommand, type ProcessRun, runKilled } from "./kill.js";
import { findLeaks, secretsOfHeaders } from "./leaks.js";
import { checkNotifyDown, type NotifyDown } from "./notify-down.js";
import { type EditContext, edit, undoneByHand } from "./person.js";
import {
  disliked,
  type LibraryPlaylist,
  libraryPlaylists,
  liked,
  playlistState,
  setTargetState,
  type TargetState,
} from "./readback.js";
import { writeSourceFiles } from "./source-files.js";
import { loseState, type SeedState, stateRuns, stateTexts } from "./state.js";
import { SeedSurfaces, type SurfaceHost } from "./surface-steps.js";
import type { SurfaceOptions } from "./surfaces.js";

export interface SoakOptions {
  /** Kill the real process in some runs of this seed: `auto` = one seed in five. */
  kill?: boolean | "auto";
  /** How to start `musicsync` (default: the compiled build if there is one, else tsx). */
  command?: readonly string[];
  /** Highest fault rate of an in-process run (default 0.3; a process run gets a third of it). */
  maxFaultRate?: number;
  /** The seed's story, one line per step (runs, edits, outcomes), for reproducing a violation. */
  trace?: (line: string) => void;
  /** Runs through the credential-echo proxy: `auto` (default) = one seed in six, chosen by the seed. */
  echo?: boolean | "auto";
  /** Hostile recipe files to draw from (default `all`; `light` leaves out the ones that take seconds). */
  hostile?: "all" | "light" | "none";
  /** The server on which the seed's state gets a fresh database (default: SQLite, `state.db` in its folder). */
  postgres?: PostgresServer;
  /** The surfaces (surfaces.ts): `all` (default), `light` (no /dev/zero, no process variants), `none`. */
  surfaces?: SurfaceOptions["level"];
  /** Surfaces switched on or off whatever the seed draws (the fixed seeds of `npm test`). */
  force?: SurfaceOptions["force"];
  /** On PostgreSQL, a fleet of workers between two runs (fleet-plan.ts; default `auto`: one seed in two). */
  fleet?: FleetMode;
}

export interface SeedResult {
  seed: number;
  violations: Violation[];
  runs: number;
  kills: number;
  /** Runs that went through the credential-echo proxy. */
  echoRuns: number;
  /** The hostile recipe file dropped beside the recipes, if any. */
  hostile: string | null;
  /** The surfaces the seed had (surfaces.ts `describeSurfaces`). */
  surfaces: string[];
  /** What the seed's fleet of workers was and what was done to it (fleet-plan.ts), if it had one. */
  fleet?: string;
  ms: number;
}

/** What one run reported for one recipe. */
interface Report {
  claim: Claim;
  /** The plan's actions (in-process runs only), to check each confirmed one against the read-back. */
  actions: PlanAction[] | null;
  outcomes: { seq: number; status: string }[];
  quarantined: Set<string>;
  /** Guards that make the soak's own desired unreliable for this run (a source read cut short). */
  sourceGuarded: boolean;
  /** Write requests the run sent (null when it did not say). */
  requests: number | null;
  /** Whether the run went through the echo proxy (every write refused). */
  echo: boolean;
  /** Whether the run was an undo of an earlier one (through the status page). */
  undo?: boolean;
}

interface Seed {
  seed: number;
  r: Random;
  h: Harness;
  secrets: string[];
  recipesDir: string;
  models: Model[];
  catalogue: Catalogue;
  recipePool: string[];
  personPool: string[];
  violations: Violation[];
  /** Recipe id → whether its last run confirmed every write. */
  settled: Map<string, boolean>;
  adopted: Map<string, string>;
  trace: (line: string) => void;
  clock: ReturnType<typeof virtualClock>;
  loaded: Map<string, LoadedRecipe>;
  /** Ids the soak knows to be available: none should ever be quarantined. */
  good: Set<string>;
  /**
   * Whether the current run's faults include `failed-status`: then the service itself refused, and
   * an id refused twice in a row is quarantined by the engine's documented rule (seed 265).
   */
  refusing?: boolean;
  /** Playlists of the library before the first run (the person's own): never opened again. */
  known: Set<string>;
  /** How to start the real `musicsync`. */
  command: readonly string[];
  /** Whether this seed runs the real process (its hostile step checks the process's `validate`). */
  processSeed: boolean;
  attacks: Attacks;
  echo: EchoRoute | null;
  /** Echo requests whose secrets are already in `secrets`. */
  echoSeen: number;
  /** Echo answers already checked by `checkEchoed`. */
  echoSent: number;
  /** Where the engine's state is (state.ts): every read of it goes through openState. */
  state: SeedState;
  /** The surfaces of the seed (none until `arm`). */
  surfaces: SeedSurfaces;
}

function report(s: Seed, run: number, recipe: string, found: readonly Found[]) {
  for (const f of found) s.violations.push({ seed: s.seed, run, recipe, ...f });
}

async function catalogueOf(h: Harness): Promise<Catalogue> {
  const q = (sql: string) =>
    (h.emulator.state.store.sqlite.prepare(sql).all() as { v: string }[]).map((x) => x.v);
  const rated = new Set([...(await liked(h)), ...disliked(h)]);
  return {
    songs: catalogueSongs(h, 150),
    rated,
    episodes: q("SELECT video_id AS v FROM episodes ORDER BY id LIMIT 40"),
    artists: q("SELECT channel_id AS v FROM artists WHERE kind = 'artist' ORDER BY id LIMIT 20"),
    albums: q("SELECT browse_id AS v FROM albums ORDER BY id LIMIT 20"),
    podcasts: q("SELECT playlist_id AS v FROM podcasts ORDER BY id LIMIT 10"),
    words: q("SELECT title AS v FROM songs ORDER BY id LIMIT 30").map((t) => t.split(/\s+/)[0] ?? "a"),
  };
}

/** 1–2 recipes, never two writing the same kind of target. */
function specsOf(s: Seed): RecipeSpec[] {
  const count = chance(s.r, 0.3) ? 2 : 1;
  const specs: RecipeSpec[] = [];
  const kindOf = (x: RecipeSpec) =>
    x.target.type === "playlist" ? `playlist:${specs.length}` : JSON.stringify(x.target);
  for (let tries = 0; specs.length < count && tries < 20; tries++) {
    const spec = recipeSpec(s.r, s.seed, specs.length + 1, s.catalogue, s.recipePool);
    const clash = specs.some((o) => o.target.type === spec.target.type && o.target.type !== "playlist");
    if (!clash || kindOf(spec).startsWith("playlist")) specs.push(spec);
  }
  return specs;
}

/** The person's playlists a recipe reads (a playlist source) or adopts (clean), made before run 1. */
async function prepare(s: Seed, m: Model) {
  const spec = m.spec;
  const p = s.h.person;
  if (spec.source.type === "playlist") {
    const ids = shuffled(s.r, s.recipePool).slice(0, int(s.r, 4, 14));
    spec.source.playlistId = String(await p.createPlaylist(`Source ${spec.id}`, "", { videoIds: ids }));
  }
  if (spec.target.type === "adopted") {
    const ids = shuffled(s.r, s.recipePool).slice(0, int(s.r, 4, 10));
    const pid = String(await p.createPlaylist(`Clean me ${spec.id}`, "", { videoIds: ids }));
    await p.addPlaylistItems(pid, ids.slice(0, int(s.r, 1, 3)), { duplicates: true });
    spec.target.playlistId = pid;
    s.adopted.set(spec.id, pid);
    for (const r of (await playlistState(s.h, pid)).rows ?? []) {
      m.personRows.set(r.setVideoId, r.videoId);
      m.personCopies.set(r.videoId, (m.personCopies.get(r.videoId) ?? 0) + 1);
    }
  }
}

async function writeRecipes(s: Seed) {
  await mkdir(s.recipesDir, { recursive: true });
  for (const m of s.models) await writeFile(join(s.recipesDir, `${m.spec.id}.yaml`), recipeYaml(m.spec));
  await writeSourceFiles(
    s.h.dir,
    s.models.map((m) => m.spec),
  );
  const project = { ...s.h.project };
  const { recipes, issues } = await loadRecipePaths([s.recipesDir], {
    project,
    projectFile: s.h.projectFile,
  });
  // A recipe pointed outside the project (the `outside` file attack) is refused by the loader, as it
  // should be: the attack checks that refusal itself, and this process skips the recipe meanwhile.
  const outside = new Set(
    s.models
      .filter((m) => m.spec.file?.path.startsWith(".."))
      .map((m) => join(s.recipesDir, `${m.spec.id}.yaml`)),
  );
  const invalid = issues.filter((i) => !outside.has(i.file));
  if (invalid.length > 0) throw new Error(`soak recipe invalid: ${invalid.map((i) => i.message).join("; ")}`);
  const now = new Map(recipes.map((r) => [r.recipe.id, r]));
  const before = s.loaded;
  s.loaded = new Map();
  for (const m of s.models) {
    const loaded = now.get(m.spec.id) ?? pointedOutside(before.get(m.spec.id), m.spec, s.recipesDir);
    if (loaded) s.loaded.set(m.spec.id, loaded);
  }
}

/**
 * The recipe as loaded before its file source was pointed outside the project, now reading the
 * outside file: what a recipe loaded before a swap would do, so this process's sync meets the
 * read's own confinement check (engine/files/read-regular.ts), which must refuse it too.
 */
function pointedOutside(
  loaded: LoadedRecipe | undefined,
  spec: RecipeSpec,
  recipesDir: string,
): LoadedRecipe | undefined {
  if (!loaded || !spec.file) return loaded;
  const path = resolve(recipesDir, spec.file.path);
  const sources = loaded.recipe.sources.map((src) => (src.type === "file" ? { ...src, path } : src));
  return { ...loaded, recipe: { ...loaded.recipe, sources } };
}

/** The library's playlists as `libraryPlaylists` reads them: read at the first call, then the same. */
type Library = () => Promise<LibraryPlaylist[]>;

/**
 * One read of the library for a round of read-backs in which nothing writes (the checks after a
 * run, the rows before it): each playlist recipe's check wanted it twice (to find its playlist, and
 * to count the playlists with its marker), and each read opens every playlist the engine made.
 */
function libraryOnce(s: Seed): Library {
  let read: Promise<LibraryPlaylist[]> | null = null;
  return () => {
    read ??= libraryPlaylists(s.h, s.known);
    return read;
  };
}

async function playlistOf(s: Seed, m: Model, library: Library = libraryOnce(s)): Promise<string | null> {
  const adopted = s.adopted.get(m.spec.id);
  if (adopted) return adopted;
  const marked = (await library()).filter((p) => p.marker === m.spec.id);
  return marked[0]?.id ?? null;
}

async function faults(s: Seed, plan: FaultPlan | null) {
  if (plan) await s.h.faults({ config: plan });
  else await harnessFetch(`${s.h.emulator.url}/_emulator/faults`, { method: "DELETE" });
}

/** The secrets to look for: the harness's, and those of every request the echo proxy saw so far. */
function secretsNow(s: Seed): string[] {
  const requests = s.echo?.server.requests ?? [];
  for (; s.echoSeen < requests.length; s.echoSeen++)
    for (const x of requestSecrets(requests[s.echoSeen]!.headers))
      if (!s.secrets.includes(x)) s.secrets.push(x);
  return s.secrets;
}

/** The shared credential checker (docs/ENGINE.md#credentials: every spelling it knows), then the soak's own (base64 inside any run). */
function leaks(s: Seed, run: number, where: string, text: string) {
  const secrets = secretsNow(s);
  const shared = findCredentialPieces(text, secrets);
  const own = findLeaks(text, secrets);
  if (shared.length > 0 || own.length > 0)
    report(s, run, "*", [
      {
        invariant: "no-credential-leak",
        detail: `${where}: ${describePieces(shared)}${own.map((f) => `; ${f.encoding} ${f.piece}`).join("")}`,
      },
    ]);
}

const SOURCE_GUARDS = new Set(["source_truncated", "too_few_items", "target_truncated", "overflow"]);

/** Where a run's requests go: straight to the emulator, or through the echo proxy. */
interface Route {
  project: Project;
  projectFile: string;
  echo: boolean;
  /** A `sync` process run on a project whose notification targets are all down (notify-down.ts). */
  notify?: NotifyDown;
}

function routeOf(s: Seed, echo: boolean): Route {
  if (echo && s.echo) return { project: s.echo.project, projectFile: s.echo.projectFile, echo: true };
  return { project: s.h.project, projectFile: s.h.projectFile, echo: false };
}

/** What the surface steps (surface-steps.ts) need of the seed during run `run`. */
function surfaceHost(s: Seed, run: number, light = false): SurfaceHost {
  return {
    h: s.h,
    recipesDir: s.recipesDir,
    models: s.models,
    loaded: () => s.loaded,
    // Light seeds (`npm test`) read attacked files in this process only.
    command: light ? null : s.command,
    trace: s.trace,
    leaks: (where, text) => leaks(s, run, where, text),
    report: (recipe, found) => report(s, run, recipe, found),
    rewrite: () => writeRecipes(s),
  };
}

/** What an in-process run of one recipe reported, its plan and error scanned for credentials. */
function reportOf(s: Seed, run: number, r: RecipeRun, echo: boolean): Report {
  const plan = r.plan;
  if (plan) leaks(s, run, `plan of ${r.recipeId}`, renderPlansJson([plan]) + renderPlanText(plan));
  leaks(s, run, `error of ${r.recipeId}`, r.error ?? "");
  s.trace(
    `  ${r.recipeId}: ${r.outcome}${r.error ? ` (${r.error.slice(0, 160)})` : ""} ${JSON.stringify(plan?.summary ?? {})}${plan && plan.guards.length > 0 ? ` guards ${plan.guards.map((g) => g.guard).join(",")}` : ""}`,
  );
  return {
    claim: {
      outcome: r.outcome,
      guards: plan?.guards ?? [],
      errors: plan?.errors ?? [],
      quarantined: reportedQuarantine(r),
    },
    actions: plan?.actions ?? null,
    outcomes: r.apply?.outcomes ?? [],
    quarantined: new Set(r.apply?.quarantined ?? []),
    sourceGuarded: (plan?.guards ?? []).some((g) => SOURCE_GUARDS.has(g.guard)),
    requests: r.apply?.requests ?? null,
    echo,
  };
}

function threwReport(s: Seed, run: number, id: string, e: unknown, echo: boolean): Report {
  leaks(s, run, `thrown by ${id}`, e instanceof Error ? `${e.message}\n${e.stack}` : String(e));
  s.trace(`  ${id}: threw ${e instanceof Error ? e.message.slice(0, 160) : String(e)}`);
  return {
    claim: { outcome: "threw", guards: [], errors: [] },
    actions: null,
    outcomes: [],
    quarantined: new Set(),
    sourceGuarded: false,
    requests: null,
    echo,
  };
}

/**
 * Every recipe synced in this process (as the daemon and the CLI do), with a log to scan; held
 * plans applied all the same with `approve` (the settle). One recipe's run may be an action through
 * the status page (page.ts); each sync is also judged for the seed's surfaces (surface-steps.ts).
 */
async function runInProcess(
  s: Seed,
  run: number,
  route: Route,
  approve = false,
): Promise<Map<string, Report>> {
  const log = captureLog();
  const env = createEnv({
    project: route.project,
    projectFile: route.projectFile,
    logger: createLogger("debug", log.stream),
    clock: s.clock,
    pacing: { minIntervalMs: 0, maxPerMinute: 0, baseDelayMs: 100 },
  });
  const out = new Map<string, Report>();
  const host = surfaceHost(s, run);
  const page = s.surfaces.pageRecipe(host, run);
  try {
    for (const loaded of s.loaded.values()) {
      const id = loaded.recipe.id;
      if (id === page && (await pageStep(s, run, route, env, id, out))) continue;
      if (s.surfaces.skipsInProcess(id)) continue;
      const a = await s.surfaces.syncOne(host, loaded, env, approve);
      out.set(id, a.run ? reportOf(s, run, a.run, route.echo) : threwReport(s, run, id, a.error, route.echo));
    }
  } finally {
    await env.close();
  }
  leaks(s, run, "log", log.text());
  return out;
}

/**
 * The run's action through the status page (page.ts), reported as the recipe's run when it is one
 * ("run now", "undo", "approve"); false when the recipe is still to be synced ("plan", "resume").
 * An approved plan is judged against desired only when it is of the recipe as it stands (same hash,
 * a static list): a plan held before the person changed the recipe or its source wanted the old list.
 */
async function pageStep(
  s: Seed,
  run: number,
  route: Route,
  env: ReturnType<typeof createEnv>,
  id: string,
  out: Map<string, Report>,
): Promise<boolean> {
  const m = s.models.find((x) => x.spec.id === id)!;
  const o = await s.surfaces.throughPage(surfaceHost(s, run), route, env, id);
  if (o.action === "plan" || o.action === "resume") return false;
  const plan = o.plans.at(-1) ?? null;
  const current =
    plan?.recipe.hash === s.loaded.get(id)?.hash && m.spec.source.type === "static" && !m.spec.file;
  const judged = o.action === "run" || (o.action === "approve" && current);
  const said = o.outcome ?? `unsaid (HTTP ${o.status})`;
  const outcome = (judged ? said : `${o.action}: ${said}`) as RecipeRun["outcome"];
  const rep = reportOf(s, run, { recipeId: id, plan, apply: null, outcome, error: null }, route.echo);
  out.set(id, { ...rep, undo: o.action === "undo" });
  return true;
}

/**
 * Half the time the saved-plan path: `plan -o file` (its output and file scanned too), then the
 * arguments of `apply file`; null when the plan had nothing to apply or failed.
 */
async function savedPlan(
  s: Seed,
  run: number,
  command: readonly string[],
  projectFile: string,
): Promise<string[] | null> {
  const file = join(s.h.dir, `plan-${run}.json`);
  const planned = await runKilled(command, ["plan", "-o", file, "-p", projectFile], null, 0);
  s.trace(`  process: plan -o, exit ${planned.exitCode}`);
  leaks(s, run, "plan stdout", planned.stdout);
  leaks(s, run, "plan stderr", planned.stderr);
  if (existsSync(file)) leaks(s, run, "plan file", await readFile(file, "utf8"));
  return planned.exitCode === 2 ? ["apply", file, "--json", "-p", projectFile] : null;
}

interface RunJson {
  recipe: string;
  outcome: string;
  error: string | null;
  requests?: number;
  guards?: { guard: string; blocks: string }[];
  /** The plan's skipped lines, and the ids this run's apply quarantined. */
  skipped?: PlanLine[];
  quarantined?: string[];
}

/** The reports of `sync --json` / `apply --json`, or a violation when it printed none. */
function processReports(s: Seed, run: number, p: ProcessRun, faultFree: boolean, echo: boolean) {
  const reports = new Map<string, Report>();
  try {
    for (const r of (JSON.parse(p.stdout) as { runs: RunJson[] }).runs) {
      s.trace(`  ${r.recipe}: ${r.outcome}${r.error ? ` (${r.error.slice(0, 160)})` : ""}`);
      // The JSON names the plan's guards (max_removals…), but a fault may also have cut a read short
      // unseen (the target's included, which holds every write back: "all").
      const guards = faultFree ? (r.guards ?? []) : [{ guard: "unknown", blocks: "all" }];
      // What it skipped as quarantined, said in its report, excuses those ids as a run's plan does.
      const quarantined = quarantineSaid(r.skipped ?? [], r.quarantined ?? []);
      reports.set(r.recipe, {
        claim: { outcome: r.outcome, guards, errors: [], quarantined },
        actions: null,
        outcomes: [],
        quarantined: new Set(r.quarantined ?? []),
        sourceGuarded: !faultFree,
        requests: r.requests ?? null,
        echo,
      });
    }
  } catch {
    report(s, run, "*", [
      {
        invariant: "reported-equals-readback",
        detail: `exit ${p.exitCode} without a JSON report: ${p.stdout.slice(0, 200)} ${p.stderr.slice(-300)}`,
      },
    ]);
  }
  return reports;
}

/** `apply` of a saved plan that would hold recipes: checked without `--approve` first (approval.ts). */
async function heldApply(s: Seed, run: number, command: readonly string[], route: Route, apply: string[]) {
  const step = await heldPlanStep(
    {
      command,
      projectFile: route.projectFile,
      readPlan: (file) => readFile(file, "utf8"),
      writes: () => s.h.writes(),
      newestRun: async (id) =>
        (await stateRuns(s.state)).filter((x) => x.recipe === id).sort((a, b) => b.id - a.id)[0] ?? null,
      leaks: (where, text) => leaks(s, run, where, text),
      trace: s.trace,
    },
    apply,
  );
  report(s, run, "*", step.found);
  return step;
}

/** The real process: `musicsync sync --json`, killed after a random log line (or not at all). */
async function runProcess(
  s: Seed,
  run: number,
  command: readonly string[],
  faultFree: boolean,
  route: Route,
): Promise<{ killed: boolean; reports: Map<string, Report> }> {
  // At debug level the engine logs a line per action sent (and little else): a kill after the
  // first few, a little later, lands before, inside or after a write, and now and then after the last.
  const killAt = chance(s.r, 0.9) ? int(s.r, 1, 4) : null;
  let args = ["sync", "--json", "-p", route.projectFile];
  let done: ProcessRun | null = null;
  if (chance(s.r, 0.5)) {
    const apply = await savedPlan(s, run, command, route.projectFile);
    if (!apply) return { killed: false, reports: new Map() };
    ({ args, done } = await heldApply(s, run, command, route, apply));
  }
  return judgedProcess(s, run, { command, args, killAt, delayMs: int(s.r, 0, 40), done }, faultFree, route);
}

/**
 * One `musicsync` process of a run (already run when `done`), its output scanned and its report
 * read; a `sync` that held every recipe sent nothing, and one with notify targets down is checked
 * for them (notify-down.ts).
 */
async function judgedProcess(
  s: Seed,
  run: number,
  how: {
    command: readonly string[];
    args: string[];
    killAt: number | null;
    delayMs: number;
    done: ProcessRun | null;
  },
  faultFree: boolean,
  route: Route,
): Promise<{ killed: boolean; reports: Map<string, Report> }> {
  const { args, killAt } = how;
  const before = await s.h.writes();
  const p =
    how.done ??
    (await runKilled(how.command, args, killAt, how.delayMs, route.notify ? { env: route.notify.env } : {}));
  const wrote = (await s.h.writes()) - before;
  s.trace(
    `  process: ${args[0]} ${p.killed ? `killed after log line ${killAt}` : `exit ${p.exitCode}`} (${p.lines} log lines)`,
  );
  leaks(s, run, "stdout", p.stdout);
  leaks(s, run, "stderr", p.stderr);
  if (p.hung)
    report(s, run, "*", [{ invariant: "process-ends", detail: `${args[0]} still running after 240 s` }]);
  const reports = p.killed ? new Map<string, Report>() : processReports(s, run, p, faultFree, route.echo);
  const outcomes = [...reports.values()].map((r) => r.claim.outcome);
  if (args[0] === "sync") report(s, run, "*", judgeHeldSync(outcomes, wrote));
  if (route.notify) {
    // The notify project's canary recipe always fails: a sync that reported has told of it.
    const fired = args[0] === "sync" && reports.size > 0;
    report(s, run, "*", await checkNotifyDown(route.notify, p, fired, (w, t) => leaks(s, run, w, t)));
  }
  return { killed: p.killed, reports };
}

/**
 * A run the surfaces make a process of (never killed, no draw of the main story): `plan -o` then
 * `apply` (approval.ts), or a plain `sync` on the notify-down project.
 */
async function surfaceProcess(s: Seed, run: number, faultFree: boolean, route: Route, saved: boolean) {
  const how = {
    command: s.command,
    args: ["sync", "--json", "-p", route.projectFile],
    killAt: null,
    delayMs: 0,
    done: null as ProcessRun | null,
  };
  if (saved) {
    const apply = await savedPlan(s, run, s.command, route.projectFile);
    if (!apply) return { killed: false, reports: new Map<string, Report>() };
    ({ args: how.args, done: how.done } = await heldApply(s, run, s.command, route, apply));
  }
  return judgedProcess(s, run, how, faultFree, route);
}

/** Everything the state holds (the file, or every table's rows) scanned for credentials. */
async function scanState(s: Seed, run: number) {
  for (const { where, text } of await stateTexts(s.state)) leaks(s, run, where, text);
}

/** The independent desired of a recipe now (null when the soak cannot compute it). */
async function desiredNow(s: Seed, m: Model): Promise<string[] | null> {
  const src = m.spec.source;
  if (src.type === "static") return desiredOf(m.spec, src.ids);
  if (src.type === "playlist" && src.playlistId) {
    const { rows } = await playlistState(s.h, src.playlistId);
    return desiredOf(
      m.spec,
      (rows ?? []).map((r) => r.videoId),
    );
  }
  return null;
}

async function targetNow(s: Seed, m: Model, library: Library = libraryOnce(s)): Promise<TargetState | null> {
  const t = m.spec.target.type;
  if (t === "playlist" || t === "adopted") {
    const pid = await playlistOf(s, m, library);
    return pid ? playlistState(s.h, pid) : null;
  }
  return setTargetState(s.h, s.loaded.get(m.spec.id)!.recipe.target);
}

/** Clean: one copy of every row that was there before, nothing else touched. */
function checkClean(before: readonly string[], after: TargetState, claim: Claim): Found[] {
  // A guard (max_removals) that held removals back says so in the plan: nothing to judge.
  if (!claimsConverged(claim) || claim.guards.some((g) => g.blocks !== "adds")) return [];
  const rows = (after.rows ?? []).map((r) => r.videoId);
  const want = [...new Set(before)].sort();
  const got = [...rows].sort();
  return want.join() === got.join()
    ? []
    : [
        {
          invariant: "converged-matches-desired",
          detail: `clean ${claim.outcome} but rows ${got.length} (${new Set(rows).size} distinct), expected one each of ${want.length}`,
        },
      ];
}

/** A playlist target (owned by title or adopted) against what the soak knows. */
function playlistFindings(
  m: Model,
  target: TargetState,
  claim: Claim,
  desired: string[] | null,
  cleanBefore: string[] | null,
): Found[] {
  const rows = target.rows ?? [];
  const title = m.spec.target.type === "playlist" ? m.spec.target.title : null;
  const out = [...checkDuplicates(m, rows), ...checkPersonKept(m, target.rows, null)];
  if (m.spec.mode === "clean" && cleanBefore) out.push(...checkClean(cleanBefore, target, claim));
  else if (desired) out.push(...checkPlaylistDesired(m, desired, rows, claim));
  // A guard that blocks everything (the target read looked cut short) holds the title edit back too
  // (seed 403: renamed by hand, then a truncated read; the next full read edits it back).
  const heldBack = claim.guards.some((g) => g.blocks === "all");
  if (title !== null && claimsConverged(claim) && !heldBack && target.title?.trim() !== title.trim())
    out.push({
      invariant: "converged-matches-desired",
      detail: `${claim.outcome} but the title is ${JSON.stringify(target.title)}, not ${JSON.stringify(title)}`,
    });
  return out;
}

/** A set-like target (likes, dislikes, subscriptions, saved episodes) against what the soak knows. */
function setFindings(m: Model, target: TargetState, claim: Claim, desired: string[] | null): Found[] {
  const out = [...(target.rows ? checkDuplicates(m, target.rows) : [])];
  out.push(...checkPersonKept(m, null, target.keys));
  if (desired && exact(m.spec)) out.push(...checkSetDesired(m, desired, target.keys, claim));
  const kept = [...m.personRatedOther].filter((v) => target.keys.has(v));
  if (kept.length > 0)
    out.push({
      invariant: "ratings-kept",
      detail: `the person's own rating of ${kept.join(", ")} was overridden`,
    });
  return out;
}

/** What the run itself reported: confirmed writes, quarantines, and (through the echo) its outcome. */
function reportFindings(rep: Report | undefined, target: TargetState, s: Seed): Found[] {
  if (!rep) return [];
  const out: Found[] = [];
  if (rep.actions) out.push(...checkConfirmed(rep.actions, rep.outcomes, rep.quarantined, target));
  // Through the echo every write is refused, and quarantining an id the service refused again and
  // again is the engine's rule: only a quarantine after a transient failure is a false one.
  if (rep.echo) out.push(...checkRefusedWrites(rep.claim, rep.requests));
  // Reported once, when the id is first quarantined (later plans skip it for days, saying why). A
  // run under `failed-status` faults had the service refuse: a quarantine there follows the rule.
  else if (!s.refusing) out.push(...checkQuarantine(rep.quarantined, s.good));
  return out;
}

/**
 * Every promise for one recipe after one run; `library` is read once for every recipe's check
 * (nothing writes between them).
 */
async function checkRecipe(
  s: Seed,
  run: number,
  m: Model,
  rep: Report | undefined,
  cleanBefore: string[] | null,
  library: Library,
) {
  const id = m.spec.id;
  const target = await targetNow(s, m, library);
  if (m.spec.target.type === "playlist") {
    const two = checkOnePlaylist(id, m.spec.target.title, await library());
    report(s, run, id, two);
    // With a second playlist, which one the checks below read is a guess: the root cause is enough.
    if (two.length > 0) return;
  }
  if (!target) return;
  const claim = rep?.claim ?? { outcome: "none", guards: [], errors: [] };
  const current = await desiredNow(s, m);
  // Judged only against a run that reported, and whose reads no fault could have cut short.
  const desired = rep && !rep.sourceGuarded ? current : null;
  const playlist = m.spec.target.type === "playlist" || m.spec.target.type === "adopted";
  report(
    s,
    run,
    id,
    playlist
      ? playlistFindings(m, target, claim, desired, cleanBefore)
      : setFindings(m, target, claim, desired),
  );
  const present = new Set(target.rows ? target.rows.map((r) => r.setVideoId) : target.keys);
  report(s, run, id, checkAppendKeeps(m, present));
  report(s, run, id, reportFindings(rep, target, s));
  // The model moves on: what is there now must stay (append); what was desired is remembered.
  m.mustStay = present;
  // Even a killed run may have added any of it: a row of it removed by hand may be the engine's.
  for (const v of current ?? []) m.everDesired.add(v);
  s.settled.set(id, rep?.claim.outcome === "converged" || rep?.claim.outcome === "no_changes");
}

function editContext(s: Seed): EditContext {
  return {
    h: s.h,
    r: s.r,
    seed: s.seed,
    personPool: s.personPool,
    recipePool: s.recipePool,
    episodes: s.catalogue.episodes,
    loseState: () => loseState(s.state),
    targetOf: (m) => s.loaded.get(m.spec.id)!.recipe.target,
    playlistOf: (m) => playlistOf(s, m),
    settled: (m) => s.settled.get(m.spec.id) === true,
    models: s.models,
  };
}

async function personEdits(s: Seed, run: number) {
  const ctx = editContext(s);
  let n = 0;
  for (const m of s.models) {
    for (const kind of edits(s.r, m.spec)) {
      n += 1;
      try {
        const done = await edit(ctx, m, kind, run * 10 + n);
        if (done) s.trace(`  person (${m.spec.id}): ${done}`);
      } catch (e) {
        // A refused edit by hand is the service's business, not the engine's: noted, not judged.
        s.trace(
          `  person (${m.spec.id}): ${kind} refused: ${e instanceof Error ? e.message.slice(0, 120) : String(e)}`,
        );
      }
    }
  }
  await writeRecipes(s);
}

/** Rows of each clean recipe's playlist before a run: clean keeps one copy of each. */
async function cleanRows(s: Seed, library: Library): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const m of s.models)
    if (m.spec.mode === "clean")
      out.set(
        m.spec.id,
        ((await targetNow(s, m, library))?.rows ?? []).map((r) => r.videoId),
      );
  return out;
}

/** The seed's hostile file, dropped before this run and checked (hostile.ts); its path, or null. */
async function hostileStep(s: Seed, run: number): Promise<string | null> {
  const hostile = s.attacks.hostile;
  if (!hostile || hostile.run !== run) return null;
  const ctx: HostileContext = {
    recipesDir: s.recipesDir,
    projectFile: s.h.projectFile,
    project: s.h.project,
    valid: s.loaded,
    command: s.processSeed ? s.command : null,
    writes: () => s.h.writes(),
    trace: s.trace,
    leaks: (where, text) => leaks(s, run, where, text),
  };
  const { file, found } = await dropHostile(ctx, hostile.recipe);
  report(s, run, "*", found);
  return file;
}

/**
 * The echo really echoed what the leak check looks for: otherwise a clean scan would only show the
 * soak looking for the wrong secrets (it must know the hash each request was signed with).
 */
function checkEchoed(s: Seed, run: number) {
  const server = s.echo!.server;
  s.trace(`  echo proxy so far: ${[...server.counts].map(([k, n]) => `${k} ${n}`).join(", ")}`);
  const sent = server.sent.slice(s.echoSent);
  s.echoSent = server.sent.length;
  const secrets = secretsNow(s);
  // Answer by answer, stopping at the first that holds one: the answers run to megabytes.
  if (sent.length > 0 && !sent.some((answer) => findCredentialPieces(answer, secrets).length > 0))
    report(s, run, "*", [
      {
        invariant: "soak-sees-the-echo",
        detail: "the echo proxy answered, but no answer held a secret the soak knows",
      },
    ]);
}

async function oneRun(s: Seed, run: number, processRun: boolean, options: SoakOptions) {
  const plan = faultPlan(s.r, (options.maxFaultRate ?? 0.3) / (processRun ? 3 : 1));
  const route = routeOf(s, s.attacks.echoRuns.has(run));
  s.trace(
    `run ${run}${processRun ? " (real process)" : ""}${route.echo ? " through the echo proxy" : ""}: faults ${plan ? `${plan.rate} ${plan.kinds.join(",")}` : "none"}`,
  );
  const before = libraryOnce(s);
  const cleanBefore = await cleanRows(s, before);
  // Read without faults, before the run: an undo through the page is judged by what it moved.
  const paged = s.surfaces.pageRecipe(surfaceHost(s, run), run);
  const pagedModel = s.models.find((m) => m.spec.id === paged);
  const pagedBefore = pagedModel ? await targetNow(s, pagedModel, before) : null;
  const hostile = await hostileStep(s, run);
  const notify = await s.surfaces.notifyRoute(surfaceHost(s, run), run, route.projectFile);
  const routed = notify ? { ...route, projectFile: notify.projectFile, notify } : route;
  await s.surfaces.beforeRun(surfaceHost(s, run, options.surfaces === "light"), run);
  s.refusing = plan?.kinds.includes("failed-status") ?? false;
  const saved = s.surfaces.savedPlanRun(run);
  // A run made a process for the surfaces has a process run's rate of faults.
  const made = (notify || saved) && !processRun && plan;
  await faults(s, made ? { ...plan, rate: Math.round((plan.rate / 3) * 100) / 100 } : plan);
  let reports: Map<string, Report>;
  let killed = false;
  try {
    if (processRun) ({ killed, reports } = await runProcess(s, run, s.command, !plan, routed));
    else if (notify || saved) ({ killed, reports } = await surfaceProcess(s, run, !plan, routed, saved));
    else reports = await runInProcess(s, run, route);
  } finally {
    await faults(s, null);
    if (hostile) await removeHostile(hostile);
    await s.surfaces.afterRun();
  }
  if (route.echo) checkEchoed(s, run);
  const after = libraryOnce(s);
  if (pagedModel && reports.get(pagedModel.spec.id)?.undo)
    undoneByHand(pagedModel, pagedBefore, await targetNow(s, pagedModel, after));
  for (const m of s.models)
    await checkRecipe(s, run, m, reports.get(m.spec.id), cleanBefore.get(m.spec.id) ?? null, after);
  if (!killed) report(s, run, "*", checkNoRunning(await stateRuns(s.state)));
  await scanState(s, run);
  return killed;
}

/** The seed's fleet of workers after this run (fleet.ts); its line for the report. */
function fleetStep(s: Seed, run: number, plan: FleetPlan): Promise<string> {
  return runFleet(
    {
      run,
      h: s.h,
      stateUrl: s.state.setting,
      server: s.state.server!,
      command: s.command,
      seedRecipesDir: s.recipesDir,
      clock: s.clock,
      trace: s.trace,
      addSecrets: (more) => s.secrets.push(...more.filter((x) => !s.secrets.includes(x))),
      secrets: () => secretsNow(s),
      leaks: (where, text) => leaks(s, run, where, text),
      report: (recipe, found) => report(s, run, recipe, found),
      checkSeedRecipes: async () => {
        const library = libraryOnce(s);
        for (const m of s.models) await checkRecipe(s, run, m, undefined, null, library);
      },
      scanState: () => scanState(s, run),
    },
    plan,
  );
}

/**
 * After the storm: one fault-free run, straight to the emulator (never through the echo proxy),
 * settles every recipe, and a fresh plan has nothing left to do.
 */
async function settle(s: Seed) {
  s.trace("settle: fault-free run, then a plan");
  await faults(s, null);
  const reports = await runInProcess(s, -1, routeOf(s, false), true);
  const library = libraryOnce(s);
  for (const m of s.models) {
    const rep = reports.get(m.spec.id);
    if (rep && !["converged", "no_changes", "partial"].includes(rep.claim.outcome))
      report(s, -1, m.spec.id, [
        { invariant: "settles", detail: `a fault-free run ended ${rep.claim.outcome}` },
      ]);
    await checkRecipe(s, -1, m, rep, null, library);
  }
  report(s, -1, "*", checkNoRunning(await stateRuns(s.state)));
  const env = createEnv({
    project: s.h.project,
    projectFile: s.h.projectFile,
    logger: createLogger("silent"),
    clock: s.clock,
  });
  try {
    for (const m of s.models) {
      const { plan } = await planRecipe(s.loaded.get(m.spec.id)!, env);
      if (plan.actions.length > 0)
        report(s, -1, m.spec.id, [
          {
            invariant: "settles",
            detail: `after a fault-free run the plan still has ${plan.actions.length} actions: ${JSON.stringify(plan.actions).slice(0, 240)}`,
          },
        ]);
    }
  } finally {
    await env.close();
  }
}

/** The seed's recipes made, prepared and written; the person's own targets noted. */
async function newSeed(seed: number, r: Random, h: Harness, options: SoakOptions): Promise<Seed> {
  const catalogue = await catalogueOf(h);
  const free = shuffled(
    r,
    catalogue.songs.filter((v) => !catalogue.rated.has(v)),
  );
  const s: Seed = {
    seed,
    r,
    h,
    catalogue,
    trace: options.trace ?? (() => {}),
    secrets: [...new Set([...credentialSecrets(h.headers), ...secretsOfHeaders(h.headers)])],
    recipesDir: join(h.dir, "recipes"),
    models: [],
    recipePool: free.slice(0, 60),
    personPool: free.slice(60, 90),
    violations: [],
    settled: new Map(),
    adopted: new Map(),
    clock: virtualClock(),
    loaded: new Map(),
    known: new Set(),
    good: new Set([...catalogue.songs, ...catalogue.episodes]),
    command: options.command ?? musicsyncCommand(true),
    processSeed: false,
    attacks: { echoRuns: new Set(), hostile: null },
    echo: null,
    echoSeen: 0,
    echoSent: 0,
    state: { setting: h.stateFile, server: options.postgres ?? null },
    surfaces: SeedSurfaces.none(seed),
  };
  s.models = specsOf(s).map(newModel);
  s.known = new Set((await h.person.getLibraryPlaylists({ limit: null })).map((p) => p.playlistId ?? ""));
  for (const m of s.models) await prepare(s, m);
  await writeRecipes(s);
  for (const m of s.models) {
    s.trace(`recipe ${m.spec.id}:\n${recipeYaml(m.spec)}`);
    if (m.spec.target.type !== "playlist" && m.spec.target.type !== "adopted")
      m.personKeys = new Set((await setTargetState(h, s.loaded.get(m.spec.id)!.recipe.target)).keys);
  }
  return s;
}

/** The seed's attacks (attacks.ts), and the echo proxy started when a run goes through it. */
async function arm(s: Seed, runs: number, processRuns: Set<number>, options: SoakOptions) {
  s.processSeed = processRuns.size > 0;
  s.attacks = attacksOf(s.seed, runs, processRuns, hostileRecipes(), {
    echo: options.echo ?? "auto",
    hostile: options.hostile ?? "all",
  });
  if (s.attacks.echoRuns.size > 0) {
    s.echo = await startEchoRoute(s.h);
    s.trace(`echo proxy ${s.echo.server.url} for runs ${[...s.attacks.echoRuns].sort().join(", ")}`);
  }
  if (s.attacks.hostile)
    s.trace(`hostile ${s.attacks.hostile.recipe.name} before run ${s.attacks.hostile.run}`);
  s.surfaces = await SeedSurfaces.arm(
    s.seed,
    surfaceHost(s, 0),
    { runs, processRuns, hostileRun: s.attacks.hostile?.run ?? null },
    { level: options.surfaces ?? "all", ...(options.force ? { force: options.force } : {}) },
  );
}

export async function runSeed(seed: number, options: SoakOptions = {}): Promise<SeedResult> {
  const started = Date.now();
  const r = rng(seed);
  // Named after the seed, so that a database left behind says whose it was.
  const state = await options.postgres?.createDatabase(`soak_${seed}`);
  const h = await startHarness({
    catalogueSize: 200,
    seed: 1 + (seed % 7),
    // The engine's waits run on a virtual clock: hashes must not age out as it jumps ahead.
    auth: { maxHashAgeSeconds: 10 ** 9, futureSkewSeconds: 10 ** 9 },
    ...(state === undefined ? {} : { state }),
  });
  let s: Seed | null = null;
  try {
    s = await newSeed(seed, r, h, options);
    const kill = options.kill === "auto" ? seed % 5 === 0 : options.kill === true;
    const runs = int(r, 3, 5);
    const processRuns = new Set(kill ? [int(r, 1, runs), int(r, 1, runs)] : []);
    await arm(s, runs, processRuns, options);
    const fleet = options.postgres
      ? fleetPlanOf(seed, runs, s.recipePool, options.fleet ?? "auto", options.postgres.restart !== undefined)
      : null;
    let fleetLine: string | undefined;
    let kills = 0;
    for (let run = 1; run <= runs; run++) {
      if (run > 1) await personEdits(s, run);
      if (await oneRun(s, run, processRuns.has(run), options)) kills += 1;
      if (fleet?.after === run) fleetLine = await fleetStep(s, run, fleet);
    }
    await settle(s);
    return {
      seed,
      violations: s.violations,
      runs,
      kills,
      echoRuns: s.attacks.echoRuns.size,
      hostile: s.attacks.hostile?.recipe.name ?? null,
      surfaces: s.surfaces.describe(),
      ...(fleetLine ? { fleet: fleetLine } : {}),
      ms: Date.now() - started,
    };
  } finally {
    await s?.surfaces.close();
    await s?.echo?.server.close();
    await h.stop();
  }
}
