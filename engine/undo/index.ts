/**
 * `musicsync undo <run>`: prepareUndo reads the target as it is now and plans the inverse of what
 * the run confirmed (engine/undo/plan-undo.ts); applyUndo sends that plan as a run of kind "undo",
 * under the account's lock and through the journal like any other run — which records its own
 * `before`, so undoing an undo redoes.
 */
import { ServiceError } from "../../src/index.js";
import { targetFingerprint } from "../plan/fingerprint.js";
import { ownedFor, stateTargetKey } from "../plan/owned.js";
import type { TargetSpec } from "../recipe/types.js";
import type { TargetBefore } from "../run/before.js";
import { reconcile } from "../run/reconcile.js";
import {
  applyWithRun,
  type EngineEnv,
  type Planned,
  type RecipeRun,
  StalePlanError,
  unfinishedOf,
  withLock,
  withRemembered,
} from "../run/runner.js";
import { makeItem } from "../sources/item.js";
import type { JournalEntry, RunRecord } from "../state/types.js";
import { readRatings } from "../targets/ratings.js";
import { readTarget, type TargetRead } from "../targets/read.js";
import { stepsOf } from "./journal.js";
import { planUndo } from "./plan-undo.js";
import { UndoRefusedError, undoRefusal } from "./refusal.js";

export { planUndo, type UndoInput, type UndoOptions } from "./plan-undo.js";
export { DEFAULT_UNDO_MAX_AGE_DAYS, UndoRefusedError, undoRefusal } from "./refusal.js";

/** The playlist the run wrote to: the one it found, or the one its create made (from the journal). */
function playlistOf(before: TargetBefore, journal: readonly JournalEntry[]): string | null {
  if (before.playlistId) return before.playlistId;
  for (const e of journal) {
    const id = (e.result as { playlistId?: unknown } | null)?.playlistId;
    if (e.kind === "create_playlist" && typeof id === "string" && id !== "") return id;
  }
  return null;
}

/** The target now, read as `apply` reads it (so a saved undo plan's fingerprint matches). */
async function readNow(
  env: EngineEnv,
  target: { account: string; recipeId: string; spec: TargetSpec; playlistId: string | null },
  tag: string,
): Promise<TargetRead> {
  const { account, recipeId, spec, playlistId } = target;
  let read: TargetRead;
  try {
    read = await readTarget(spec, env.clientFor(account), { recipeId, ownedPlaylistId: playlistId });
  } catch (e) {
    if (e instanceof ServiceError && e.status === 404 && playlistId) {
      throw new UndoRefusedError(`the playlist ${playlistId} of ${tag} no longer exists: nothing to undo`);
    }
    throw e;
  }
  if (spec.type === "playlist" && !read.actual.exists) {
    throw new UndoRefusedError(`the playlist of ${tag} no longer exists: nothing to undo`);
  }
  const rows = await env.state.ownedRows(account, stateTargetKey(spec, read.actual.playlistId));
  return withRemembered(spec, read, rows);
}

/** Likes targets: the songs' ratings now, from their album pages (unreadable ones are left out). */
async function ratingsNow(env: EngineEnv, account: string, journal: readonly JournalEntry[]) {
  const ids = stepsOf(journal).flatMap((s) => (s.action.kind === "rate_song" ? [s.action.videoId] : []));
  if (ids.length === 0) return new Map();
  const items = ids.map((videoId, i) => makeItem({ videoId, source: "target", rank: i + 1 }));
  try {
    return await readRatings(items, env.clientFor(account));
  } catch (e) {
    env.logger.warn({ error: e instanceof Error ? e.message : String(e) }, "could not read current ratings");
    return new Map();
  }
}

export interface PrepareUndoOptions {
  deleteCreated?: boolean;
  maxAgeDays?: number;
}

/**
 * Reads the run's record and the target now, and plans the undo. Writes nothing (not the state
 * either). Throws UndoRefusedError (one line) for an unknown id, a run that wrote nothing or only
 * planned, one too old, one still running, one without a record of before, or one whose playlist
 * is gone.
 */
export async function prepareUndo(
  runId: number,
  env: EngineEnv,
  options: PrepareUndoOptions = {},
): Promise<Planned> {
  const { state } = env;
  const run = await state.run(runId);
  const journal = run ? await state.journal(runId) : [];
  const record = run ? await state.runBefore(runId) : null;
  const why = undoRefusal(runId, { run, before: record, journal }, env.clock.now(), options.maxAgeDays);
  if (why !== null || run === null || record === null) throw new UndoRefusedError(why ?? `run #${runId}`);
  const before = record.before as TargetBefore;
  const tag = `run #${runId}`;
  const playlistId = playlistOf(before, journal);
  if (before.spec.type === "playlist" && playlistId === null) {
    throw new UndoRefusedError(`${tag} created no playlist: nothing to undo`);
  }
  const target = { account: run.account, recipeId: run.recipeId, spec: before.spec, playlistId };
  const read = await readNow(env, target, tag);
  const now = read.actual;
  const owned = await ownedFor(state, run.account, run.recipeId, before.spec, now.playlistId);
  const ratings = before.spec.type === "likes" ? await ratingsNow(env, run.account, journal) : undefined;
  const setLater = await fieldsSetLater(state, run);
  const plan = planUndo(
    { run, before: record, journal, now, owned, setLater, ...(ratings ? { ratings } : {}) },
    { deleteCreated: options.deleteCreated === true },
  );
  const ownedRows = await state.ownedRows(run.account, stateTargetKey(before.spec, now.playlistId));
  const reconciliation = reconcile(await unfinishedOf(state, run.recipeId), now, ownedRows, env.clock.now());
  return { plan, read, reconciliation };
}

/** Playlist fields that later runs of the recipe wrote, or sent a write for whose answer was lost. */
async function fieldsSetLater(state: EngineEnv["state"], run: RunRecord): Promise<Set<string>> {
  const fields = new Set<string>();
  const later = (await state.recentRuns({ recipeId: run.recipeId, limit: 1000 })).filter(
    (r) => r.id > run.id,
  );
  for (const r of later) {
    for (const s of stepsOf(await state.journal(r.id))) {
      if (s.action.kind !== "edit_playlist" || s.fate === "failed") continue;
      for (const f of ["title", "description", "privacy"] as const)
        if (s.action[f] !== undefined) fields.add(f);
    }
  }
  return fields;
}

/**
 * Applies a prepared undo as a run of kind "undo": under the account's lock, refused (StalePlanError)
 * if the target changed since prepareUndo read it, journaled, its `before` recorded.
 */
export async function applyUndo(planned: Planned, env: EngineEnv): Promise<RecipeRun> {
  const { plan } = planned;
  return withLock(env, plan.account, async (held) => {
    const target = {
      account: plan.account,
      recipeId: plan.recipe.id,
      spec: plan.target.spec,
      playlistId: plan.target.playlistId,
    };
    const read = await readNow(held, target, "the undone run");
    if (targetFingerprint(read.actual) !== plan.target.fingerprint) throw new StalePlanError(plan.recipe.id);
    return applyWithRun(held, { ...planned, read }, "undo", plan.recipe.hash);
  });
}
