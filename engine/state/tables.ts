/**
 * The engine's tables, defined once for both databases: `tables(columns)` builds them from a
 * dialect's column builders, `sqliteColumns` (./schema.ts) or `pgColumns` (./pg/schema.ts). What the
 * engine keeps because it cannot be read back from the service: runs, the write journal, ownership,
 * tombstones, target snapshots (for `drift`), locks, recipe generations, conditions, health, the
 * match cache, before-records, approvals and stored accounts. Never a stand-in for reading a target.
 *
 * Times are milliseconds since the epoch (`integer` on SQLite, `bigint` read as a number on
 * PostgreSQL) and structured values JSON text on both, so that a plan read back is byte for byte the
 * plan written and one row mapper (./rows.ts) serves both. Migrations stay per dialect, generated
 * from the two schema files with `npx drizzle-kit generate --config drizzle.engine.config.ts` (into
 * `migrations/engine/`) and `--config drizzle.engine-pg.config.ts` (into `migrations/engine-pg/`).
 */
import * as pgCore from "drizzle-orm/pg-core";
import * as sqliteCore from "drizzle-orm/sqlite-core";
import type {
  ApprovalStatus,
  ConditionStatus,
  ConditionType,
  JournalStatus,
  RecipeHealth,
  RunKind,
  RunResult,
} from "./types.js";

/** The PostgreSQL column builders, and the type both sets are used as. */
export const pgColumns = {
  table: pgCore.pgTable,
  /** An integer key numbered by the database. */
  id: (name: string) => pgCore.serial(name).primaryKey(),
  text: (name: string) => pgCore.text(name),
  int: (name: string) => pgCore.integer(name),
  time: (name: string) => pgCore.bigint(name, { mode: "number" }),
  real: (name: string) => pgCore.doublePrecision(name),
  index: pgCore.index,
  uniqueIndex: pgCore.uniqueIndex,
  primaryKey: pgCore.primaryKey,
};

export type Columns = typeof pgColumns;

/**
 * SQLite's builders take the same calls and build SQLite tables. They are typed as PostgreSQL's so
 * that the stores, written once, type-check against one set of tables; the contract suite
 * (test/engine/state/contract.test.ts) holds that both answer alike at run time.
 */
export const sqliteColumns = {
  table: sqliteCore.sqliteTable,
  id: (name: string) => sqliteCore.integer(name).primaryKey({ autoIncrement: true }),
  text: (name: string) => sqliteCore.text(name),
  int: (name: string) => sqliteCore.integer(name),
  time: (name: string) => sqliteCore.integer(name),
  real: (name: string) => sqliteCore.real(name),
  index: sqliteCore.index,
  uniqueIndex: sqliteCore.uniqueIndex,
  primaryKey: sqliteCore.primaryKey,
} as unknown as Columns;

export type Tables = ReturnType<typeof tables>;
/** A row of one table as drizzle reads it. */
export type Row<K extends keyof Tables> = Tables[K]["$inferSelect"];

export function tables(c: Columns) {
  return { ...runTables(c), ...ownershipTables(c), ...healthTables(c), ...keptTables(c) };
}

/** Runs, what each wrote and what it found before. */
function runTables(c: Columns) {
  return {
    /** One plan, apply or sync of one recipe. */
    runs: c.table(
      "runs",
      {
        id: c.id("id"),
        recipeId: c.text("recipe_id").notNull(),
        account: c.text("account").notNull(),
        kind: c.text("kind").$type<RunKind>().notNull(),
        recipeHash: c.text("recipe_hash").notNull(),
        startedAt: c.time("started_at").notNull(),
        finishedAt: c.time("finished_at"),
        result: c.text("result").$type<RunResult>().notNull(),
        /** JSON: the plan summary counts. */
        counts: c.text("counts"),
        error: c.text("error"),
        /** The process (`host:pid`) running it: a `running` run whose process is gone was interrupted. */
        holder: c.text("holder"),
      },
      (t) => [
        c.index("runs_recipe_started").on(t.recipeId, t.startedAt),
        // Opening the state looks for runs left `running` by a process that is gone: one indexed query.
        c.index("runs_result").on(t.result),
      ],
    ),
    /** Every write, journaled before it is sent and confirmed after: a killed run can be resumed. */
    journal: c.table(
      "journal",
      {
        id: c.id("id"),
        runId: c.int("run_id").notNull(),
        seq: c.int("seq").notNull(),
        /** The plan action kind (`add_playlist_items`, `rate_song`…). */
        kind: c.text("kind").notNull(),
        /** The target key (`playlist/PL…`, `likes`…). */
        target: c.text("target").notNull(),
        /** JSON: the action as planned. */
        payload: c.text("payload").notNull(),
        status: c.text("status").$type<JournalStatus>().notNull(),
        attempt: c.int("attempt").notNull().default(0),
        /** JSON: what the service answered (ids of added rows…), or the error. */
        result: c.text("result"),
        updatedAt: c.time("updated_at").notNull(),
      },
      (t) => [c.uniqueIndex("journal_run_seq").on(t.runId, t.seq), c.index("journal_status").on(t.status)],
    ),
    /**
     * What a run was about to change, written before its first write (docs/ENGINE.md#undo): the plan it
     * applied and the target as read just before, rows in order with their setVideoIds, metadata, and
     * the prior state of every rating, library status and subscription the plan touches. With the
     * journal (what the run confirmed) it makes undo exact even when the journal is partial.
     */
    runBefore: c.table("run_before", {
      runId: c.int("run_id").primaryKey(),
      recipeId: c.text("recipe_id").notNull(),
      account: c.text("account").notNull(),
      /** The target's state key (stateTargetKey). */
      target: c.text("target").notNull(),
      takenAt: c.time("taken_at").notNull(),
      /** JSON: the plan as applied. */
      plan: c.text("plan").notNull(),
      /** JSON: the target before the run (engine/undo's TargetBefore). */
      before: c.text("before").notNull(),
    }),
  };
}

/** What the engine owns on the service and what it saw there. */
function ownershipTables(c: Columns) {
  return {
    /** Playlists the engine created (or adopted) for a recipe; the description marker backs this up. */
    ownedPlaylists: c.table(
      "owned_playlists",
      {
        account: c.text("account").notNull(),
        recipeId: c.text("recipe_id").notNull(),
        target: c.text("target").notNull(),
        playlistId: c.text("playlist_id").notNull(),
        createdAt: c.time("created_at").notNull(),
      },
      (t) => [
        c.primaryKey({ columns: [t.account, t.playlistId] }),
        c.uniqueIndex("owned_playlists_recipe").on(t.account, t.recipeId),
      ],
    ),
    /** Rows (or ratings, subscriptions) the engine added to a target. */
    ownedRows: c.table(
      "owned_rows",
      {
        id: c.id("id"),
        account: c.text("account").notNull(),
        target: c.text("target").notNull(),
        /** The item key: a videoId, or a playlist or channel id for library and subscription targets. */
        itemKey: c.text("item_key").notNull(),
        setVideoId: c.text("set_video_id"),
        addedAt: c.time("added_at").notNull(),
      },
      (t) => [c.index("owned_rows_target").on(t.account, t.target, t.itemKey)],
    ),
    /** Items the person removed after the engine added them: not to be brought back. */
    tombstones: c.table(
      "tombstones",
      {
        account: c.text("account").notNull(),
        target: c.text("target").notNull(),
        itemKey: c.text("item_key").notNull(),
        recipeId: c.text("recipe_id").notNull(),
        createdAt: c.time("created_at").notNull(),
      },
      (t) => [c.primaryKey({ columns: [t.account, t.target, t.itemKey] })],
    ),
    /** The last state of each target after an apply, for `musicsync drift`. */
    targetSnapshots: c.table(
      "target_snapshots",
      {
        account: c.text("account").notNull(),
        target: c.text("target").notNull(),
        recipeId: c.text("recipe_id").notNull(),
        runId: c.int("run_id"),
        takenAt: c.time("taken_at").notNull(),
        fingerprint: c.text("fingerprint").notNull(),
        /** JSON: the rows as read (key and setVideoId, in order). */
        rows: c.text("rows").notNull(),
        /** JSON: the playlist's id, title, description and privacy as read (null for other targets). */
        meta: c.text("meta"),
      },
      (t) => [
        c.primaryKey({ columns: [t.account, t.target] }),
        c.index("target_snapshots_recipe").on(t.recipeId),
      ],
    ),
  };
}

/** Locks, and how recipes and accounts are doing. */
function healthTables(c: Columns) {
  return {
    /** One writer per account: a lock with its holder and a heartbeat, removable by `unlock`. */
    locks: c.table("locks", {
      account: c.text("account").primaryKey(),
      lockId: c.text("lock_id").notNull().unique(),
      holder: c.text("holder").notNull(),
      acquiredAt: c.time("acquired_at").notNull(),
      heartbeatAt: c.time("heartbeat_at").notNull(),
    }),
    /** Each distinct version of a recipe the engine has seen, numbered from 1. */
    recipeGenerations: c.table(
      "recipe_generations",
      {
        recipeId: c.text("recipe_id").notNull(),
        generation: c.int("generation").notNull(),
        hash: c.text("hash").notNull(),
        seenAt: c.time("seen_at").notNull(),
      },
      (t) => [c.primaryKey({ columns: [t.recipeId, t.generation] })],
    ),
    /** Per recipe: Ready, Degraded, AuthValid, SourceComplete, each True / False / Unknown with a reason. */
    conditions: c.table(
      "conditions",
      {
        recipeId: c.text("recipe_id").notNull(),
        type: c.text("type").$type<ConditionType>().notNull(),
        status: c.text("status").$type<ConditionStatus>().notNull(),
        reason: c.text("reason").notNull(),
        message: c.text("message").notNull(),
        changedAt: c.time("changed_at").notNull(),
      },
      (t) => [c.primaryKey({ columns: [t.recipeId, t.type] })],
    ),
    /** Consecutive failures per account, and the suspension they lead to. */
    accountHealth: c.table("account_health", {
      account: c.text("account").primaryKey(),
      consecutiveFailures: c.int("consecutive_failures").notNull().default(0),
      suspendedAt: c.time("suspended_at"),
      suspendedReason: c.text("suspended_reason"),
    }),
    /**
     * Per recipe: consecutive failed runs and the suspension they lead to (the account-wide one is in
     * `account_health`), and when the daemon plans to run it next — a scheduled time or a retry — so that
     * `status`, in another process, can say so.
     */
    recipeHealth: c.table("recipe_health", {
      recipeId: c.text("recipe_id").primaryKey(),
      account: c.text("account").notNull(),
      consecutiveFailures: c.int("consecutive_failures").notNull().default(0),
      suspendedAt: c.time("suspended_at"),
      suspendedReason: c.text("suspended_reason"),
      nextRunAt: c.time("next_run_at"),
      nextRunReason: c.text("next_run_reason").$type<RecipeHealth["nextRunReason"]>(),
      /** The daemon (`host:pid`) that planned nextRunAt. */
      plannedBy: c.text("planned_by"),
      updatedAt: c.time("updated_at").notNull(),
    }),
    /**
     * The size of the last complete read of each source of a recipe. Search, library, album, history,
     * radio and mood reads carry no total, so a read far smaller than the last good one is the only sign
     * that it was cut short; the planner then blocks removals.
     */
    sourceReads: c.table(
      "source_reads",
      {
        recipeId: c.text("recipe_id").notNull(),
        sourceId: c.text("source_id").notNull(),
        items: c.int("items").notNull(),
        readAt: c.time("read_at").notNull(),
      },
      (t) => [c.primaryKey({ columns: [t.recipeId, t.sourceId] })],
    ),
  };
}

/** What waits for a person (plans held for approval) or spares asking again (matches, stored accounts). */
function keptTables(c: Columns) {
  return {
    /**
     * Plans held back for a person's approval (policy.require_approval, docs/ENGINE.md#approvals): the daemon records
     * the plan instead of applying it; `musicsync approve <run-id>` applies exactly that plan.
     */
    approvals: c.table(
      "approvals",
      {
        runId: c.int("run_id").primaryKey(),
        recipeId: c.text("recipe_id").notNull(),
        account: c.text("account").notNull(),
        /** JSON: the plan as it was made. */
        plan: c.text("plan").notNull(),
        /** Why it needs approval ("25 removals, over require_approval.removals 20"). */
        reason: c.text("reason").notNull(),
        createdAt: c.time("created_at").notNull(),
        /** `superseded`: a newer plan of the recipe took its place. */
        status: c.text("status").$type<ApprovalStatus>().notNull(),
        decidedAt: c.time("decided_at"),
        /** The run that applied it, once approved. */
        appliedRunId: c.int("applied_run_id"),
      },
      (t) => [c.index("approvals_recipe").on(t.recipeId, t.status)],
    ),
    /**
     * What a file source's entry was matched to (engine/match/): keyed by the entry's normalised key,
     * so a re-run sends no search for it. `video_id` null: searched, nothing good enough; such a miss is
     * searched again once it is older than the resolver's retry age (the catalogue grows).
     */
    matchCache: c.table("match_cache", {
      entryKey: c.text("entry_key").primaryKey(),
      videoId: c.text("video_id"),
      score: c.real("score"),
      /** JSON array of the reasons, as `musicsync match` shows them. */
      reasons: c.text("reasons").notNull(),
      matchedAt: c.time("matched_at").notNull(),
    }),
    /**
     * Accounts kept in the state (`musicsync accounts add`), so that a worker on any machine
     * can serve any account: the settings in the clear, the credentials only sealed (engine/accounts/,
     * AES-256-GCM under a key from the environment). A project file's account of the same name wins.
     */
    accounts: c.table("accounts", {
      name: c.text("name").primaryKey(),
      /** JSON: the account's settings without credentials (base_url, language…), as `accounts list` shows them. */
      settings: c.text("settings").notNull(),
      /** The credentials (auth or token, the OAuth client's secret), encrypted; never in the clear. */
      sealed: c.text("sealed").notNull(),
      createdAt: c.time("created_at").notNull(),
      updatedAt: c.time("updated_at").notNull(),
    }),
  };
}
