/**
 * What a run is about to change, recorded before its first write so that `musicsync undo` can put
 * it back exactly even when the run was killed half way and its journal is partial: a playlist's
 * rows in order (told apart by setVideoId), its title, description and privacy; for ratings,
 * library and subscription targets, the prior state of each item the plan touches.
 *
 * Taken from what planning already read; the one exception is a song's rating before a likes run
 * rates it, which the liked-songs list cannot tell (INDIFFERENT and DISLIKE both look "not liked"):
 * those few songs' ratings are read from their album pages (`readRatings`).
 */
import type { ApplyLogger } from "../apply/apply.js";
import { stateTargetKey } from "../plan/owned.js";
import { targetKey } from "../plan/plan.js";
import type { ActualTarget, Plan } from "../plan/types.js";
import type { Privacy, TargetSpec } from "../recipe/types.js";
import { itemLabel, makeItem } from "../sources/item.js";
import type { EngineState, RunBeforeRecord } from "../state/types.js";
import { type Rating, type RatingsClient, readRatings } from "../targets/ratings.js";

export const BEFORE_VERSION = 1;

/** A playlist row as it was: its place is its index in `TargetBefore.rows`. */
export interface RowBefore {
  videoId: string;
  setVideoId: string | null;
  label: string;
}

/** A rating for likes targets; in or out of the list for library and subscription targets. */
export type ItemState = Rating | "in" | "out";

/** One item a ratings / library / subscriptions plan touches, as it was before the run. */
export interface ItemBefore {
  key: string;
  label: string;
  /** Null when it could not be read (a song without an album page). */
  state: ItemState | null;
  /** Library songs: the tokens that put it in and take it out of the library, where known. */
  addToken?: string | null;
  removeToken?: string | null;
}

export interface TargetBefore {
  version: typeof BEFORE_VERSION;
  spec: TargetSpec;
  exists: boolean;
  playlistId: string | null;
  title: string | null;
  description: string | null;
  privacy: Privacy | null;
  /** Playlists and saved episodes: every row, in order. Empty for other targets. */
  rows: RowBefore[];
  /** Other targets: the items the plan touches. Empty for playlists. */
  items: ItemBefore[];
}

/** What capturing needs of the runner's `Planned`. */
export interface BeforeInput {
  plan: Plan;
  read: { actual: ActualTarget };
}

/** The target before the plan's writes. Pure. `ratings`: songs' ratings read just before (likes). */
export function captureBefore(
  planned: BeforeInput,
  ratings: ReadonlyMap<string, Rating> = new Map(),
): TargetBefore {
  const { plan, read } = planned;
  const actual = read.actual;
  const spec = plan.target.spec;
  const ordered = spec.type === "playlist" || spec.type === "saved_episodes";
  return {
    version: BEFORE_VERSION,
    spec,
    exists: actual.exists,
    playlistId: actual.playlistId,
    title: actual.title,
    description: actual.description,
    privacy: actual.privacy,
    rows: ordered
      ? actual.rows.map((r) => ({ videoId: r.videoId ?? "", setVideoId: r.setVideoId, label: itemLabel(r) }))
      : [],
    items: ordered ? [] : touchedItems(plan, actual, ratings),
  };
}

function touchedItems(plan: Plan, actual: ActualTarget, ratings: ReadonlyMap<string, Rating>): ItemBefore[] {
  const spec = plan.target.spec;
  const rows = new Map<string, ActualTarget["rows"][number]>();
  for (const r of actual.rows) {
    const k = targetKey(spec, r);
    if (k !== null && !rows.has(k)) rows.set(k, r);
  }
  const labels = new Map(plan.lines.filter((l) => l.key !== null).map((l) => [l.key as string, l.label]));
  const label = (key: string) => {
    const row = rows.get(key);
    return row ? itemLabel(row) : (labels.get(key) ?? key);
  };
  const inOut = (key: string): ItemBefore => ({
    key,
    label: label(key),
    state: rows.has(key) ? "in" : "out",
  });
  const out: ItemBefore[] = [];
  for (const a of plan.actions) {
    if (a.kind === "rate_song")
      out.push({
        key: a.videoId,
        label: label(a.videoId),
        state: priorRating(spec, a, rows.has(a.videoId), ratings),
      });
    else if (a.kind === "rate_playlist") out.push(inOut(a.playlistId));
    else if (a.kind === "subscribe_artists" || a.kind === "unsubscribe_artists")
      out.push(...a.channelIds.map(inOut));
  }
  if (spec.type === "library" && spec.kind === "songs") out.push(...librarySongs(plan, actual, label));
  return out;
}

function priorRating(
  spec: TargetSpec,
  action: { videoId: string; rating: Rating },
  inTarget: boolean,
  ratings: ReadonlyMap<string, Rating>,
): Rating | null {
  const read = ratings.get(action.videoId);
  if (read) return read;
  // A row of the target holds the target's own rating (a liked song, a remembered dislike).
  if (inTarget && spec.type === "likes") return spec.rating;
  // Not in the target and not readable: the planner skips songs rated the other way by hand unless
  // the recipe overrides them, so "no rating" is what it was.
  return action.rating === "INDIFFERENT" ? null : "INDIFFERENT";
}

/**
 * Library songs: an edit names its songs and direction (one planned by an older version carries
 * tokens only: a token that is a row's remove token takes that row out; the others are the adds, in
 * the order of the plan's add lines, which engine/plan/library.ts builds from the same list).
 */
function librarySongs(plan: Plan, actual: ActualTarget, label: (key: string) => string): ItemBefore[] {
  const byRemove = new Map<string, ActualTarget["rows"][number]>();
  const byId = new Map<string, ActualTarget["rows"][number]>();
  for (const r of actual.rows) {
    if (r.feedbackTokens?.remove) byRemove.set(r.feedbackTokens.remove, r);
    if (r.videoId) byId.set(r.videoId, r);
  }
  const adds = plan.lines.filter((l) => l.op === "add" && l.key !== null);
  const out: ItemBefore[] = [];
  let next = 0;
  for (const a of plan.actions) {
    if (a.kind !== "edit_song_library_status") continue;
    if (a.videoIds && a.direction) {
      out.push(...namedSongs(a.feedbackTokens, a.videoIds, a.direction, byId, label));
      continue;
    }
    for (const token of a.feedbackTokens) {
      const row = byRemove.get(token);
      if (row?.videoId) {
        out.push({
          key: row.videoId,
          label: itemLabel(row),
          state: "in",
          addToken: row.feedbackTokens?.add ?? null,
          removeToken: token,
        });
        continue;
      }
      const line = adds[next++];
      if (line?.key) out.push({ key: line.key, label: label(line.key), state: "out", addToken: token });
    }
  }
  return out;
}

/** The songs of an edit that names them: in the library before a removal, out of it before an add. */
function namedSongs(
  tokens: readonly string[],
  videoIds: readonly string[],
  direction: "add" | "remove",
  byId: ReadonlyMap<string, ActualTarget["rows"][number]>,
  label: (key: string) => string,
): ItemBefore[] {
  return videoIds.map((key, i) => {
    const row = byId.get(key);
    return direction === "remove"
      ? {
          key,
          label: label(key),
          state: "in",
          addToken: row?.feedbackTokens?.add ?? null,
          removeToken: tokens[i] ?? null,
        }
      : { key, label: label(key), state: "out", addToken: tokens[i] ?? null };
  });
}

/** Songs a likes plan rates LIKE or DISLIKE: their prior rating is not in the liked-songs list. */
function songsToRead(plan: Plan): string[] {
  const spec = plan.target.spec;
  if (spec.type !== "likes") return [];
  // A LIKE target's rows are the service's liked list, so taking a like back needs no read. A
  // DISLIKE target's rows are the dislikes the engine remembers (the service lists none): the
  // person may have cleared one since, so its rating is read before the engine clears it too
  // (undo soak seed 48).
  const needsRead = (rating: Rating) => rating !== "INDIFFERENT" || spec.rating === "DISLIKE";
  return plan.actions
    .filter(
      (a): a is Extract<typeof a, { kind: "rate_song" }> => a.kind === "rate_song" && needsRead(a.rating),
    )
    .map((a) => a.videoId);
}

export interface RecordBeforeEnv {
  state: EngineState;
  clientFor(account: string): RatingsClient;
  clock: { now(): number };
  logger: ApplyLogger;
}

/** The ratings `captureBefore` needs read; a failed read leaves them unknown (the run goes on). */
export async function priorRatings(plan: Plan, env: RecordBeforeEnv): Promise<Map<string, Rating>> {
  const ids = songsToRead(plan);
  if (ids.length === 0) return new Map();
  try {
    const items = ids.map((videoId, i) => makeItem({ videoId, source: "target", rank: i + 1 }));
    return await readRatings(items, env.clientFor(plan.account));
  } catch (e) {
    env.logger.warn(
      { recipe: plan.recipe.id, error: e instanceof Error ? e.message : String(e) },
      "could not read the ratings before the run; its undo assumes none",
    );
    return new Map();
  }
}

/**
 * What the run is about to change (runner: just before applyPlan, which commits it with the journal
 * of the plan). Null for an empty plan.
 */
export async function beforeRecord(
  env: RecordBeforeEnv,
  planned: BeforeInput,
  runId: number,
): Promise<RunBeforeRecord | null> {
  const { plan } = planned;
  if (plan.actions.length === 0) return null;
  const before = captureBefore(planned, await priorRatings(plan, env));
  return {
    runId,
    recipeId: plan.recipe.id,
    account: plan.account,
    target: stateTargetKey(plan.target.spec, planned.read.actual.playlistId),
    takenAt: env.clock.now(),
    plan,
    before,
  };
}
