/**
 * The runner: for one recipe, read the target and the sources, plan, and (unless planning only)
 * take the account's lock and apply. Planning writes nothing — not the state either; what an
 * interrupted run left in the journal is reconciled in memory for the plan and persisted only by a
 * run that goes on to write.
 */
import { AuthError, ErrorCodes, ServiceError } from "../../src/index.js";
import { type ApplyResult, applyPlan, QUARANTINE_MS, QUARANTINE_TARGET } from "../apply/apply.js";
import type { EngineClient } from "../apply/client.js";
import { neverSent } from "../apply/errors.js";
import { targetAfterApply } from "../apply/known-target.js";
import { buildDesired, planPolicy } from "../plan/desired.js";
import { targetFingerprint } from "../plan/fingerprint.js";
import { stateTargetKey } from "../plan/owned.js";
import { markerRecipe } from "../plan/ownership.js";
import { plan as makePlan, targetKey } from "../plan/plan.js";
import type { ActualTarget, Desired, Owned, Plan } from "../plan/types.js";
import type { FileSource, LoadedRecipe, ServiceSource, TargetSpec } from "../recipe/types.js";
import {
  type FileSourceDeps,
  type LoadedFile,
  loadFileSource,
  readFileSource,
} from "../sources/file-source.js";
import { makeItem } from "../sources/item.js";
import { readSources, SourceError } from "../sources/read.js";
import { readServiceSource } from "../sources/service-source.js";
import { actionCounts, journalFate } from "../state/counts.js";
import { currentHolder } from "../state/holder.js";
import type {
  EngineState,
  JournalEntry,
  NewCondition,
  OwnedRow,
  RunKind,
  Snapshot,
  Stores,
} from "../state/types.js";
import { withAlbumPlaylists } from "../targets/albums.js";
import { keepPersonRatings, personRatings, unreadRatingsNote } from "../targets/ratings.js";
import { readTarget, type TargetRead } from "../targets/read.js";
import { runThatApplied } from "./applied-plan.js";
import { type ApprovalOptions, approvalGate, noteApproval } from "./approval.js";
import { beforeRecord } from "./before.js";
import { withLock } from "./lease.js";
import { reconcile } from "./reconcile.js";
import type { EngineEnv, Outcome, Planned, RecipeRun, TargetSide } from "./run-types.js";
import { agreed, needsSecondRead } from "./second-read.js";
import { applyParts, dryRunParts, planSplit } from "./split.js";

export { LockedError, withLock } from "./lease.js";
export type { EngineEnv, Outcome, Planned, RecipeRun, TargetSide } from "./run-types.js";

export class StalePlanError extends Error {
  /** `appliedBy`: the run that already applied this very plan, when the state records one. */
  constructor(recipeId: string, appliedBy: number | null = null) {
    super(
      appliedBy === null
        ? `recipe ${recipeId}: the target changed since the plan was made; plan again`
        : `recipe ${recipeId}: this plan was already applied (run ${appliedBy})`,
    );
    this.name = "StalePlanError";
  }
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
    // A playlist adopted by id that is gone: say which one, not only "HTTP 404".
    if (target.type === "playlist" && target.playlist.id && e instanceof ServiceError && e.status === 404) {
      throw new Error(`target playlist ${target.playlist.id} was not found (HTTP 404)`, { cause: e });
    }
    throw e;
  }
}

export async function unfinishedOf(state: EngineState, recipeId: string): Promise<JournalEntry[]> {
  return recipesOwn(state, recipeId, await state.unfinishedWrites());
}

/** Of the unfinished writes `unfinished`, those of `recipeId`'s runs. */
async function recipesOwn(
  state: EngineState,
  recipeId: string,
  unfinished: readonly JournalEntry[],
): Promise<JournalEntry[]> {
  if (unfinished.length === 0) return [];
  const runs = new Set((await state.runs(recipeId, 1000)).map((r) => r.id));
  return unfinished.filter((e) => runs.has(e.runId));
}

/**
 * The account's quarantine, for the planner to leave out of the adds only: an id another recipe
 * had refused must not take a row this target already holds out of it (soak seed 1229).
 */
function withQuarantine(desired: Desired, quarantine: ReadonlySet<string>): Desired {
  return quarantine.size === 0 ? desired : { ...desired, quarantined: quarantine };
}

/**
 * The service lists liked songs but offers no read of disliked ones, so a DISLIKE target's rows are
 * the ratings the engine itself confirmed (its owned rows). Without them every plan would rate the
 * same songs again; a dislike the person took back by hand stays unknown until the song is rated.
 */
export function withRemembered(
  target: TargetSpec,
  read: TargetRead,
  ownedRows: readonly OwnedRow[],
): TargetRead {
  if (target.type !== "likes" || target.rating !== "DISLIKE") return read;
  const rows = ownedRows.map((r, i) => makeItem({ videoId: r.itemKey, source: "target", rank: i + 1 }));
  return { ...read, actual: { ...read.actual, rows } };
}

/**
 * Searches for file sources' entries, paced as writes are (with the same settings, on a pacer of
 * their own so searching never eats the writes' budget). `musicsync match` searches the same way.
 */
export function pacedSearch(env: EngineEnv, account: string): FileSourceDeps["search"] {
  const client = env.clientFor(account);
  const pacer = env.pacerFor(account, "searches");
  return (query, filter) => pacer.send(() => client.search(query, { filter, limit: 20 }));
}

/** The recipe's file sources read from disk, by source id: done before the run's first request. */
async function loadFiles(loaded: LoadedRecipe): Promise<Map<string, LoadedFile>> {
  const files = new Map<string, LoadedFile>();
  for (const spec of loaded.recipe.sources) {
    if (spec.type === "file") files.set(spec.id, await loadFileSource(spec));
  }
  return files;
}

/** How a run reads `file` sources: loaded beforehand, matches cached in the state, searches paced. */
function fileReader(env: EngineEnv, account: string, files: ReadonlyMap<string, LoadedFile>) {
  const search = pacedSearch(env, account);
  return (spec: FileSource) =>
    readFileSource(spec, { search, cache: env.state, now: env.clock.now() }, files.get(spec.id));
}

/**
 * How a run reads the other services' sources: the environment's readers (the project's
 * `services:`), matches cached in the state, searches paced as a file source's are.
 */
function serviceReader(env: EngineEnv, account: string) {
  const search = pacedSearch(env, account);
  return (spec: ServiceSource) => {
    if (!env.services) {
      throw new SourceError(
        spec.id,
        `${spec.type} sources need the project's services settings (musicsync.yaml)`,
      );
    }
    return readServiceSource(spec, env.services, { search, cache: env.state, now: env.clock.now() });
  };
}

/** Reads a target and what the state remembers of it (`recipeId`: the id it is owned under). */
export async function readSide(
  env: EngineEnv,
  account: string,
  recipeId: string,
  target: TargetSpec,
): Promise<TargetSide> {
  const client = env.clientFor(account);
  const remembered = (await env.state.ownedPlaylist(account, recipeId))?.playlistId ?? null;
  const fresh = await readTargetOf(target, client, recipeId, remembered);
  const key = stateTargetKey(target, fresh.actual.playlistId);
  // What the state remembers of the target, read at once (one round trip on PostgreSQL). The account
  // lock keeps it as it is while the run reads the sources.
  const memory = await env.state.targetMemory(account, recipeId, key, {
    target: QUARANTINE_TARGET,
    since: env.clock.now() - QUARANTINE_MS,
  });
  const {
    ownedRows,
    tombstones: [tombstones, quarantine],
  } = memory;
  const read = withRemembered(target, fresh, ownedRows);
  const actual: ActualTarget = read.actual;
  const reconciliation = reconcile(
    await recipesOwn(env.state, recipeId, memory.unfinished),
    actual,
    ownedRows,
    env.clock.now(),
  );
  const rows = new Set(ownedRows.map((r) => r.itemKey));
  for (const a of reconciliation.ownedAdds) rows.add(a.itemKey);
  for (const r of reconciliation.ownedRemoves) rows.delete(r.itemKey);
  const owned: Owned = {
    playlist:
      target.type === "playlist" &&
      (target.playlist.id !== null || (actual.exists && read.foundBy !== "none")),
    rows,
    tombstones,
  };
  return {
    read,
    reconciliation,
    owned,
    quarantine,
    lastReads: memory.sourceReads,
    generation: memory.generation,
  };
}

/** Reads the sources and runs the pipeline against the target as read. */
async function desiredFor(
  loaded: LoadedRecipe,
  env: EngineEnv,
  side: TargetSide,
  files: ReadonlyMap<string, LoadedFile>,
): Promise<Desired> {
  const { recipe } = loaded;
  const client = env.clientFor(recipe.account);
  const { actual } = side.read;
  const needsLiked = recipe.pipeline.some((s) => "exclude" in s && s.exclude.liked);
  const liked = needsLiked
    ? new Set(
        (await client.getLikedSongs({ limit: null })).tracks
          .map((t) => t.videoId)
          .filter((v): v is string => !!v),
      )
    : undefined;
  const reads = await readSources(recipe, client, actual.rows, {
    files: fileReader(env, recipe.account, files),
    services: serviceReader(env, recipe.account),
  });
  const built = buildDesired(loaded, reads, {
    now: new Date(env.clock.now()),
    ...(liked ? { liked } : {}),
    tombstones: side.owned.tombstones,
    lastReads: side.lastReads,
  });
  const desired = withQuarantine(
    await withAlbumPlaylists(built, recipe.target, actual.rows, client),
    side.quarantine,
  );
  // Ratings the person set by hand are kept unless the recipe overrides them (targets/ratings.ts).
  const ratings = await personRatings(
    recipe.target,
    desired,
    actual.rows,
    client,
    recipe.policy.override_ratings === true,
  );
  return keepPersonRatings(desired, recipe.target, ratings, actual.rows);
}

/**
 * Reads and plans one recipe. Writes nothing to the service (file sources' matches are cached). A
 * playlist recipe with `overflow: split` is planned as one plan per part (run/split.ts).
 */
export async function planRecipe(loaded: LoadedRecipe, env: EngineEnv): Promise<Planned> {
  const { recipe } = loaded;
  // Local input first: a file source that cannot be read fails the run naming it, before any request.
  const files = await loadFiles(loaded);
  const side = await readSide(env, recipe.account, recipe.id, recipe.target);
  const desired = await desiredFor(loaded, env, side, files);
  if (recipe.target.type === "playlist" && recipe.policy.overflow === "split") {
    return planSplit(loaded, env, side, desired, (id, target) => readSide(env, recipe.account, id, target));
  }
  const policy = planPolicy(loaded);
  const first = makePlan(desired, side.read.actual, side.owned, policy);
  if (!needsSecondRead(first, side.read))
    return { plan: first, read: side.read, reconciliation: side.reconciliation, generation: side.generation };
  // Its adds say rows are absent from a list without a count: believed only if a second read agrees.
  const second = await readTarget(recipe.target, env.clientFor(recipe.account), {
    recipeId: recipe.id,
    ownedPlaylistId: null,
  });
  const read = agreed(recipe.target, side.read, second);
  const plan = read === side.read ? first : makePlan(desired, read.actual, side.owned, policy);
  return { plan, read, reconciliation: side.reconciliation, generation: side.generation };
}

/**
 * After a run that applied: the size of each complete, unsuspicious source read becomes that
 * source's baseline for the shrinkage guard. Never at plan time (a plan writes nothing).
 */
async function recordCompleteReads(stores: Stores, plan: Plan, at: number): Promise<void> {
  const reads = (plan.sources ?? [])
    .filter((s) => s.record)
    .map((s) => ({ sourceId: s.key, items: s.items }));
  if (reads.length > 0) await stores.recordSourceReads(plan.recipe.id, reads, at);
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
  // One read of the recipe's runs for every interrupted run found, not one read per run.
  const runs = r.runs.length > 0 ? await state.runs(recipeId, 1000) : [];
  for (const runId of r.runs) {
    const run = runs.find((x) => x.id === runId);
    // Usually closed already when the state was opened (its process gone); this catches the rest.
    if (run?.result === "running") {
      const counts = actionCounts((await state.journal(runId)).map(journalFate));
      await state.finishRun(runId, {
        at: clock.now(),
        result: "interrupted",
        error: "interrupted: a later run found its writes unanswered",
        counts: { ...counts },
      });
    }
  }
}

/** What the runner records of a finished apply: each action's fate, requests and quarantined ids. */
function countsOfApply(result: ApplyResult): Record<string, number> {
  const fates = result.outcomes.map((o) => ({ status: o.status, sent: o.sent !== false }));
  return { ...actionCounts(fates), requests: result.requests, quarantined: result.quarantined.length };
}

/** "2 failed, 1 not sent, 1 id quarantined": what kept a run from converging, in words. */
export function shortfall(counts: Record<string, number>): string {
  const parts = [
    counts.failed ? `${counts.failed} failed` : null,
    counts.unknown ? `${counts.unknown} unanswered` : null,
    counts.notSent ? `${counts.notSent} not sent` : null,
    counts.quarantined ? `${plural(counts.quarantined, "id")} quarantined` : null,
  ].filter((p): p is string => p !== null);
  return `${counts.confirmed ?? 0} of ${plural(counts.actions ?? 0, "action")} confirmed${parts.length > 0 ? `; ${parts.join(", ")}` : ""}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * Why the plan could not make the target what the recipe wants: the target's read was cut short,
 * or a source's was — fewer items than the service said the list holds, or far fewer than its last
 * complete read (the sources apply would not record) — or the read of the person's ratings was, and
 * the songs it may have left out were skipped (docs/ENGINE.md#ratings).
 */
export function incompleteReads(plan: Plan): string[] {
  // A target read cut short holds every write back: "no changes" would call a stale target in sync.
  const target = plan.guards.filter((g) => g.guard === "target_truncated").map((g) => g.message);
  const sources = (plan.sources ?? [])
    .filter((s) => !s.record)
    .map((s) =>
      s.truncated
        ? `source ${s.id} was read cut short (${s.items} items, fewer than the service says it holds)`
        : `source ${s.id} returned ${s.items} items, far fewer than its last complete read (${s.last})`,
    );
  const ratings = unreadRatingsNote(plan.lines);
  return [...target, ...sources, ...(ratings === null ? [] : [ratings])];
}

/**
 * The conditions a one-shot run leaves (the daemon adds its own on top): Ready and Degraded say
 * whether the target matches the plan, SourceComplete whether every source was read in full,
 * AuthValid that the credentials were accepted. Written in one statement.
 */
function applyConditions(plan: Plan, converged: boolean, counts: Record<string, number>): NewCondition[] {
  const why = [shortfall(counts), ...incompleteReads(plan)].join("; ");
  const truncated = plan.guards.filter(
    (g) => g.guard === "source_truncated" || g.guard === "source_shrunk" || g.guard === "too_few_items",
  );
  return [
    converged
      ? { type: "Ready", status: "True", reason: "Converged", message: "the target matches the plan" }
      : { type: "Ready", status: "False", reason: "PartialApply", message: why },
    converged
      ? { type: "Degraded", status: "False", reason: "Healthy", message: "the last run converged" }
      : { type: "Degraded", status: "True", reason: "PartialApply", message: why },
    {
      type: "SourceComplete",
      status: truncated.length === 0 ? "True" : "False",
      reason: truncated.length === 0 ? "SourcesRead" : "SourceTruncated",
      message: truncated.map((g) => g.message).join("; ") || "every source read in full",
    },
    {
      type: "AuthValid",
      status: "True",
      reason: "Accepted",
      message: "the service accepted the credentials",
    },
  ];
}

/**
 * A run that failed before or during its apply: recorded (history shows it), its conditions set
 * (an expired credential makes AuthValid False; every failure makes Ready False and Degraded True),
 * and counted towards the account's suspension.
 */
export async function recordRunFailure(
  env: EngineEnv,
  run: { runId: number; recipeId: string; account: string },
  error: unknown,
  counts?: Record<string, number>,
): Promise<string> {
  const { state, clock } = env;
  const why = error instanceof Error ? error.message : String(error);
  await state.finishRun(run.runId, {
    at: clock.now(),
    result: "failed",
    error: why,
    ...(counts ? { counts } : {}),
  });
  const expired = error instanceof AuthError && error.code === ErrorCodes.AUTH_EXPIRED;
  await state.recordFailure(run.account, clock.now(), why, {
    suspendAfter: env.suspendAfterFailures ?? 5,
    authExpired: expired,
  });
  const reason = expired ? "AuthExpired" : "RunFailed";
  const conditions: NewCondition[] = [
    { type: "Ready", status: "False", reason, message: why },
    { type: "Degraded", status: "True", reason, message: why },
  ];
  if (expired) conditions.push({ type: "AuthValid", status: "False", reason: "Expired", message: why });
  await state.setCondition(run.recipeId, conditions, clock.now());
  return why;
}

export async function applyWithRun(
  env: EngineEnv,
  planned: Planned,
  kind: RunKind,
  recipeHash: string,
  approval: ApprovalOptions = {},
): Promise<RecipeRun> {
  const { plan } = planned;
  env.onPlan?.(plan);
  const { state, clock } = env;
  const recipeId = plan.recipe.id;
  await persistFindings(env, planned, recipeId, plan.account);
  const runId = await state.startRun({
    recipeId,
    account: plan.account,
    kind,
    recipeHash,
    at: clock.now(),
    holder: currentHolder(),
  });
  await state.recordGeneration(recipeId, recipeHash, clock.now(), planned.generation);
  if (plan.errors.length > 0) {
    await state.finishRun(runId, { at: clock.now(), result: "refused", error: plan.errors.join("; ") });
    return { recipeId, plan, apply: null, outcome: "failed", error: plan.errors.join("; ") };
  }
  const held = await approvalGate(env, plan, runId, approval);
  if (held) return held;
  // Whether a write may have left, for a run whose journal cannot be read back.
  let sent = 0;
  try {
    // What the run is about to change, for `musicsync undo` (engine/run/before.ts).
    const before = await beforeRecord(env, planned, runId);
    const { lease, onAction } = env;
    const result = await applyPlan(plan, {
      ...(before ? { before } : {}),
      client: env.clientFor(plan.account),
      state,
      pacer: env.pacerFor(plan.account),
      clock,
      runId,
      logger: env.logger,
      onAction: (e) => {
        if (e.phase === "sent") sent++;
        onAction?.(e);
      },
      ...(lease ? { lockLost: () => lease.lost() } : {}),
    });
    const lost = lease?.lost() ?? null;
    if (lost !== null) return await recordLockLost(env, plan, runId, result, lost);
    return await recordApplied(env, planned, runId, result);
  } catch (e) {
    return closeFailedRun(env, plan, runId, e, sent > 0);
  }
}

/** A run whose apply went to its end: its result, conditions and what it read, recorded. */
async function recordApplied(
  env: EngineEnv,
  planned: Planned,
  runId: number,
  result: ApplyResult,
): Promise<RecipeRun> {
  const { plan } = planned;
  const recipeId = plan.recipe.id;
  const counts = countsOfApply(result);
  const applied = result.result === "converged";
  // Every planned write went through, but a plan made from a source read cut short cannot make
  // the target what the recipe wants: such a run is partial, never "converged" (soak seed 99).
  const incomplete = incompleteReads(plan);
  const converged = applied && incomplete.length === 0;
  // Read before the batch: the target may have to be read again, and a transaction waits for no request.
  const snapshot = plan.actions.length > 0 ? await snapshotAfter(env, planned, result, runId) : null;
  const outcome: Outcome = !converged ? "partial" : plan.actions.length === 0 ? "no_changes" : "converged";
  // The run's end in one commit: its result, what it read and saw, its conditions.
  await env.state.batch(async (stores) => {
    const at = env.clock.now();
    await recordCompleteReads(stores, plan, at);
    if (snapshot) await stores.saveSnapshot(snapshot);
    await stores.finishRun(runId, { at, result: outcome, counts });
    // A plan of the recipe was applied: any plan still held for it is out of date.
    await stores.supersedeApprovals(recipeId, at);
    await stores.setCondition(recipeId, applyConditions(plan, converged, counts), at);
    if (applied && env.accountClear !== true) await stores.recordSuccess(plan.account);
  });
  const err = converged
    ? null
    : result.outcomes
        .filter((o) => o.error)
        .map((o) => `action ${o.seq} (${o.kind}): ${o.error}`)
        .concat(result.quarantined.map((id) => `quarantined ${id}`))
        .concat(incomplete)
        .join("; ");
  return { recipeId, plan, apply: result, outcome, error: err };
}

/**
 * A run whose account lock was lost mid-apply (engine/run/lease.ts): closed `interrupted` with why,
 * its conditions saying so. No failure of the recipe's (nothing counts towards its suspension):
 * the next run reconciles what this one sent.
 */
async function recordLockLost(
  env: EngineEnv,
  plan: Plan,
  runId: number,
  result: ApplyResult,
  lost: string,
): Promise<RecipeRun> {
  const { state, clock } = env;
  const counts = countsOfApply(result);
  await state.finishRun(runId, { at: clock.now(), result: "interrupted", error: lost, counts });
  const message = `${lost}; ${shortfall(counts)}`;
  await state.setCondition(
    plan.recipe.id,
    [
      { type: "Ready", status: "False", reason: "LockLost", message },
      { type: "Degraded", status: "True", reason: "LockLost", message },
    ],
    clock.now(),
  );
  return { recipeId: plan.recipe.id, plan, apply: result, outcome: "interrupted", error: lost };
}

/**
 * A run whose apply threw: closed as failed where the state can still be written. When the state
 * itself is what failed (its database went away), recording fails too: that is logged, and the
 * run's own error is what is said — the run is closed later, by the next run of the recipe or the
 * next opening of the state, never recorded with a write it did not send.
 */
async function closeFailedRun(
  env: EngineEnv,
  plan: Plan,
  runId: number,
  e: unknown,
  sentAny: boolean,
): Promise<RecipeRun> {
  const recipeId = plan.recipe.id;
  let why = e instanceof Error ? e.message : String(e);
  let wrote = sentAny;
  try {
    const journal = await env.state.journal(runId);
    // Anything sent makes it partial; an error before the first write is a plain failure.
    wrote = journal.some((j) => j.status !== "pending");
    const counts = { ...actionCounts(journal.map(journalFate)) };
    why = await recordRunFailure(env, { runId, recipeId, account: plan.account }, e, counts);
  } catch (recording) {
    env.logger.warn(
      {
        recipe: recipeId,
        run: runId,
        error: recording instanceof Error ? recording.message : String(recording),
      },
      "the failed run could not be recorded",
    );
  }
  // Expired credentials stop every recipe of the account (exit code 4), not just this one.
  if (e instanceof AuthError && e.code === ErrorCodes.AUTH_EXPIRED) throw e;
  return { recipeId, plan, apply: null, outcome: wrote ? "partial" : "failed", error: why };
}

/**
 * The target as the apply left it, for `drift` to compare with later. Where the run already knows it
 * (a playlist whose actions were all confirmed: the plan's read plus their answers, see
 * engine/apply/known-target.ts) it is not read again, so a sync with changes reads its target once.
 * Read again (a read, never a write) where it cannot be known: other targets, a playlist this run
 * created or deleted, an edited description, any action not confirmed.
 */
/** The target as the run left it, for `drift`; null when it could not be read (logged). */
async function snapshotAfter(
  env: EngineEnv,
  planned: Planned,
  result: ApplyResult,
  runId: number,
): Promise<Snapshot | null> {
  const { plan } = planned;
  try {
    const actual =
      targetAfterApply(plan, planned.read.actual, result) ??
      (
        await readTarget(plan.target.spec, env.clientFor(plan.account), {
          recipeId: plan.recipe.id,
          ownedPlaylistId: result.playlistId,
        })
      ).actual;
    return {
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
    };
  } catch (e) {
    // The writes are done; a failed snapshot read only leaves `drift` without a baseline.
    env.logger.warn(
      { recipe: plan.recipe.id, error: e instanceof Error ? e.message : String(e) },
      "no snapshot",
    );
    return null;
  }
}

/** `sync`: plan and apply one recipe (or only plan, with dryRun). */
export async function syncRecipe(
  loaded: LoadedRecipe,
  env: EngineEnv,
  options: { dryRun?: boolean; approve?: boolean } = {},
): Promise<RecipeRun> {
  const recipeId = loaded.recipe.id;
  if (options.dryRun) {
    const planned = noteApproval(await planRecipe(loaded, env), loaded.recipe.policy.require_approval);
    const { plan } = planned;
    return {
      recipeId,
      plan,
      apply: null,
      outcome: outcomeOfPlan(plan),
      error: plan.errors.join("; ") || null,
      ...dryRunParts(planned, outcomeOfPlan),
    };
  }
  return withLock(env, loaded.recipe.account, async (held) => {
    let planned: Planned;
    try {
      planned = await planRecipe(loaded, held);
    } catch (e) {
      await recordUnplannedSync(held, loaded, e);
      throw e;
    }
    const approval = { rule: loaded.recipe.policy.require_approval, approved: options.approve === true };
    const first = await applyWithRun(held, planned, "sync", loaded.hash, approval);
    return applyParts(first, planned.parts, (part) =>
      applyWithRun(held, part, "sync", loaded.hash, approval),
    );
  });
}

/**
 * A sync refused before its plan (a 401, an unreadable source) is a run too: history and status
 * show it, and it counts towards the account's suspension (a stop that cut planning short does not). Where the state cannot record it (its
 * database went away), that is logged: the refusal is still what the caller is told.
 */
async function recordUnplannedSync(env: EngineEnv, loaded: LoadedRecipe, e: unknown): Promise<void> {
  const { id: recipeId, account } = loaded.recipe;
  try {
    const runId = await env.state.startRun({
      recipeId,
      account,
      kind: "sync",
      recipeHash: loaded.hash,
      at: env.clock.now(),
      holder: currentHolder(),
    });
    // A stop (Ctrl-C) that cut the planning short is no failure of the recipe or its account.
    if (neverSent(e)) {
      const why = e instanceof Error ? e.message : String(e);
      await env.state.finishRun(runId, { at: env.clock.now(), result: "interrupted", error: why });
    } else await recordRunFailure(env, { runId, recipeId, account }, e);
  } catch (recording) {
    env.logger.warn(
      { recipe: recipeId, error: recording instanceof Error ? recording.message : String(recording) },
      "the failed run could not be recorded",
    );
  }
}

export function outcomeOfPlan(plan: Plan): Outcome {
  if (plan.errors.length > 0) return "failed";
  return plan.actions.length > 0 ? "changes" : "no_changes";
}

/**
 * A saved plan names the playlist it read. When the state holds no record of it, the plan found it
 * by its marker (the database was lost, or a killed run never recorded it): applying the plan
 * records it as a sync would (persistFindings), so that later runs read it by id and never look
 * for it by marker again, where a library listing cut short could hide it (docs/ENGINE.md#ownership).
 */
function foundBySavedPlan(read: TargetRead, owned: string | null, recipeId: string): TargetRead {
  if (owned !== null || read.foundBy !== "state" || read.actual.playlistId === null) return read;
  if (markerRecipe(read.actual.description) !== recipeId) return read;
  return { ...read, foundBy: "marker" };
}

/**
 * `apply plan.json`: exactly the saved plan, refused when the target changed since it was read, and
 * held for approval as `sync` holds a plan (`approval`: the recipe's rule, the plan's own note).
 */
export async function applySavedPlan(
  plan: Plan,
  env: EngineEnv,
  approval: ApprovalOptions = {},
): Promise<RecipeRun> {
  const recipeId = plan.recipe.id;
  return withLock(env, plan.account, async (held) => {
    const client = held.clientFor(plan.account);
    const owned = (await held.state.ownedPlaylist(plan.account, recipeId))?.playlistId ?? null;
    const remembered = plan.target.playlistId ?? owned;
    const fresh = foundBySavedPlan(
      await readTargetOf(plan.target.spec, client, recipeId, remembered),
      owned,
      recipeId,
    );
    const ownedRows = await held.state.ownedRows(
      plan.account,
      stateTargetKey(plan.target.spec, fresh.actual.playlistId),
    );
    const read = withRemembered(plan.target.spec, fresh, ownedRows);
    if (targetFingerprint(read.actual) !== plan.target.fingerprint) {
      throw new StalePlanError(recipeId, await runThatApplied(held.state, plan));
    }
    const reconciliation = reconcile(
      await unfinishedOf(held.state, recipeId),
      read.actual,
      ownedRows,
      held.clock.now(),
    );
    // A plan saved as one to hold is held, whoever applies it, unless told otherwise.
    const hold = { noted: plan.heldForApproval, ...approval };
    return applyWithRun(held, { plan, read, reconciliation }, "apply", plan.recipe.hash, hold);
  });
}
