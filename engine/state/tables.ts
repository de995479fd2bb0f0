/**
 * The engine's tables for both databases, built from a dialect's column builders: `sqliteColumns`
 * (here) or `pgColumns` (./pg-columns.ts); what each keeps is said on its record (./types.ts) and in
 * docs/ENGINE.md#state. Times are epoch milliseconds, structured values JSON text (read back byte
 * for byte), so one row mapper serves both. Migrations: `npx drizzle-kit generate --config
 * drizzle.engine.config.ts` and `--config drizzle.engine-pg.config.ts` (docs/ARCHITECTURE.md#the-state).
 */
import * as sqliteCore from "drizzle-orm/sqlite-core";
import type { pgColumns } from "./pg-columns.js";
import type {
  ApprovalStatus,
  ConditionStatus,
  ConditionType,
  JournalStatus,
  RecipeHealth,
  RunKind,
  RunResult,
} from "./types.js";

/**
 * The type both sets of column builders are used as: PostgreSQL's (./pg-columns.ts), imported as a
 * type only, so that a process on SQLite does not load drizzle's PostgreSQL half.
 */
export type Columns = typeof pgColumns;

/** SQLite's, typed as PostgreSQL's: stores check against one set (the contract suite holds both alike). */
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

function runTables(c: Columns) {
  return {
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
        counts: c.text("counts"),
        error: c.text("error"),
        holder: c.text("holder"),
      },
      (t) => [
        c.index("runs_recipe_started").on(t.recipeId, t.startedAt),
        // Opening the state looks for runs left `running` by a process that is gone: one indexed query.
        c.index("runs_result").on(t.result),
      ],
    ),
    journal: c.table(
      "journal",
      {
        id: c.id("id"),
        runId: c.int("run_id").notNull(),
        seq: c.int("seq").notNull(),
        kind: c.text("kind").notNull(),
        target: c.text("target").notNull(),
        payload: c.text("payload").notNull(),
        status: c.text("status").$type<JournalStatus>().notNull(),
        attempt: c.int("attempt").notNull().default(0),
        result: c.text("result"),
        updatedAt: c.time("updated_at").notNull(),
      },
      (t) => [c.uniqueIndex("journal_run_seq").on(t.runId, t.seq), c.index("journal_status").on(t.status)],
    ),
    runBefore: c.table("run_before", {
      runId: c.int("run_id").primaryKey(),
      recipeId: c.text("recipe_id").notNull(),
      account: c.text("account").notNull(),
      target: c.text("target").notNull(),
      takenAt: c.time("taken_at").notNull(),
      plan: c.text("plan").notNull(),
      before: c.text("before").notNull(),
    }),
  };
}

function ownershipTables(c: Columns) {
  return {
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
    ownedRows: c.table(
      "owned_rows",
      {
        // Numbered in the order the rows were added, which is the order they are listed in.
        id: c.id("id"),
        account: c.text("account").notNull(),
        target: c.text("target").notNull(),
        itemKey: c.text("item_key").notNull(),
        setVideoId: c.text("set_video_id"),
        addedAt: c.time("added_at").notNull(),
      },
      (t) => [c.index("owned_rows_target").on(t.account, t.target, t.itemKey)],
    ),
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
    targetSnapshots: c.table(
      "target_snapshots",
      {
        account: c.text("account").notNull(),
        target: c.text("target").notNull(),
        recipeId: c.text("recipe_id").notNull(),
        runId: c.int("run_id"),
        takenAt: c.time("taken_at").notNull(),
        fingerprint: c.text("fingerprint").notNull(),
        rows: c.text("rows").notNull(),
        meta: c.text("meta"),
      },
      (t) => [
        c.primaryKey({ columns: [t.account, t.target] }),
        c.index("target_snapshots_recipe").on(t.recipeId),
      ],
    ),
  };
}

function healthTables(c: Columns) {
  return {
    locks: c.table("locks", {
      account: c.text("account").primaryKey(),
      lockId: c.text("lock_id").notNull().unique(),
      holder: c.text("holder").notNull(),
      acquiredAt: c.time("acquired_at").notNull(),
      heartbeatAt: c.time("heartbeat_at").notNull(),
    }),
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
    accountHealth: c.table("account_health", {
      account: c.text("account").primaryKey(),
      consecutiveFailures: c.int("consecutive_failures").notNull().default(0),
      suspendedAt: c.time("suspended_at"),
      suspendedReason: c.text("suspended_reason"),
    }),
    recipeHealth: c.table("recipe_health", {
      recipeId: c.text("recipe_id").primaryKey(),
      account: c.text("account").notNull(),
      consecutiveFailures: c.int("consecutive_failures").notNull().default(0),
      suspendedAt: c.time("suspended_at"),
      suspendedReason: c.text("suspended_reason"),
      nextRunAt: c.time("next_run_at"),
      nextRunReason: c.text("next_run_reason").$type<RecipeHealth["nextRunReason"]>(),
      plannedBy: c.text("planned_by"),
      updatedAt: c.time("updated_at").notNull(),
    }),
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

function keptTables(c: Columns) {
  return {
    approvals: c.table(
      "approvals",
      {
        runId: c.int("run_id").primaryKey(),
        recipeId: c.text("recipe_id").notNull(),
        account: c.text("account").notNull(),
        plan: c.text("plan").notNull(),
        reason: c.text("reason").notNull(),
        createdAt: c.time("created_at").notNull(),
        status: c.text("status").$type<ApprovalStatus>().notNull(),
        decidedAt: c.time("decided_at"),
        appliedRunId: c.int("applied_run_id"),
      },
      (t) => [c.index("approvals_recipe").on(t.recipeId, t.status)],
    ),
    matchCache: c.table("match_cache", {
      // The entry's normalised key; a null video is a miss, searched again once older than the resolver's retry age.
      entryKey: c.text("entry_key").primaryKey(),
      videoId: c.text("video_id"),
      score: c.real("score"),
      reasons: c.text("reasons").notNull(),
      matchedAt: c.time("matched_at").notNull(),
    }),
    accounts: c.table("accounts", {
      name: c.text("name").primaryKey(),
      settings: c.text("settings").notNull(),
      sealed: c.text("sealed").notNull(),
      createdAt: c.time("created_at").notNull(),
      updatedAt: c.time("updated_at").notNull(),
    }),
  };
}
