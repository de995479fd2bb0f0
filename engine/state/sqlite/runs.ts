/**
 * Runs, their journal and their before-records on SQLite. Also closes, on open, the runs a process
 * that is gone left `running` (it reads the locks table to tell a live holder on another machine).
 */
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { actionCounts, journalFate } from "../counts.js";
import { abandonedRunReason, type RunningRun } from "../holder.js";
import { journalEntryOf, runBeforeOf, runRecordOf } from "../rows.js";
import * as schema from "../schema.js";
import type {
  JournalEntry,
  JournalStatus,
  RunBeforeRecord,
  RunKind,
  RunRecord,
  RunResult,
  RunStore,
} from "../types.js";
import { type Db, json, parse } from "./common.js";

export class SqliteRunStore implements RunStore {
  constructor(private readonly db: Db) {}

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
    return rows.map(runRecordOf);
  }

  async recentRuns(options: { recipeId?: string; limit?: number } = {}): Promise<RunRecord[]> {
    const query = this.db.select().from(schema.runs);
    const filtered = options.recipeId ? query.where(eq(schema.runs.recipeId, options.recipeId)) : query;
    return filtered
      .orderBy(desc(schema.runs.startedAt), desc(schema.runs.id))
      .limit(options.limit ?? 20)
      .all()
      .map(runRecordOf);
  }

  async run(runId: number): Promise<RunRecord | null> {
    const r = this.db.select().from(schema.runs).where(eq(schema.runs.id, runId)).get();
    return r ? runRecordOf(r) : null;
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

  async journal(runId: number): Promise<JournalEntry[]> {
    return this.db
      .select()
      .from(schema.journal)
      .where(eq(schema.journal.runId, runId))
      .orderBy(asc(schema.journal.seq))
      .all()
      .map(journalEntryOf);
  }

  async unfinishedWrites(): Promise<JournalEntry[]> {
    return this.db
      .select()
      .from(schema.journal)
      .where(inArray(schema.journal.status, ["pending", "sent", "unknown"]))
      .orderBy(asc(schema.journal.runId), asc(schema.journal.seq))
      .all()
      .map(journalEntryOf);
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
    return r ? runBeforeOf(r) : null;
  }
}
