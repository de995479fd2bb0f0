/**
 * A PostgreSQL batch tried where it could break (docs/ARCHITECTURE.md#the-state): writes sent as one
 * WITH statement are all or nothing, two writes of one row keep their order, a batch of thousands
 * of rows stays within the bind limit and is as all-or-nothing, a run's plan is journalled with its
 * before-record in one statement (several slices: a transaction), and an account lock's row goes
 * away with its session lock even when the statement letting go of both fails.
 */
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openState } from "../../../engine/state/open.js";
import { pgStateOn } from "../../../engine/state/pg.js";
import type { EngineState, OwnedRow, Stores } from "../../../engine/state/types.js";
import { usePostgres } from "../../support/postgres-server.js";

const server = usePostgres();
const T = 1_795_675_669_873;
const ACCOUNT = "acc";
const TARGET = "playlist:PL1";
const RECIPE = "r1";

const states: EngineState[] = [];
const pools: pg.Pool[] = [];
afterEach(async () => {
  await Promise.all(states.splice(0).map((s) => s.close().catch(() => undefined)));
  await Promise.all(pools.splice(0).map((p) => p.end().catch(() => undefined)));
});

/** A migrated database, its full state (with leases), and a state over a pool of the test's own. */
async function database(prefix: string) {
  const url = await server().createDatabase(prefix);
  const full = openState(url);
  states.push(full);
  await full.locks(); // opened: migrated
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on("error", () => undefined);
  pools.push(pool);
  return { url, full, pool, state: pgStateOn(pool) };
}

async function startRun(state: EngineState): Promise<number> {
  return state.startRun({ recipeId: RECIPE, account: ACCOUNT, kind: "apply", recipeHash: "h", at: T });
}

/** A run's end as the runner writes it, `runId` for its run record. */
async function runEnd(s: Stores, runId: number): Promise<void> {
  await s.saveSnapshot({
    account: ACCOUNT,
    target: TARGET,
    recipeId: RECIPE,
    runId,
    takenAt: T,
    fingerprint: "f",
    rows: [{ key: "v1", setVideoId: "s1" }],
  });
  await s.supersedeApprovals(RECIPE, T);
  await s.setCondition(RECIPE, { type: "Ready", status: "True", reason: "Converged", message: "" }, T);
  await s.finishRun(runId, { at: T, result: "converged", counts: { added: 1 } });
}

/** A run id the runs table refuses (not an integer): the database fails the statement, not the code before it. */
const REFUSED_ID = 1.5;

/**
 * Rows enough for several slices of a store's multi-row statement (500 a statement): such writes make
 * the batch a transaction, so a joined statement only ever holds one-row writes of distinct tables,
 * far below PostgreSQL's 65,535 parameters whatever the batch's size.
 */
const N = 3_000;

const rows = (n: number, from = 0): OwnedRow[] =>
  Array.from({ length: n }, (_, i) => ({ itemKey: `v${from + i}`, setVideoId: `s${from + i}`, addedAt: T }));

describe("a PostgreSQL batch of writes", () => {
  it("sends a run's end as one statement, and one part refused keeps none of the others", async () => {
    const { pool, state } = await database("batch_all_or_nothing");
    const runId = await startRun(state);

    const query = vi.spyOn(pool, "query");
    await expect(state.batch((s) => runEnd(s, REFUSED_ID))).rejects.toThrow();
    expect(await state.snapshot(ACCOUNT, TARGET)).toBeNull();
    expect(await state.conditions(RECIPE)).toEqual([]);

    // The same end with its own run: one statement, every part written.
    query.mockClear();
    await state.batch((s) => runEnd(s, runId));
    expect(query).toHaveBeenCalledTimes(1);
    query.mockRestore();
    expect((await state.snapshot(ACCOUNT, TARGET))?.rows).toEqual([{ key: "v1", setVideoId: "s1" }]);
    expect((await state.run(runId))?.result).toBe("converged");
    expect((await state.conditions(RECIPE)).map((c) => c.reason)).toEqual(["Converged"]);
  });

  it("refused by its first part, keeps nothing of the later ones either", async () => {
    const { state } = await database("batch_first_refused");
    const runId = await startRun(state);
    await expect(
      state.batch(async (s) => {
        await s.finishRun(REFUSED_ID, { at: T, result: "converged" });
        await s.setCondition(RECIPE, { type: "Ready", status: "True", reason: "Converged", message: "" }, T);
        await s.supersedeApprovals(RECIPE, T);
      }),
    ).rejects.toThrow();
    expect(await state.conditions(RECIPE)).toEqual([]);
    expect((await state.run(runId))?.result).toBe("running");
  });

  it("writes one row of one table twice in the order given: the last stays", async () => {
    const { state } = await database("batch_same_row");
    const runId = await startRun(state);
    for (const [first, last] of [
      ["partial", "converged"],
      ["converged", "partial"],
    ] as const) {
      await state.batch(async (s) => {
        await s.finishRun(runId, { at: T, result: first, error: first });
        await s.setCondition(RECIPE, { type: "Ready", status: "False", reason: first, message: "" }, T);
        await s.finishRun(runId, { at: T + 1, result: last });
        await s.setCondition(RECIPE, { type: "Ready", status: "True", reason: last, message: "" }, T + 1);
      });
      const run = await state.run(runId);
      expect([run?.result, run?.error ?? null]).toEqual([last, null]);
      expect((await state.conditions(RECIPE)).map((c) => c.reason)).toEqual([last]);
    }
  });

  it("commits thousands of rows with the run's end in one batch, or none of them", async () => {
    const { state } = await database("batch_big");
    const runId = await startRun(state);
    const many = rows(N);
    const entries = many.slice(0, 50).map((r, seq) => ({
      seq,
      kind: "add",
      target: TARGET,
      payload: { videoId: r.itemKey },
    }));
    await state.journalPlanned(runId, entries, T);

    await expect(
      state.batch(async (s) => {
        await s.addOwnedRows(ACCOUNT, TARGET, many);
        for (const e of entries) await s.journalMark(runId, e.seq, "confirmed", T, { ok: e.seq });
        await runEnd(s, REFUSED_ID);
      }),
    ).rejects.toThrow();
    expect(await state.ownedRows(ACCOUNT, TARGET)).toEqual([]);
    expect((await state.journal(runId)).filter((e) => e.status !== "pending")).toEqual([]);

    await state.batch(async (s) => {
      await s.addOwnedRows(ACCOUNT, TARGET, many);
      for (const e of entries) await s.journalMark(runId, e.seq, "confirmed", T, { ok: e.seq });
      await runEnd(s, runId);
    });
    expect((await state.ownedRows(ACCOUNT, TARGET)).length).toBe(N);
    expect((await state.journal(runId)).filter((e) => e.status === "confirmed").length).toBe(50);
    expect((await state.run(runId))?.result).toBe("converged");

    // And forgetting them all, with a mark of an entry that is not there: nothing is forgotten.
    await expect(
      state.batch(async (s) => {
        await s.removeOwnedRows(ACCOUNT, TARGET, many);
        await s.journalMark(runId, 99_999, "confirmed", T);
      }),
    ).rejects.toThrow(/no entry 99999/);
    expect((await state.ownedRows(ACCOUNT, TARGET)).length).toBe(N);
  });
});

/** An action's commit as the apply makes it: the rows it made the engine's, and its journal mark. */
async function actionCommit(s: Stores, runId: number, added: readonly OwnedRow[], seq = 0): Promise<void> {
  await s.addOwnedRows(ACCOUNT, TARGET, added);
  await s.journalMark(runId, seq, "confirmed", T, { requests: 1 });
}

/** A run with journal entries 0..n-1, pending. */
async function runWithEntries(state: EngineState, n = 1): Promise<number> {
  const runId = await startRun(state);
  const entries = Array.from({ length: n }, (_, seq) => ({ seq, kind: "add", target: TARGET, payload: {} }));
  await state.journalPlanned(runId, entries, T);
  return runId;
}

/** Owned rows' guard (the store's), held by a transaction of a session of its own until `release`. */
async function holdRowsGuard(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query("BEGIN");
  await client.query("SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))", [
    "owned_rows",
    JSON.stringify([ACCOUNT, TARGET]),
  ]);
  const release = async () => {
    await client.query("COMMIT");
    await client.end();
  };
  return { client, release };
}

/** Until another session waits for an advisory lock (bounded: it is sure to come, or the test has failed). */
async function someoneWaits(pool: pg.Pool): Promise<void> {
  for (let i = 0; i < 3_000; i++) {
    const waiting = await pool.query(
      `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    if (waiting.rowCount) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("nobody waited for the guard");
}

const statuses = async (state: EngineState, runId: number) =>
  (await state.journal(runId)).map((e) => e.status);

describe("an action's commit on PostgreSQL (owned rows under their guard, and its journal mark)", () => {
  it("is one statement, its rows numbered in the order given", async () => {
    const { pool, state } = await database("commit_one");
    const runId = await runWithEntries(state);
    // Keys out of their own order, so that only the order given can explain the order kept.
    const given = rows(1_200).reverse();
    const query = vi.spyOn(pool, "query");
    await state.batch((s) => actionCommit(s, runId, given));
    expect(query).toHaveBeenCalledTimes(1);
    query.mockRestore();
    expect(await state.ownedRows(ACCOUNT, TARGET)).toEqual(given);
    expect(await statuses(state, runId)).toEqual(["confirmed"]);
  });

  it("makes no row before its guard is held: rows added meanwhile by the guard's holder come first", async () => {
    const { url, full, state } = await database("commit_after_guard");
    const runId = await runWithEntries(state);
    const holder = await holdRowsGuard(url);
    const committing = state.batch((s) => actionCommit(s, runId, rows(3)));
    const watcher = new pg.Pool({ connectionString: url, max: 1 });
    pools.push(watcher);
    await someoneWaits(watcher);
    expect(await statuses(state, runId)).toEqual(["pending"]);
    // The holder adds its own rows, whose ids it takes now: a commit that had taken its ids before
    // waiting would list its rows first.
    await holder.client.query(
      `INSERT INTO owned_rows (account, target, item_key, set_video_id, added_at)
       VALUES ($1, $2, 'h0', 'hs0', $3), ($1, $2, 'h1', 'hs1', $3)`,
      [ACCOUNT, TARGET, T],
    );
    await holder.release();
    await committing;
    expect((await full.ownedRows(ACCOUNT, TARGET)).map((r) => r.itemKey)).toEqual([
      "h0",
      "h1",
      "v0",
      "v1",
      "v2",
    ]);
    expect(await statuses(state, runId)).toEqual(["confirmed"]);
  });

  it("keeps nothing when its guard cannot be taken (a lock time-out), and everything once it can", async () => {
    const { url } = await database("commit_guard_fails");
    const impatient = new pg.Pool({ connectionString: url, max: 1, options: "-c lock_timeout=50" });
    impatient.on("error", () => undefined);
    pools.push(impatient);
    const state = pgStateOn(impatient);
    const runId = await runWithEntries(state);
    const holder = await holdRowsGuard(url);
    await expect(state.batch((s) => actionCommit(s, runId, rows(2)))).rejects.toThrow(/lock timeout/);
    expect(await state.ownedRows(ACCOUNT, TARGET)).toEqual([]);
    expect(await statuses(state, runId)).toEqual(["pending"]);
    await holder.release();
    await state.batch((s) => actionCommit(s, runId, rows(2)));
    expect(await state.ownedRows(ACCOUNT, TARGET)).toEqual(rows(2));
    expect(await statuses(state, runId)).toEqual(["confirmed"]);
  });

  it("keeps no row when its mark finds no journal entry, and says which", async () => {
    const { state } = await database("commit_no_entry");
    const runId = await runWithEntries(state);
    // The one statement fails; the transaction run after it to say which write wrote nothing, too.
    await expect(state.batch((s) => actionCommit(s, runId, rows(2), 7))).rejects.toThrow(
      `journal: no entry 7 in run ${runId}`,
    );
    expect(await state.ownedRows(ACCOUNT, TARGET)).toEqual([]);
    expect(await statuses(state, runId)).toEqual(["pending"]);
  });

  it("keeps no mark when the database refuses its rows", async () => {
    const { pool, state } = await database("commit_rows_refused");
    const runId = await runWithEntries(state);
    await pool.query(`
      CREATE FUNCTION refuse_rows() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'rows refused';
      END $$;
      CREATE TRIGGER refuse_rows BEFORE INSERT ON owned_rows FOR EACH ROW EXECUTE FUNCTION refuse_rows();
    `);
    await expect(state.batch((s) => actionCommit(s, runId, rows(2)))).rejects.toThrow(/rows refused/);
    expect(await statuses(state, runId)).toEqual(["pending"]);
    expect(await state.ownedRows(ACCOUNT, TARGET)).toEqual([]);
  });

  it("marks the next entry sent in the same statement, that one only, or, refused, neither", async () => {
    const { pool, state } = await database("commit_next_sent");
    const runId = await runWithEntries(state, 3);
    await state.journalMark(runId, 0, "sent", T);
    const commit = async (s: Stores, seq: number, next: number) => {
      await s.addOwnedRows(ACCOUNT, TARGET, rows(2));
      await s.journalMarkAndSend(runId, seq, "confirmed", T + 1, { requests: 1 }, next);
    };
    // Either entry missing: neither is written, nor the rows.
    for (const [seq, next] of [
      [7, 1],
      [0, 7],
    ] as const) {
      await expect(state.batch((s) => commit(s, seq, next))).rejects.toThrow(
        `journal: no entry ${seq} in run ${runId}`,
      );
      expect(await state.ownedRows(ACCOUNT, TARGET)).toEqual([]);
      expect(await statuses(state, runId)).toEqual(["sent", "pending", "pending"]);
    }

    const query = vi.spyOn(pool, "query");
    await state.batch((s) => commit(s, 0, 1));
    expect(query).toHaveBeenCalledTimes(1);
    query.mockRestore();
    expect(await state.ownedRows(ACCOUNT, TARGET)).toEqual(rows(2));
    expect(
      (await state.journal(runId)).map((e) => [e.seq, e.status, e.attempt, e.result, e.updatedAt]),
    ).toEqual([
      [0, "confirmed", 1, { requests: 1 }, T + 1],
      [1, "sent", 1, null, T + 1],
      [2, "pending", 0, null, T],
    ]);
  });
});

/** What the runner records before a run's first write (engine/run/before.ts), for `runId`. */
const beforeOf = (runId: number) => ({
  runId,
  recipeId: RECIPE,
  account: ACCOUNT,
  target: TARGET,
  takenAt: T,
  plan: { actions: runId },
  before: { rows: [{ videoId: "v1", setVideoId: "s1" }] },
});

/** `n` planned entries of `runId`'s journal, the first one `sent` (its request leaves next). */
const planned = (n: number, from = 1) =>
  Array.from({ length: n }, (_, i) => ({
    seq: from + i,
    kind: "add_playlist_items",
    target: TARGET,
    payload: { seq: from + i },
    ...(from + i === 1 ? { sent: true } : {}),
  }));

/** A run's plan journalled as the apply does it: with its before-record, in one batch. */
const journalPlan = (state: EngineState, runId: number, entries: ReturnType<typeof planned>) =>
  state.batch(async (s) => {
    await s.recordRunBefore(beforeOf(runId));
    await s.journalPlanned(runId, entries, T);
  });

describe("a run's plan journalled on PostgreSQL (its before-record, its first write sent)", () => {
  it("is one statement that keeps each entry's status and attempt, or, refused, neither record", async () => {
    const { pool, state } = await database("plan_one_statement");
    const runId = await startRun(state);
    // Entry 3 is there already: the journal's unique (run, seq) refuses the whole statement.
    await state.journalPlanned(runId, [{ seq: 3, kind: "add", target: TARGET, payload: null }], T);
    await expect(journalPlan(state, runId, planned(3))).rejects.toThrow();
    expect(await state.runBefore(runId)).toBeNull();
    expect((await state.journal(runId)).map((e) => e.seq)).toEqual([3]);

    const next = await startRun(state);
    const query = vi.spyOn(pool, "query");
    await journalPlan(state, next, planned(3));
    expect(query).toHaveBeenCalledTimes(1);
    query.mockRestore();
    expect(await state.runBefore(next)).toEqual(beforeOf(next));
    const journal = await state.journal(next);
    expect(journal.map((e) => [e.seq, e.status, e.attempt, e.payload])).toEqual([
      [1, "sent", 1, { seq: 1 }],
      [2, "pending", 0, { seq: 2 }],
      [3, "pending", 0, { seq: 3 }],
    ]);
  });

  it("of several slices is a transaction: an entry refused in the last slice keeps nothing", async () => {
    const { state } = await database("plan_slices");
    const runId = await startRun(state);
    await state.journalPlanned(runId, [{ seq: 1_200, kind: "add", target: TARGET, payload: null }], T);
    await expect(journalPlan(state, runId, planned(1_200))).rejects.toThrow();
    expect(await state.runBefore(runId)).toBeNull();
    expect((await state.journal(runId)).map((e) => e.seq)).toEqual([1_200]);

    const next = await startRun(state);
    await journalPlan(state, next, planned(1_200));
    expect(await state.runBefore(next)).toEqual(beforeOf(next));
    const journal = await state.journal(next);
    expect(journal.map((e) => e.seq)).toEqual(planned(1_200).map((e) => e.seq));
    expect(journal.filter((e) => e.status === "sent").map((e) => [e.seq, e.attempt])).toEqual([[1, 1]]);
  });
});

describe("an account lock's row with its session lock", () => {
  it("is written as the lock is taken and deleted as it is let go", async () => {
    const { full, pool } = await database("lock_row");
    const attempt = await full.acquireLock(ACCOUNT, "me", T, 60_000);
    if (!attempt.acquired) throw new Error("expected the lock");
    expect((await pool.query("SELECT lock_id FROM locks")).rows).toEqual([{ lock_id: attempt.lock.lockId }]);
    await full.releaseLock(attempt.lock.lockId);
    expect((await pool.query("SELECT lock_id FROM locks")).rows).toEqual([]);
    expect(
      (await pool.query("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted")).rowCount,
    ).toBe(0);
  });

  it("when the statement letting go of both fails, the row is still deleted and the account free", async () => {
    const { url, full, pool } = await database("lock_row_fails");
    const attempt = await full.acquireLock(ACCOUNT, "me", T, 60_000);
    if (!attempt.acquired) throw new Error("expected the lock");
    // The first delete of a lock's row fails (as a statement cut by the server would), later ones pass.
    await pool.query(`
      CREATE SEQUENCE deletes;
      CREATE FUNCTION refuse_once() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- A sequence counts outside the transaction: the rolled-back statement's call still counts.
        IF nextval('deletes') = 1 THEN
          RAISE EXCEPTION 'refused once';
        END IF;
        RETURN OLD;
      END $$;
      CREATE TRIGGER refuse_once BEFORE DELETE ON locks FOR EACH ROW EXECUTE FUNCTION refuse_once();
    `);
    await full.releaseLock(attempt.lock.lockId);
    // The statement taking both failed; the row was deleted after it, by a statement of its own.
    expect((await pool.query("SELECT last_value FROM deletes")).rows).toEqual([{ last_value: "2" }]);
    expect((await pool.query("SELECT lock_id FROM locks")).rows).toEqual([]);
    expect(
      (await pool.query("SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted")).rowCount,
    ).toBe(0);

    const other = openState(url);
    states.push(other);
    const next = await other.acquireLock(ACCOUNT, "next", T + 1, 60_000);
    expect(next.acquired).toBe(true);
  });
});
