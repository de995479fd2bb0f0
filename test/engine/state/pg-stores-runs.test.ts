/**
 * The PostgreSQL run and ownership stores where the dialect could make them differ from SQLite:
 * order on ties (PostgreSQL has no rowid order and its own collation), calls from two processes at
 * once (no single writer), times above 2^31 in bigint columns, JSON text read back byte for byte,
 * and lists longer than a statement may bind. Each answer is compared with the SQLite state's.
 * On a PostgreSQL server of its own (test/support/postgres-server.ts), or MUSICSYNC_TEST_PG_URL's.
 */
import { randomBytes } from "node:crypto";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Stored } from "../../../engine/state/dialect.js";
import * as pgSchema from "../../../engine/state/pg/schema.js";
import { pgStateOn } from "../../../engine/state/pg.js";
import { openSqliteState } from "../../../engine/state/sqlite.js";
import { closeAbandonedRuns } from "../../../engine/state/stores/runs.js";
import type { EngineState, OwnedRow, Stores } from "../../../engine/state/types.js";
import { postgresBinaries, usePostgres, withoutPostgres } from "../../support/postgres-server.js";

const server = usePostgres();
/** Without PostgreSQL outside CI, usePostgres skips each test; the suite's own hooks are not run either. */
const absent =
  withoutPostgres(postgresBinaries(), process.env) === "skip" && !process.env.MUSICSYNC_TEST_PG_URL;
/** A time past 2^31 ms (and 2^32), as every real time is: an int4 column would refuse or wrap it. */
const T = 1_795_675_669_873;

/** One process's view of the database: its own pool, so two of them are two connections' worth. */
interface Side {
  pool: pg.Pool;
  db: ReturnType<typeof drizzle<typeof pgSchema>>;
  /** The state's stores over the pool (not opened: the test migrates). */
  runs: ReturnType<typeof pgStateOn>;
  owned: ReturnType<typeof pgStateOn>;
}

function side(url: string): Side {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  // An idle connection ended by the server (the database dropped at the end) is no test failure;
  // errors of queries still reach the awaiting test.
  pool.on("error", () => {});
  const db = drizzle(pool, { schema: pgSchema });
  const state = pgStateOn(pool);
  return { pool, db, runs: state, owned: state };
}

describe.skipIf(absent)("PostgreSQL run and ownership stores", () => {
  let admin: pg.Client;
  let dbName: string;
  let a: Side;
  let b: Side;
  let lite: EngineState;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: server().url });
    await admin.connect();
    dbName = `h1_pg_stores_runs_${randomBytes(6).toString("hex")}`;
    await admin.query(`create database "${dbName}"`);
    const url = new URL(server().url);
    url.pathname = `/${dbName}`;
    a = side(url.href);
    b = side(url.href);
    await migrate(a.db, { migrationsFolder: "migrations/engine-pg" });
  });

  afterAll(async () => {
    await a?.pool.end();
    await b?.pool.end();
    if (dbName) await admin.query(`drop database if exists "${dbName}" with (force)`);
    await admin?.end();
  });

  beforeEach(async () => {
    await a.pool.query(
      "truncate runs, journal, locks, run_before, owned_playlists, owned_rows, tombstones, target_snapshots, conditions, account_health, approvals restart identity",
    );
    lite = openSqliteState(":memory:");
    return () => lite.close();
  });

  const startBoth = async (recipeId: string, at: number, holder?: string) => {
    const run = {
      recipeId,
      account: "acc",
      kind: "apply" as const,
      recipeHash: "h",
      at,
      ...(holder ? { holder } : {}),
    };
    const [id, liteId] = [await a.runs.startRun(run), await lite.startRun(run)];
    expect(id).toBe(liteId);
    return id;
  };

  it("lists runs started in the same millisecond as SQLite does, and keeps times past 2^31 as numbers", async () => {
    for (const [recipe, at] of [
      ["r", T],
      ["r", T + 5],
      ["q", T],
      ["r", T],
      ["r", T - 1],
      ["q", T + 5],
    ] as const) {
      await startBoth(recipe, at);
    }
    expect(await a.runs.recentRuns()).toEqual(await lite.recentRuns());
    expect(await a.runs.runs("r", 3)).toEqual(await lite.runs("r", 3));
    expect(await a.runs.recentRuns({ recipeId: "q" })).toEqual(await lite.recentRuns({ recipeId: "q" }));
    await a.runs.finishRun(1, { at: T + 2 ** 33, result: "converged", counts: { add: 1 } });
    const run = await a.runs.run(1);
    expect(typeof run?.startedAt).toBe("number");
    expect(run).toMatchObject({ startedAt: T, finishedAt: T + 2 ** 33 });
  });

  it("keeps JSON payloads and results byte for byte (text, not jsonb: key order and escapes kept)", async () => {
    const id = await startBoth("r", T);
    // jsonb would reorder these keys and normalise the numbers, and it refuses \u0000 in a string.
    const payload = { z: 1, a: [3, 1.5e-7, 1e21], ü: "é\u0000\u2028", nested: { b: null, a: true } };
    const result = { setVideoIds: ["s2", "s1"], note: "x\ny" };
    await a.runs.journalPlanned(id, [{ seq: 1, kind: "add", target: "pl:1", payload }], T);
    await a.runs.journalMark(id, 1, "confirmed", T + 1, result);
    const [raw] = (await a.pool.query("select payload, result from journal")).rows;
    expect(raw).toEqual({ payload: JSON.stringify(payload), result: JSON.stringify(result) });
    expect((await a.runs.journal(id))[0]).toMatchObject({ payload, result, updatedAt: T + 1 });
    const record = {
      runId: id,
      recipeId: "r",
      account: "acc",
      target: "pl:1",
      takenAt: T,
      plan: payload,
      before: result,
    };
    await a.runs.recordRunBefore(record);
    expect(await a.runs.runBefore(id)).toEqual(record);
    const snap = {
      account: "acc",
      target: "pl:1",
      recipeId: "r",
      runId: id,
      takenAt: T,
      fingerprint: "f",
      rows: [{ key: "k", setVideoId: null }],
    };
    await a.owned.saveSnapshot(snap);
    expect((await a.pool.query("select rows from target_snapshots")).rows[0].rows).toBe(
      JSON.stringify(snap.rows),
    );
    expect(await a.owned.snapshot("acc", "pl:1")).toEqual(snap);
  });

  it("records a run's end of writes only in one statement, one with a read in a transaction, as SQLite keeps them", async () => {
    const id = await startBoth("r", T);
    const sent: string[] = [];
    const query = pg.Client.prototype.query;
    const spy = vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (
      this: pg.Client,
      ...args: unknown[]
    ) {
      const config = args[0] as string | { text: string };
      sent.push(typeof config === "string" ? config : config.text);
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as never);
    const end = (at: number, read: boolean) => async (b: Stores) => {
      await b.saveSnapshot({
        account: "acc",
        target: "t",
        recipeId: "r",
        runId: id,
        takenAt: at,
        fingerprint: "f",
        rows: [],
      });
      await b.finishRun(id, { at, result: "converged", counts: { add: 1 } });
      await b.supersedeApprovals("r", at);
      await b.setCondition("r", { type: "Ready", status: "True", reason: "Converged", message: "ok" }, at);
      if (read) await b.recordSuccess("acc");
    };
    try {
      await a.runs.batch(end(T + 1, false));
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatch(/^with w0 as \(insert into "target_snapshots"/);
      sent.length = 0;
      await a.runs.batch(end(T + 2, true));
      expect(sent[0]?.toLowerCase()).toBe("begin");
      expect(sent.at(-1)?.toLowerCase()).toBe("commit");
    } finally {
      spy.mockRestore();
    }
    await lite.batch(end(T + 1, false));
    await lite.batch(end(T + 2, true));
    expect(await a.runs.run(id)).toEqual(await lite.run(id));
    expect(await a.runs.snapshot("acc", "t")).toEqual(await lite.snapshot("acc", "t"));
    expect(await a.runs.conditions("r")).toEqual(await lite.conditions("r"));
    expect(await a.runs.health("acc")).toEqual(await lite.health("acc"));
  });

  it("journals all or nothing over several statements, and refuses to mark what was never journalled", async () => {
    const id = await startBoth("r", T);
    const entries = Array.from({ length: 1200 }, (_, i) => ({
      seq: i + 1,
      kind: "add",
      target: "t",
      payload: { i },
    }));
    entries.push({ seq: 1100, kind: "add", target: "t", payload: { i: -1 } });
    await expect(a.runs.journalPlanned(id, entries, T)).rejects.toThrow();
    expect(await a.runs.journal(id)).toEqual([]);
    await a.runs.journalPlanned(id, entries.slice(0, 1200), T);
    expect((await a.runs.unfinishedWrites()).map((e) => e.seq)).toEqual(
      entries.slice(0, 1200).map((e) => e.seq),
    );
    await expect(a.runs.journalMark(id, 5000, "sent", T)).rejects.toThrow("journal: no entry 5000");
  });

  it("counts every send when two processes mark the same entry at once", async () => {
    const id = await startBoth("r", T);
    await a.runs.journalPlanned(id, [{ seq: 1, kind: "add", target: "t", payload: {} }], T);
    const sends = Array.from({ length: 40 }, (_, i) =>
      (i % 2 === 0 ? a : b).runs.journalMark(id, 1, "sent", T + i),
    );
    await Promise.all(sends);
    expect((await a.runs.journal(id))[0]?.attempt).toBe(40);
  });

  it("closes each abandoned run once when two processes open the state at once, oldest first", async () => {
    const now = T + 10 * 60_000;
    const stale = 60_000;
    const gone = [await startBoth("r", T, "far-away:1"), await startBoth("q", T, "far-away:2")];
    const live = await startBoth("p", T, "far-away:3");
    await startBoth("s", now - 1000, "far-away:4"); // too recent to judge
    const lock = { account: "acc", lockId: "L", holder: "far-away:3", acquiredAt: T, heartbeatAt: now - 10 };
    await a.db.insert(pgSchema.locks).values(lock);
    await lite.acquireLock("acc", "far-away:3", now - 10, stale);
    await a.runs.journalPlanned(gone[0]!, [{ seq: 1, kind: "add", target: "t", payload: {} }], T + 7);
    await a.runs.journalMark(gone[0]!, 1, "confirmed", T + 9, { ok: true });
    await lite.journalPlanned(gone[0]!, [{ seq: 1, kind: "add", target: "t", payload: {} }], T + 7);
    await lite.journalMark(gone[0]!, 1, "confirmed", T + 9, { ok: true });

    const [one, two] = await Promise.all([
      closeAbandonedRuns(a.runs, now, stale),
      closeAbandonedRuns(b.runs, now, stale),
    ]);
    expect([...one, ...two].sort((x, y) => x - y)).toEqual(gone);
    const sqliteClosed = await closeAbandonedRuns(lite as unknown as Stored, now, stale);
    expect(sqliteClosed).toEqual(gone);
    expect(await a.runs.run(gone[0]!)).toEqual(await lite.run(gone[0]!));
    expect(await a.runs.run(gone[0]!)).toMatchObject({ result: "interrupted", finishedAt: T + 9 });
    expect((await a.runs.run(live))?.result).toBe("running");
    expect(await closeAbandonedRuns(a.runs, now, stale)).toEqual([]);
  });

  it("keeps each call's owned rows together and in order when two processes add to one target at once", async () => {
    const rowsOf = (tag: string): OwnedRow[] =>
      Array.from({ length: 1100 }, (_, i) => ({
        itemKey: `${tag}${i}`,
        setVideoId: `s${tag}${i}`,
        addedAt: T + i,
      }));
    await Promise.all([
      a.owned.addOwnedRows("acc", "pl:1", rowsOf("a")),
      b.owned.addOwnedRows("acc", "pl:1", rowsOf("b")),
      b.owned.addOwnedRows("acc", "pl:2", rowsOf("c")),
    ]);
    const got = await a.owned.ownedRows("acc", "pl:1");
    const first = got[0]!.itemKey.startsWith("a") ? "a" : "b";
    expect(got).toEqual([...rowsOf(first), ...rowsOf(first === "a" ? "b" : "a")]);
    expect(await a.owned.ownedRows("acc", "pl:2")).toEqual(rowsOf("c"));
  });

  it("removes owned rows by key or by copy exactly as SQLite does, beyond one statement's worth", async () => {
    const rows: OwnedRow[] = Array.from({ length: 1500 }, (_, i) => ({
      itemKey: `k${i % 700}`,
      setVideoId: i % 5 === 0 ? null : `s${i}`,
      addedAt: T + i,
    }));
    const gone = [
      ...Array.from({ length: 600 }, (_, i) => ({
        itemKey: `k${(i * 7) % 700}`,
        setVideoId: `s${i * 2 + 1}`,
      })),
      ...Array.from({ length: 550 }, (_, i) => ({
        itemKey: `k${i}`,
        ...(i % 2 ? { setVideoId: null } : {}),
      })).filter((_, i) => i % 3 === 0),
      { itemKey: "k699", setVideoId: "" },
    ];
    for (const s of [a.owned, lite]) {
      await s.addOwnedRows("acc", "pl:1", rows);
      await s.addOwnedRows("acc", "pl:2", rows.slice(0, 10));
      await s.removeOwnedRows("acc", "pl:1", gone);
    }
    const left = await a.owned.ownedRows("acc", "pl:1");
    expect(left.length).toBeLessThan(rows.length);
    expect(left).toEqual(await lite.ownedRows("acc", "pl:1"));
    expect(await a.owned.ownedRows("acc", "pl:2")).toEqual(rows.slice(0, 10));
  });

  it("lists tombstones in SQLite's (bytewise) order, keeps one per key when two processes add at once, never renews one, and removes a long list", async () => {
    const keys = ["zz", "B", "a", "A", "b", "_x", "-y", "É", "e", "10", "9"];
    for (const s of [a.owned, lite]) await s.addTombstones("acc", "pl:1", "r", keys, T);
    expect([...(await a.owned.tombstones("acc", "pl:1"))]).toEqual([
      ...(await lite.tombstones("acc", "pl:1")),
    ]);
    expect([...(await a.owned.tombstonesSince("acc", "pl:1", T))]).toEqual([
      ...(await lite.tombstones("acc", "pl:1")),
    ]);

    // 14,000 rows of 5 values and 66,000 keys: each past the 65,535 values one statement may bind.
    const many = Array.from({ length: 14_000 }, (_, i) => `m${i}`);
    await Promise.all([
      a.owned.addTombstones("acc", "pl:2", "r", [...many.slice(0, 9_000), "m1"], T + 1),
      b.owned.addTombstones("acc", "pl:2", "r", many.slice(5_000), T + 2),
    ]);
    expect((await a.owned.tombstones("acc", "pl:2")).size).toBe(many.length);
    await a.owned.addTombstones("acc", "pl:2", "r", ["m5"], T + 9);
    expect(await a.owned.tombstonesSince("acc", "pl:2", T + 3)).toEqual(new Set());
    const gone = Array.from({ length: 66_000 }, (_, i) => `m${i + 1}`);
    await a.owned.removeTombstones("acc", "pl:2", gone);
    expect(await a.owned.tombstones("acc", "pl:2")).toEqual(new Set(["m0"]));
  });

  it("upserts owned playlists and snapshots from two processes at once without a conflict error", async () => {
    const p = (n: number) => ({
      account: "acc",
      recipeId: "r",
      target: `playlist:PL${n}`,
      playlistId: `PL${n}`,
      createdAt: T + n,
    });
    const snap = (n: number) => ({
      account: "acc",
      target: "pl:1",
      recipeId: "r",
      runId: n,
      takenAt: T + n,
      fingerprint: `f${n}`,
      rows: [],
    });
    await Promise.all(
      Array.from({ length: 20 }, (_, n) => {
        const s = n % 2 ? a.owned : b.owned;
        return Promise.all([s.recordOwnedPlaylist(p(n)), s.saveSnapshot(snap(n))]);
      }),
    );
    const owned = await a.owned.ownedPlaylist("acc", "r");
    expect(owned).toEqual(p(Number(owned?.playlistId.slice(2))));
    expect((await a.pool.query("select count(*)::int as n from target_snapshots")).rows[0].n).toBe(1);
    await a.owned.forgetOwnedPlaylist("acc", owned!.playlistId);
    expect(await a.owned.ownedPlaylist("acc", "r")).toBeNull();
  });

  it("finds a recipe's newest snapshot by time, and the same one every time on a tie", async () => {
    const snap = (target: string, takenAt: number) => ({
      account: "acc",
      target,
      recipeId: "r",
      runId: null,
      takenAt,
      fingerprint: target,
      rows: [],
    });
    for (const s of [a.owned, lite]) {
      await s.saveSnapshot(snap("playlist:b", T));
      await s.saveSnapshot(snap("playlist:c", T + 2 ** 32));
      await s.saveSnapshot(snap("playlist:a", T));
    }
    expect(await a.owned.snapshotOf("acc", "r")).toEqual(await lite.snapshotOf("acc", "r"));
    await a.owned.saveSnapshot(snap("playlist:c", T - 1));
    // SQLite answers the target saved first (rowid); there is no such trace here, so the key decides.
    expect((await a.owned.snapshotOf("acc", "r"))?.target).toBe("playlist:a");
  });
});
