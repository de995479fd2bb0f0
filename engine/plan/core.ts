/**
 * What every target's planner shares: the working state of one plan (a `Draft`) and the small
 * helpers that read it. A draft holds one entry per desired key and one row per target row that
 * holds no entry's key; each ends up as exactly one plan line. Pure.
 */
import type { TargetSpec } from "../recipe/types.js";
import { type Item, itemLabel } from "../sources/item.js";
import type { ActualTarget, Desired, GuardNote, Owned, PlanLine, PlanPolicy, RowRef } from "./types.js";

/** The planner's four inputs, as `plan()` receives them. */
export interface PlanInput {
  desired: Desired;
  actual: ActualTarget;
  owned: Owned;
  policy: PlanPolicy;
}

/** One desired key: the first item that wants it, and the line that says what happens to it. */
export interface Entry {
  /** Position in desired order (the order moves enforce). */
  index: number;
  item: Item;
  key: string;
  line: PlanLine;
  /** The target row that already holds this key, or null. */
  row: Item | null;
  adding: boolean;
}

/**
 * A target row that holds no entry's key (a row that does is its entry's `row`, and its line is the
 * entry's), and what happens to it.
 */
export interface Row {
  item: Item;
  key: string | null;
  remove: boolean;
  line: PlanLine;
}

/** What differs between targets while the draft is made: which items each write can take. */
export interface TargetRules {
  /** Why an item the target lacks cannot be added to it, or null when it can. */
  cannotAdd?: (item: Item) => string | null;
  /** Why a row the plan would remove cannot be removed, or null when it can. */
  cannotRemove?: (row: Item) => string | null;
}

export interface Draft extends PlanInput {
  entries: Entry[];
  entryByKey: Map<string, Entry>;
  /** Entries a target row already holds, in the order of those rows. */
  held: Entry[];
  /** The other target rows, in target order. */
  rows: Row[];
  /** Lines of items the pipeline dropped or the target cannot hold, after all other lines. */
  skipLines: PlanLine[];
  guards: GuardNote[];
  errors: string[];
  tombstones: string[];
}

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

/** The target as a skip reason names it ("library songs", "saved episodes"). */
export function targetLabel(target: TargetSpec): string {
  if (target.type === "library") return `library ${target.kind}`;
  return target.type.replace("_", " ");
}

export function lineOf(
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

export function refOf(row: Item): RowRef {
  return { videoId: row.videoId ?? "", setVideoId: row.setVideoId };
}

/** Entries the plan adds, in desired order. */
export function addsOf(draft: Draft): Entry[] {
  return draft.entries.filter((e) => e.adding);
}

/** Rows the plan removes, in target order. */
export function removalsOf(draft: Draft): Row[] {
  return draft.rows.filter((r) => r.remove);
}
