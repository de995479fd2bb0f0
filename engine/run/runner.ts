/**
 * The runner: for one recipe, read the target and the sources, plan, and (unless planning only)
 * take the account's lock and apply. Planning writes nothing — not the state either; what an
 * interrupted run left in the journal is reconciled in memory for the plan and persisted only by a
 * run that goes on to write.
 */
import { hostname } from "node:os";
import { AuthError, ErrorCodes, ServiceError } from "../../src/index.js";
import {
  type ApplyLogger,
  type ApplyResult,
  applyPlan,
  QUARANTINE_MS,
  QUARANTINE_TARGET,
} from "../apply/apply.js";
import type { EngineClient } from "../apply/client.js";
import type { Clock, Pacer } from "../apply/pacer.js";
import { buildDesired, planPolicy } from "../plan/desired.js";
import { targetFingerprint } from "../plan/fingerprint.js";
import { plan as makePlan, targetKey } from "../plan/plan.js";
import type { ActualTarget, Desired, Owned, Plan } from "../plan/types.js";
import type { LoadedRecipe, TargetSpec } from "../recipe/types.js";
import { makeItem } from "../sources/item.js";
import { readSources } from "../sources/read.js";
import { stateTargetKey } from "../state/owned.js";
import type { EngineState, JournalEntry, LockInfo, OwnedRow, RunKind } from "../state/types.js";
import { readTarget, type TargetRead } from "../targets/read.js";
import { type Reconciliation, reconcile } from "./reconcile.js";

export interface EngineEnv {
  state: EngineState;
  clientFor(account: string): EngineClient;
  pacerFor(account: string): Pacer;
  clock: Clock;
  logger: ApplyLogger;
  onAction?: Parameters<typeof applyPlan>[1]["onAction"];
  /** Consecutive failed runs after which the account is marked suspended (default 5). */
  suspendAfterFailures?: number;
  /** A lock whose heartbeat is older than this is taken over (default 5 minutes). */
  lockStaleMs?: number;
}

/** Exit-code relevant outcomes of one recipe. */
export type Outcome = "no_changes" | "changes" | "converged" | "partial" | "failed" | "refused" | "locked";

export interface RecipeRun {
  recipeId: string;
  plan: Plan | null;
  apply: ApplyResult | null;
  outcome: Outcome;
  error: string | null;
}

export class LockedError extends Error {
  constructor(readonly heldBy: LockInfo) {
    super(
      `account "${heldBy.account}" is locked by ${heldBy.holder} (lock ${heldBy.lockId}); if that process is gone, run: musicsync unlock ${heldBy.lockId}`,
    );
    this.name = "LockedError";
  }
}

export class StalePlanError extends Error {
  constructor(recipeId: string) {
    super(`recipe ${recipeId}: the target changed since the plan was made; plan again`);
    this.name = "StalePlanError";
  }
}

interface Planned {
  plan: Plan;
  read: TargetRead;
  reconciliation: Reconciliation;
}

async function readTargetOf(
  target: TargetSpec,
  client: EngineClient,
  recipeId: string,
  remembered: string | null,
): Promise<TargetRead> {
  try {
    return await readTarget(target, client, { recipeId, ownedPlaylistId: remembered });
  } catch (e) {
    // The playlist the state remembers was deleted by hand: look for it (or a new one) by marker.
    if (remembered !== null && e instanceof ServiceError && e.status === 404) {
      return readTarget(target, client, { recipeId, ownedPlaylistId: null });
    }
    throw e;
  }
}

async function unfinishedOf(state: EngineState, recipeId: string): Promise<JournalEntry[]> {
  const unfinished = await state.unfinishedWrites();
  if (unfinished.length === 0) return [];
  const runs = new Set((await state.runs(recipeId, 1000)).map((r) => r.id));
  return unfinished.filter((e) => runs.has(e.runId));
}

function withoutQuarantined(desired: Desired, target: TargetSpec, quarantine: ReadonlySet<string>): Desired {
  if (quarantine.size === 0) return desired;
  const items = [];
  const skipped = [...desired.skipped];
  for (const item of desired.items) {
    const k = targetKey(target, item);
    if (k !== null && quarantine.has(k)) {
      skipped.push({ item, reason: "quarantined: the service refused to add it" });
    } else items.push(item);
  }
  return { ...desired, items, skipped };
}

/**
 * The service lists liked songs but offers no read of disliked ones, so a DISLIKE target's rows are
 * the ratings the engine itself confirmed (its owned rows). Without them every plan would rate the
 * same songs again; a dislike the person took back by hand stays unknown until the song is rated.
 */
function withRemembered(target: TargetSpec, read: TargetRead, ownedRows: readonly OwnedRow[]): TargetRead {
  if (target.type !== "likes" || target.rating !== "DISLIKE") return read;
  const rows = ownedRows.map((r, i) => makeItem({ videoId: r.itemKey, source: "target", rank: i + 1 }));
  return { ...read, actual: { ...read.actual, rows } };
}

/** Reads and plans one recipe. Writes nothing anywhere. */
export async function planRecipe(loaded: LoadedRecipe, env: EngineEnv): Promise<Planned> {
  const { recipe } = loaded;
  const client = env.clientFor(recipe.account);
  const remembered = (await env.state.ownedPlaylist(recipe.account, recipe.id))?.playlistId ?? null;
  const fresh = await readTargetOf(recipe.target, client, recipe.id, remembered);
  const key = stateTargetKey(recipe.target, fresh.actual.playlistId);
  const ownedRows = await env.state.ownedRows(recipe.account, key);
  const read = withRemembered(recipe.target, fresh, ownedRows);
  const actual: ActualTarget = read.actual;
  const reconciliation = reconcile(
    await unfinishedOf(env.state, recipe.id),
    actual,
    ownedRows,
    env.clock.now(),
  );
  const rows = new Set(ownedRows.map((r) => r.itemKey));
  for (const a of reconciliation.ownedAdds) rows.add(a.itemKey);
  for (const r of reconciliation.ownedRemoves) rows.delete(r.itemKey);
  const owned: Owned = {
    playlist:
      recipe.target.type === "playlist" &&
      (recipe.target.playlist.id !== null || (actual.exists && read.foundBy !== "none")),
    rows,
    tombstones: await env.state.tombstones(recipe.account, key),
  };
  const needsLiked = recipe.pipeline.some((s) => "exclude" in s && s.exclude.liked);
  const liked = needsLiked
    ? new Set(
        (await client.getLikedSongs({ limit: null })).tracks
          .map((t) => t.videoId)
          .filter((v): v is string => !!v),
      )
    : undefined;
  const reads = await readSources(recipe, client, actual.rows);
  const desired = withoutQuarantined(
    buildDesired(loaded, reads, {
      now: new Date(env.clock.now()),
      ...(liked ? { liked } : {}),
      tombstones: owned.tombstones,
    }),
    recipe.target,
    await env.state.tombstonesSince(recipe.account, QUARANTINE_TARGET, env.clock.now() - QUARANTINE_MS),
  );
  const plan = makePlan(desired, actual, owned, planPolicy(loaded));
  return { plan, read, reconciliation };
}

function lockHolder(): string {
  return `${hostname()}:${process.pid}`;
}

/** Whether a lock's holder is a process of this machine that no longer exists. */
function holderGone(holder: string): boolean {
  const [host, pid] = holder.split(":");
  if (host !== hostname() || !pid || !/^\d+$/.test(pid)) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Runs `body` holding the account's lock, with a heartbeat; a lock left by a dead local process is taken over. */
export async function withLock<T>(env: EngineEnv, account: string, body: () => Promise<T>): Promise<T> {
  const stale = env.lockStaleMs ?? 5 * 60_000;
  let attempt = await env.state.acquireLock(account, lockHolder(), env.clock.now(), stale);
  if (!attempt.acquired && holderGone(attempt.heldBy.holder)) {
    env.logger.warn(
      { account, lock: attempt.heldBy.lockId, holder: attempt.heldBy.holder },
      "taking over a dead process's lock",
    );
    await env.state.forceUnlock(attempt.heldBy.lockId);
    attempt = await env.state.acquireLock(account, lockHolder(), env.clock.now(), stale);
  }
  if (!attempt.acquired) throw new LockedError(attempt.heldBy);
  const { lockId } = attempt.lock;
  const beat = setInterval(
    () => void env.state.heartbeat(lockId, env.clock.now()),
    Math.max(1000, stale / 3),
  );
  beat.unref();
  try {
    return await body();
  } finally {
    clearInterval(beat);
    await env.state.releaseLock(lockId);
  }
}

async function persistFindings(env: EngineEnv, planned: Planned, recipeId: string, account: string) {
  const { state, clock } = env;
  const { read, reconciliation: r, plan } = planned;
  const key = stateTargetKey(plan.target.spec, read.actual.playlistId);
  if (read.foundBy === "marker" && read.actual.playlistId) {
    // The database lost it (or a killed run never recorded it): the marker says it is ours.
    await state.recordOwnedPlaylist({
      account,
      recipeId,
      target: key,
      playlistId: read.actual.playlistId,
      createdAt: clock.now(),
    });
  }
  await state.addOwnedRows(account, key, r.ownedAdds);
  await state.removeOwnedRows(account, key, r.ownedRemoves);
  for (const v of r.verdicts) await state.journalMark(v.runId, v.seq, v.status, clock.now());
  for (const runId of r.runs) {
    const run = (await state.runs(recipeId, 1000)).find((x) => x.id === runId);
    if (run?.result === "running")
      await state.finishRun(runId, { at: clock.now(), result: "failed", error: "interrupted" });
  }
}

async function applyWithRun(
  env: EngineEnv,
  planned: Planned,
  kind: RunKind,
  recipeHash: string,
): Promise<RecipeRun> {
  const { plan } = planned;
  const { state, clock } = env;
  const recipeId = plan.recipe.id;
  await persistFindings(env, planned, recipeId, plan.account);
  const runId = await state.startRun({ recipeId, account: plan.account, kind, recipeHash, at: clock.now() });
  await state.recordGeneration(recipeId, recipeHash, clock.now());
  if (plan.errors.length > 0) {
    await state.finishRun(runId, { at: clock.now(), result: "refused", error: plan.errors.join("; ") });
    return { recipeId, plan, apply: null, outcome: "failed", error: plan.errors.join("; ") };
  }
  try {
    const result = await applyPlan(plan, {
      client: env.clientFor(plan.account),
      state,
      pacer: env.pacerFor(plan.account),
      clock,
      runId,
      logger: env.logger,
      ...(env.onAction ? { onAction: env.onAction } : {}),
    });
    const counts = {
      actions: plan.actions.length,
      requests: result.requests,
      confirmed: result.outcomes.filter((o) => o.status === "confirmed").length,
      failed: result.outcomes.filter((o) => o.status !== "confirmed").length,
      quarantined: result.quarantined.length,
    };
    const converged = result.result === "converged";
    if (plan.actions.length > 0) await saveSnapshot(env, plan, result.playlistId, runId);
    const outcome: Outcome = plan.actions.length === 0 ? "no_changes" : converged ? "converged" : "partial";
    await state.finishRun(runId, {
      at: clock.now(),
      result: outcome === "no_changes" ? "no_changes" : converged ? "converged" : "partial",
      counts,
    });
    await state.setCondition(
      recipeId,
      {
        type: "Ready",
        status: converged ? "True" : "False",
        reason: converged ? "Converged" : "PartialApply",
        message: converged ? "the target matches the plan" : `${counts.failed} actions did not go through`,
      },
      clock.now(),
    );
    const truncated = plan.guards.filter(
      (g) => g.guard === "source_truncated" || g.guard === "too_few_items",
    );
    await state.setCondition(
      recipeId,
      {
        type: "SourceComplete",
        status: truncated.length === 0 ? "True" : "False",
        reason: truncated.length === 0 ? "SourcesRead" : "SourceTruncated",
        message: truncated.map((g) => g.message).join("; ") || "every source read in full",
      },
      clock.now(),
    );
    await state.setCondition(
      recipeId,
      {
        type: "AuthValid",
        status: "True",
        reason: "Accepted",
        message: "the service accepted the credentials",
      },
      clock.now(),
    );
    if (converged) await state.recordSuccess(plan.account);
    const err = converged
      ? null
      : result.outcomes
          .filter((o) => o.error)
          .map((o) => `action ${o.seq} (${o.kind}): ${o.error}`)
          .concat(result.quarantined.map((id) => `quarantined ${id}`))
          .join("; ");
    return { recipeId, plan, apply: result, outcome, error: err };
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    await state.finishRun(runId, { at: clock.now(), result: "failed", error: why });
    const expired = e instanceof AuthError && e.code === ErrorCodes.AUTH_EXPIRED;
    await state.recordFailure(plan.account, clock.now(), why, {
      suspendAfter: env.suspendAfterFailures ?? 5,
      authExpired: expired,
    });
    if (expired) {
      await state.setCondition(
        recipeId,
        { type: "AuthValid", status: "False", reason: "Expired", message: why },
        clock.now(),
      );
      // Expired credentials stop every recipe of the account (exit code 4), not just this one.
      throw e;
    }
    const journal = await state.journal(runId);
    // Anything sent makes it partial; an error before the first write is a plain failure.
    const wrote = journal.some((j) => j.status !== "pending");
    return { recipeId, plan, apply: null, outcome: wrote ? "partial" : "failed", error: why };
  }
}

/** The target as the apply left it, for `drift` to compare with later. A read, never a write. */
async function saveSnapshot(env: EngineEnv, plan: Plan, playlistId: string | null, runId: number) {
  try {
    const { actual } = await readTarget(plan.target.spec, env.clientFor(plan.account), {
      recipeId: plan.recipe.id,
      ownedPlaylistId: playlistId,
    });
    await env.state.saveSnapshot({
      account: plan.account,
      target: stateTargetKey(plan.target.spec, actual.playlistId),
      recipeId: plan.recipe.id,
      runId,
      takenAt: env.clock.now(),
      fingerprint: targetFingerprint(actual),
      rows: actual.rows.map((r) => ({
        key: targetKey(plan.target.spec, r) ?? r.videoId ?? "",
        setVideoId: r.setVideoId,
      })),
      // For `drift`: a title or privacy changed by hand shows against these.
      meta:
        plan.target.spec.type === "playlist"
          ? {
              playlistId: actual.playlistId,
              title: actual.title,
              description: actual.description,
              privacy: actual.privacy,
            }
          : null,
    });
  } catch (e) {
    // The writes are done; a failed snapshot read only leaves `drift` without a baseline.
    env.logger.warn(
      { recipe: plan.recipe.id, error: e instanceof Error ? e.message : String(e) },
      "no snapshot",
    );
  }
}

/** `sync`: plan and apply one recipe (or only plan, with dryRun). */
export async function syncRecipe(
  loaded: LoadedRecipe,
  env: EngineEnv,
  options: { dryRun?: boolean } = {},
): Promise<RecipeRun> {
  const recipeId = loaded.recipe.id;
  if (options.dryRun) {
    const { plan } = await planRecipe(loaded, env);
    return {
      recipeId,
      plan,
      apply: null,
      outcome: outcomeOfPlan(plan),
      error: plan.errors.join("; ") || null,
    };
  }
  return withLock(env, loaded.recipe.account, async () => {
    const planned = await planRecipe(loaded, env);
    return applyWithRun(env, planned, "sync", loaded.hash);
  });
}

export function outcomeOfPlan(plan: Plan): Outcome {
  if (plan.errors.length > 0) return "failed";
  return plan.actions.length > 0 ? "changes" : "no_changes";
}

/** `apply plan.json`: exactly the saved plan, refused when the target changed since it was read. */
export async function applySavedPlan(plan: Plan, env: EngineEnv): Promise<RecipeRun> {
  const recipeId = plan.recipe.id;
  return withLock(env, plan.account, async () => {
    const client = env.clientFor(plan.account);
    const remembered =
      plan.target.playlistId ?? (await env.state.ownedPlaylist(plan.account, recipeId))?.playlistId ?? null;
    const fresh = await readTargetOf(plan.target.spec, client, recipeId, remembered);
    const ownedRows = await env.state.ownedRows(
      plan.account,
      stateTargetKey(plan.target.spec, fresh.actual.playlistId),
    );
    const read = withRemembered(plan.target.spec, fresh, ownedRows);
    if (targetFingerprint(read.actual) !== plan.target.fingerprint) throw new StalePlanError(recipeId);
    const reconciliation = reconcile(
      await unfinishedOf(env.state, recipeId),
      read.actual,
      ownedRows,
      env.clock.now(),
    );
    return applyWithRun(env, { plan, read, reconciliation }, "apply", plan.recipe.hash);
  });
}
