/**
 * The engine's state as focused stores joined in `EngineState`, on SQLite or PostgreSQL alike
 * (./state.ts): every method is async, though SQLite answers synchronously.
 */
import type { CachedMatch } from "../match/cached-match.js";

export type RunKind = "plan" | "apply" | "sync" | "undo";
export type RunResult =
  | "running"
  | "no_changes"
  | "converged"
  | "partial"
  | "failed"
  | "refused"
  /** Stopped by SIGTERM / SIGINT after the write in flight: what was sent is confirmed or failed. */
  | "interrupted"
  /** Planned, over policy.require_approval: held until `musicsync approve <run-id>` (nothing written). */
  | "pending_approval";

export interface RunRecord {
  id: number;
  recipeId: string;
  account: string;
  kind: RunKind;
  recipeHash: string;
  startedAt: number;
  finishedAt: number | null;
  result: RunResult;
  counts: Record<string, number> | null;
  error: string | null;
  /** The process (`host:pid`) that ran it; null for runs recorded before this was kept. */
  holder: string | null;
}

export type JournalStatus = "pending" | "sent" | "confirmed" | "failed" | "unknown";

export interface JournalEntry {
  runId: number;
  seq: number;
  /** The plan action's kind (`add_playlist_items`, `rate_song`…). */
  kind: string;
  /** The target's key (`playlist/PL…`, `likes`…). */
  target: string;
  /** The action as planned. */
  payload: unknown;
  status: JournalStatus;
  /** How many times it was sent. */
  attempt: number;
  /** What the service answered (ids of added rows…), or the error. */
  result: unknown;
  updatedAt: number;
}

export interface OwnedPlaylist {
  account: string;
  recipeId: string;
  target: string;
  playlistId: string;
  createdAt: number;
}

export interface OwnedRow {
  /** A videoId, or a playlist or channel id for library and subscription targets. */
  itemKey: string;
  setVideoId: string | null;
  addedAt: number;
}

export interface Snapshot {
  account: string;
  target: string;
  recipeId: string;
  runId: number | null;
  takenAt: number;
  fingerprint: string;
  rows: { key: string; setVideoId: string | null }[];
  /** A playlist's metadata as read after the apply (absent for other targets and older snapshots). */
  meta?: SnapshotMeta | null;
}

export interface SnapshotMeta {
  playlistId: string | null;
  title: string | null;
  description: string | null;
  privacy: string | null;
}

/** Per recipe: failures in a row, suspension, and the daemon's next planned run. */
export interface RecipeHealth {
  recipeId: string;
  account: string | null;
  consecutiveFailures: number;
  suspendedAt: number | null;
  suspendedReason: string | null;
  nextRunAt: number | null;
  nextRunReason: "schedule" | "retry" | null;
  /** The daemon (`host:pid`) that planned nextRunAt, so that `status` in another process can say so. */
  plannedBy: string | null;
}

export interface LockInfo {
  account: string;
  lockId: string;
  holder: string;
  acquiredAt: number;
  heartbeatAt: number;
}

export type LockAttempt = { acquired: true; lock: LockInfo } | { acquired: false; heldBy: LockInfo };

export type ConditionType = "Ready" | "Degraded" | "AuthValid" | "SourceComplete";
export type ConditionStatus = "True" | "False" | "Unknown";

export interface Condition {
  type: ConditionType;
  status: ConditionStatus;
  reason: string;
  message: string;
  /** When the status last changed (not when it was last confirmed). */
  changedAt: number;
}

export type NewCondition = Omit<Condition, "changedAt">;

export interface AccountHealth {
  account: string;
  consecutiveFailures: number;
  suspendedAt: number | null;
  suspendedReason: string | null;
}

/** Run records, the write-ahead journal (a killed run is verified from it) and before-records (undo). */
export interface RunStore {
  startRun(run: {
    recipeId: string;
    account: string;
    kind: RunKind;
    recipeHash: string;
    at: number;
    /** The process running it (`host:pid`), so that another process can tell it was interrupted. */
    holder?: string;
  }): Promise<number>;
  finishRun(
    runId: number,
    end: {
      at: number;
      result: Exclude<RunResult, "running">;
      counts?: Record<string, number>;
      error?: string;
    },
  ): Promise<void>;
  /** Newest first. */
  runs(recipeId: string, limit?: number): Promise<RunRecord[]>;
  /** Runs of every recipe (or one), newest first. */
  recentRuns(options?: { recipeId?: string; limit?: number }): Promise<RunRecord[]>;
  /** One run by id; null if there is none. */
  run(runId: number): Promise<RunRecord | null>;
  /** Marks a finished run as interrupted (counts kept), with why. */
  markInterrupted(runId: number, at: number, reason: string): Promise<void>;

  /**
   * Journals the planned writes of a run before any is sent (status `pending`); an entry with
   * `sent` is journalled `sent` (an attempt counted), as `journalMark` would mark it: the first
   * write, whose request leaves next.
   */
  journalPlanned(
    runId: number,
    entries: { seq: number; kind: string; target: string; payload: unknown; sent?: boolean }[],
    at: number,
  ): Promise<void>;
  journalMark(runId: number, seq: number, status: JournalStatus, at: number, result?: unknown): Promise<void>;
  /** `journalMark` of `seq` with `result`, and entry `next` marked `sent`, in one write. */
  journalMarkAndSend(
    runId: number,
    seq: number,
    status: JournalStatus,
    at: number,
    result: unknown,
    next: number,
  ): Promise<void>;
  journal(runId: number): Promise<JournalEntry[]>;
  /** Writes not known to be finished (`pending`, `sent`, `unknown`), oldest first: what a re-run must verify. */
  unfinishedWrites(): Promise<JournalEntry[]>;

  /** Records what a run is about to change, before its first write (engine/undo/). */
  recordRunBefore(record: RunBeforeRecord): Promise<void>;
  /** What the run recorded before its first write; null for runs that wrote nothing (or before it was kept). */
  runBefore(runId: number): Promise<RunBeforeRecord | null>;
}

/** A recipe's generation, as recorded (`recordGeneration`). */
export interface KnownGeneration {
  generation: number;
  hash: string;
}

/** What `targetMemory` reads. */
export interface TargetMemory {
  ownedRows: OwnedRow[];
  unfinished: JournalEntry[];
  tombstones: [Set<string>, Set<string>];
  sourceReads: Map<string, number>;
  /** The recipe's last generation (null: none yet). */
  generation: KnownGeneration | null;
}

/** Playlists created, rows added, items removed not to put back (tombstones), each target's snapshot. */
export interface OwnershipStore {
  ownedPlaylist(account: string, recipeId: string): Promise<OwnedPlaylist | null>;
  recordOwnedPlaylist(p: OwnedPlaylist): Promise<void>;
  forgetOwnedPlaylist(account: string, playlistId: string): Promise<void>;
  ownedRows(account: string, target: string): Promise<OwnedRow[]>;
  addOwnedRows(account: string, target: string, rows: readonly OwnedRow[]): Promise<void>;
  /** Forgets rows by item key (all copies) or, when given, by setVideoId. */
  removeOwnedRows(
    account: string,
    target: string,
    rows: readonly { itemKey: string; setVideoId?: string | null }[],
  ): Promise<void>;

  tombstones(account: string, target: string): Promise<Set<string>>;
  /** Tombstones recorded at `since` or later (quarantined ids expire: docs/ENGINE.md#ownership). */
  tombstonesSince(account: string, target: string, since: number): Promise<Set<string>>;
  /**
   * A target's tombstones and those of `other` recorded at `since` or later, in one read: every run
   * reads its target's and its account's quarantine (docs/ENGINE.md#ownership).
   */
  tombstonesWith(
    account: string,
    target: string,
    other: { target: string; since: number },
  ): Promise<[Set<string>, Set<string>]>;
  /**
   * What a run's plan reads of the state once its target is read, in one read where the database
   * allows (docs/ARCHITECTURE.md#the-state): the target's owned rows, the unfinished writes, the
   * target's tombstones and `other`'s since its time (as `tombstonesWith`), the recipe's source reads
   * and its last generation.
   */
  targetMemory(
    account: string,
    recipeId: string,
    target: string,
    other: { target: string; since: number },
  ): Promise<TargetMemory>;
  addTombstones(
    account: string,
    target: string,
    recipeId: string,
    keys: readonly string[],
    at: number,
  ): Promise<void>;
  removeTombstones(account: string, target: string, keys: readonly string[]): Promise<void>;

  snapshot(account: string, target: string): Promise<Snapshot | null>;
  saveSnapshot(s: Snapshot): Promise<void>;
  /** The snapshot saved for a recipe's target, whatever the target's key (a deleted playlist's included). */
  snapshotOf(account: string, recipeId: string): Promise<Snapshot | null>;
}

/** One lock per account, so that two processes never write to one account at once. */
export interface LockStore {
  /**
   * Takes the account's lock; a lock whose heartbeat is older than `staleAfterMs` is taken over.
   * `lockId`: the id the lock gets when taken (a new one by default).
   */
  acquireLock(
    account: string,
    holder: string,
    at: number,
    staleAfterMs: number,
    lockId?: string,
  ): Promise<LockAttempt>;
  heartbeat(lockId: string, at: number): Promise<boolean>;
  releaseLock(lockId: string): Promise<void>;
  lock(account: string): Promise<LockInfo | null>;
  locks(): Promise<LockInfo[]>;
  /** `musicsync unlock <lock-id>`: removes the lock whatever its holder; false if there was none. */
  forceUnlock(lockId: string): Promise<boolean>;
  /**
   * Why this process lost its unreleased lock `lockId` (PostgreSQL: its session ended), or null while
   * held. Synchronous, no query: asked before every write. SQLite (a row) cannot lose one that way.
   */
  lockLost?(lockId: string): string | null;
}

/** Failures and suspension, conditions, recipe generations, the next run, the shrinkage guard's sizes. */
export interface HealthStore {
  /**
   * Records a recipe version; returns its generation (a new one only when the hash changed). `last`:
   * the recipe's last generation as the run read it a moment before (`targetMemory`), which spares
   * reading it again.
   */
  recordGeneration(
    recipeId: string,
    hash: string,
    at: number,
    last?: KnownGeneration | null,
  ): Promise<number>;
  /** Sets one condition or several, in one statement (of a type given twice, the last). */
  setCondition(
    recipeId: string,
    conditions: NewCondition | readonly NewCondition[],
    at: number,
  ): Promise<void>;
  conditions(recipeId: string): Promise<Condition[]>;

  /** A failed run: counts towards suspension; `authExpired` suspends at once. */
  recordFailure(
    account: string,
    at: number,
    reason: string,
    options: { suspendAfter: number; authExpired?: boolean },
  ): Promise<AccountHealth>;
  recordSuccess(account: string): Promise<AccountHealth>;
  health(account: string): Promise<AccountHealth>;
  resume(account: string): Promise<void>;
  /** Accounts with a health record. */
  accountHealth(): Promise<AccountHealth[]>;

  recipeHealth(recipeId: string): Promise<RecipeHealth>;
  /** The recipe's health and its account's, read together. */
  healthOf(recipeId: string, account: string): Promise<{ recipe: RecipeHealth; account: AccountHealth }>;
  /** A failed run of one recipe; suspends it once `suspendAfter` failures are consecutive. */
  recordRecipeFailure(
    recipeId: string,
    account: string,
    at: number,
    reason: string,
    options: { suspendAfter: number },
  ): Promise<RecipeHealth>;
  recordRecipeSuccess(recipeId: string, account: string, at: number): Promise<RecipeHealth>;
  /** Lifts a recipe's suspension (and its failure count); false if it was not suspended. */
  resumeRecipe(recipeId: string, at: number): Promise<boolean>;
  setNextRun(
    recipeId: string,
    account: string,
    next: { at: number | null; reason: "schedule" | "retry" | null; by: string | null },
    now: number,
  ): Promise<void>;

  /** Each source's last complete item count (most reads carry no total: a far smaller one means cut). */
  sourceReads(recipeId: string): Promise<Map<string, number>>;
  /** Records complete reads (a source read that was cut short is never recorded). */
  recordSourceReads(
    recipeId: string,
    reads: readonly { sourceId: string; items: number }[],
    at: number,
  ): Promise<void>;
}

/** Song matches of file sources (engine/match/), kept so that a file is not searched again. */
export interface MatchStore {
  /** The cached matches of these entry keys (absent keys were never matched). */
  cachedMatches(keys: readonly string[]): Promise<Map<string, CachedMatch>>;
  /** Records matches, replacing what was cached for the same keys. */
  recordMatches(matches: readonly CachedMatch[]): Promise<void>;
}

/** Plans held for approval (policy.require_approval) and their decisions. */
export interface ApprovalStore {
  /** Holds a plan for approval; any older pending plan of the same recipe becomes `superseded`. */
  recordPendingApproval(a: Omit<Approval, "status" | "decidedAt" | "appliedRunId">): Promise<void>;
  /** Approvals, newest first: pending ones only unless `all`; of one recipe when given. */
  approvals(options?: { recipeId?: string; all?: boolean }): Promise<Approval[]>;
  approval(runId: number): Promise<Approval | null>;
  /**
   * A newer plan of the recipe was applied: its pending approvals become `superseded`; how many
   * (null in a batch that sends its writes at its end, where it is not known yet).
   */
  supersedeApprovals(recipeId: string, at: number): Promise<number | null>;
  /** Marks an approval decided; false when it was no longer pending (approved twice, superseded). */
  decideApproval(
    runId: number,
    decision: { status: "approved" | "refused"; at: number; appliedRunId?: number },
  ): Promise<boolean>;
}

/** Accounts: settings in the clear, credentials sealed by engine/accounts/ (never clear in a store). */
export interface AccountStore {
  /** Adds the account, or replaces the one of that name (createdAt kept). */
  saveAccount(account: StoredAccount): Promise<void>;
  /**
   * Replaces the account only while its sealed credentials are still `sealedBefore`, in one
   * statement: a removal or another replacement made meanwhile wins (a refreshed token written
   * back must not bring back a sign-in removed while it was being refreshed). False: not replaced.
   */
  swapAccount(account: StoredAccount, sealedBefore: string): Promise<boolean>;
  storedAccount(name: string): Promise<StoredAccount | null>;
  /** Every stored account, by name. */
  storedAccounts(): Promise<StoredAccount[]>;
  /** False when there was none of that name. */
  removeAccount(name: string): Promise<boolean>;
}

export interface StoredAccount {
  name: string;
  /** The account's settings without credentials (base_url, language…; engine/accounts/ shapes it). */
  settings: Record<string, unknown>;
  /** The credentials, encrypted (engine/accounts/seal.ts); opaque here. */
  sealed: string;
  createdAt: number;
  updatedAt: number;
}

/** Every store over one database (`openState`, ./open.ts); a caller may ask for one store's type. */
export interface EngineState
  extends RunStore,
    OwnershipStore,
    LockStore,
    HealthStore,
    MatchStore,
    ApprovalStore,
    AccountStore {
  /**
   * Runs `work`'s calls all or nothing, one commit, over `stores`, the state without its locks
   * (which are never part of one). A run records its end this way. Its writes may be sent together
   * at its end (on PostgreSQL, a batch of writes only is one statement): its reads do not see them.
   */
  batch<T>(work: (stores: Stores) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The stores a batch's calls go to: every store but the locks. */
export interface Stores
  extends RunStore,
    OwnershipStore,
    HealthStore,
    MatchStore,
    ApprovalStore,
    AccountStore {}

/** What a run recorded before its first write (the plan and the target as read just before). */
export interface RunBeforeRecord {
  runId: number;
  recipeId: string;
  account: string;
  /** The target's state key (stateTargetKey). */
  target: string;
  takenAt: number;
  /** The plan as applied (a Plan; kept as data here). */
  plan: unknown;
  /** The target before the run (TargetBefore, engine/run/before.ts). */
  before: unknown;
}

/** `superseded`: a newer plan of the recipe took its place. */
export type ApprovalStatus = "pending" | "approved" | "superseded" | "refused";

export interface Approval {
  runId: number;
  recipeId: string;
  account: string;
  /** The plan held back (a Plan; kept as data here). */
  plan: unknown;
  /** Why it needs approval ("25 removals, over require_approval.removals 20"). */
  reason: string;
  createdAt: number;
  status: ApprovalStatus;
  decidedAt: number | null;
  /** The run that applied it, once approved. */
  appliedRunId: number | null;
}
