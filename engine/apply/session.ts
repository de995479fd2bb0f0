/**
 * The shared state of one apply, in one small object every handler is given: the context, the
 * target, the playlist written to (known only after a create), the rows this run added, the ids it
 * quarantined and the write requests it sent. The helpers below are the steps handlers share:
 * sending a write (paced; a fresh playlist waited for), reading the target back, owning rows.
 */

import { stateTargetKey } from "../plan/owned.js";
import type { Plan, RowRef } from "../plan/types.js";
import type { TargetSpec } from "../recipe/types.js";
import type { Item } from "../sources/item.js";
import type { OwnedRow, Stores } from "../state/types.js";
import { readTarget } from "../targets/read.js";
import { failedStatus, type WriteKind, writeConfirmed } from "./client.js";
import type { ApplyContext } from "./context.js";
import {
  ActionFailed,
  conflict,
  LockLostError,
  lost,
  message,
  neverSent,
  refused,
  Unverified,
} from "./errors.js";

export interface ApplySession {
  readonly ctx: ApplyContext;
  readonly plan: Plan;
  readonly account: string;
  readonly recipeId: string;
  readonly spec: TargetSpec;
  /** The playlist written to: the plan's, or the one its create made (or a read-back found). */
  playlistId: string | null;
  /** setVideoIds of rows this run added, by videoId, for moves planned before the rows existed. */
  readonly addedRows: Map<string, string>;
  /**
   * Rows the current action's answers showed to be the engine's or no longer, in order: recorded
   * with the action's journal mark in one commit (commitWithOwnership), not one commit per change.
   */
  readonly owning: OwnershipChange[];
  readonly quarantined: string[];
  /** Write requests this apply sent (splits and re-sends counted, throttled retries not). */
  requests: number;
}

export type OwnershipChange =
  | { add: readonly OwnedRow[] }
  | { remove: readonly { itemKey: string; setVideoId?: string | null }[] };

/** Where the session stood before an action: what the action added is what came after. */
export interface SessionMark {
  requests: number;
  added: number;
  quarantined: number;
}

/**
 * A freshly created playlist refuses edits with 409 for up to ~20 s (docs/PROTOCOL.md#errors): such a write is
 * waited for and sent again, first after FRESH_RETRY_MS, doubling, for at most FRESH_PLAYLIST_MS in
 * all — never taken as a refusal of its ids (which would quarantine good songs).
 */
const FRESH_PLAYLIST_MS = 30_000;
const FRESH_RETRY_MS = 1_000;
/** Reads of the target, at most, to verify one write when the service cuts the list short. */
const CUT_READS = 2;

export function openSession(plan: Plan, ctx: ApplyContext): ApplySession {
  const spec = plan.target.spec;
  return {
    ctx,
    plan,
    account: plan.account,
    recipeId: plan.recipe.id,
    spec,
    playlistId: plan.target.playlistId ?? (spec.type === "saved_episodes" ? "SE" : null),
    addedRows: new Map(),
    owning: [],
    quarantined: [],
    requests: 0,
  };
}

export function markOf(s: ApplySession): SessionMark {
  return { requests: s.requests, added: s.addedRows.size, quarantined: s.quarantined.length };
}

/** The target's key in the state (a playlist's changes once it is created). */
export function targetKeyOf(s: ApplySession): string {
  return stateTargetKey(s.spec, s.playlistId);
}

/**
 * One write through the account's pacer (throttling retried there), counted. Every write of an
 * apply goes out here, so this is where a lost lock stops them: asked before the request is
 * counted and again as each attempt leaves (after the pacer's waits), no request starts once the
 * lock is known lost.
 */
async function paced<T>(s: ApplySession, write: () => Promise<T>): Promise<T> {
  stopIfLockLost(s);
  s.requests += 1;
  const leased = () => {
    stopIfLockLost(s);
    return write();
  };
  try {
    return await s.ctx.pacer.send(leased, (note) =>
      s.ctx.logger.warn(
        { recipe: s.recipeId, attempt: note.attempt, delayMs: note.delayMs, error: message(note.error) },
        "write throttled; retrying",
      ),
    );
  } catch (e) {
    if (neverSent(e)) s.requests -= 1;
    throw e;
  }
}

function stopIfLockLost(s: ApplySession): void {
  const why = s.ctx.lockLost?.() ?? null;
  if (why !== null) throw new LockLostError(why);
}

/** A write; on a playlist a 409 means it is too fresh to edit yet, so it is waited for and sent again. */
export async function sendWrite<T>(s: ApplySession, write: () => Promise<T>): Promise<T> {
  if (s.spec.type !== "playlist" && s.spec.type !== "saved_episodes") return paced(s, write);
  const { clock, logger } = s.ctx;
  const started = clock.now();
  for (let delay = FRESH_RETRY_MS; ; delay *= 2) {
    try {
      return await paced(s, write);
    } catch (e) {
      const wait = Math.min(delay, started + FRESH_PLAYLIST_MS - clock.now());
      if (!conflict(e) || wait <= 0) throw e;
      logger.warn(
        { recipe: s.recipeId, delayMs: wait, error: message(e) },
        "playlist not editable yet; waiting",
      );
      await clock.sleep(wait);
    }
  }
}

/** A read that verifies a write: when it fails, the write's fate is unknown (not failed). */
export async function verifying<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    throw new Unverified(e);
  }
}

/**
 * The target as it is now (a read, not a write): how refusals and lost answers are verified. Only
 * a complete read can say a row is absent: a list the service cut short (fewer rows than its count)
 * would make unremoved rows look removed and done adds look missing (seed 387 of the soak). So a
 * cut read is read once more, and a second cut leaves the write unverified (`unknown`).
 */
export function reread(s: ApplySession): Promise<Item[]> {
  return verifying(async () => {
    for (let attempt = 1; ; attempt++) {
      const read = await readTarget(s.spec, s.ctx.client, {
        recipeId: s.recipeId,
        ownedPlaylistId: s.playlistId,
      });
      if (s.spec.type === "playlist" && read.actual.playlistId) s.playlistId = read.actual.playlistId;
      if (!read.actual.truncated) return [...read.actual.rows];
      if (attempt >= CUT_READS) throw new Error("the target read back was cut short");
    }
  });
}

/** The keys a read-back row is known by (a song, a playlist or album, a channel). */
export function keysOf(rows: readonly Item[]): Set<string> {
  return new Set(rows.map((r) => r.videoId ?? r.playlistId ?? r.browseId ?? ""));
}

/** Rows (or liked songs, subscriptions…) this run put there, to be recorded as the engine's own. */
export function own(s: ApplySession, rows: readonly { videoId: string; setVideoId: string | null }[]): void {
  for (const r of rows) if (r.setVideoId) s.addedRows.set(r.videoId, r.setVideoId);
  const at = s.ctx.clock.now();
  s.owning.push({ add: rows.map((r) => ({ itemKey: r.videoId, setVideoId: r.setVideoId, addedAt: at })) });
}

/** Rows the engine owned and no longer does (by key, or by row id when given), to be forgotten. */
export function disown(
  s: ApplySession,
  rows: readonly { itemKey: string; setVideoId?: string | null }[],
): void {
  s.owning.push({ remove: rows });
}

/**
 * Commits an action's journal mark (`mark`) with the ownership changes gathered since the last
 * such commit, in one batch. The changes are let go only once it has committed: a batch retried
 * after a lost connection runs its work again (engine/postgres/reconnect.ts) and must find them all.
 */
export async function commitWithOwnership(
  s: ApplySession,
  mark: (stores: Stores) => Promise<void>,
): Promise<void> {
  const changes = s.owning.slice();
  const target = targetKeyOf(s);
  await s.ctx.state.batch(async (stores) => {
    for (const change of changes) {
      if ("add" in change) await stores.addOwnedRows(s.account, target, change.add);
      else await stores.removeOwnedRows(s.account, target, change.remove);
    }
    await mark(stores);
  });
  s.owning.splice(0, changes.length);
}

/** A row's id: as planned, or learned from this run's add of it. */
export function resolveRow(s: ApplySession, ref: RowRef): string {
  const id = ref.setVideoId ?? s.addedRows.get(ref.videoId);
  if (!id) throw new ActionFailed(`no row id for ${ref.videoId} (its add did not go through)`);
  return id;
}

export function requirePlaylist(s: ApplySession): string {
  if (!s.playlistId) throw new ActionFailed("the playlist was not created");
  return s.playlistId;
}

/**
 * One write, done only on the service's positive confirmation for its kind; otherwise (a refusal,
 * a lost answer, a 409 "already so", an answer that says nothing) checked by reading back.
 */
export async function checked(
  s: ApplySession,
  kind: WriteKind,
  write: () => Promise<unknown>,
  verify: () => Promise<boolean>,
): Promise<void> {
  let problem: unknown;
  try {
    const answer = await sendWrite(s, write);
    if (writeConfirmed(kind, answer)) return;
    problem = new ActionFailed(
      failedStatus(answer)
        ? "the service answered with a failed status"
        : "the service did not confirm the write",
    );
  } catch (e) {
    if (!refused(e) && !lost(e)) throw e;
    problem = e;
  }
  if (await verify()) return;
  throw new ActionFailed(message(problem));
}
