/**
 * `overflow: split`: the desired list continues into further playlists owned by the recipe, part 1
 * being the recipe's own playlist and part k "<title> (k)". Each part is planned as an ordinary
 * playlist plan over its own slice of the list; this file cuts the slices. Pure.
 *
 * A part takes the list in order until it holds 5,000 rows. Rows that stay whatever the list says
 * (the person's rows in sync mode, every row in append mode) count toward their part and keep their
 * item there: the item is never added to another part as well. Items a part turned away for good
 * (removed by hand after the engine added them, tombstoned) stay with that part too, so that a full
 * part does not push them into the next one.
 */
import type { PlaylistTarget } from "../recipe/types.js";
import { PLAYLIST_CAP } from "../recipe/types.js";
import type { Item } from "../sources/item.js";
import { type Draft, type Entry, targetKey } from "./core.js";
import { draftPlan } from "./draft.js";
import { partId } from "./ownership.js";
import { planPlaylist } from "./playlist.js";
import { playlistRules } from "./playlist-rows.js";
import type { ActualTarget, Desired, Owned, Plan, PlanPolicy } from "./types.js";

/** One part's target as read, and what the engine remembers of it. */
export interface PartTarget {
  actual: ActualTarget;
  owned: Owned;
}

export interface PartInput {
  /** The recipe's whole desired list. */
  desired: Desired;
  /** Items not placed in an earlier part, in desired order. */
  remaining: readonly Item[];
  /** Keys placed in earlier parts, with the part each went to. */
  placed: ReadonlyMap<string, number>;
  /** Keys held for good by a later part's rows (see fixedKeys), with that part. */
  heldLater: ReadonlyMap<string, number>;
  index: number;
  /** The part's own target (partTarget). */
  spec: PlaylistTarget;
  target: PartTarget;
  policy: PlanPolicy;
}

export interface PartResult {
  plan: Plan;
  /** Items left for the following parts, in desired order. */
  rest: Item[];
  /** Keys this part holds after its plan. */
  keys: string[];
}

/** The title of part `index`: the recipe's title, then " (k)", within the service's 150 characters. */
export function partTitle(title: string, index: number): string {
  if (index === 1) return title;
  const suffix = ` (${index})`;
  return `${title.trim().slice(0, 150 - suffix.length)}${suffix}`;
}

/** The target of part `index` (part 1 is the recipe's own, adopted by id or not). */
export function partTarget(target: PlaylistTarget, baseTitle: string, index: number): PlaylistTarget {
  if (index === 1) return target;
  return { ...target, playlist: { ...target.playlist, id: null, title: partTitle(baseTitle, index) } };
}

/** Whether the mode leaves this row where it is whatever the list says. */
function stays(mode: PlanPolicy["mode"], owned: Owned, key: string): boolean {
  return mode === "append" || (mode === "sync" && !owned.rows.has(key));
}

/** Keys of a part's rows that stay whatever the list says: their items belong to that part. */
export function fixedKeys(part: PartTarget, policy: PlanPolicy, desired: Desired): string[] {
  const target = desired.recipe.target;
  const keys: string[] = [];
  for (const row of part.actual.rows) {
    const key = targetKey(target, row);
    if (key !== null && stays(policy.mode, part.owned, key)) keys.push(key);
  }
  return keys;
}

/**
 * The entry from which the part is full, or null when the rest fits. Entries that stay in the part
 * whatever happens (their row stays, or the part turned them away for good) are not in the count of
 * entries; rows the plan keeps that hold no entry are.
 */
function firstSpilled(draft: Draft, sticky: (e: Entry) => boolean): Entry | null {
  let used = draft.rows.filter((r) => !r.remove).length;
  for (const e of draft.entries) if (sticky(e) && e.row !== null) used++;
  for (const e of draft.entries) {
    if (sticky(e) || (e.row === null && !e.adding)) continue;
    if (used >= PLAYLIST_CAP) return e;
    used++;
  }
  return null;
}

export function planPart(input: PartInput): PartResult {
  const { desired, index, policy, spec, target: part } = input;
  const recipe = desired.recipe;
  const keyOf = (item: Item) => targetKey(spec, item);
  // Items already placed in an earlier part are this part's duplicates; items a later part's rows
  // hold for good are that part's.
  const skipped = index === 1 ? [...desired.skipped] : [];
  const candidates: Item[] = [];
  for (const item of input.remaining) {
    const key = keyOf(item);
    const earlier = key === null ? undefined : input.placed.get(key);
    if (earlier !== undefined) skipped.push({ item, reason: `duplicate: already in part ${earlier}` });
    else if (key === null || input.heldLater.get(key) === undefined) candidates.push(item);
  }
  const partDesired = (items: readonly Item[]): Desired => ({
    ...desired,
    recipe: { ...recipe, id: partId(recipe.id, index), target: spec },
    items,
    skipped,
    // One part keeps the source reads and notes: the baseline is the recipe's, recorded once.
    ...(index === 1 ? {} : { sources: [], notes: [] }),
  });
  // A part the list no longer reaches is emptied, not guarded as an empty list would be.
  const partPolicy: PlanPolicy =
    index > 1 && desired.items.length > 0 ? { ...policy, allow_empty: true } : policy;
  const whole = draftPlan(
    { desired: partDesired(candidates), actual: part.actual, owned: part.owned, policy: partPolicy },
    playlistRules,
  );
  const sticky = (e: Entry) =>
    (e.row !== null && stays(policy.mode, part.owned, e.key)) ||
    (e.row === null && !e.adding && (part.owned.rows.has(e.key) || part.owned.tombstones.has(e.key)));
  const spilled = firstSpilled(whole, sticky);
  const cut = spilled === null ? candidates.length : candidates.indexOf(spilled.item);
  const stickyKeys = new Set(
    whole.entries.filter((e) => e.index >= (spilled?.index ?? 0) && sticky(e)).map((e) => e.key),
  );
  const slice = candidates.filter((item, n) => n < cut || stickyKeys.has(keyOf(item) ?? ""));
  const inSlice = new Set(slice);
  const rest = input.remaining.filter((item) => {
    const key = keyOf(item);
    if (inSlice.has(item) || (key !== null && input.placed.has(key))) return false;
    return key === null || !stickyKeys.has(key);
  });
  const plan = planPlaylist(
    { desired: partDesired(slice), actual: part.actual, owned: part.owned, policy: partPolicy },
    spec,
  );
  return { plan, rest, keys: heldAfter(plan, slice, part.actual, keyOf) };
}

/**
 * Keys the part holds once its plan is applied: its slice, and every row it keeps — also a row
 * whose move on to the next part a guard held back, so that the next part does not add it twice.
 */
function heldAfter(
  plan: Plan,
  slice: readonly Item[],
  actual: ActualTarget,
  keyOf: (item: Item) => string | null,
): string[] {
  const removed = new Set(plan.lines.filter((l) => l.op === "remove").map((l) => l.key));
  const keys = slice.map(keyOf);
  for (const row of actual.rows) {
    const key = keyOf(row);
    if (!removed.has(key)) keys.push(key);
  }
  return keys.filter((k): k is string => k !== null);
}
