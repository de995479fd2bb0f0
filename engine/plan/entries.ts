/**
 * The first half of every plan: one entry per desired key, each target row matched to the entry it
 * holds or marked to go, and each entry the target lacks either added or skipped with a reason.
 */
import {
  type Draft,
  type Entry,
  lineOf,
  type Row,
  type TargetRules,
  targetKey,
  targetLabel,
} from "./core.js";
import type { PlanLine } from "./types.js";

/**
 * Lines for what the pipeline dropped; in clean mode those rows are removed instead (see cleanRows).
 * Runs after matchRows: a dropped item the target already holds as a row no entry holds (a song
 * `exclude: { liked: true }` drops because it is liked) is that row, not one more item. The row's
 * line then stands for both, with the drop's reason, so each item is counted once: the summary's
 * "unchanged" and "skipped" add up to what the sources and the target hold.
 */
export function skippedLines(draft: Draft): void {
  const clean = draft.policy.mode === "clean";
  const rowsByKey = clean ? new Map<string, Row[]>() : unheldRows(draft);
  const lines: PlanLine[] = [];
  for (const s of draft.desired.skipped) {
    if (clean && s.item.setVideoId) continue;
    const key = targetKey(draft.desired.recipe.target, s.item);
    const row = key === null ? undefined : rowsByKey.get(key)?.shift();
    if (row) row.line.reason = row.line.reason ? `${s.reason}; ${row.line.reason}` : s.reason;
    else lines.push(lineOf(s.item, "skip", null, s.reason, true));
  }
  // Before the lines desiredEntries wrote: the pipeline's drops come first, as they always have.
  draft.skipLines = [...lines, ...draft.skipLines];
}

/** The target rows no entry holds, by key, in target order: each may stand for one dropped item. */
function unheldRows(draft: Draft): Map<string, Row[]> {
  const byKey = new Map<string, Row[]>();
  for (const row of draft.rows) {
    if (row.key === null || draft.entryByKey.has(row.key)) continue;
    const same = byKey.get(row.key);
    if (same) same.push(row);
    else byKey.set(row.key, [row]);
  }
  return byKey;
}

/** One entry per key the target can hold; later items with the same key are skipped as duplicates. */
export function desiredEntries(draft: Draft): void {
  const { entries, entryByKey, skipLines } = draft;
  const target = draft.desired.recipe.target;
  for (const item of draft.desired.items) {
    const key = targetKey(target, item);
    if (key === null) {
      const reason = `a ${item.kind} cannot go in ${targetLabel(target)}`;
      skipLines.push(lineOf(item, "skip", null, reason, true));
      continue;
    }
    const first = entryByKey.get(key);
    if (first !== undefined) {
      const reason = `duplicate of #${first.item.rank} of ${first.item.source}`;
      skipLines.push(lineOf(item, "skip", key, reason, true));
      continue;
    }
    const line = lineOf(item, "keep", key, null, true);
    const entry: Entry = { index: entries.length, item, key, line, row: null, adding: false };
    entryByKey.set(key, entry);
    entries.push(entry);
  }
}

/** Which row holds each entry's key; the other rows go or stay as the mode says. */
export function matchRows(draft: Draft): void {
  const { mode } = draft.policy;
  const { rows, entryByKey, held } = draft;
  const owned = draft.owned.rows;
  const target = draft.desired.recipe.target;
  for (const item of draft.actual.rows) {
    const key = targetKey(target, item);
    const entry = key === null ? undefined : entryByKey.get(key);
    if (entry !== undefined && entry.row === null) {
      entry.row = item;
      held.push(entry);
      continue;
    }
    const duplicate = entry !== undefined;
    const isOwned = key !== null && owned.has(key);
    if (mode === "mirror" || (mode === "sync" && isOwned)) {
      const reason = duplicate ? "duplicate row" : mode === "mirror" ? "not desired" : "no longer desired";
      rows.push({ item, key, remove: true, line: lineOf(item, "remove", key, reason, false) });
    } else {
      const reason = mode === "append" ? "append never removes" : "added outside the engine";
      rows.push({ item, key, remove: false, line: lineOf(item, "keep", key, reason, false) });
    }
  }
}

/** Clean removes rows by identity (setVideoId): the pipeline ran over these very rows. */
export function cleanRows(draft: Draft): void {
  const target = draft.desired.recipe.target;
  const reasons = new Map<string, string>();
  for (const s of draft.desired.skipped) if (s.item.setVideoId) reasons.set(s.item.setVideoId, s.reason);
  const kept = new Set<string>();
  for (const item of draft.desired.items) if (item.setVideoId) kept.add(item.setVideoId);
  for (const item of draft.actual.rows) {
    const key = targetKey(target, item);
    const setId = item.setVideoId;
    const remove = setId !== null && !kept.has(setId);
    const line = remove
      ? lineOf(item, "remove", key, reasons.get(setId) ?? "not kept by the pipeline", false)
      : lineOf(item, "keep", key, null, false);
    draft.rows.push({ item, key, remove, line });
  }
}

/** Why a plan skips an id of the account's quarantine (readers of a plan match its first word). */
const QUARANTINED = "quarantined: the service refused to add it";

/**
 * Entries the target lacks: added, or skipped (quarantined, removed by hand, tombstoned,
 * unavailable). Only here, among the adds, does the quarantine count: an entry a row already holds
 * was matched to it and stays (docs/ENGINE.md#ownership).
 */
export function decideAdds(draft: Draft, rules: TargetRules): void {
  const { actual, owned, policy } = draft;
  const keepAway = policy.mode === "append" || (policy.mode === "sync" && policy.on_drift === "adopt");
  const quarantined = draft.desired.quarantined;
  for (const entry of draft.entries) {
    if (entry.row !== null) continue;
    const { key, line } = entry;
    if (quarantined?.has(key)) {
      line.op = "skip";
      line.reason = QUARANTINED;
      continue;
    }
    // A playlist about to be created has no history: nothing of it can have been removed by hand.
    const goneAfterEngineAdded = actual.exists && owned.rows.has(key);
    const tombstoned = actual.exists && owned.tombstones.has(key);
    if (keepAway && (goneAfterEngineAdded || tombstoned)) {
      line.op = "skip";
      line.reason = goneAfterEngineAdded ? "removed outside the engine; not re-added" : "tombstoned";
      if (goneAfterEngineAdded && !tombstoned) draft.tombstones.push(key);
      continue;
    }
    // One unavailable id can fail a whole add request: never send it.
    const why = entry.item.isAvailable ? (rules.cannotAdd?.(entry.item) ?? null) : "unavailable";
    if (why !== null) {
      line.op = "skip";
      line.reason = why;
      continue;
    }
    entry.adding = true;
    line.op = "add";
  }
}
