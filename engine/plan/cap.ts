/**
 * The service's 5,000-item cap on a playlist (saved episodes are one too). A plan whose target would
 * pass it does what the recipe's `overflow` says; each way of overflowing is one case of applyCap.
 * `split` is mostly the runner's (engine/run/split.ts cuts the list into parts before planning):
 * what still overflows one part (removals held back by a guard) is dropped as `truncate` drops it.
 */
import { PLAYLIST_CAP } from "../recipe/types.js";
import { addsOf, type Draft, type Entry, removalsOf } from "./core.js";
import { removalBlockers } from "./guards.js";

/**
 * The cap with its thousands grouped as en-US writes them, by hand: the first toLocaleString of a
 * process loads ICU's number data, some 50 ms of CPU that every `sync` paid as this module loaded.
 */
const CAP_TEXT = String(PLAYLIST_CAP).replace(/\B(?=(\d{3})+$)/g, ",");
export const ROTATED = `rotated out: over the ${CAP_TEXT} cap`;

/** How many rows the target would hold after the draft's removals and adds. */
export function finalSize(draft: Draft): number {
  return draft.actual.rows.length - removalsOf(draft).length + addsOf(draft).length;
}

export function applyCap(draft: Draft): void {
  const final = finalSize(draft);
  const over = final - PLAYLIST_CAP;
  if (over <= 0) return;
  switch (draft.policy.overflow) {
    case "error":
      draft.errors.push(
        `the target would hold ${final} items, ${over} over the ${PLAYLIST_CAP} cap (overflow: error)`,
      );
      return;
    case "truncate":
    case "split":
      dropLastAdds(draft, over);
      return;
    case "rotate":
      rotate(draft, over);
      return;
  }
}

/**
 * The last adds in desired order are the ones dropped: the top of the list still fits. When the rows
 * alone pass the cap (removals held back), every add goes and the target stays as it is.
 */
function dropLastAdds(draft: Draft, over: number): void {
  const adds = addsOf(draft);
  const dropped = adds.slice(Math.max(0, adds.length - over));
  if (dropped.length === 0) return;
  draft.guards.push({
    guard: "overflow",
    message: `${dropped.length} adds dropped: the target would pass the ${CAP_TEXT} cap`,
    blocks: "adds",
  });
  for (const entry of dropped) skip(entry, `over the ${CAP_TEXT} cap`);
}

function skip(entry: Entry, reason: string): void {
  entry.adding = false;
  entry.line.op = "skip";
  entry.line.reason = reason;
}

/**
 * `rotate` keeps the newest 5,000. In append mode the newest rows are the bottom ones (each run
 * appends), so the top rows go first, then, if adds alone pass the cap, the first adds. In mirror
 * and sync the desired list is cut to its last 5,000 items by source order. A rotated-out row is
 * tombstoned so that a source still listing it does not bring it back on the next run. When a
 * guard holds removals back, nothing can be rotated out and the last adds are dropped instead.
 */
function rotate(draft: Draft, over: number): void {
  // Rotation asked for by the recipe does not count against max_removals (0 below); every other
  // guard on removals holds it back, as it holds any removal back.
  const held = draft.guards.some((g) => g.blocks === "removals" || g.blocks === "all");
  const blockers = held ? [] : removalBlockers(draft, 0);
  if (held || blockers.length > 0) {
    draft.guards.push(...blockers);
    dropLastAdds(draft, over);
    return;
  }
  const out =
    draft.policy.mode === "append" ? rotateOldestRows(draft, over) : rotateFirstEntries(draft, over);
  if (out.rows === 0 && out.adds === 0) return;
  const parts = [
    out.rows > 0 ? `${out.rows} oldest rows removed` : null,
    out.adds > 0 ? `${out.adds} earliest adds dropped` : null,
  ];
  draft.guards.push({
    guard: "overflow",
    message: `rotated out (${parts.filter(Boolean).join(", ")}): the target would pass the ${CAP_TEXT} cap`,
    blocks: "none",
  });
  if (out.rows + out.adds < over) dropLastAdds(draft, over - out.rows - out.adds);
}

interface Rotated {
  rows: number;
  adds: number;
}

/** Append mode: the target's top rows, then the first adds. */
function rotateOldestRows(draft: Draft, over: number): Rotated {
  const out: Rotated = { rows: 0, adds: 0 };
  const heldBy = new Map(draft.held.map((e) => [e.row, e]));
  const rowOf = new Map(draft.rows.map((r) => [r.item, r]));
  const held = new Set<Entry>();
  for (const item of draft.actual.rows) {
    if (out.rows >= over) break;
    if (!item.videoId || !item.setVideoId) continue;
    const row = rowOf.get(item);
    const entry = heldBy.get(item);
    if (row && !row.remove) {
      row.remove = true;
      row.line = { ...row.line, op: "remove", reason: ROTATED };
      if (row.key !== null) draft.tombstones.push(row.key);
    } else if (entry) {
      held.add(entry);
      draft.tombstones.push(entry.key);
    } else continue;
    out.rows++;
  }
  rotateHeld(draft, held);
  for (const entry of addsOf(draft)) {
    if (out.rows + out.adds >= over) break;
    skip(entry, ROTATED);
    out.adds++;
  }
  return out;
}

/** Mirror and sync: the first desired entries that take room (rows the person added stay). */
function rotateFirstEntries(draft: Draft, over: number): Rotated {
  const out: Rotated = { rows: 0, adds: 0 };
  const { mode } = draft.policy;
  const held = new Set<Entry>();
  for (const entry of draft.entries) {
    if (out.rows + out.adds >= over) break;
    if (entry.adding) {
      skip(entry, ROTATED);
      out.adds++;
      continue;
    }
    const row = entry.row;
    const movable = mode === "mirror" || draft.owned.rows.has(entry.key);
    if (row === null || !movable || !row.videoId || !row.setVideoId) continue;
    held.add(entry);
    out.rows++;
  }
  rotateHeld(draft, held);
  return out;
}

/**
 * Desired entries whose rows are rotated out stop being entries (they no longer take a place in the
 * order) and become removed rows, each line keeping the source and rank it came from.
 */
function rotateHeld(draft: Draft, rotated: ReadonlySet<Entry>): void {
  if (rotated.size === 0) return;
  draft.entries = draft.entries.filter((e) => !rotated.has(e));
  draft.held = draft.held.filter((e) => !rotated.has(e));
  draft.entries.forEach((e, i) => {
    e.index = i;
  });
  for (const entry of rotated) {
    if (entry.row === null) continue;
    draft.entryByKey.delete(entry.key);
    entry.line.op = "remove";
    entry.line.reason = ROTATED;
    draft.rows.push({ item: entry.row, key: entry.key, remove: true, line: entry.line });
  }
}
