/**
 * Runs, their journal and their before-records on PostgreSQL: the same rows and answers as
 * ../sqlite/runs.ts. SQLite serialises a read-then-write by running it synchronously in one process
 * (and BEGIN IMMEDIATE between processes); here each such method says what guards it instead.
 */
import { and, asc, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { actionCounts, journalFate } from "../counts.js";
import { abandonedRunReason, type RunningRun } from "../holder.js";
import { journalEntryOf, runBeforeOf, runRecordOf } from "../rows.js";
import type {
  JournalEntry,
  JournalStatus,
  RunBeforeRecord,
  RunKind,
  RunRecord,
  RunResult,
  RunStore,
} from "../types.js";
import { json, type PgDb, parse } from "./common.js";
import { slices, touched } from "./query.js";
import * as schema from "./schema.js";

/** Rows per INSERT: 7 values a journal row, far below PostgreSQL's 65,535 bound parameters. */
const SLICE = 500;

export class PgRunStore implements RunStore {
  constructor(private readonly db: PgDb) {}

  async startRun(run: {
    recipeId: string;
    account: string;
    kind: RunKind;
    recipeHash: string;
    at: number;
    holder?: string;
  }): Promise<number> {
    const [row] = await this.db
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
      .returning({ id: schema.runs.id });
    return row!.id;
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
    await this.db
      .update(schema.runs)
      .set({
        finishedAt: end.at,
        result: end.result,
        counts: end.counts ? json(end.counts) : null,
        error: end.error ?? null,
      })
      .where(eq(schema.runs.id, runId));
  }

  async runs(recipeId: string, limit = 20): Promise<RunRecord[]> {
    return this.newestFirst(eq(schema.runs.recipeId, recipeId), limit);
  }

  async recentRuns(options: { recipeId?: string; limit?: number } = {}): Promise<RunRecord[]> {
    const where = options.recipeId ? eq(schema.runs.recipeId, options.recipeId) : undefined;
    return this.newestFirst(where, options.limit ?? 20);
  }

  private async newestFirst(where: SQL | undefined, limit: number): Promise<RunRecord[]> {
    const rows = await this.db
      .select()
      .from(schema.runs)
      .where(where)
      // The id breaks ties of start time: of two runs started in the same millisecond, the later first.
      .orderBy(desc(schema.runs.startedAt), desc(schema.runs.id))
      .limit(limit);
    return rows.map(runRecordOf);
  }

  async run(runId: number): Promise<RunRecord | null> {
    const [r] = await this.db.select().from(schema.runs).where(eq(schema.runs.id, runId));
    return r ? runRecordOf(r) : null;
  }

  async markInterrupted(runId: number, at: number, reason: string): Promise<void> {
    await this.db
      .update(schema.runs)
      .set({ result: "interrupted", finishedAt: at, error: reason })
      .where(eq(schema.runs.id, runId));
  }

  /**
   * Closes every run left `running` whose process is gone (holder.ts says when) as `interrupted`,
   * with the reason and the journal's counts; returns their ids, oldest first. One query on the
   * `result` index when there is nothing to close. A live process's runs are never touched.
   */
  async closeAbandonedRuns(now: number, staleMs: number): Promise<number[]> {
    const running: RunningRun[] = await this.db
      .select({
        id: schema.runs.id,
        account: schema.runs.account,
        holder: schema.runs.holder,
        startedAt: schema.runs.startedAt,
      })
      .from(schema.runs)
      .where(eq(schema.runs.result, "running"))
      .orderBy(asc(schema.runs.id));
    if (running.length === 0) return [];
    const locks = new Map((await this.db.select().from(schema.locks)).map((l) => [l.account, l]));
    const closed: number[] = [];
    for (const run of running) {
      const why = abandonedRunReason(run, locks.get(run.account), now, staleMs);
      if (why !== null && (await this.closeRun(run, why))) closed.push(run.id);
    }
    return closed;
  }

  /**
   * Closes one abandoned run; false when it was no longer `running`. What guards it: the UPDATE is
   * conditional on `result = 'running'`, and PostgreSQL re-checks that condition on the row once a
   * concurrent writer of it commits (READ COMMITTED). So when two processes open the state at once,
   * one closes the run and the other changes nothing (and does not report it), and a run its own
   * process finished in between keeps the result it finished with.
   */
  private async closeRun(run: RunningRun, why: string): Promise<boolean> {
    const entries = await this.db.select().from(schema.journal).where(eq(schema.journal.runId, run.id));
    // It ended when its process was last heard of: its last journal write, else its start.
    const lastSeen = entries.reduce((at, e) => Math.max(at, e.updatedAt), run.startedAt);
    const fates = entries.map((e) => journalFate({ status: e.status, result: parse(e.result) }));
    const r = await this.db
      .update(schema.runs)
      .set({ result: "interrupted", finishedAt: lastSeen, error: why, counts: json(actionCounts(fates)) })
      .where(and(eq(schema.runs.id, run.id), eq(schema.runs.result, "running")));
    return touched(r);
  }

  /** All or nothing (one transaction); the unique (run_id, seq) index refuses a write journalled twice. */
  async journalPlanned(
    runId: number,
    entries: { seq: number; kind: string; target: string; payload: unknown }[],
    at: number,
  ): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map((e) => ({
      runId,
      seq: e.seq,
      kind: e.kind,
      target: e.target,
      payload: json(e.payload),
      status: "pending",
      updatedAt: at,
    }));
    await this.db.transaction(async (tx) => {
      for (const slice of slices(rows, SLICE)) await tx.insert(schema.journal).values(slice);
    });
  }

  /**
   * One UPDATE, the attempt counted in SQL (`attempt + 1`) rather than read then written: the row
   * lock it takes makes two marks of one entry at once both count, where a read-then-write could
   * lose one. RETURNING tells an entry that does not exist.
   */
  async journalMark(
    runId: number,
    seq: number,
    status: JournalStatus,
    at: number,
    result?: unknown,
  ): Promise<void> {
    const marked = await this.db
      .update(schema.journal)
      .set({
        status,
        updatedAt: at,
        // Each send is an attempt; marking the outcome is not.
        ...(status === "sent" ? { attempt: sql`${schema.journal.attempt} + 1` } : {}),
        ...(result !== undefined ? { result: json(result) } : {}),
      })
      .where(and(eq(schema.journal.runId, runId), eq(schema.journal.seq, seq)))
      .returning({ id: schema.journal.id });
    if (marked.length === 0) throw new Error(`journal: no entry ${seq} in run ${runId}`);
  }

  async journal(runId: number): Promise<JournalEntry[]> {
    const rows = await this.db
      .select()
      .from(schema.journal)
      .where(eq(schema.journal.runId, runId))
      .orderBy(asc(schema.journal.seq));
    return rows.map(journalEntryOf);
  }

  async unfinishedWrites(): Promise<JournalEntry[]> {
    const rows = await this.db
      .select()
      .from(schema.journal)
      .where(inArray(schema.journal.status, ["pending", "sent", "unknown"]))
      .orderBy(asc(schema.journal.runId), asc(schema.journal.seq));
    return rows.map(journalEntryOf);
  }

  /** INSERT … ON CONFLICT DO UPDATE: two records of one run at once leave one row, the later one. */
  async recordRunBefore(r: RunBeforeRecord): Promise<void> {
    const row = { ...r, plan: JSON.stringify(r.plan), before: JSON.stringify(r.before) };
    await this.db
      .insert(schema.runBefore)
      .values(row)
      .onConflictDoUpdate({ target: schema.runBefore.runId, set: row });
  }

  async runBefore(runId: number): Promise<RunBeforeRecord | null> {
    const [r] = await this.db.select().from(schema.runBefore).where(eq(schema.runBefore.runId, runId));
    return r ? runBeforeOf(r) : null;
  }
}
