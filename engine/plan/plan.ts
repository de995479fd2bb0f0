/**
 * plan(desired, actual, owned, policy) → Plan. Pure: no clock, no network, no database; the same
 * inputs always give the same plan. Every source item and every target row ends up in exactly one
 * line (added, kept, moved, removed, rated or skipped with a reason).
 */
import { PLAYLIST_CAP, type TargetSpec } from "../recipe/types.js";
import { type Item, itemLabel } from "../sources/item.js";
import { targetFingerprint } from "./fingerprint.js";
import { longestIncreasingSubsequence } from "./lis.js";
import { describeOwned } from "./ownership.js";
import {
  type ActualTarget,
  type Desired,
  type GuardNote,
  type MoveStep,
  type Owned,
  PLAN_VERSION,
  type Plan,
  type PlanAction,
  type PlanLine,
  type PlanPolicy,
  type PlanSummary,
  type RowRef,
} from "./types.js";

/** The identity of an item for a target: what the target holds one of. */
export function targetKey(target: TargetSpec, item: Item): string | null {
  switch (target.type) {
    case "playlist":
    case "saved_episodes":
    case "likes":
      return item.kind === "track" || item.kind === "episode" ? item.videoId : null;
    case "library":
      if (target.kind === "songs") return item.kind === "track" ? item.videoId : null;
      if (target.kind === "albums") return item.kind === "album" ? item.playlistId : null;
      if (target.kind === "playlists") return item.kind === "playlist" ? item.playlistId : null;
      return item.kind === "podcast" ? item.playlistId : null;
    case "subscriptions":
      return item.kind === "artist" ? item.browseId : null;
  }
}

function what(target: TargetSpec): string {
  if (target.type === "library") return `library ${target.kind}`;
  return target.type.replace("_", " ");
}

function chunk<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

function lineOf(
  item: Item,
  op: PlanLine["op"],
  key: string | null,
  reason: string | null,
  fromSource: boolean,
): PlanLine {
  return {
    op,
    key,
    label: itemLabel(item),
    videoId: item.videoId,
    source: fromSource ? item.source : null,
    rank: fromSource ? item.rank : null,
    reason,
  };
}

interface Entry {
  item: Item;
  key: string;
  line: PlanLine;
  /** Index of the target row that already holds it, or -1. */
  row: number;
  adding: boolean;
}

interface RowFate {
  row: Item;
  key: string | null;
  /** Index into entries when the row is the desired one for its key. */
  entry: number;
  remove: boolean;
  line: PlanLine | null;
}

function emptySummary(): PlanSummary {
  return { add: 0, remove: 0, move: 0, rate: 0, keep: 0, skip: 0, create: 0, edit: 0, requests: 0 };
}

function refOf(row: Item): RowRef {
  return { videoId: row.videoId ?? "", setVideoId: row.setVideoId };
}

export function plan(desired: Desired, actual: ActualTarget, owned: Owned, policy: PlanPolicy): Plan {
  const target = desired.recipe.target;
  const mode = policy.mode;
  const ordered = target.type === "playlist" || target.type === "saved_episodes";
  const errors: string[] = [];
  const guards: GuardNote[] = [];
  const tombstones: string[] = [];
  const skipLines: PlanLine[] = [];

  // Clean removes rows by identity (setVideoId): the pipeline ran over these very rows.
  const cleanReasons = new Map<string, string>();
  for (const s of desired.skipped) {
    if (mode === "clean" && s.item.setVideoId) cleanReasons.set(s.item.setVideoId, s.reason);
    else skipLines.push(lineOf(s.item, "skip", null, s.reason, true));
  }

  // ── desired entries, one per key ──
  const entries: Entry[] = [];
  const entryOf = new Map<string, number>();
  const keepSetIds = new Set<string>();
  for (const item of desired.items) {
    if (mode === "clean") {
      if (item.setVideoId) keepSetIds.add(item.setVideoId);
      continue;
    }
    const key = targetKey(target, item);
    if (key === null) {
      skipLines.push(lineOf(item, "skip", null, `a ${item.kind} cannot go in ${what(target)}`, true));
      continue;
    }
    const first = entryOf.get(key);
    if (first !== undefined) {
      skipLines.push(
        lineOf(
          item,
          "skip",
          key,
          `duplicate of #${entries[first]!.item.rank} of ${entries[first]!.item.source}`,
          true,
        ),
      );
      continue;
    }
    entryOf.set(key, entries.length);
    entries.push({ item, key, line: lineOf(item, "keep", key, null, true), row: -1, adding: false });
  }

  // ── target rows: which one holds each desired key, which go ──
  const fates: RowFate[] = actual.rows.map((row) => ({
    row,
    key: targetKey(target, row),
    entry: -1,
    remove: false,
    line: null,
  }));
  for (let i = 0; i < fates.length; i++) {
    const fate = fates[i]!;
    if (mode === "clean") {
      const setId = fate.row.setVideoId;
      if (setId !== null && !keepSetIds.has(setId)) {
        fate.remove = true;
        fate.line = lineOf(
          fate.row,
          "remove",
          fate.key,
          cleanReasons.get(setId) ?? "not kept by the pipeline",
          false,
        );
      } else fate.line = lineOf(fate.row, "keep", fate.key, null, false);
      continue;
    }
    const e = fate.key === null ? undefined : entryOf.get(fate.key);
    if (e !== undefined && entries[e]!.row === -1) {
      entries[e]!.row = i;
      fate.entry = e;
      continue;
    }
    const duplicate = e !== undefined;
    const isOwned = fate.key !== null && owned.rows.has(fate.key);
    if (mode === "mirror" || (mode === "sync" && isOwned)) {
      fate.remove = true;
      const reason = duplicate ? "duplicate row" : mode === "mirror" ? "not desired" : "no longer desired";
      fate.line = lineOf(fate.row, "remove", fate.key, reason, false);
    } else {
      const reason = mode === "append" ? "append never removes" : "added outside the engine";
      fate.line = lineOf(fate.row, "keep", fate.key, reason, false);
    }
  }

  // ── desired keys not in the target: add, or skip (tombstones, unavailable) ──
  for (const entry of entries) {
    if (entry.row !== -1) continue;
    const { key, item } = entry;
    // A playlist about to be created has no history: nothing of it can have been removed by hand.
    const goneAfterEngineAdded = actual.exists && owned.rows.has(key);
    const tombstoned = actual.exists && owned.tombstones.has(key);
    const keepAway = mode === "append" || (mode === "sync" && policy.on_drift === "adopt");
    if (keepAway && (goneAfterEngineAdded || tombstoned)) {
      entry.line.op = "skip";
      entry.line.reason = goneAfterEngineAdded ? "removed outside the engine; not re-added" : "tombstoned";
      if (goneAfterEngineAdded && !tombstoned) tombstones.push(key);
      continue;
    }
    if (!item.isAvailable) {
      // One unavailable id can fail a whole add request: never send it.
      entry.line.op = "skip";
      entry.line.reason = "unavailable";
      continue;
    }
    if (target.type === "library" && target.kind === "songs" && !item.feedbackTokens?.add) {
      entry.line.op = "skip";
      entry.line.reason = "no library token to add it with";
      continue;
    }
    entry.adding = true;
    entry.line.op = target.type === "likes" ? "rate" : "add";
    if (target.type === "likes") entry.line.reason = `rating ${target.rating}`;
  }

  // ── guards before deletes ──
  if (ordered) {
    // remove_playlist_items needs both ids of a row; a row the service lists without them stays.
    for (const f of fates) {
      if (f.remove && (!f.row.videoId || !f.row.setVideoId)) {
        f.remove = false;
        f.line = lineOf(f.row, "skip", f.key, "cannot be removed: the service gave no row id", false);
      }
    }
  }
  let removals = fates.filter((f) => f.remove);
  if (target.type === "library" && target.kind === "songs") {
    for (const f of removals) {
      if (!f.row.feedbackTokens?.remove) {
        f.remove = false;
        f.line = lineOf(f.row, "skip", f.key, "no library token to remove it with", false);
      }
    }
    removals = fates.filter((f) => f.remove);
  }
  if (actual.truncated) {
    guards.push({
      guard: "target_truncated",
      message: "the target read looks truncated: nothing is written",
      blocks: "all",
    });
  }
  if (removals.length > 0) {
    const blockers: GuardNote[] = [];
    if (desired.truncatedSources.length > 0) {
      blockers.push({
        guard: "source_truncated",
        message: `source read looks truncated (${desired.truncatedSources.join(", ")})`,
        blocks: "removals",
      });
    }
    if (desired.sourceTotal < policy.min_source_items) {
      blockers.push({
        guard: "too_few_items",
        message: `sources returned ${desired.sourceTotal} items, fewer than min_source_items (${policy.min_source_items})`,
        blocks: "removals",
      });
    }
    if (desired.items.length === 0 && !policy.allow_empty) {
      blockers.push({
        guard: "empty_desired",
        message: "nothing is desired and allow_empty is false",
        blocks: "removals",
      });
    }
    if (removals.length > policy.max_removals) {
      blockers.push({
        guard: "max_removals",
        message: `${removals.length} removals exceed max_removals (${policy.max_removals})`,
        blocks: "removals",
      });
    }
    if (blockers.length > 0) {
      guards.push(...blockers);
      const why = `removal blocked: ${blockers.map((b) => b.guard).join(", ")}`;
      for (const f of removals) {
        f.remove = false;
        f.line = lineOf(f.row, "skip", f.key, why, false);
      }
      removals = [];
    }
  }

  // ── the 5,000 cap ──
  let adds = entries.filter((e) => e.adding);
  if (ordered) {
    const final = actual.rows.length - removals.length + adds.length;
    if (final > PLAYLIST_CAP) {
      const over = final - PLAYLIST_CAP;
      if (policy.overflow === "error") {
        errors.push(
          `the target would hold ${final} items, ${over} over the ${PLAYLIST_CAP} cap (overflow: error)`,
        );
      } else {
        guards.push({
          guard: "overflow",
          message: `${over} adds dropped: the target would pass the ${PLAYLIST_CAP} cap`,
          blocks: "adds",
        });
        for (const e of adds.slice(adds.length - over)) {
          e.adding = false;
          e.line.op = "skip";
          e.line.reason = `over the ${PLAYLIST_CAP.toLocaleString("en-US")} cap`;
        }
        adds = adds.slice(0, adds.length - over);
      }
    }
  }
  if (target.type === "playlist" && !actual.exists && !target.playlist.title) {
    errors.push(`playlist ${target.playlist.id ?? "?"} was not found`);
  }

  // ── actions ──
  const actions: PlanAction[] = [];
  let moves: MoveStep[] = [];
  let movedEntries = new Set<number>();
  const batch = policy.batch_size;
  const removedRows = removals.map((f) => f.row);
  if (target.type === "playlist" || target.type === "saved_episodes") {
    const playlistId = actual.playlistId ?? (target.type === "saved_episodes" ? "SE" : null);
    const addIds = adds.map((e) => e.key);
    if (target.type === "playlist" && !actual.exists) {
      const [firstBatch = [], ...rest] = chunk(addIds, batch);
      actions.push({
        kind: "create_playlist",
        title: target.playlist.title ?? desired.recipe.id,
        description: describeOwned(target.playlist.description, desired.recipe.id),
        privacy: target.playlist.privacy ?? "PRIVATE",
        videoIds: firstBatch,
      });
      for (const ids of rest) actions.push({ kind: "add_playlist_items", playlistId: null, videoIds: ids });
    } else if (playlistId !== null) {
      if (target.type === "playlist") {
        const edit = metadataEdit(target, actual, owned, desired.recipe.id, playlistId);
        if (edit) actions.push(edit);
      }
      for (const rows of chunk(removedRows, batch)) {
        actions.push({ kind: "remove_playlist_items", playlistId, videos: rows.map(refOf) });
      }
      for (const ids of chunk(addIds, batch))
        actions.push({ kind: "add_playlist_items", playlistId, videoIds: ids });
      const enforce =
        target.type === "playlist" && policy.order === "source" && (mode === "mirror" || mode === "sync");
      if (enforce) {
        ({ moves, moved: movedEntries } = fewestMoves(entries, fates));
        for (const m of chunk(moves, batch))
          actions.push({ kind: "move_playlist_items", playlistId, moves: m });
      }
    }
  } else if (target.type === "likes") {
    for (const e of adds) actions.push({ kind: "rate_song", videoId: e.key, rating: target.rating });
    for (const f of removals) {
      actions.push({ kind: "rate_song", videoId: f.key!, rating: "INDIFFERENT" });
      f.line = lineOf(f.row, "rate", f.key, `rating INDIFFERENT (${f.line?.reason ?? "not desired"})`, false);
    }
  } else if (target.type === "library") {
    if (target.kind === "songs") {
      for (const tokens of chunk(
        adds.map((e) => e.item.feedbackTokens!.add!),
        batch,
      )) {
        actions.push({ kind: "edit_song_library_status", feedbackTokens: tokens });
      }
      for (const tokens of chunk(
        removedRows.map((r) => r.feedbackTokens!.remove!),
        batch,
      )) {
        actions.push({ kind: "edit_song_library_status", feedbackTokens: tokens });
      }
    } else {
      for (const e of adds) actions.push({ kind: "rate_playlist", playlistId: e.key, rating: "LIKE" });
      for (const f of removals)
        actions.push({ kind: "rate_playlist", playlistId: f.key!, rating: "INDIFFERENT" });
    }
  } else {
    // The service takes one channel per subscribe request, several per unsubscribe.
    for (const e of adds) actions.push({ kind: "subscribe_artists", channelIds: [e.key] });
    for (const ids of chunk(
      removals.map((f) => f.key!),
      batch,
    )) {
      actions.push({ kind: "unsubscribe_artists", channelIds: ids });
    }
  }
  entries.forEach((e, i) => {
    if (movedEntries.has(i) && !e.adding && e.line.op === "keep") e.line.op = "move";
  });

  const blockedAll = actual.truncated || errors.length > 0;
  let lines = [
    ...entries.map((e) => e.line),
    ...fates.map((f) => f.line).filter((l): l is PlanLine => l !== null),
    ...skipLines,
  ];
  if (blockedAll) {
    const why = errors[0] ?? "the target read looks truncated";
    lines = lines.map((l) =>
      l.op === "keep" || l.op === "skip" ? l : { ...l, op: "skip", reason: `not planned: ${why}` },
    );
    actions.length = 0;
    moves = [];
    tombstones.length = 0;
  }

  const summary = emptySummary();
  for (const l of lines) if (l.op !== "move") summary[l.op] += 1;
  // Moves count write steps: an added row that then moves into place is one add and one move.
  summary.move = moves.length;
  summary.create = actions.filter((a) => a.kind === "create_playlist").length;
  summary.edit = actions.filter((a) => a.kind === "edit_playlist").length;
  summary.requests = actions.length;

  return {
    version: PLAN_VERSION,
    recipe: { id: desired.recipe.id, hash: desired.recipe.hash },
    account: desired.recipe.account,
    mode,
    target: {
      spec: target,
      playlistId: actual.playlistId,
      exists: actual.exists,
      fingerprint: targetFingerprint(actual),
      rows: actual.rows.length,
    },
    actions,
    lines,
    guards,
    errors,
    tombstones,
    summary,
  };
}

/**
 * The rows after removes and adds are: kept rows in their order, then added rows in desired order.
 * Those already in desired relative order (a longest increasing subsequence of desired positions)
 * stay; each other desired row moves before the next desired row, from the last one backwards, so
 * every successor it is placed against is already where it belongs.
 */
function fewestMoves(
  entries: readonly Entry[],
  fates: readonly RowFate[],
): { moves: MoveStep[]; moved: Set<number> } {
  // refs[i]: the row that will hold desired entry i after removes and adds (undefined: none).
  const refs = new Array<RowRef | undefined>(entries.length);
  const sequence: number[] = [];
  for (const fate of fates) {
    if (fate.remove || fate.entry === -1) continue;
    refs[fate.entry] = refOf(fate.row);
    sequence.push(fate.entry);
  }
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    if (!e.adding) continue;
    refs[i] = { videoId: e.key, setVideoId: null };
    sequence.push(i);
  }
  const stay = new Uint8Array(entries.length);
  for (const p of longestIncreasingSubsequence(sequence)) stay[sequence[p]!] = 1;
  const moves: MoveStep[] = [];
  const moved = new Set<number>();
  let next: RowRef | null = null;
  for (let i = entries.length - 1; i >= 0; i--) {
    const ref = refs[i];
    if (ref === undefined) continue;
    if (!stay[i]) {
      moved.add(i);
      moves.push({ row: ref, before: next });
    }
    next = ref;
  }
  return { moves, moved };
}

function metadataEdit(
  target: Extract<TargetSpec, { type: "playlist" }>,
  actual: ActualTarget,
  owned: Owned,
  recipeId: string,
  playlistId: string,
): PlanAction | null {
  const edit: Extract<PlanAction, { kind: "edit_playlist" }> = { kind: "edit_playlist", playlistId };
  const p = target.playlist;
  if (p.title !== null && p.title !== actual.title) edit.title = p.title;
  // A playlist the engine made by title keeps its marker; an adopted one gets the text as written.
  const description =
    owned.playlist && p.id === null ? describeOwned(p.description, recipeId) : (p.description ?? null);
  if (description !== null && description !== (actual.description ?? "")) edit.description = description;
  if (p.privacy !== null && p.privacy !== actual.privacy) edit.privacy = p.privacy;
  return Object.keys(edit).length > 2 ? edit : null;
}
