/**
 * The PostgreSQL lock, health, match, approval and account stores, and PgState, where the dialect
 * could make them differ from SQLite: processes racing for one account's lock or one recipe's
 * generation (no single writer as under BEGIN IMMEDIATE), order on text and on ties (PostgreSQL has
 * its own collation and no row order), times past 2^31 in bigint columns, a state whose methods
 * must wait for the migration started by its constructor, and an unreachable server's error.
 * Each answer is compared with the SQLite state's where there is one.
 * On a PostgreSQL server of its own (test/support/postgres-server.ts), or MUSICSYNC_TEST_PG_URL's.
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { hostname } from "node:os";
import { inspect } from "node:util";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as pgSchema from "../../../engine/state/pg/schema.js";
import { openPgState, pgState, pgStateOn } from "../../../engine/state/pg.js";
import { openSqliteState } from "../../../engine/state/sqlite.js";
import type { EngineState, LockAttempt } from "../../../engine/state/types.js";
import { postgresBinaries, usePostgres, withoutPostgres } from "../../support/postgres-server.js";
import { pendingApproval } from "./contract.js";

const server = usePostgres();
/** Without PostgreSQL outside CI, usePostgres skips each test; the suite's own hooks are not run either. */
const absent =
  withoutPostgres(postgresBinaries(), process.env) === "skip" && !process.env.MUSICSYNC_TEST_PG_URL;
const MIGRATIONS = "migrations/engine-pg";
/** A time past 2^31 ms (and 2^32), as every real time is: an int4 column would refuse or wrap it. */
const T = 1_795_675_669_873;
const STALE = 60_000;
/** Names that a locale orders differently from bytes: SQLite (BINARY) gives Zed, apple, b, Äb. */
const NAMES = ["b", "Äb", "apple", "Zed"];

/** One process's view of the database: a pool of its own, and the state's stores over it (not opened). */
function side(url: string, max = 2) {
  const pool = new pg.Pool({ connectionString: url, max });
  // Dropping the database at the end ends any connection still closing: not a failure here.
  pool.on("error", () => undefined);
  const state = pgStateOn(pool);
  const db = drizzle(pool, { schema: pgSchema });
  return { pool, db, locks: state, health: state, matches: state, approvals: state, accounts: state };
}
type Side = ReturnType<typeof side>;

describe.skipIf(absent)("PostgreSQL lock, health, match, approval and account stores", () => {
  let admin: pg.Client;
  const made: string[] = [];
  let url: string;
  let a: Side;
  let lite: EngineState;
  /** Pools the racing tests open, one per racer (as many processes would). */
  const racers: Side[] = [];

  /** A new empty database (named h2_…); an en-US ICU one when asked, if the server has ICU. */
  async function database(prefix: string, icu = false): Promise<string> {
    const name = `h2_${prefix}_${randomBytes(5).toString("hex")}`;
    const locale = "template template0 locale_provider icu icu_locale 'en-US'";
    await admin.query(`create database "${name}" ${icu ? locale : ""}`).catch(async (e) => {
      if (!icu) throw e;
      await admin.query(`create database "${name}"`);
    });
    made.push(name);
    const target = new URL(server().url);
    target.pathname = `/${name}`;
    return target.href;
  }

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: server().url });
    await admin.connect();
    url = await database("stores", true);
    a = side(url);
    await migrate(a.db, { migrationsFolder: MIGRATIONS });
  });

  afterAll(async () => {
    await a?.pool.end();
    for (const name of made) await admin.query(`drop database if exists "${name}" with (force)`);
    await admin?.end();
  });

  beforeEach(async () => {
    await a.pool.query(
      "truncate locks, recipe_generations, account_health, recipe_health, conditions, source_reads, match_cache, approvals, accounts, runs",
    );
    lite = openSqliteState(":memory:");
    return async () => {
      await lite.close();
      await Promise.all(racers.splice(0).map((r) => r.pool.end()));
    };
  });

  /** `n` processes making one call each at once (connected beforehand, so that none starts late). */
  const race = async <T>(n: number, call: (s: Side, i: number) => Promise<T>): Promise<T[]> => {
    const sides = Array.from({ length: n }, () => side(url, 1));
    racers.push(...sides);
    await Promise.all(sides.map((s) => s.pool.query("select 1")));
    return Promise.all(sides.map((s, i) => call(s, i)));
  };

  describe("concurrency", () => {
    it("gives a free account's lock to exactly one of 20 processes racing for it", async () => {
      const tries = await race(20, (s, i) => s.locks.acquireLock("acc", `box:${i}`, T, STALE));
      const won = tries.filter((t): t is Extract<LockAttempt, { acquired: true }> => t.acquired);
      expect(won).toHaveLength(1);
      const lock = won[0]!.lock;
      for (const t of tries) if (!t.acquired) expect(t.heldBy).toEqual(lock);
      expect(await a.locks.locks()).toEqual([lock]);
    });

    it("lets exactly one of 20 processes take over a stale lock", async () => {
      const old = await a.locks.acquireLock("acc", "box:old", T, STALE);
      if (!old.acquired) throw new Error("the free lock was refused");
      const later = T + STALE + 1;
      const tries = await race(20, (s, i) => s.locks.acquireLock("acc", `box:${i}`, later, STALE));
      expect(tries.filter((t) => t.acquired)).toHaveLength(1);
      const now = await a.locks.lock("acc");
      expect(now?.lockId).not.toBe(old.lock.lockId);
      for (const t of tries) if (!t.acquired) expect(t.heldBy).toEqual(now);
      expect(await a.locks.heartbeat(old.lock.lockId, later)).toBe(false);
    });

    it("numbers a recipe's new version once when processes see it at the same time", async () => {
      expect(await race(10, (s) => s.health.recordGeneration("r", "h1", T))).toEqual(Array(10).fill(1));
      expect(await race(10, (s) => s.health.recordGeneration("r", "h2", T + 1))).toEqual(Array(10).fill(2));
      const rows = await a.db.select().from(pgSchema.recipeGenerations);
      expect(rows.map((r) => [r.generation, r.hash]).sort()).toEqual([
        [1, "h1"],
        [2, "h2"],
      ]);
    });

    it("counts every failure recorded by processes at once, suspending once", async () => {
      const opts = { suspendAfter: 4 };
      await race(10, (s, i) => s.health.recordFailure("acc", T + i, `e${i}`, opts));
      await race(10, (s, i) => s.health.recordRecipeFailure("r", "acc", T + i, `e${i}`, opts));
      const h = await a.health.health("acc");
      expect(h.consecutiveFailures).toBe(10);
      expect(h.suspendedAt).not.toBeNull();
      expect((await a.health.recipeHealth("r")).consecutiveFailures).toBe(10);
    });

    it("leaves one plan pending when two processes hold plans of one recipe at once", async () => {
      await race(2, (s, i) => s.approvals.recordPendingApproval(pendingApproval(i + 1, "r", T)));
      expect(await a.approvals.approvals()).toHaveLength(1);
      expect(await a.approvals.approvals({ all: true })).toHaveLength(2);
    });
  });

  describe("order, as SQLite's", () => {
    it("orders locks, accounts and account health by name byte for byte, whatever the collation", async () => {
      for (const name of NAMES) {
        for (const s of [a.locks, lite]) await s.acquireLock(name, "box:1", T, STALE);
        for (const s of [a.health, lite]) await s.recordFailure(name, T, "x", { suspendAfter: 9 });
        const account = { name, settings: { n: name }, sealed: "sealed", createdAt: T, updatedAt: T };
        for (const s of [a.accounts, lite]) await s.saveAccount(account);
      }
      const order = ["Zed", "apple", "b", "Äb"];
      expect((await lite.locks()).map((l) => l.account)).toEqual(order);
      expect((await a.locks.locks()).map((l) => l.account)).toEqual(order);
      expect((await a.health.accountHealth()).map((h) => h.account)).toEqual(order);
      expect((await a.accounts.storedAccounts()).map((s) => s.name)).toEqual(order);
      expect(await a.accounts.storedAccounts()).toEqual(await lite.storedAccounts());
    });

    it("the database's own collation would have ordered them otherwise (what the test above guards)", async () => {
      const { rows } = await a.pool.query<{ n: string }>("select n from unnest($1::text[]) as n order by n", [
        NAMES,
      ]);
      const own = rows.map((r) => r.n);
      if (own.join() === "Zed,apple,b,Äb") return; // a server without ICU: byte order already
      expect(own).not.toEqual(["Zed", "apple", "b", "Äb"]);
    });

    it("lists approvals newest first and, on a tie of time, by run id descending", async () => {
      for (const s of [a.approvals, lite]) {
        await s.recordPendingApproval(pendingApproval(2, "q", T));
        await s.recordPendingApproval(pendingApproval(7, "p", T));
        await s.recordPendingApproval(pendingApproval(5, "o", T));
        await s.recordPendingApproval(pendingApproval(1, "n", T + 1));
      }
      expect((await a.approvals.approvals()).map((x) => x.runId)).toEqual([1, 7, 5, 2]);
      expect(await a.approvals.approvals()).toEqual(await lite.approvals());
    });

    it("lists conditions by type and keeps changedAt across a repeated status", async () => {
      for (const s of [a.health, lite]) {
        for (const type of ["SourceComplete", "Ready", "AuthValid", "Degraded"] as const)
          await s.setCondition("r", { type, status: "True", reason: "ok", message: "" }, T);
        await s.setCondition("r", { type: "Ready", status: "True", reason: "again", message: "m" }, T + 5);
      }
      const got = await a.health.conditions("r");
      expect(got.map((c) => c.type)).toEqual(["AuthValid", "Degraded", "Ready", "SourceComplete"]);
      expect(got[2]).toEqual({ type: "Ready", status: "True", reason: "again", message: "m", changedAt: T });
      expect(got).toEqual(await lite.conditions("r"));
    });
  });

  describe("values", () => {
    it("reads times past 2^32 back as the same numbers", async () => {
      const lock = await a.locks.acquireLock("acc", "box:1", T, STALE);
      if (!lock.acquired) throw new Error("the free lock was refused");
      expect(await a.locks.heartbeat(lock.lock.lockId, T + 1)).toBe(true);
      const got = await a.locks.lock("acc");
      expect(got).toMatchObject({ acquiredAt: T, heartbeatAt: T + 1 });
      expect(typeof got?.heartbeatAt).toBe("number");
      await a.health.recordFailure("acc", T + 2, "x", { suspendAfter: 1 });
      expect((await a.health.health("acc")).suspendedAt).toBe(T + 2);
      await a.health.setNextRun("r", "acc", { at: T + 3, reason: "retry", by: "d:1" }, T);
      expect((await a.health.recipeHealth("r")).nextRunAt).toBe(T + 3);
      await a.matches.recordMatches([
        { key: "k", videoId: "v", score: 0.25, reasons: ["t"], matchedAt: T + 4 },
      ]);
      expect((await a.matches.cachedMatches(["k"])).get("k")).toEqual({
        key: "k",
        videoId: "v",
        score: 0.25,
        reasons: ["t"],
        matchedAt: T + 4,
      });
    });

    it("keeps the last of a key given twice in one batch, as SQLite's loop does", async () => {
      const m = (videoId: string) => ({ key: "k", videoId, score: 1, reasons: [], matchedAt: T });
      await a.matches.recordMatches([m("first"), m("second")]);
      await a.health.recordSourceReads(
        "r",
        [
          { sourceId: "s", items: 1 },
          { sourceId: "s", items: 2 },
        ],
        T,
      );
      expect((await a.matches.cachedMatches(["k"])).get("k")?.videoId).toBe("second");
      expect(await a.health.sourceReads("r")).toEqual(new Map([["s", 2]]));
    });
  });

  describe("the PostgreSQL state", () => {
    it("makes every method wait for the migration its constructor started", async () => {
      const fresh = await database("ready");
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const state = pgState(new pg.Pool({ connectionString: fresh }), {
        migrate: async (pool) => {
          await gate;
          await migrate(drizzle(pool), { migrationsFolder: MIGRATIONS });
        },
      });
      try {
        // Asked before the tables exist: answered once they do, not refused for a missing table.
        const early = state.acquireLock("acc", "box:1", T, STALE);
        const read = state.recipeHealth("r");
        release();
        expect((await early).acquired).toBe(true);
        expect((await read).consecutiveFailures).toBe(0);
        expect((await state.locks()).map((l) => l.account)).toEqual(["acc"]);
      } finally {
        await state.close();
      }
    });

    it("closes the runs a gone process left running before the first method answers", async () => {
      const fresh = await database("abandoned");
      const pool = new pg.Pool({ connectionString: fresh });
      await migrate(drizzle(pool), { migrationsFolder: MIGRATIONS });
      const gonePid = spawnSync(process.execPath, ["-e", ""]).pid;
      await pool.query(
        "insert into runs (recipe_id, account, kind, recipe_hash, started_at, result, holder) values ('r', 'acc', 'sync', 'h', $1, 'running', $2)",
        [T, `${hostname()}:${gonePid}`],
      );
      const state = pgState(pool, { migrate: async () => undefined, now: T + 1 });
      try {
        expect((await state.runs("r"))[0]?.result).toBe("interrupted");
      } finally {
        await state.close();
      }
    });

    it("reports a failed opening from each call, naming the database, and still closes", async () => {
      const fresh = await database("broken");
      const state = pgState(new pg.Pool({ connectionString: fresh }), {
        migrate: async () => {
          throw new Error("migration refused");
        },
      });
      const where = new URL(fresh);
      const named = `${where.hostname}:${where.port || 5432}/${where.pathname.slice(1)}`;
      // Not "relation locks does not exist": the call never ran on the unmigrated database.
      await expect(state.locks()).rejects.toThrow(
        `cannot open the state database ${named}: migration refused`,
      );
      await expect(state.health("acc")).rejects.toThrow("migration refused");
      await state.close();
      await state.close();
    });

    it("names an unreachable server by host:port/database, never with its password", async () => {
      const port = await closedPort();
      const secret = "s3cr%40t-pw";
      const state = openPgState(`postgres://musicsync:${secret}@127.0.0.1:${port}/h2_nowhere`, {});
      const error = await state.locks().then(
        () => null,
        (e: unknown) => e,
      );
      expect(String(error)).toContain(`127.0.0.1:${port}/h2_nowhere`);
      for (const text of [String(error), inspect(error, { depth: 10 })]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain("s3cr@t-pw");
      }
      await state.close();
    });
  });
});

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}
