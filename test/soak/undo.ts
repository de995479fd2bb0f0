/**
 * One seed of the undo soak (docs/ENGINE.md#undo): an emulator of its own, one or two random recipes (a
 * playlist, ratings), 2–4 runs of the real engine with the person editing by hand between them,
 * then one run undone, and the undo undone again. After each undo the target is read back and held
 * against the oracle (undo-oracle.ts): what it was before the run, the person's later edits kept.
 * The state is SQLite, or — given a server — a fresh PostgreSQL database.
 */
import type { LoadedRecipe } from "../../engine/recipe/types.js";
import { type EngineEnv, type RecipeRun, syncRecipe } from "../../engine/run/runner.js";
import { applyUndo, prepareUndo, UndoRefusedError } from "../../engine/undo/index.js";
import { harnessFetch } from "../support/harness-fetch.js";
import type { PostgresServer } from "../support/postgres-server.js";
import { catalogueSongs, type Harness, recipe, startHarness, virtualClock } from "../support/sync-harness.js";
import { chance, faultPlan, int, pick, type Random, rng, shuffled } from "./generate.js";
import type { Found, Violation } from "./invariants.js";
import { libraryPlaylists } from "./readback.js";
import type { SeedResult } from "./soak.js";
import { accountRatings, editPlaylistByHand, editRatingsByHand, type PersonContext } from "./undo-edits.js";
import { changeRecipe, type UndoRecipe, undoRecipes, undoYaml } from "./undo-generate.js";
import { compareUndo, expectAfterUndo, type Snapshot } from "./undo-oracle.js";

/** engine/undo's entry points, passed in so a test can stand a broken undo in for the real one. */
export interface Undoer {
  prepareUndo: typeof prepareUndo;
  applyUndo: typeof applyUndo;
}

export interface UndoSoakOptions {
  trace?: (line: string) => void;
  /** The undo under test (default: engine/undo). */
  undoer?: Undoer;
  /** Faults in a third of the runs (default true); the undos themselves always run without. */
  faults?: boolean;
  /** The server on which the seed's state gets a fresh database (default: SQLite in its folder). */
  postgres?: PostgresServer;
}

/** One applied run of one recipe: the target just before it and just after it. */
interface Applied {
  step: number;
  recipe: UndoRecipe;
  runId: number;
  before: Snapshot;
  after: Snapshot;
  wrote: boolean;
}

interface UndoSeed {
  seed: number;
  r: Random;
  h: Harness;
  env: EngineEnv;
  recipes: UndoRecipe[];
  person: PersonContext;
  /** Playlists of the library before the first run: none is a recipe's. */
  known: Set<string>;
  /** Every edit by hand: the step it came after, the recipe whose target it touched, the videoIds. */
  edits: { step: number; recipeId: string; touched: string[] }[];
  violations: Violation[];
  trace: (line: string) => void;
}

const isPlaylist = (u: UndoRecipe) => u.spec.target.type === "playlist";

async function playlistIdOf(s: UndoSeed, u: UndoRecipe): Promise<string | null> {
  const marked = (await libraryPlaylists(s.h, s.known)).filter((p) => p.marker === u.spec.id);
  return marked[0]?.id ?? null;
}

/** The recipe's target read back now, fault-free. */
async function snapshot(s: UndoSeed, u: UndoRecipe): Promise<Snapshot> {
  if (!isPlaylist(u))
    return { kind: "ratings", exists: true, rows: [], meta: null, ratings: accountRatings(s.h) };
  const pid = await playlistIdOf(s, u);
  if (!pid) return { kind: "playlist", exists: false, rows: [], meta: null, ratings: new Map() };
  const p = await s.h.person.getPlaylist(pid, { limit: null });
  return {
    kind: "playlist",
    exists: true,
    rows: p.tracks.map((t) => ({ videoId: t.videoId ?? "", setVideoId: t.setVideoId ?? "" })),
    meta: { title: p.title ?? null, description: p.description ?? null, privacy: p.privacy ?? null },
    ratings: new Map(),
  };
}

const loaded = (s: UndoSeed, u: UndoRecipe): LoadedRecipe => recipe(s.h.project, undoYaml(u));

/** The newest run the state holds for the recipe (the one just made). */
async function newestRun(s: UndoSeed, recipeId: string) {
  return (await s.env.state.runs(recipeId, 1))[0] ?? null;
}

function report(s: UndoSeed, step: number, recipeId: string, found: readonly Found[]) {
  for (const f of found) s.violations.push({ seed: s.seed, run: step, recipe: recipeId, ...f });
}

/** 0–`max` edits by hand of one recipe's target, logged for the oracle. */
async function personEdits(s: UndoSeed, u: UndoRecipe, step: number, max: number) {
  for (let i = int(s.r, 0, max); i > 0; i--) {
    const n = step * 10 + i;
    try {
      const pid = isPlaylist(u) ? await playlistIdOf(s, u) : null;
      const done = isPlaylist(u)
        ? pid
          ? await editPlaylistByHand(s.person, pid, n)
          : null
        : await editRatingsByHand(s.person);
      if (!done) continue;
      s.edits.push({ step, recipeId: u.spec.id, touched: done.touched });
      s.trace(`  person (${u.spec.id}): ${done.what}`);
    } catch (e) {
      s.trace(`  person (${u.spec.id}) refused: ${e instanceof Error ? e.message.slice(0, 120) : String(e)}`);
    }
  }
}

/** A run's faults on (a third of the runs, at up to 20%), or off. */
async function faults(s: UndoSeed, on: boolean): Promise<string> {
  const plan = on ? faultPlan(s.r, 0.2) : null;
  if (plan) await s.h.faults({ config: plan });
  else await harnessFetch(`${s.h.emulator.url}/_emulator/faults`, { method: "DELETE" });
  return plan ? ` (faults ${plan.rate} ${plan.kinds.join(",")})` : "";
}

/** One run of one recipe (faults as the seed says); null when it threw before writing. */
async function syncOnce(s: UndoSeed, u: UndoRecipe, withFaults: boolean): Promise<RecipeRun | null> {
  const faulted = await faults(s, withFaults && chance(s.r, 0.33));
  try {
    const run = await syncRecipe(loaded(s, u), s.env);
    s.trace(
      `  ${u.spec.id}${faulted}: ${run.outcome}${run.error ? ` (${run.error.slice(0, 120)})` : ""} ${JSON.stringify(run.plan?.summary ?? {})}`,
    );
    return run;
  } catch (e) {
    // Thrown by the plan's reads (a fault), before any write: nothing to undo.
    s.trace(`  ${u.spec.id}${faulted}: threw ${e instanceof Error ? e.message.slice(0, 120) : String(e)}`);
    return null;
  } finally {
    await faults(s, false);
  }
}

/** One run of every recipe, each read back just before and just after. */
async function runAll(s: UndoSeed, step: number, withFaults: boolean): Promise<Applied[]> {
  const out: Applied[] = [];
  for (const u of s.recipes) {
    const before = await snapshot(s, u);
    const run = await syncOnce(s, u, withFaults);
    const after = await snapshot(s, u);
    const record = await newestRun(s, u.spec.id);
    const wrote =
      (run?.plan?.actions.length ?? 0) > 0 && ["converged", "partial"].includes(run?.outcome ?? "");
    if (record) s.trace(`    run #${record.id} (${record.kind}, ${record.result})`);
    if (run && record) out.push({ step, recipe: u, runId: record.id, before, after, wrote });
  }
  return out;
}

function touchedSince(s: UndoSeed, recipeId: string, step: number): Set<string> {
  return new Set(s.edits.filter((e) => e.step > step && e.recipeId === recipeId).flatMap((e) => e.touched));
}

/** Undoes one run; the undo run's id, or null when it was refused or threw (reported). */
async function undo(
  s: UndoSeed,
  u: Undoer,
  runId: number,
  recipeId: string,
  step: number,
  deleteCreated: boolean,
  prefix: string,
): Promise<{ runId: number | null; actions: number } | null> {
  try {
    const planned = await u.prepareUndo(runId, s.env, { deleteCreated });
    const run = await u.applyUndo(planned, s.env);
    s.trace(
      `  ${prefix} of run ${runId}${deleteCreated ? " (delete created)" : ""}: ${run.outcome} ${JSON.stringify(planned.plan.summary)}${run.error ? ` (${run.error.slice(0, 160)})` : ""}`,
    );
    if (!["converged", "no_changes"].includes(run.outcome))
      report(s, step, recipeId, [
        {
          invariant: `${prefix}-settles`,
          detail: `undo of run ${runId} ended ${run.outcome}: ${run.error ?? ""}`,
        },
      ]);
    const record = await newestRun(s, recipeId);
    return { runId: record?.kind === "undo" ? record.id : null, actions: planned.plan.actions.length };
  } catch (e) {
    const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    s.trace(`  ${prefix} of run ${runId} threw ${why.slice(0, 200)}`);
    report(s, step, recipeId, [{ invariant: `${prefix}-refused`, detail: `undo of run ${runId}: ${why}` }]);
    return null;
  }
}

/** The person deleted the playlist before the undo: refused in one line, nothing written. */
async function refusedWhenDeleted(s: UndoSeed, u: Undoer, chosen: Applied, step: number) {
  const pid = await playlistIdOf(s, chosen.recipe);
  if (!pid) return;
  await s.h.person.deletePlaylist(pid);
  s.trace(`  person: delete playlist ${pid}`);
  const writes = await s.h.writes();
  const id = chosen.recipe.spec.id;
  try {
    await u.applyUndo(await u.prepareUndo(chosen.runId, s.env, {}), s.env);
    report(s, step, id, [
      { invariant: "undo-refused", detail: `run ${chosen.runId} undone, its playlist deleted` },
    ]);
  } catch (e) {
    s.trace(`  undo of run ${chosen.runId}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
    if (!(e instanceof UndoRefusedError) || e.message.includes("\n"))
      report(s, step, id, [
        {
          invariant: "undo-refused",
          detail: `not refused in one line: ${e instanceof Error ? e.stack : String(e)}`,
        },
      ]);
  }
  if ((await s.h.writes()) !== writes)
    report(s, step, id, [{ invariant: "undo-refused", detail: "a refused undo wrote to the service" }]);
}

/** Undo one random run that wrote, check; then undo that undo, check again. */
async function undoAndRedo(s: UndoSeed, u: Undoer, applied: Applied[], steps: number) {
  const candidates = applied.filter((a) => a.wrote);
  if (candidates.length === 0) return s.trace("nothing to undo: no run wrote");
  // Half the time the latest run that wrote (the usual undo); else any, later runs on top of it.
  const chosen = chance(s.r, 0.5) ? candidates[candidates.length - 1]! : pick(s.r, candidates);
  const id = chosen.recipe.spec.id;
  const undoStep = steps + 1;
  s.trace(`undo run ${chosen.runId} (${id}, step ${chosen.step})`);
  await personEdits(s, chosen.recipe, steps, 2);
  const before = await snapshot(s, chosen.recipe);
  const deleteCreated = chosen.recipe.spec.target.type === "playlist" && chance(s.r, 0.3);
  if (isPlaylist(chosen.recipe) && chance(s.r, 0.06)) return refusedWhenDeleted(s, u, chosen, undoStep);
  const done = await undo(s, u, chosen.runId, id, undoStep, deleteCreated, "undo");
  if (!done) return;
  const after = await snapshot(s, chosen.recipe);
  const touched = touchedSince(s, id, chosen.step - 1);
  const expected = expectAfterUndo(chosen.before, chosen.after, before, { deleteCreated, touched });
  report(s, undoStep, id, compareUndo(expected, after, "undo"));
  // Undoing an undo that changed nothing, or deleted the playlist, has nothing to put back.
  if (done.runId === null || done.actions === 0 || !after.exists) return;
  s.trace(`redo: undo run ${done.runId}`);
  await personEdits(s, chosen.recipe, undoStep, 1);
  const again = await snapshot(s, chosen.recipe);
  const redone = await undo(s, u, done.runId, id, undoStep + 1, false, "redo");
  if (!redone) return;
  const expectedAgain = expectAfterUndo(before, after, again, {
    deleteCreated: false,
    touched: touchedSince(s, id, undoStep - 1),
  });
  report(s, undoStep + 1, id, compareUndo(expectedAgain, await snapshot(s, chosen.recipe), "redo"));
}

async function newUndoSeed(seed: number, h: Harness, options: UndoSoakOptions): Promise<UndoSeed> {
  const r = rng(seed);
  const rated = accountRatings(h);
  const free = shuffled(
    r,
    catalogueSongs(h, 150).filter((v) => !rated.has(v)),
  );
  const recipePool = free.slice(0, 40);
  const personPool = free.slice(40, 60);
  const recipes = undoRecipes(r, seed, recipePool);
  const trace = options.trace ?? (() => {});
  for (const u of recipes) trace(`recipe ${u.spec.id}:\n${undoYaml(u)}`);
  return {
    seed,
    r,
    h,
    env: h.env({ clock: virtualClock() }),
    recipes,
    person: { h, r, seed, personPool, recipePool },
    known: new Set((await h.person.getLibraryPlaylists({ limit: null })).map((p) => p.playlistId ?? "")),
    edits: [],
    violations: [],
    trace,
  };
}

export async function runUndoSeed(seed: number, options: UndoSoakOptions = {}): Promise<SeedResult> {
  const started = Date.now();
  const state = await options.postgres?.createDatabase(`undo_${seed}`);
  const h = await startHarness({
    catalogueSize: 200,
    seed: 1 + (seed % 7),
    auth: { maxHashAgeSeconds: 10 ** 9, futureSkewSeconds: 10 ** 9 },
    ...(state === undefined ? {} : { state }),
  });
  try {
    const s = await newUndoSeed(seed, h, options);
    const undoer = options.undoer ?? { prepareUndo, applyUndo };
    const steps = int(s.r, 2, 4);
    const applied: Applied[] = [];
    for (let step = 1; step <= steps; step++) {
      s.trace(`run ${step}`);
      if (step > 1)
        for (const u of s.recipes) {
          s.trace(`  recipe ${u.spec.id}: ${changeRecipe(s.r, u, s.person.recipePool, step)}`);
          await personEdits(s, u, step - 1, 3);
        }
      applied.push(...(await runAll(s, step, options.faults !== false)));
    }
    await undoAndRedo(s, undoer, applied, steps);
    const result = {
      seed,
      violations: s.violations,
      runs: steps,
      kills: 0,
      echoRuns: 0,
      hostile: null,
      surfaces: [],
    };
    return { ...result, ms: Date.now() - started };
  } finally {
    await h.stop();
  }
}
