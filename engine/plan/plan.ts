/**
 * plan(desired, actual, owned, policy) → Plan. Pure: no clock, no network, no database; the same
 * inputs always give the same plan. Every source item and every target row ends up in exactly one
 * line (added, kept, moved, removed, rated or skipped with a reason).
 */
import { sameDescription, sameTitle, serviceDescription, serviceTitle } from "../recipe/service-text.js";
import { PLAYLIST_CAP, type TargetSpec } from "../recipe/types.js";
import { type Item, itemLabel } from "../sources/item.js";
import { withNotes } from "./desired.js";
import { targetFingerprint } from "./fingerprint.js";
import { longestIncreasingSubsequence } from "./lis.js";
import { describeOwned } from "./ownership.js";
import { planSources, shrinkMessage } from "./shrinkage.js";
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

/**
 * Desired entries and target rows are kept in parallel arrays (typed where numeric) rather than one
 * object each: a 5,000-row plan then allocates only what it returns (lines, actions, moves).
 */
interface Entries {
  item: Item[];
  key: string[];
  line: PlanLine[];
  /** Index of the target row that already holds the entry, or -1. */
  row: Int32Array;
  adding: Uint8Array;
}

interface Rows {
  key: (string | null)[];
  /** Index into the entries when the row is the desired one for its key, else -1. */
  entry: Int32Array;
  remove: Uint8Array;
  line: (PlanLine | null)[];
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
  const n = desired.items.length;
  const entries: Entries = {
    item: [],
    key: [],
    line: [],
    row: new Int32Array(n).fill(-1),
    adding: new Uint8Array(n),
  };
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
      const earlier = entries.item[first]!;
      skipLines.push(lineOf(item, "skip", key, `duplicate of #${earlier.rank} of ${earlier.source}`, true));
      continue;
    }
    entryOf.set(key, entries.item.length);
    entries.item.push(item);
    entries.key.push(key);
    entries.line.push(lineOf(item, "keep", key, null, true));
  }
  const count = entries.item.length;

  // ── target rows: which one holds each desired key, which go ──
  const rowItems = actual.rows;
  const m = rowItems.length;
  const rows: Rows = {
    key: new Array<string | null>(m),
    entry: new Int32Array(m).fill(-1),
    remove: new Uint8Array(m),
    line: new Array<PlanLine | null>(m).fill(null),
  };
  for (let i = 0; i < m; i++) {
    const row = rowItems[i]!;
    const key = targetKey(target, row);
    rows.key[i] = key;
    if (mode === "clean") {
      const setId = row.setVideoId;
      if (setId !== null && !keepSetIds.has(setId)) {
        rows.remove[i] = 1;
        rows.line[i] = lineOf(
          row,
          "remove",
          key,
          cleanReasons.get(setId) ?? "not kept by the pipeline",
          false,
        );
      } else rows.line[i] = lineOf(row, "keep", key, null, false);
      continue;
    }
    const e = key === null ? undefined : entryOf.get(key);
    if (e !== undefined && entries.row[e] === -1) {
      entries.row[e] = i;
      rows.entry[i] = e;
      continue;
    }
    const duplicate = e !== undefined;
    const isOwned = key !== null && owned.rows.has(key);
    if (mode === "mirror" || (mode === "sync" && isOwned)) {
      rows.remove[i] = 1;
      const reason = duplicate ? "duplicate row" : mode === "mirror" ? "not desired" : "no longer desired";
      rows.line[i] = lineOf(row, "remove", key, reason, false);
    } else {
      const reason = mode === "append" ? "append never removes" : "added outside the engine";
      rows.line[i] = lineOf(row, "keep", key, reason, false);
    }
  }

  // ── desired keys not in the target: add, or skip (tombstones, unavailable) ──
  const keepAway = mode === "append" || (mode === "sync" && policy.on_drift === "adopt");
  for (let i = 0; i < count; i++) {
    if (entries.row[i] !== -1) continue;
    const key = entries.key[i]!;
    const item = entries.item[i]!;
    const line = entries.line[i]!;
    // A playlist about to be created has no history: nothing of it can have been removed by hand.
    const goneAfterEngineAdded = actual.exists && owned.rows.has(key);
    const tombstoned = actual.exists && owned.tombstones.has(key);
    if (keepAway && (goneAfterEngineAdded || tombstoned)) {
      line.op = "skip";
      line.reason = goneAfterEngineAdded ? "removed outside the engine; not re-added" : "tombstoned";
      if (goneAfterEngineAdded && !tombstoned) tombstones.push(key);
      continue;
    }
    if (!item.isAvailable) {
      // One unavailable id can fail a whole add request: never send it.
      line.op = "skip";
      line.reason = "unavailable";
      continue;
    }
    if (target.type === "library" && target.kind === "songs" && !item.feedbackTokens?.add) {
      line.op = "skip";
      line.reason = "no library token to add it with";
      continue;
    }
    entries.adding[i] = 1;
    line.op = target.type === "likes" ? "rate" : "add";
    if (target.type === "likes") line.reason = `rating ${target.rating}`;
  }

  // ── guards before deletes ──
  /** Takes row i out of the removals, with the reason it stays. */
  const hold = (i: number, reason: string) => {
    rows.remove[i] = 0;
    rows.line[i] = lineOf(rowItems[i]!, "skip", rows.key[i]!, reason, false);
  };
  if (ordered) {
    // remove_playlist_items needs both ids of a row; a row the service lists without them stays.
    for (let i = 0; i < m; i++) {
      if (rows.remove[i] && (!rowItems[i]!.videoId || !rowItems[i]!.setVideoId))
        hold(i, "cannot be removed: the service gave no row id");
    }
  }
  if (target.type === "library" && target.kind === "songs") {
    for (let i = 0; i < m; i++)
      if (rows.remove[i] && !rowItems[i]!.feedbackTokens?.remove)
        hold(i, "no library token to remove it with");
  }
  let removals: number[] = [];
  for (let i = 0; i < m; i++) if (rows.remove[i]) removals.push(i);
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
    const shrunk = shrinkMessage(desired.sources ?? [], policy.min_source_ratio);
    if (shrunk !== null) blockers.push({ guard: "source_shrunk", message: shrunk, blocks: "removals" });
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
      for (const i of removals) hold(i, why);
      removals = [];
    }
  }

  // ── the 5,000 cap ──
  let adds: number[] = [];
  for (let i = 0; i < count; i++) if (entries.adding[i]) adds.push(i);
  if (ordered) {
    const final = m - removals.length + adds.length;
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
        for (const i of adds.slice(adds.length - over)) {
          entries.adding[i] = 0;
          entries.line[i]!.op = "skip";
          entries.line[i]!.reason = `over the ${PLAYLIST_CAP.toLocaleString("en-US")} cap`;
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
  let movedEntries: Uint8Array | null = null;
  const batch = policy.batch_size;
  const addKeys = adds.map((i) => entries.key[i]!);
  const removalKeys = removals.map((i) => rows.key[i]!);
  if (target.type === "playlist" || target.type === "saved_episodes") {
    const playlistId = actual.playlistId ?? (target.type === "saved_episodes" ? "SE" : null);
    if (target.type === "playlist" && !actual.exists) {
      const [firstBatch = [], ...rest] = chunk(addKeys, batch);
      actions.push({
        kind: "create_playlist",
        title: serviceTitle(target.playlist.title ?? desired.recipe.id),
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
      for (const part of chunk(removals, batch)) {
        actions.push({
          kind: "remove_playlist_items",
          playlistId,
          videos: part.map((i) => refOf(rowItems[i]!)),
        });
      }
      for (const ids of chunk(addKeys, batch))
        actions.push({ kind: "add_playlist_items", playlistId, videoIds: ids });
      const enforce =
        target.type === "playlist" && policy.order === "source" && (mode === "mirror" || mode === "sync");
      if (enforce) {
        ({ moves, moved: movedEntries } = fewestMoves(entries, count, rows, rowItems));
        for (const part of chunk(moves, batch))
          actions.push({ kind: "move_playlist_items", playlistId, moves: part });
      }
    }
  } else if (target.type === "likes") {
    for (const key of addKeys) actions.push({ kind: "rate_song", videoId: key, rating: target.rating });
    for (const i of removals) {
      const key = rows.key[i]!;
      actions.push({ kind: "rate_song", videoId: key, rating: "INDIFFERENT" });
      rows.line[i] = lineOf(
        rowItems[i]!,
        "rate",
        key,
        `rating INDIFFERENT (${rows.line[i]?.reason ?? "not desired"})`,
        false,
      );
    }
  } else if (target.type === "library") {
    if (target.kind === "songs") {
      for (const tokens of chunk(
        adds.map((i) => entries.item[i]!.feedbackTokens!.add!),
        batch,
      )) {
        actions.push({ kind: "edit_song_library_status", feedbackTokens: tokens });
      }
      for (const tokens of chunk(
        removals.map((i) => rowItems[i]!.feedbackTokens!.remove!),
        batch,
      )) {
        actions.push({ kind: "edit_song_library_status", feedbackTokens: tokens });
      }
    } else {
      for (const key of addKeys) actions.push({ kind: "rate_playlist", playlistId: key, rating: "LIKE" });
      for (const key of removalKeys)
        actions.push({ kind: "rate_playlist", playlistId: key, rating: "INDIFFERENT" });
    }
  } else {
    // The service takes one channel per subscribe request, several per unsubscribe.
    for (const key of addKeys) actions.push({ kind: "subscribe_artists", channelIds: [key] });
    for (const ids of chunk(removalKeys, batch)) {
      actions.push({ kind: "unsubscribe_artists", channelIds: ids });
    }
  }
  if (movedEntries !== null) {
    for (let i = 0; i < count; i++) {
      const line = entries.line[i]!;
      if (movedEntries[i] && !entries.adding[i] && line.op === "keep") line.op = "move";
    }
  }

  const blockedAll = actual.truncated || errors.length > 0;
  let lines: PlanLine[] = entries.line.slice();
  for (let i = 0; i < m; i++) {
    const line = rows.line[i];
    if (line) lines.push(line);
  }
  for (const line of skipLines) lines.push(line);
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
  // A switch, not summary[l.op]: a keyed increment per line is a slow path at 5,000 lines.
  for (const l of lines) {
    switch (l.op) {
      case "add":
        summary.add++;
        break;
      case "keep":
        summary.keep++;
        break;
      case "remove":
        summary.remove++;
        break;
      case "rate":
        summary.rate++;
        break;
      case "skip":
        summary.skip++;
        break;
    }
  }
  // Moves count write steps: an added row that then moves into place is one add and one move.
  summary.move = moves.length;
  for (const a of actions) {
    if (a.kind === "create_playlist") summary.create++;
    else if (a.kind === "edit_playlist") summary.edit++;
  }
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
      rows: m,
    },
    actions,
    lines,
    guards,
    errors,
    tombstones,
    summary,
    sources: planSources(desired.sources ?? [], policy.min_source_ratio),
    ...withNotes(desired.notes ?? []),
  };
}

/**
 * The rows after removes and adds are: kept rows in their order, then added rows in desired order.
 * Those already in desired relative order (a longest increasing subsequence of desired positions)
 * stay; each other desired row moves before the next desired row, from the last one backwards, so
 * every successor it is placed against is already where it belongs.
 */
function fewestMoves(
  entries: Entries,
  count: number,
  rows: Rows,
  rowItems: readonly Item[],
): { moves: MoveStep[]; moved: Uint8Array } {
  // holder[i]: the target row holding desired entry i after removes (-1: an added row, -2: none).
  const holder = new Int32Array(count).fill(-2);
  const sequence: number[] = [];
  for (let r = 0; r < rowItems.length; r++) {
    const e = rows.entry[r]!;
    if (rows.remove[r] || e === -1) continue;
    holder[e] = r;
    sequence.push(e);
  }
  for (let i = 0; i < count; i++) {
    if (!entries.adding[i]) continue;
    holder[i] = -1;
    sequence.push(i);
  }
  const stay = new Uint8Array(count);
  for (const p of longestIncreasingSubsequence(sequence)) stay[sequence[p]!] = 1;
  const moves: MoveStep[] = [];
  const moved = new Uint8Array(count);
  let next: RowRef | null = null;
  for (let i = count - 1; i >= 0; i--) {
    const at = holder[i]!;
    if (at === -2) continue;
    // A row this plan adds has no setVideoId yet: apply learns it from the add's answer.
    const ref: RowRef = at === -1 ? { videoId: entries.key[i]!, setVideoId: null } : refOf(rowItems[at]!);
    if (!stay[i]) {
      moved[i] = 1;
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
  // Compared as the service stores titles: an untrimmed title would otherwise be edited on every run.
  if (p.title !== null && !sameTitle(p.title, actual.title)) edit.title = serviceTitle(p.title);
  // A playlist the engine made by title keeps its marker; an adopted one gets the text as written.
  const description =
    owned.playlist && p.id === null ? describeOwned(p.description, recipeId) : (p.description ?? null);
  if (description !== null && !sameDescription(description, actual.description))
    edit.description = serviceDescription(description);
  if (p.privacy !== null && p.privacy !== actual.privacy) edit.privacy = p.privacy;
  return Object.keys(edit).length > 2 ? edit : null;
}
