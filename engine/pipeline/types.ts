import type { Item } from "../sources/item.js";

/** An item the pipeline dropped, and why: plans show every source item, these included. */
export interface SkippedItem {
  item: Item;
  reason: string;
}

export interface StepResult {
  items: Item[];
  skipped: SkippedItem[];
}

/** Everything a step may look at besides the stream; the clock comes in here, never from Date.now(). */
export interface PipelineContext {
  /** Items of every source, by source id, in source order. */
  sources: ReadonlyMap<string, readonly Item[]>;
  /** videoIds the account has liked (for `exclude: { liked: true }`). */
  liked: ReadonlySet<string>;
  /** Keys the engine must not bring back (for `exclude: { tombstones: true }`). */
  tombstones: ReadonlySet<string>;
  /** The planning time: `since` windows and shuffle periods are computed from it. */
  now: Date;
  /** Part of every shuffle seed, so two recipes shuffle the same songs differently. */
  recipeId: string;
  /** The recipe's time zone (schedule.timezone): shuffle days and weeks are counted in it. */
  timeZone?: string | null;
}

/** The identity of an item: a video, else a playlist (albums, podcasts), else a channel. */
export function itemKey(item: Item): string | null {
  return item.videoId ?? item.playlistId ?? item.browseId ?? null;
}
