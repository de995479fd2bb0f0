/**
 * What the engine keeps because it cannot be read back from the service: runs, the write journal,
 * ownership, tombstones, target snapshots (for `drift`), locks, recipe generations, conditions and
 * account health. Never a stand-in for reading a target. Migrations are generated from this file
 * into `migrations/engine/` with `npx drizzle-kit generate --config drizzle.engine.config.ts`.
 *
 * Times are integers (milliseconds since the epoch) and structured values JSON text, so the same
 * schema reads the same under drizzle's PostgreSQL dialect.
 */
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** One plan, apply or sync of one recipe. */
export const runs = sqliteTable(
  "runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    recipeId: text("recipe_id").notNull(),
    account: text("account").notNull(),
    /** `plan`, `apply` or `sync`. */
    kind: text("kind").notNull(),
    recipeHash: text("recipe_hash").notNull(),
    startedAt: integer("started_at").notNull(),
    finishedAt: integer("finished_at"),
    /** `running`, `no_changes`, `converged`, `partial`, `failed`, `refused`, `interrupted`. */
    result: text("result").notNull(),
    /** JSON: the plan summary counts. */
    counts: text("counts"),
    error: text("error"),
    /** The process (`host:pid`) running it: a `running` run whose process is gone was interrupted. */
    holder: text("holder"),
  },
  (t) => [
    index("runs_recipe_started").on(t.recipeId, t.startedAt),
    // Opening the state looks for runs left `running` by a process that is gone: one indexed query.
    index("runs_result").on(t.result),
  ],
);

/** Every write, journaled before it is sent and confirmed after: a killed run can be resumed. */
export const journal = sqliteTable(
  "journal",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    runId: integer("run_id").notNull(),
    seq: integer("seq").notNull(),
    /** The plan action kind (`add_playlist_items`, `rate_song`…). */
    kind: text("kind").notNull(),
    /** The target key (`playlist/PL…`, `likes`…). */
    target: text("target").notNull(),
    /** JSON: the action as planned. */
    payload: text("payload").notNull(),
    /** `pending`, `sent`, `confirmed`, `failed`, `unknown`. */
    status: text("status").notNull(),
    attempt: integer("attempt").notNull().default(0),
    /** JSON: what the service answered (ids of added rows…), or the error. */
    result: text("result"),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [uniqueIndex("journal_run_seq").on(t.runId, t.seq), index("journal_status").on(t.status)],
);

/** Playlists the engine created (or adopted) for a recipe; the description marker backs this up. */
export const ownedPlaylists = sqliteTable(
  "owned_playlists",
  {
    account: text("account").notNull(),
    recipeId: text("recipe_id").notNull(),
    target: text("target").notNull(),
    playlistId: text("playlist_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.account, t.playlistId] }),
    uniqueIndex("owned_playlists_recipe").on(t.account, t.recipeId),
  ],
);

/** Rows (or ratings, subscriptions) the engine added to a target. */
export const ownedRows = sqliteTable(
  "owned_rows",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    account: text("account").notNull(),
    target: text("target").notNull(),
    /** The item key: a videoId, or a playlist or channel id for library and subscription targets. */
    itemKey: text("item_key").notNull(),
    setVideoId: text("set_video_id"),
    addedAt: integer("added_at").notNull(),
  },
  (t) => [index("owned_rows_target").on(t.account, t.target, t.itemKey)],
);

/** Items the person removed after the engine added them: not to be brought back. */
export const tombstones = sqliteTable(
  "tombstones",
  {
    account: text("account").notNull(),
    target: text("target").notNull(),
    itemKey: text("item_key").notNull(),
    recipeId: text("recipe_id").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.account, t.target, t.itemKey] })],
);

/** The last state of each target after an apply, for `musicsync drift`. */
export const targetSnapshots = sqliteTable(
  "target_snapshots",
  {
    account: text("account").notNull(),
    target: text("target").notNull(),
    recipeId: text("recipe_id").notNull(),
    runId: integer("run_id"),
    takenAt: integer("taken_at").notNull(),
    fingerprint: text("fingerprint").notNull(),
    /** JSON: the rows as read (key and setVideoId, in order). */
    rows: text("rows").notNull(),
    /** JSON: the playlist's id, title, description and privacy as read (null for other targets). */
    meta: text("meta"),
  },
  (t) => [primaryKey({ columns: [t.account, t.target] }), index("target_snapshots_recipe").on(t.recipeId)],
);

/** One writer per account: a lock with its holder and a heartbeat, removable by `unlock`. */
export const locks = sqliteTable("locks", {
  account: text("account").primaryKey(),
  lockId: text("lock_id").notNull().unique(),
  holder: text("holder").notNull(),
  acquiredAt: integer("acquired_at").notNull(),
  heartbeatAt: integer("heartbeat_at").notNull(),
});

/** Each distinct version of a recipe the engine has seen, numbered from 1. */
export const recipeGenerations = sqliteTable(
  "recipe_generations",
  {
    recipeId: text("recipe_id").notNull(),
    generation: integer("generation").notNull(),
    hash: text("hash").notNull(),
    seenAt: integer("seen_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.recipeId, t.generation] })],
);

/** Per recipe: Ready, Degraded, AuthValid, SourceComplete, each True / False / Unknown with a reason. */
export const conditions = sqliteTable(
  "conditions",
  {
    recipeId: text("recipe_id").notNull(),
    type: text("type").notNull(),
    status: text("status").notNull(),
    reason: text("reason").notNull(),
    message: text("message").notNull(),
    changedAt: integer("changed_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.recipeId, t.type] })],
);

/** Consecutive failures per account, and the suspension they lead to. */
export const accountHealth = sqliteTable("account_health", {
  account: text("account").primaryKey(),
  consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  suspendedAt: integer("suspended_at"),
  suspendedReason: text("suspended_reason"),
});

/**
 * Per recipe: consecutive failed runs and the suspension they lead to (the account-wide one is in
 * `account_health`), and when the daemon plans to run it next — a scheduled time or a retry — so that
 * `status`, in another process, can say so.
 */
export const recipeHealth = sqliteTable("recipe_health", {
  recipeId: text("recipe_id").primaryKey(),
  account: text("account").notNull(),
  consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  suspendedAt: integer("suspended_at"),
  suspendedReason: text("suspended_reason"),
  nextRunAt: integer("next_run_at"),
  /** `schedule` or `retry`. */
  nextRunReason: text("next_run_reason"),
  /** The daemon (`host:pid`) that planned nextRunAt. */
  plannedBy: text("planned_by"),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * The size of the last complete read of each source of a recipe. Search, library, album, history,
 * radio and mood reads carry no total, so a read far smaller than the last good one is the only sign
 * that it was cut short; the planner then blocks removals.
 */
export const sourceReads = sqliteTable(
  "source_reads",
  {
    recipeId: text("recipe_id").notNull(),
    sourceId: text("source_id").notNull(),
    items: integer("items").notNull(),
    readAt: integer("read_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.recipeId, t.sourceId] })],
);

/**
 * What a file source's entry was matched to (engine/match/): keyed by the entry's normalised key,
 * so a re-run sends no search for it. `video_id` null: searched, nothing good enough; such a miss is
 * searched again once it is older than the resolver's retry age (the catalogue grows).
 */
export const matchCache = sqliteTable("match_cache", {
  entryKey: text("entry_key").primaryKey(),
  videoId: text("video_id"),
  score: real("score"),
  /** JSON array of the reasons, as `musicsync match` shows them. */
  reasons: text("reasons").notNull(),
  matchedAt: integer("matched_at").notNull(),
});

/**
 * What a run was about to change, written before its first write (docs/ENGINE.md#undo): the plan it
 * applied and the target as read just before, rows in order with their setVideoIds, metadata, and
 * the prior state of every rating, library status and subscription the plan touches. With the
 * journal (what the run confirmed) it makes undo exact even when the journal is partial.
 */
export const runBefore = sqliteTable("run_before", {
  runId: integer("run_id").primaryKey(),
  recipeId: text("recipe_id").notNull(),
  account: text("account").notNull(),
  /** The target's state key (stateTargetKey). */
  target: text("target").notNull(),
  takenAt: integer("taken_at").notNull(),
  /** JSON: the plan as applied. */
  plan: text("plan").notNull(),
  /** JSON: the target before the run (engine/undo's TargetBefore). */
  before: text("before").notNull(),
});

/**
 * Plans held back for a person's approval (policy.require_approval, docs/ENGINE.md#approvals): the daemon records
 * the plan instead of applying it; `musicsync approve <run-id>` applies exactly that plan.
 */
export const approvals = sqliteTable(
  "approvals",
  {
    runId: integer("run_id").primaryKey(),
    recipeId: text("recipe_id").notNull(),
    account: text("account").notNull(),
    /** JSON: the plan as it was made. */
    plan: text("plan").notNull(),
    /** Why it needs approval ("25 removals, over require_approval.removals 20"). */
    reason: text("reason").notNull(),
    createdAt: integer("created_at").notNull(),
    /** `pending`, `approved`, `superseded` (a newer plan of the recipe took its place), `refused`. */
    status: text("status").notNull(),
    decidedAt: integer("decided_at"),
    /** The run that applied it, once approved. */
    appliedRunId: integer("applied_run_id"),
  },
  (t) => [index("approvals_recipe").on(t.recipeId, t.status)],
);

/**
 * Accounts kept in the state (`musicsync accounts add`), so that a worker on any machine
 * can serve any account: the settings in the clear, the credentials only sealed (engine/accounts/,
 * AES-256-GCM under a key from the environment). A project file's account of the same name wins.
 */
export const accounts = sqliteTable("accounts", {
  name: text("name").primaryKey(),
  /** JSON: the account's settings without credentials (base_url, language…), as `accounts list` shows them. */
  settings: text("settings").notNull(),
  /** The credentials (auth or token, the OAuth client's secret), encrypted; never in the clear. */
  sealed: text("sealed").notNull(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
