/** Runs, their journal and before-records; on open, closes the runs a gone process left `running`. */

import { and, asc, desc, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import { chunk } from "../../../shared/chunk.js";
import { actionCounts, journalFate } from "../counts.js";
import {
  changed,
  type Db,
  type Dialect,
  json,
  oneRow,
  parse,
  placeholders,
  prepared,
  type Read,
  type Stored,
  send,
  sendNow,
  type Write,
} from "../dialect.js";
import { abandonedRunReason, DEFAULT_LOCK_STALE_MS, type RunningRun } from "../holder.js";
import type { Row } from "../tables.js";
import type { JournalEntry, RunBeforeRecord, RunRecord, RunStore } from "../types.js";

/** Rows per INSERT: 7 values a journal row. */
const SLICE = 500;
/** The placeholders of a run's start and end, written by prepared queries. */
const START = placeholders("recipeId", "account", "kind", "recipeHash", "holder");
const END = placeholders("id", "at", "result", "counts", "error");
const MARK = placeholders("runId", "seq", "status", "at", "result");
const NEXT = placeholders("next");
/** Whether the run's journal has entry `seq` (the journal as it was before the statement). */
const entry = (seq: never) =>
  sql`exists (select 1 from journal as other where other.run_id = ${MARK.runId} and other.seq = ${seq})`;
const BEFORE = placeholders("runId", "recipeId", "account", "target", "takenAt", "plan", "before");

export const runStore: RunStore & ThisType<Stored> = {
  async startRun(run) {
    const r = this.d.t.runs;
    const start = { ...START, startedAt: END.at, result: "running" as const };
    const build = (q: Db) => q.insert(r).values(start).returning({ id: r.id });
    const [row] = await prepared(this.d.db, "runs.start", build, { ...run, holder: run.holder ?? null });
    return row!.id;
  },

  async finishRun(runId, end) {
    const r = this.d.t.runs;
    const { id, at, ...set } = END;
    const build = (q: Db) =>
      q
        .update(r)
        .set({ ...set, finishedAt: at })
        .where(eq(r.id, id));
    const counts = end.counts ? json(end.counts) : null;
    const values = { ...end, id: runId, counts, error: end.error ?? null };
    await send(this.d, { table: r, key: "runs.finish", build, values });
  },

  async runs(recipeId, limit = 20) {
    return newestFirst(this, eq(this.d.t.runs.recipeId, recipeId), limit);
  },

  async recentRuns(options = {}) {
    const where = options.recipeId ? eq(this.d.t.runs.recipeId, options.recipeId) : undefined;
    return newestFirst(this, where, options.limit ?? 20);
  },

  async run(runId) {
    const row = await oneRow(this.d.db, this.d.t.runs, { id: runId });
    return row && runRecordOf(row);
  },

  async markInterrupted(runId, at, reason) {
    const { db, t } = this.d;
    await db
      .update(t.runs)
      .set({ result: "interrupted", finishedAt: at, error: reason })
      .where(eq(t.runs.id, runId));
  },

  /**
   * All or nothing; the unique (run_id, seq) index refuses a write journalled twice. Each slice is
   * a write a batch may send with its others (the run's before-record, ./pg/writes.ts): a run's
   * first write is journalled in the statement that records what it is about to change.
   */
  async journalPlanned(runId, entries, at) {
    const writes = chunk(entries, SLICE).map((slice) => plannedWrite(this.d, runId, slice, at));
    if (writes.length < 2 || this.d.defer) {
      for (const write of writes) await send(this.d, write);
      return;
    }
    await this.d.transaction(async (tx) => {
      for (const write of writes) await sendNow(tx, write);
    });
  },

  /**
   * One UPDATE, the attempt counted in SQL (`attempt + 1`) rather than read then written: two marks
   * of one entry at once both count, where a read-then-write could lose one. RETURNING tells an
   * entry that does not exist.
   */
  async journalMark(runId, seq, status, at, result) {
    const j = this.d.t.journal;
    // Each send is an attempt; marking the outcome is not.
    const sent = status === "sent";
    const withResult = result !== undefined;
    const build = (q: Db) =>
      q
        .update(j)
        .set({
          status: MARK.status,
          updatedAt: MARK.at,
          ...(sent ? { attempt: sql`${j.attempt} + 1` } : {}),
          ...(withResult ? { result: MARK.result } : {}),
        })
        .where(and(eq(j.runId, MARK.runId), eq(j.seq, MARK.seq)))
        .returning({ id: j.id });
    await send(this.d, {
      table: j,
      key: `journal.mark(${sent ? "attempt" : ""}${withResult ? ",result" : ""})`,
      build,
      values: { runId, seq, status, at, result: withResult ? json(result) : null },
      mustWrite: `journal: no entry ${seq} in run ${runId}`,
    });
  },

  /**
   * `journalMark` of entry `seq` with its result, and entry `next` marked `sent` (an attempt
   * counted), in one UPDATE: an action's outcome and the next one's leaving in one commit, where a
   * batch's two marks of one table would be a transaction (./pg/writes.ts). Both entries or
   * neither: without the other, an entry is not written (and the mark refused, as `mustWrite`).
   */
  async journalMarkAndSend(runId, seq, status, at, result, next) {
    const j = this.d.t.journal;
    const own = sql`${j.seq} = ${MARK.seq}`;
    const build = (q: Db) =>
      q
        .update(j)
        .set({
          status: sql`case when ${own} then ${MARK.status} else 'sent' end`,
          attempt: sql`case when ${own} then ${j.attempt} else ${j.attempt} + 1 end`,
          result: sql`case when ${own} then ${MARK.result} else ${j.result} end`,
          updatedAt: MARK.at,
        })
        .where(
          and(
            eq(j.runId, MARK.runId),
            or(and(own, entry(NEXT.next)), and(eq(j.seq, NEXT.next), entry(MARK.seq))),
          ),
        )
        .returning({ id: j.id });
    await send(this.d, {
      table: j,
      key: "journal.mark(,result)+sent",
      build,
      values: { runId, seq, status, at, result: json(result), next },
      mustWrite: `journal: no entry ${seq} in run ${runId}`,
    });
  },

  async journal(runId) {
    const j = this.d.t.journal;
    return journalWhere(this, eq(j.runId, runId), sql`${j.seq}`);
  },

  async unfinishedWrites() {
    const r = unfinishedRead(this.d);
    return journalEntries(await prepared(this.d.db, r.key, r.build, r.values));
  },

  /** INSERT … ON CONFLICT DO UPDATE: two records of one run at once leave one row, the later one. */
  async recordRunBefore(r) {
    const b = this.d.t.runBefore;
    const build = (q: Db) => q.insert(b).values(BEFORE).onConflictDoUpdate({ target: b.runId, set: BEFORE });
    const values = { ...r, plan: JSON.stringify(r.plan), before: JSON.stringify(r.before) };
    await send(this.d, { table: b, key: "run_before.record", build, values });
  },

  async runBefore(runId) {
    const row = await oneRow(this.d.db, this.d.t.runBefore, { runId });
    return row && runBeforeOf(row);
  },
};

type PlannedEntry = Parameters<RunStore["journalPlanned"]>[1][number];

/**
 * The insert of `entries` (a slice) as a write, prepared once per number of entries: `pending`, or
 * `sent` with its first attempt counted for an entry whose request is about to leave.
 */
function plannedWrite(d: Dialect, runId: number, entries: readonly PlannedEntry[], at: number): Write {
  const j = d.t.journal;
  const field = (name: string, i: number) => sql.placeholder(`${name}${i}`) as never;
  const build = (q: Db) =>
    q.insert(j).values(
      entries.map((_, i) => ({
        runId: sql.placeholder("runId") as never,
        seq: field("seq", i),
        kind: field("kind", i),
        target: field("target", i),
        payload: field("payload", i),
        status: field("status", i),
        attempt: field("attempt", i),
        updatedAt: sql.placeholder("at") as never,
      })),
    );
  const values: Record<string, unknown> = { runId, at };
  for (const [i, e] of entries.entries()) {
    Object.assign(values, {
      [`seq${i}`]: e.seq,
      [`kind${i}`]: e.kind,
      [`target${i}`]: e.target,
      [`payload${i}`]: json(e.payload),
      [`status${i}`]: e.sent ? "sent" : "pending",
      [`attempt${i}`]: e.sent ? 1 : 0,
    });
  }
  return { table: j, key: `journal.plan(${entries.length})`, build, values };
}

const runRecordOf = (r: Row<"runs">): RunRecord => ({
  ...r,
  counts: parse(r.counts) as Record<string, number> | null,
});

const journalEntryOf = ({ id: _id, ...r }: Row<"journal">): JournalEntry => ({
  ...r,
  payload: parse(r.payload),
  result: parse(r.result),
});

/** The read of the writes not known to be finished (`journalEntries` makes them entries). */
export function unfinishedRead(d: Dialect): Read {
  const j = d.t.journal;
  const build = (q: Db) =>
    q
      .select()
      .from(j)
      .where(inArray(j.status, ["pending", "sent", "unknown"]))
      .orderBy(j.runId, j.seq);
  return { key: "journal(unfinished)", build, values: {} };
}

export const journalEntries = (rows: readonly unknown[]): JournalEntry[] =>
  (rows as Row<"journal">[]).map(journalEntryOf);

/** The journal's entries that `where` selects, in the order of `order`. */
async function journalWhere(s: Stored, where: SQL, order: SQL): Promise<JournalEntry[]> {
  const rows = await s.d.db.select().from(s.d.t.journal).where(where).orderBy(order);
  return rows.map(journalEntryOf);
}

const runBeforeOf = (r: Row<"runBefore">): RunBeforeRecord => ({
  ...r,
  plan: JSON.parse(r.plan),
  before: JSON.parse(r.before),
});

async function newestFirst(s: Stored, where: SQL | undefined, limit: number): Promise<RunRecord[]> {
  const { db, t } = s.d;
  const rows = await db
    .select()
    .from(t.runs)
    .where(where)
    // The id breaks ties of start time: of two runs started in the same millisecond, the later first.
    .orderBy(desc(t.runs.startedAt), desc(t.runs.id))
    .limit(limit);
  return rows.map(runRecordOf);
}

/**
 * Closes as `interrupted` every run left `running` whose process is gone (holder.ts), with the reason
 * and the journal's counts; returns their ids, oldest first. One indexed query when there is none.
 * A live process's runs (a daemon's) are never touched: its pid lives, or it beats the lock.
 */
export async function closeAbandonedRuns(s: Stored, now: number, staleMs: number): Promise<number[]> {
  const { db, t } = s.d;
  const running: RunningRun[] = await db
    .select({ id: t.runs.id, account: t.runs.account, holder: t.runs.holder, startedAt: t.runs.startedAt })
    .from(t.runs)
    .where(eq(t.runs.result, "running"))
    .orderBy(asc(t.runs.id));
  if (running.length === 0) return [];
  const locks = new Map((await db.select().from(t.locks)).map((l) => [l.account, l]));
  const closed: number[] = [];
  for (const run of running) {
    const why = abandonedRunReason(run, locks.get(run.account), now, staleMs);
    if (why !== null && (await closeRun(s, run, why))) closed.push(run.id);
  }
  return closed;
}

/** The state's opening work on either database: closeAbandonedRuns now, at the lock staleness unless told. */
export function closingAbandonedRuns(options: { now?: number; lockStaleMs?: number }) {
  return async (s: Stored) => {
    await closeAbandonedRuns(s, options.now ?? Date.now(), options.lockStaleMs ?? DEFAULT_LOCK_STALE_MS);
  };
}

/**
 * Closes one abandoned run; false when no longer `running`. The UPDATE's `result = 'running'` is
 * re-checked after a concurrent commit: of two openers one closes it, and a run finished meanwhile
 * keeps its result.
 */
async function closeRun(s: Stored, run: RunningRun, why: string): Promise<boolean> {
  const { db, t } = s.d;
  const entries = await db.select().from(t.journal).where(eq(t.journal.runId, run.id));
  // It ended when its process was last heard of: its last journal write, else its start.
  const lastSeen = entries.reduce((at, e) => Math.max(at, e.updatedAt), run.startedAt);
  const fates = entries.map((e) => journalFate({ status: e.status, result: parse(e.result) }));
  const r = await db
    .update(t.runs)
    .set({ result: "interrupted", finishedAt: lastSeen, error: why, counts: json(actionCounts(fates)) })
    .where(and(eq(t.runs.id, run.id), eq(t.runs.result, "running")));
  return changed(r) > 0;
}
