/**
 * The engine's state on PostgreSQL: the same tables, columns and meanings as the SQLite schema
 * (./schema.ts, which documents each one), in drizzle's PostgreSQL dialect. Times are milliseconds
 * since the epoch in `bigint` columns (read as numbers), structured values JSON text as on SQLite,
 * so that a plan read back is byte for byte the plan written. Migrations are generated into
 * `migrations/engine-pg/` with `npx drizzle-kit generate --config drizzle.engine-pg.config.ts`.
 */
import {
  bigint,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/** One plan, apply or sync of one recipe. */
export const runs = pgTable(
  "runs",
  {
    id: serial("id").primaryKey(),
    recipeId: text("recipe_id").notNull(),
    account: text("account").notNull(),
    /** `plan`, `apply` or `sync`. */
    kind: text("kind").notNull(),
    recipeHash: text("recipe_hash").notNull(),
    startedAt: bigint("started_at", { mode: "number" }).notNull(),
    finishedAt: bigint("finished_at", { mode: "number" }),
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
export const journal = pgTable(
  "journal",
  {
    id: serial("id").primaryKey(),
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
    updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
  },
  (t) => [uniqueIndex("journal_run_seq").on(t.runId, t.seq), index("journal_status").on(t.status)],
);

/** Playlists the engine created (or adopted) for a recipe; the description marker backs this up. */
export const ownedPlaylists = pgTable(
  "owned_playlists",
  {
    account: text("account").notNull(),
    recipeId: text("recipe_id").notNull(),
    target: text("target").notNull(),
    playlistId: text("playlist_id").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.account, t.playlistId] }),
    uniqueIndex("owned_playlists_recipe").on(t.account, t.recipeId),
  ],
);

/** Rows (or ratings, subscriptions) the engine added to a target. */
export const ownedRows = pgTable(
  "owned_rows",
  {
    id: serial("id").primaryKey(),
    account: text("account").notNull(),
    target: text("target").notNull(),
    /** The item key: a videoId, or a playlist or channel id for library and subscription targets. */
    itemKey: text("item_key").notNull(),
    setVideoId: text("set_video_id"),
    addedAt: bigint("added_at", { mode: "number" }).notNull(),
  },
  (t) => [index("owned_rows_target").on(t.account, t.target, t.itemKey)],
);

/** Items the person removed after the engine added them: not to be brought back. */
export const tombstones = pgTable(
  "tombstones",
  {
    account: text("account").notNull(),
    target: text("target").notNull(),
    itemKey: text("item_key").notNull(),
    recipeId: text("recipe_id").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.account, t.target, t.itemKey] })],
);

/** The last state of each target after an apply, for `musicsync drift`. */
export const targetSnapshots = pgTable(
  "target_snapshots",
  {
    account: text("account").notNull(),
    target: text("target").notNull(),
    recipeId: text("recipe_id").notNull(),
    runId: integer("run_id"),
    takenAt: bigint("taken_at", { mode: "number" }).notNull(),
    fingerprint: text("fingerprint").notNull(),
    /** JSON: the rows as read (key and setVideoId, in order). */
    rows: text("rows").notNull(),
    /** JSON: the playlist's id, title, description and privacy as read (null for other targets). */
    meta: text("meta"),
  },
  (t) => [primaryKey({ columns: [t.account, t.target] }), index("target_snapshots_recipe").on(t.recipeId)],
);

/** One writer per account: a lock with its holder and a heartbeat, removable by `unlock`. */
export const locks = pgTable("locks", {
  account: text("account").primaryKey(),
  lockId: text("lock_id").notNull().unique(),
  holder: text("holder").notNull(),
  acquiredAt: bigint("acquired_at", { mode: "number" }).notNull(),
  heartbeatAt: bigint("heartbeat_at", { mode: "number" }).notNull(),
});

/** Each distinct version of a recipe the engine has seen, numbered from 1. */
export const recipeGenerations = pgTable(
  "recipe_generations",
  {
    recipeId: text("recipe_id").notNull(),
    generation: integer("generation").notNull(),
    hash: text("hash").notNull(),
    seenAt: bigint("seen_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.recipeId, t.generation] })],
);

/** Per recipe: Ready, Degraded, AuthValid, SourceComplete, each True / False / Unknown with a reason. */
export const conditions = pgTable(
  "conditions",
  {
    recipeId: text("recipe_id").notNull(),
    type: text("type").notNull(),
    status: text("status").notNull(),
    reason: text("reason").notNull(),
    message: text("message").notNull(),
    changedAt: bigint("changed_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.recipeId, t.type] })],
);

/** Consecutive failures per account, and the suspension they lead to. */
export const accountHealth = pgTable("account_health", {
  account: text("account").primaryKey(),
  consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  suspendedAt: bigint("suspended_at", { mode: "number" }),
  suspendedReason: text("suspended_reason"),
});

/**
 * Per recipe: consecutive failed runs and the suspension they lead to (the account-wide one is in
 * `account_health`), and when the daemon plans to run it next — a scheduled time or a retry — so that
 * `status`, in another process, can say so.
 */
export const recipeHealth = pgTable("recipe_health", {
  recipeId: text("recipe_id").primaryKey(),
  account: text("account").notNull(),
  consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  suspendedAt: bigint("suspended_at", { mode: "number" }),
  suspendedReason: text("suspended_reason"),
  nextRunAt: bigint("next_run_at", { mode: "number" }),
  /** `schedule` or `retry`. */
  nextRunReason: text("next_run_reason"),
  /** The daemon (`host:pid`) that planned nextRunAt. */
  plannedBy: text("planned_by"),
  updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
});

/**
 * The size of the last complete read of each source of a recipe. Search, library, album, history,
 * radio and mood reads carry no total, so a read far smaller than the last good one is the only sign
 * that it was cut short; the planner then blocks removals.
 */
export const sourceReads = pgTable(
  "source_reads",
  {
    recipeId: text("recipe_id").notNull(),
    sourceId: text("source_id").notNull(),
    items: integer("items").notNull(),
    readAt: bigint("read_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.recipeId, t.sourceId] })],
);

/**
 * What a file source's entry was matched to (engine/match/): keyed by the entry's normalised key,
 * so a re-run sends no search for it. `video_id` null: searched, nothing good enough; such a miss is
 * searched again once it is older than the resolver's retry age (the catalogue grows).
 */
export const matchCache = pgTable("match_cache", {
  entryKey: text("entry_key").primaryKey(),
  videoId: text("video_id"),
  score: doublePrecision("score"),
  /** JSON array of the reasons, as `musicsync match` shows them. */
  reasons: text("reasons").notNull(),
  matchedAt: bigint("matched_at", { mode: "number" }).notNull(),
});

/**
 * What a run was about to change, written before its first write (docs/ENGINE.md#undo): the plan it
 * applied and the target as read just before, rows in order with their setVideoIds, metadata, and
 * the prior state of every rating, library status and subscription the plan touches. With the
 * journal (what the run confirmed) it makes undo exact even when the journal is partial.
 */
export const runBefore = pgTable("run_before", {
  runId: integer("run_id").primaryKey(),
  recipeId: text("recipe_id").notNull(),
  account: text("account").notNull(),
  /** The target's state key (stateTargetKey). */
  target: text("target").notNull(),
  takenAt: bigint("taken_at", { mode: "number" }).notNull(),
  /** JSON: the plan as applied. */
  plan: text("plan").notNull(),
  /** JSON: the target before the run (engine/undo's TargetBefore). */
  before: text("before").notNull(),
});

/**
 * Plans held back for a person's approval (policy.require_approval, docs/ENGINE.md#approvals): the daemon records
 * the plan instead of applying it; `musicsync approve <run-id>` applies exactly that plan.
 */
export const approvals = pgTable(
  "approvals",
  {
    runId: integer("run_id").primaryKey(),
    recipeId: text("recipe_id").notNull(),
    account: text("account").notNull(),
    /** JSON: the plan as it was made. */
    plan: text("plan").notNull(),
    /** Why it needs approval ("25 removals, over require_approval.removals 20"). */
    reason: text("reason").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    /** `pending`, `approved`, `superseded` (a newer plan of the recipe took its place), `refused`. */
    status: text("status").notNull(),
    decidedAt: bigint("decided_at", { mode: "number" }),
    /** The run that applied it, once approved. */
    appliedRunId: integer("applied_run_id"),
  },
  (t) => [index("approvals_recipe").on(t.recipeId, t.status)],
);

export const accounts = pgTable("accounts", {
  name: text("name").primaryKey(),
  settings: text("settings").notNull(),
  sealed: text("sealed").notNull(),
  createdAt: bigint("created_at", { mode: "number" }).notNull(),
  updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
});
