/**
 * A PostgreSQL batch tried where it could break (docs/ARCHITECTURE.md#the-state): writes sent as one
 * WITH statement are all or nothing, two writes of one row keep their order, a batch of thousands
 * of rows stays within the bind limit and is as all-or-nothing, and an account lock's row goes
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
