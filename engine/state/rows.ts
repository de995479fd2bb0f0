/**
 * From a table row to the record the stores return (and the record of what has no row yet): SQLite
 * and PostgreSQL read the same columns with the same types (times as numbers, JSON as text).
 */
import type { Tables } from "./tables.js";
import type {
  AccountHealth,
  Approval,
  ApprovalStatus,
  CachedMatch,
  JournalEntry,
  JournalStatus,
  RecipeHealth,
  RunBeforeRecord,
  RunKind,
  RunRecord,
  RunResult,
  Snapshot,
  StoredAccount,
} from "./types.js";

type Row<K extends keyof Tables> = Tables[K]["$inferSelect"];

// JSON is kept as text, so that what is read back is byte for byte what was written.
export const json = (value: unknown): string => JSON.stringify(value ?? null);
export const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

export function runRecordOf(r: Row<"runs">): RunRecord {
  return {
    ...r,
    kind: r.kind as RunKind,
    result: r.result as RunResult,
    counts: parse(r.counts) as Record<string, number> | null,
  };
}

export function journalEntryOf(r: Row<"journal">): JournalEntry {
  return {
    runId: r.runId,
    seq: r.seq,
    kind: r.kind,
    target: r.target,
    payload: parse(r.payload),
    status: r.status as JournalStatus,
    attempt: r.attempt,
    result: parse(r.result),
    updatedAt: r.updatedAt,
  };
}

export function runBeforeOf(r: Row<"runBefore">): RunBeforeRecord {
  return { ...r, plan: JSON.parse(r.plan), before: JSON.parse(r.before) };
}

export function snapshotOf(r: Row<"targetSnapshots">): Snapshot {
  const { meta, ...rest } = r;
  return {
    ...rest,
    rows: parse(r.rows) as Snapshot["rows"],
    // Only playlists have metadata; other snapshots (and those from before it was kept) have none.
    ...(meta !== null ? { meta: parse(meta) as Snapshot["meta"] } : {}),
  };
}

export function cachedMatchOf(r: Row<"matchCache">): CachedMatch {
  return {
    key: r.entryKey,
    videoId: r.videoId,
    score: r.score,
    reasons: JSON.parse(r.reasons) as string[],
    matchedAt: r.matchedAt,
  };
}

export function approvalOf(r: Row<"approvals">): Approval {
  return { ...r, plan: JSON.parse(r.plan), status: r.status as ApprovalStatus };
}

/**
 * Settings that are not a JSON object (a row edited by hand) read as none: the copy sealed with
 * the credentials then no longer matches, which `accounts list` says and every run refuses.
 */
export function storedAccountOf(r: Row<"accounts">): StoredAccount {
  let settings: unknown = null;
  try {
    settings = JSON.parse(r.settings);
  } catch {
    // left as none
  }
  const isObject = typeof settings === "object" && settings !== null && !Array.isArray(settings);
  return { ...r, settings: isObject ? (settings as Record<string, unknown>) : {} };
}

/** An account with no health record yet: no failure, not suspended. */
export const freshAccount = (account: string): AccountHealth => ({
  account,
  consecutiveFailures: 0,
  suspendedAt: null,
  suspendedReason: null,
});

/** A recipe with no health record yet: no failure, not suspended, no next run planned. */
export const freshRecipe = (recipeId: string): RecipeHealth => ({
  recipeId,
  account: null,
  consecutiveFailures: 0,
  suspendedAt: null,
  suspendedReason: null,
  nextRunAt: null,
  nextRunReason: null,
  plannedBy: null,
});
