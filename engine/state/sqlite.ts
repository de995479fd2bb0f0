/**
 * EngineState on SQLite through drizzle (better-sqlite3). Migrations from `migrations/engine/` are
 * applied on open, so a new file and an old one both come up on the current schema.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { and, asc, desc, eq, gte, inArray } from "drizzle-orm";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { packageRoot } from "../run/package-root.js";
import { actionCounts, journalFate } from "./counts.js";
import { abandonedRunReason, DEFAULT_LOCK_STALE_MS, type RunningRun } from "./holder.js";
import * as schema from "./schema.js";
import { migrateSqlite, openSqliteFile, SqliteFileError } from "./sqlite-migrate.js";
import type {
  AccountHealth,
  Approval,
  ApprovalStatus,
  CachedMatch,
  Condition,
  ConditionType,
  EngineState,
  JournalEntry,
  JournalStatus,
  LockAttempt,
  LockInfo,
  OwnedPlaylist,
  OwnedRow,
  RecipeHealth,
  RunBeforeRecord,
  RunKind,
  RunRecord,
  RunResult,
  Snapshot,
} from "./types.js";

type Db = BetterSQLite3Database<typeof schema>;

const IMMEDIATE = { behavior: "immediate" } as const;

/**
 * `migrations/engine/`, found by walking up from this file to the folder with `package.json`, so the
 * same code works from `engine/state/` and from `dist/engine/state/`.
 */
export function engineMigrationsFolder(from: string = import.meta.url): string {
  return join(packageRoot(from), "migrations", "engine");
}

const json = (value: unknown): string => JSON.stringify(value ?? null);
const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

export interface OpenStateOptions {
  /**
   * A run of another machine left `running` is closed as interrupted once it is older than this and
   * its holder keeps no fresher heartbeat on the account's lock (default: the lock staleness, 5 min).
   */
  lockStaleMs?: number;
  /** Wall-clock now, for that check (tests). */
  now?: number;
}

/**
 * Opens (creating it and its folder if needed) the state database; `:memory:` for tests. Safe for
 * any number of processes opening one new file at once (see sqlite-migrate.ts). Every error names
 * the file. Runs left `running` by a process that is gone are closed as `interrupted`.
 */
export function openSqliteState(file: string, options: OpenStateOptions = {}): SqliteState {
  const what = "state database";
  const sqlite = openSqliteFile(file, what);
  try {
    // The journal is what makes a killed run safe: each write must reach the disk before the next request.
    sqlite.pragma("synchronous = FULL");
    migrateSqlite(sqlite, engineMigrationsFolder(), file, what);
    const state = new SqliteState(drizzle(sqlite, { schema }), sqlite);
    state.closeAbandonedRuns(options.now ?? Date.now(), options.lockStaleMs ?? DEFAULT_LOCK_STALE_MS);
    return state;
  } catch (e) {
    sqlite.close();
    throw e instanceof SqliteFileError ? e : new SqliteFileError(file, `cannot open the ${what}`, e);
  }
}

export class SqliteState implements EngineState {
  constructor(
    private readonly db: Db,
    private readonly sqlite: Database.Database,
  ) {}

  async startRun(run: {
    recipeId: string;
    account: string;
    kind: RunKind;
    recipeHash: string;
    at: number;
    holder?: string;
  }): Promise<number> {
    const row = this.db
      .insert(schema.runs)
      .values({
        recipeId: run.recipeId,
        account: run.account,
        kind: run.kind,
        recipeHash: run.recipeHash,
        startedAt: run.at,
        result: "running",
        holder: run.holder ?? null,
      })
      .returning({ id: schema.runs.id })
      .get();
    return row.id;
  }

  async finishRun(
    runId: number,
    end: {
      at: number;
      result: Exclude<RunResult, "running">;
      counts?: Record<string, number>;
      error?: string;
    },
  ): Promise<void> {
    this.db
      .update(schema.runs)
      .set({
        finishedAt: end.at,
        result: end.result,
        counts: end.counts ? json(end.counts) : null,
        error: end.error ?? null,
      })
      .where(eq(schema.runs.id, runId))
      .run();
  }

  async runs(recipeId: string, limit = 20): Promise<RunRecord[]> {
    const rows = this.db
      .select()
      .from(schema.runs)
      .where(eq(schema.runs.recipeId, recipeId))
      .orderBy(desc(schema.runs.startedAt), desc(schema.runs.id))
      .limit(limit)
      .all();
    return rows.map((r) => ({
      ...r,
      kind: r.kind as RunKind,
      result: r.result as RunResult,
      counts: parse(r.counts) as Record<string, number> | null,
    }));
  }

  async journalPlanned(
    runId: number,
    entries: { seq: number; kind: string; target: string; payload: unknown }[],
    at: number,
  ): Promise<void> {
    if (entries.length === 0) return;
    this.db.transaction((tx) => {
      for (const e of entries) {
        tx.insert(schema.journal)
          .values({
            runId,
            seq: e.seq,
            kind: e.kind,
            target: e.target,
            payload: json(e.payload),
            status: "pending",
            updatedAt: at,
          })
          .run();
      }
    });
  }

  async journalMark(
    runId: number,
    seq: number,
    status: JournalStatus,
    at: number,
    result?: unknown,
  ): Promise<void> {
    const where = and(eq(schema.journal.runId, runId), eq(schema.journal.seq, seq));
    const current = this.db.select().from(schema.journal).where(where).get();
    if (!current) throw new Error(`journal: no entry ${seq} in run ${runId}`);
    this.db
      .update(schema.journal)
      .set({
        status,
        updatedAt: at,
        // Each send is an attempt; marking the outcome is not.
        attempt: status === "sent" ? current.attempt + 1 : current.attempt,
        ...(result !== undefined ? { result: json(result) } : {}),
      })
      .where(where)
      .run();
  }

  private entry(r: typeof schema.journal.$inferSelect): JournalEntry {
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

  async journal(runId: number): Promise<JournalEntry[]> {
    return this.db
      .select()
      .from(schema.journal)
      .where(eq(schema.journal.runId, runId))
      .orderBy(asc(schema.journal.seq))
      .all()
      .map((r) => this.entry(r));
  }

  async unfinishedWrites(): Promise<JournalEntry[]> {
    return this.db
      .select()
      .from(schema.journal)
      .where(inArray(schema.journal.status, ["pending", "sent", "unknown"]))
      .orderBy(asc(schema.journal.runId), asc(schema.journal.seq))
      .all()
      .map((r) => this.entry(r));
  }

  async ownedPlaylist(account: string, recipeId: string): Promise<OwnedPlaylist | null> {
    return (
      this.db
        .select()
        .from(schema.ownedPlaylists)
        .where(and(eq(schema.ownedPlaylists.account, account), eq(schema.ownedPlaylists.recipeId, recipeId)))
        .get() ?? null
    );
  }

  async recordOwnedPlaylist(p: OwnedPlaylist): Promise<void> {
    this.db
      .insert(schema.ownedPlaylists)
      .values(p)
      .onConflictDoUpdate({
        target: [schema.ownedPlaylists.account, schema.ownedPlaylists.recipeId],
        set: { playlistId: p.playlistId, target: p.target, createdAt: p.createdAt },
      })
      .run();
  }

  async forgetOwnedPlaylist(account: string, playlistId: string): Promise<void> {
    this.db
      .delete(schema.ownedPlaylists)
      .where(
        and(eq(schema.ownedPlaylists.account, account), eq(schema.ownedPlaylists.playlistId, playlistId)),
      )
      .run();
  }

  async ownedRows(account: string, target: string): Promise<OwnedRow[]> {
    return this.db
      .select({
        itemKey: schema.ownedRows.itemKey,
        setVideoId: schema.ownedRows.setVideoId,
        addedAt: schema.ownedRows.addedAt,
      })
      .from(schema.ownedRows)
      .where(and(eq(schema.ownedRows.account, account), eq(schema.ownedRows.target, target)))
      .orderBy(asc(schema.ownedRows.id))
      .all();
  }

  async addOwnedRows(account: string, target: string, rows: readonly OwnedRow[]): Promise<void> {
    if (rows.length === 0) return;
    this.db.transaction((tx) => {
      for (const r of rows) {
        tx.insert(schema.ownedRows)
          .values({ account, target, itemKey: r.itemKey, setVideoId: r.setVideoId, addedAt: r.addedAt })
          .run();
      }
    });
  }

  async removeOwnedRows(
    account: string,
    target: string,
    rows: readonly { itemKey: string; setVideoId?: string | null }[],
  ): Promise<void> {
    const scope = and(eq(schema.ownedRows.account, account), eq(schema.ownedRows.target, target));
    this.db.transaction((tx) => {
      for (const r of rows) {
        const which = r.setVideoId
          ? and(scope, eq(schema.ownedRows.itemKey, r.itemKey), eq(schema.ownedRows.setVideoId, r.setVideoId))
          : and(scope, eq(schema.ownedRows.itemKey, r.itemKey));
        tx.delete(schema.ownedRows).where(which).run();
      }
    });
  }

  async tombstones(account: string, target: string): Promise<Set<string>> {
    const rows = this.db
      .select({ key: schema.tombstones.itemKey })
      .from(schema.tombstones)
      .where(and(eq(schema.tombstones.account, account), eq(schema.tombstones.target, target)))
      .all();
    return new Set(rows.map((r) => r.key));
  }

  async tombstonesSince(account: string, target: string, since: number): Promise<Set<string>> {
    const rows = this.db
      .select({ key: schema.tombstones.itemKey })
      .from(schema.tombstones)
      .where(
        and(
          eq(schema.tombstones.account, account),
          eq(schema.tombstones.target, target),
          gte(schema.tombstones.createdAt, since),
        ),
      )
      .all();
    return new Set(rows.map((r) => r.key));
  }

  async addTombstones(
    account: string,
    target: string,
    recipeId: string,
    keys: readonly string[],
    at: number,
  ): Promise<void> {
    if (keys.length === 0) return;
    this.db.transaction((tx) => {
      for (const itemKey of keys) {
        tx.insert(schema.tombstones)
          .values({ account, target, itemKey, recipeId, createdAt: at })
          .onConflictDoNothing()
          .run();
      }
    });
  }

  async removeTombstones(account: string, target: string, keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    this.db
      .delete(schema.tombstones)
      .where(
        and(
          eq(schema.tombstones.account, account),
          eq(schema.tombstones.target, target),
          inArray(schema.tombstones.itemKey, [...keys]),
        ),
      )
      .run();
  }

  async snapshot(account: string, target: string): Promise<Snapshot | null> {
    const r = this.db
      .select()
      .from(schema.targetSnapshots)
      .where(and(eq(schema.targetSnapshots.account, account), eq(schema.targetSnapshots.target, target)))
      .get();
    return r ? this.snapshotRow(r) : null;
  }

  private snapshotRow(r: typeof schema.targetSnapshots.$inferSelect): Snapshot {
    const { meta, ...rest } = r;
    return {
      ...rest,
      rows: parse(r.rows) as Snapshot["rows"],
      // Only playlists have metadata; other snapshots (and those from before it was kept) have none.
      ...(meta !== null ? { meta: parse(meta) as Snapshot["meta"] } : {}),
    };
  }

  async saveSnapshot(s: Snapshot): Promise<void> {
    const values = { ...s, rows: json(s.rows), meta: s.meta ? json(s.meta) : null };
    this.db
      .insert(schema.targetSnapshots)
      .values(values)
      .onConflictDoUpdate({
        target: [schema.targetSnapshots.account, schema.targetSnapshots.target],
        set: values,
      })
      .run();
  }

  async acquireLock(account: string, holder: string, at: number, staleAfterMs: number): Promise<LockAttempt> {
    // One IMMEDIATE transaction: the write lock is taken before the read, so two processes racing
    // for the account cannot both see it free (and a deferred read-then-write would fail at once
    // with SQLITE_BUSY instead of waiting for the other).
    return this.db.transaction((tx) => {
      const current = tx.select().from(schema.locks).where(eq(schema.locks.account, account)).get();
      if (current && at - current.heartbeatAt <= staleAfterMs)
        return { acquired: false as const, heldBy: current };
      const lock: LockInfo = { account, lockId: randomUUID(), holder, acquiredAt: at, heartbeatAt: at };
      if (current) tx.delete(schema.locks).where(eq(schema.locks.account, account)).run();
      tx.insert(schema.locks).values(lock).run();
      return { acquired: true as const, lock };
    }, IMMEDIATE);
  }

  async heartbeat(lockId: string, at: number): Promise<boolean> {
    const r = this.db
      .update(schema.locks)
      .set({ heartbeatAt: at })
      .where(eq(schema.locks.lockId, lockId))
      .run();
    return r.changes > 0;
  }

  async releaseLock(lockId: string): Promise<void> {
    this.db.delete(schema.locks).where(eq(schema.locks.lockId, lockId)).run();
  }

  async lock(account: string): Promise<LockInfo | null> {
    return this.db.select().from(schema.locks).where(eq(schema.locks.account, account)).get() ?? null;
  }

  async forceUnlock(lockId: string): Promise<boolean> {
    return this.db.delete(schema.locks).where(eq(schema.locks.lockId, lockId)).run().changes > 0;
  }

  async recordGeneration(recipeId: string, hash: string, at: number): Promise<number> {
    return this.db.transaction((tx) => {
      const last = tx
        .select()
        .from(schema.recipeGenerations)
        .where(eq(schema.recipeGenerations.recipeId, recipeId))
        .orderBy(desc(schema.recipeGenerations.generation))
        .limit(1)
        .get();
      if (last && last.hash === hash) return last.generation;
      const generation = (last?.generation ?? 0) + 1;
      tx.insert(schema.recipeGenerations).values({ recipeId, generation, hash, seenAt: at }).run();
      return generation;
    }, IMMEDIATE);
  }

  async setCondition(recipeId: string, c: Omit<Condition, "changedAt">, at: number): Promise<void> {
    const where = and(eq(schema.conditions.recipeId, recipeId), eq(schema.conditions.type, c.type));
    const current = this.db.select().from(schema.conditions).where(where).get();
    // changedAt moves only when the status does: "False since 3 days" stays true across runs.
    const changedAt = current && current.status === c.status ? current.changedAt : at;
    const values = {
      recipeId,
      type: c.type,
      status: c.status,
      reason: c.reason,
      message: c.message,
      changedAt,
    };
    this.db
      .insert(schema.conditions)
      .values(values)
      .onConflictDoUpdate({ target: [schema.conditions.recipeId, schema.conditions.type], set: values })
      .run();
  }

  async conditions(recipeId: string): Promise<Condition[]> {
    return this.db
      .select()
      .from(schema.conditions)
      .where(eq(schema.conditions.recipeId, recipeId))
      .orderBy(asc(schema.conditions.type))
      .all()
      .map((r) => ({
        type: r.type as ConditionType,
        status: r.status as Condition["status"],
        reason: r.reason,
        message: r.message,
        changedAt: r.changedAt,
      }));
  }

  async health(account: string): Promise<AccountHealth> {
    const r = this.db
      .select()
      .from(schema.accountHealth)
      .where(eq(schema.accountHealth.account, account))
      .get();
    return r ?? { account, consecutiveFailures: 0, suspendedAt: null, suspendedReason: null };
  }

  private saveHealth(h: AccountHealth): AccountHealth {
    this.db
      .insert(schema.accountHealth)
      .values(h)
      .onConflictDoUpdate({ target: schema.accountHealth.account, set: h })
      .run();
    return h;
  }

  async recordFailure(
    account: string,
    at: number,
    reason: string,
    options: { suspendAfter: number; authExpired?: boolean },
  ): Promise<AccountHealth> {
    const h = await this.health(account);
    const failures = h.consecutiveFailures + 1;
    const suspend =
      h.suspendedAt === null && (options.authExpired === true || failures >= options.suspendAfter);
    return this.saveHealth({
      account,
      consecutiveFailures: failures,
      suspendedAt: suspend ? at : h.suspendedAt,
      suspendedReason: suspend ? reason : h.suspendedReason,
    });
  }

  async recordSuccess(account: string): Promise<AccountHealth> {
    const h = await this.health(account);
    return this.saveHealth({ ...h, consecutiveFailures: 0 });
  }

  async resume(account: string): Promise<void> {
    this.db
      .update(schema.accountHealth)
      .set({ consecutiveFailures: 0, suspendedAt: null, suspendedReason: null })
      .where(eq(schema.accountHealth.account, account))
      .run();
  }

  private runRecord(r: typeof schema.runs.$inferSelect): RunRecord {
    return {
      ...r,
      kind: r.kind as RunKind,
      result: r.result as RunResult,
      counts: parse(r.counts) as Record<string, number> | null,
    };
  }

  async recentRuns(options: { recipeId?: string; limit?: number } = {}): Promise<RunRecord[]> {
    const query = this.db.select().from(schema.runs);
    const filtered = options.recipeId ? query.where(eq(schema.runs.recipeId, options.recipeId)) : query;
    return filtered
      .orderBy(desc(schema.runs.startedAt), desc(schema.runs.id))
      .limit(options.limit ?? 20)
      .all()
      .map((r) => this.runRecord(r));
  }

  async markInterrupted(runId: number, at: number, reason: string): Promise<void> {
    this.db
      .update(schema.runs)
      .set({ result: "interrupted", finishedAt: at, error: reason })
      .where(eq(schema.runs.id, runId))
      .run();
  }

  /**
   * Closes every run left `running` whose process is gone (holder.ts says when) as `interrupted`,
   * with the reason and the journal's counts; returns their ids. One query on the `result` index
   * when there is nothing to close, so opening stays fast. A live process's runs — a daemon's
   * included — are never touched: its pid is alive, or (another machine) it beats the lock.
   */
  closeAbandonedRuns(now: number, staleMs: number): number[] {
    const running: RunningRun[] = this.db
      .select({
        id: schema.runs.id,
        account: schema.runs.account,
        holder: schema.runs.holder,
        startedAt: schema.runs.startedAt,
      })
      .from(schema.runs)
      .where(eq(schema.runs.result, "running"))
      .all();
    if (running.length === 0) return [];
    const locks = new Map(
      this.db
        .select()
        .from(schema.locks)
        .all()
        .map((l) => [l.account, l]),
    );
    const closed: number[] = [];
    for (const run of running) {
      const why = abandonedRunReason(run, locks.get(run.account), now, staleMs);
      if (why === null) continue;
      const entries = this.db.select().from(schema.journal).where(eq(schema.journal.runId, run.id)).all();
      // It ended when its process was last heard of: its last journal write, else its start.
      const lastSeen = entries.reduce((at, e) => Math.max(at, e.updatedAt), run.startedAt);
      const r = this.db
        .update(schema.runs)
        .set({
          result: "interrupted",
          finishedAt: lastSeen,
          error: why,
          counts: json(
            actionCounts(entries.map((e) => journalFate({ status: e.status, result: parse(e.result) }))),
          ),
        })
        .where(and(eq(schema.runs.id, run.id), eq(schema.runs.result, "running")))
        .run();
      if (r.changes > 0) closed.push(run.id);
    }
    return closed;
  }

  async snapshotOf(account: string, recipeId: string): Promise<Snapshot | null> {
    const r = this.db
      .select()
      .from(schema.targetSnapshots)
      .where(and(eq(schema.targetSnapshots.account, account), eq(schema.targetSnapshots.recipeId, recipeId)))
      .orderBy(desc(schema.targetSnapshots.takenAt))
      .limit(1)
      .get();
    return r ? this.snapshotRow(r) : null;
  }

  async locks(): Promise<LockInfo[]> {
    return this.db.select().from(schema.locks).orderBy(asc(schema.locks.account)).all();
  }

  async accountHealth(): Promise<AccountHealth[]> {
    return this.db.select().from(schema.accountHealth).orderBy(asc(schema.accountHealth.account)).all();
  }

  async recipeHealth(recipeId: string): Promise<RecipeHealth> {
    return this.readRecipeHealth(recipeId);
  }

  /** Synchronous, so that it can run inside a transaction. */
  private readRecipeHealth(recipeId: string): RecipeHealth {
    const r = this.db
      .select()
      .from(schema.recipeHealth)
      .where(eq(schema.recipeHealth.recipeId, recipeId))
      .get();
    if (!r)
      return {
        recipeId,
        account: null,
        consecutiveFailures: 0,
        suspendedAt: null,
        suspendedReason: null,
        nextRunAt: null,
        nextRunReason: null,
        plannedBy: null,
      };
    const { updatedAt: _u, ...rest } = r;
    return { ...rest, nextRunReason: r.nextRunReason as RecipeHealth["nextRunReason"] };
  }

  private saveRecipeHealth(h: RecipeHealth, at: number): RecipeHealth {
    const values = { ...h, account: h.account ?? "", updatedAt: at };
    this.db
      .insert(schema.recipeHealth)
      .values(values)
      .onConflictDoUpdate({ target: schema.recipeHealth.recipeId, set: values })
      .run();
    return h;
  }

  async recordRecipeFailure(
    recipeId: string,
    account: string,
    at: number,
    reason: string,
    options: { suspendAfter: number },
  ): Promise<RecipeHealth> {
    return this.db.transaction(() => {
      const h = this.readRecipeHealth(recipeId);
      const failures = h.consecutiveFailures + 1;
      const suspend = h.suspendedAt === null && failures >= options.suspendAfter;
      return this.saveRecipeHealth(
        {
          ...h,
          account,
          consecutiveFailures: failures,
          suspendedAt: suspend ? at : h.suspendedAt,
          suspendedReason: suspend
            ? `${failures} consecutive failed runs; the last: ${reason}`
            : h.suspendedReason,
        },
        at,
      );
    }, IMMEDIATE);
  }

  async recordRecipeSuccess(recipeId: string, account: string, at: number): Promise<RecipeHealth> {
    const h = await this.recipeHealth(recipeId);
    return this.saveRecipeHealth({ ...h, account, consecutiveFailures: 0 }, at);
  }

  async resumeRecipe(recipeId: string, at: number): Promise<boolean> {
    const h = await this.recipeHealth(recipeId);
    if (h.suspendedAt === null) return false;
    this.saveRecipeHealth({ ...h, consecutiveFailures: 0, suspendedAt: null, suspendedReason: null }, at);
    return true;
  }

  async setNextRun(
    recipeId: string,
    account: string,
    next: { at: number | null; reason: "schedule" | "retry" | null; by: string | null },
    now: number,
  ): Promise<void> {
    const h = await this.recipeHealth(recipeId);
    this.saveRecipeHealth(
      { ...h, account, nextRunAt: next.at, nextRunReason: next.reason, plannedBy: next.by },
      now,
    );
  }

  async sourceReads(recipeId: string): Promise<Map<string, number>> {
    const rows = this.db
      .select()
      .from(schema.sourceReads)
      .where(eq(schema.sourceReads.recipeId, recipeId))
      .all();
    return new Map(rows.map((r) => [r.sourceId, r.items]));
  }

  async recordSourceReads(
    recipeId: string,
    reads: readonly { sourceId: string; items: number }[],
    at: number,
  ): Promise<void> {
    for (const r of reads) {
      this.db
        .insert(schema.sourceReads)
        .values({ recipeId, sourceId: r.sourceId, items: r.items, readAt: at })
        .onConflictDoUpdate({
          target: [schema.sourceReads.recipeId, schema.sourceReads.sourceId],
          set: { items: r.items, readAt: at },
        })
        .run();
    }
  }

  async cachedMatches(keys: readonly string[]): Promise<Map<string, CachedMatch>> {
    const out = new Map<string, CachedMatch>();
    // SQLite binds at most 32,766 values per statement: ask in slices.
    for (let i = 0; i < keys.length; i += 500) {
      const rows = this.db
        .select()
        .from(schema.matchCache)
        .where(inArray(schema.matchCache.entryKey, keys.slice(i, i + 500)))
        .all();
      for (const r of rows) {
        out.set(r.entryKey, {
          key: r.entryKey,
          videoId: r.videoId,
          score: r.score,
          reasons: JSON.parse(r.reasons) as string[],
          matchedAt: r.matchedAt,
        });
      }
    }
    return out;
  }

  async recordMatches(matches: readonly CachedMatch[]): Promise<void> {
    this.db.transaction((tx) => {
      for (const m of matches) {
        const row = {
          videoId: m.videoId,
          score: m.score,
          reasons: JSON.stringify(m.reasons),
          matchedAt: m.matchedAt,
        };
        tx.insert(schema.matchCache)
          .values({ entryKey: m.key, ...row })
          .onConflictDoUpdate({ target: schema.matchCache.entryKey, set: row })
          .run();
      }
    });
  }

  async recordRunBefore(r: RunBeforeRecord): Promise<void> {
    const row = { ...r, plan: JSON.stringify(r.plan), before: JSON.stringify(r.before) };
    this.db
      .insert(schema.runBefore)
      .values(row)
      .onConflictDoUpdate({ target: schema.runBefore.runId, set: row })
      .run();
  }

  async runBefore(runId: number): Promise<RunBeforeRecord | null> {
    const r = this.db.select().from(schema.runBefore).where(eq(schema.runBefore.runId, runId)).get();
    return r ? { ...r, plan: JSON.parse(r.plan), before: JSON.parse(r.before) } : null;
  }

  async run(runId: number): Promise<RunRecord | null> {
    const r = this.db.select().from(schema.runs).where(eq(schema.runs.id, runId)).get();
    return r ? this.runRecord(r) : null;
  }

  async recordPendingApproval(a: Omit<Approval, "status" | "decidedAt" | "appliedRunId">): Promise<void> {
    this.db.transaction((tx) => {
      tx.update(schema.approvals)
        .set({ status: "superseded", decidedAt: a.createdAt })
        .where(and(eq(schema.approvals.recipeId, a.recipeId), eq(schema.approvals.status, "pending")))
        .run();
      tx.insert(schema.approvals)
        .values({ ...a, plan: JSON.stringify(a.plan), status: "pending" })
        .run();
    }, IMMEDIATE);
  }

  async approvals(options: { recipeId?: string; all?: boolean } = {}): Promise<Approval[]> {
    const where = and(
      options.recipeId === undefined ? undefined : eq(schema.approvals.recipeId, options.recipeId),
      options.all ? undefined : eq(schema.approvals.status, "pending"),
    );
    return this.db
      .select()
      .from(schema.approvals)
      .where(where)
      .orderBy(desc(schema.approvals.createdAt), desc(schema.approvals.runId))
      .all()
      .map(approvalOf);
  }

  async approval(runId: number): Promise<Approval | null> {
    const r = this.db.select().from(schema.approvals).where(eq(schema.approvals.runId, runId)).get();
    return r ? approvalOf(r) : null;
  }

  async supersedeApprovals(recipeId: string, at: number): Promise<number> {
    const changed = this.db
      .update(schema.approvals)
      .set({ status: "superseded", decidedAt: at })
      .where(and(eq(schema.approvals.recipeId, recipeId), eq(schema.approvals.status, "pending")))
      .run();
    return changed.changes;
  }

  async decideApproval(
    runId: number,
    d: { status: "approved" | "refused"; at: number; appliedRunId?: number },
  ): Promise<boolean> {
    const changed = this.db
      .update(schema.approvals)
      .set({ status: d.status, decidedAt: d.at, appliedRunId: d.appliedRunId ?? null })
      .where(and(eq(schema.approvals.runId, runId), eq(schema.approvals.status, "pending")))
      .run();
    return changed.changes > 0;
  }

  async close(): Promise<void> {
    this.sqlite.close();
  }
}

function approvalOf(r: typeof schema.approvals.$inferSelect): Approval {
  return { ...r, plan: JSON.parse(r.plan), status: r.status as ApprovalStatus };
}
