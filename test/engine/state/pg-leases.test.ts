import { spawnSync } from "node:child_process";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { openState } from "../../../engine/state/open.js";
import { DEFAULT_LEASE_CHECKS, type LeaseChecks, PgLeaseLockStore } from "../../../engine/state/pg/leases.js";
import { openPgState, pgStateOn } from "../../../engine/state/pg.js";
import type { EngineState, LockAttempt, LockInfo } from "../../../engine/state/types.js";
import { stretched, waitUntil } from "../../support/load.js";
import { usePostgres } from "../../support/postgres-server.js";
import { type LockHolder, spawnLockHolder } from "./pg-lock-holder.js";

const server = usePostgres();
/** How old a heartbeat must be to be stale; stretched, since a killed holder's wait must stay within it. */
const STALE = stretched(60_000);
const ACCOUNT = "acc";
/** Bounds on waiting for a child or a session (stretched by the load as they wait): a broken machine fails the test instead of hanging. */
const WAIT_MS = 30_000;

const states: EngineState[] = [];
const holders: LockHolder[] = [];
const pools: pg.Pool[] = [];
const ownLeases: PgLeaseLockStore[] = [];

afterEach(async () => {
  await Promise.all(ownLeases.splice(0).map((l) => l.close()));
  await Promise.all(holders.splice(0).map((h) => h.kill()));
  await Promise.all(states.splice(0).map((s) => s.close().catch(() => undefined)));
  await Promise.all(pools.splice(0).map((p) => p.end().catch(() => undefined)));
});

function stateOf(url: string): EngineState {
  const state = openState(url);
  states.push(state);
  return state;
}

function poolOf(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on("error", () => undefined);
  pools.push(pool);
  return pool;
}

function acquired(attempt: LockAttempt): LockInfo {
  if (!attempt.acquired) throw new Error(`expected the lock, it is held by ${attempt.heldBy.holder}`);
  return attempt.lock;
}

/** The backends holding an advisory lock (the lock sessions; nothing else here takes one). */
async function advisoryHolders(pool: pg.Pool): Promise<number[]> {
  const { rows } = await pool.query<{ pid: number }>(
    "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted ORDER BY pid",
  );
  return rows.map((r) => r.pid);
}

function until(what: string, check: () => Promise<boolean>): Promise<boolean> {
  return waitUntil(check, what, WAIT_MS, 20);
}

describe("the account lock on PostgreSQL (session advisory lock)", () => {
  it("frees a SIGKILLed holder's account at once, though its heartbeat is fresh (the row lock alone does not)", async () => {
    const url = await server().createDatabase("leases_kill");
    const admin = poolOf(url);
    const holder = await spawnLockHolder(url, ACCOUNT, STALE);
    holders.push(holder);
    const lock = acquired(holder.attempt);
    const [holderPid] = await advisoryHolders(admin);
    expect(holderPid).toBeDefined();

    await holder.kill();
    // PostgreSQL ends the dead process's session as its connection closes.
    await until("the killed holder's session to end", async () => {
      const { rowCount } = await admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [holderPid]);
      return rowCount === 0;
    });

    const now = Date.now();
    expect(now - lock.heartbeatAt).toBeLessThan(STALE);
    // The row is still there and fresh: the plain row lock (a state without leases) would call the account busy.
    const rows = pgStateOn(admin);
    const byRow = await rows.acquireLock(ACCOUNT, "row only", now, STALE);
    expect(byRow.acquired).toBe(false);
    expect(await rows.lock(ACCOUNT)).toEqual(lock);

    const next = acquired(await stateOf(url).acquireLock(ACCOUNT, "next", now, STALE));
    expect(next.lockId).not.toBe(lock.lockId);
    expect((await stateOf(url).locks()).map((l) => l.lockId)).toEqual([next.lockId]);
  });

  it("keeps a live holder with a fresh heartbeat: the account is busy", async () => {
    const url = await server().createDatabase("leases_busy");
    const at = Date.now();
    const lock = acquired(await stateOf(url).acquireLock(ACCOUNT, "first", at, STALE));
    const second = await stateOf(url).acquireLock(ACCOUNT, "second", at + 1_000, STALE);
    expect(second).toEqual({ acquired: false, heldBy: lock });
  });

  it("takes over a live holder whose heartbeat is stale, ending its session: its heartbeat then fails", async () => {
    const url = await server().createDatabase("leases_stale");
    const admin = poolOf(url);
    const at = Date.now();
    const hung = stateOf(url);
    const old = acquired(await hung.acquireLock(ACCOUNT, "hung", at, STALE));
    const [oldSession] = await advisoryHolders(admin);

    const later = at + STALE + 1;
    const taken = acquired(await stateOf(url).acquireLock(ACCOUNT, "taker", later, STALE));
    expect(taken.lockId).not.toBe(old.lockId);
    const holders = await advisoryHolders(admin);
    expect(holders).toHaveLength(1);
    expect(holders).not.toContain(oldSession);
    expect(await hung.heartbeat(old.lockId, later + 1)).toBe(false);
    expect((await hung.lock(ACCOUNT))?.lockId).toBe(taken.lockId);
  });

  it("forceUnlock ends the holder's session, so that a new acquire succeeds at once", async () => {
    const url = await server().createDatabase("leases_force");
    const admin = poolOf(url);
    const at = Date.now();
    const holder = stateOf(url);
    const lock = acquired(await holder.acquireLock(ACCOUNT, "holder", at, STALE));
    expect(await advisoryHolders(admin)).toHaveLength(1);

    expect(await stateOf(url).forceUnlock(lock.lockId)).toBe(true);
    expect(await advisoryHolders(admin)).toEqual([]);
    // A fresh time: the old holder's heartbeat would still count, its session no longer does.
    const next = acquired(await stateOf(url).acquireLock(ACCOUNT, "next", at + 1, STALE));
    expect(next.lockId).not.toBe(lock.lockId);
    expect(await holder.heartbeat(lock.lockId, at + 2)).toBe(false);
  });

  it("gives a stale lock to exactly one of 8 states taking it over at once, whose session lives on", async () => {
    // A takeover ends the stale lock's own session only: ending "whoever holds the account" let a
    // second taker end the first taker's fresh session, and both believed they held the account.
    const url = await server().createDatabase("leases_takeover_race");
    const at = Date.now();
    const hung = stateOf(url);
    acquired(await hung.acquireLock(ACCOUNT, "hung", at, STALE));
    // The losers wait the takeover's time for an account the winner keeps, then call it busy: 3 s
    // here, not 10, and still ample for the winner (the stale session ends in milliseconds).
    const takers = Array.from({ length: 8 }, () => {
      const state = openPgState(url, { leaseChecks: { ...DEFAULT_LEASE_CHECKS, takeoverMs: 3_000 } });
      states.push(state);
      return state;
    });
    await Promise.all(takers.map((s) => s.locks()));
    const later = at + STALE + 1;
    const tries = await Promise.all(takers.map((s, i) => s.acquireLock(ACCOUNT, `taker ${i}`, later, STALE)));
    const won = tries.filter((t) => t.acquired);
    expect(won).toHaveLength(1);
    const lock = acquired(won[0]!);
    const winner = takers[tries.indexOf(won[0]!)]!;
    expect(await winner.heartbeat(lock.lockId, later + 1)).toBe(true);
    expect(await advisoryHolders(poolOf(url))).toHaveLength(1);
    expect((await winner.lock(ACCOUNT))?.lockId).toBe(lock.lockId);
  });

  it("gives a free account to exactly one of 20 states racing for it", async () => {
    const url = await server().createDatabase("leases_race");
    const racers = Array.from({ length: 20 }, () => stateOf(url));
    // Opened (connected and migrated) beforehand, so that none starts late.
    await Promise.all(racers.map((s) => s.locks()));
    const at = Date.now();
    const tries = await Promise.all(racers.map((s, i) => s.acquireLock(ACCOUNT, `racer ${i}`, at, STALE)));
    const won = tries.filter((t) => t.acquired);
    expect(won).toHaveLength(1);
    const lock = acquired(won[0]!);
    for (const t of tries) if (!t.acquired) expect([lock.lockId, "(being taken)"]).toContain(t.heldBy.lockId);
    expect(await racers[0]!.locks()).toEqual([lock]);
    expect(await advisoryHolders(poolOf(url))).toHaveLength(1);
  });
});

/** Rows that always give the lock (the session is what these tests are about). */
function freeRows(lock: LockInfo) {
  return {
    acquireLock: async () => ({ acquired: true as const, lock }),
    lock: async () => null,
    locks: async () => [],
    heartbeat: async () => true,
    releaseLock: async () => undefined,
    forceUnlock: async () => false,
  };
}

/** A connect() for PgLeaseLockStore, keeping the sessions it made for the test to end (or use). */
function sessionsOf(url: string): { connect: () => Promise<pg.Client>; made: pg.Client[] } {
  const made: pg.Client[] = [];
  const connect = async () => {
    const client = new pg.Client({ connectionString: url });
    client.on("error", () => undefined);
    made.push(client);
    await client.connect();
    return client;
  };
  return { connect, made };
}

/**
 * Leases of the test's own over a fresh database, whose first lock was taken and released: its
 * session (`pid`) waits for the next lock. `next()` takes the account again.
 */
async function afterOneLock(db: string, checks?: LeaseChecks) {
  const url = await server().createDatabase(db);
  const admin = poolOf(url);
  const sessions = sessionsOf(url);
  const state = stateOf(url);
  await state.locks(); // the tables
  const leases = new PgLeaseLockStore(pgStateOn(admin), sessions.connect, checks);
  ownLeases.push(leases);
  const next = async () => acquired(await leases.acquireLock(ACCOUNT, "me", Date.now(), STALE));
  const first = await next();
  const [pid] = await advisoryHolders(admin);
  await leases.releaseLock(first.lockId);
  return { admin, sessions, state, leases, pid: pid!, next };
}

describe("a lock's session kept for the next lock", () => {
  it("serves the process's next lock (no new connection), the account free while it waits", async () => {
    const { admin, sessions, state, leases, pid, next } = await afterOneLock("leases_kept");
    expect(await advisoryHolders(admin)).toEqual([]);
    expect(await state.locks()).toEqual([]);
    // Another state takes the account meanwhile, then lets it go.
    const other = acquired(await state.acquireLock(ACCOUNT, "other", Date.now(), STALE));
    await state.releaseLock(other.lockId);
    const second = await next();
    expect(await advisoryHolders(admin)).toEqual([pid]);
    expect(await state.locks()).toEqual([second]);
    expect(sessions.made).toHaveLength(1);
    expect(leases.lockLost(second.lockId)).toBeNull();
    await leases.releaseLock(second.lockId);
    // Closing ends the waiting session too.
    await leases.close();
    await until("the waiting session to end", async () => {
      const { rows } = await admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [pid]);
      return rows.length === 0;
    });
  });

  it("is not used once ended while it waits: the next lock gets a new session, and its loss is still seen", async () => {
    const checks = { everyMs: 100, timeoutMs: 1_000 };
    const { admin, sessions, leases, pid, next } = await afterOneLock("leases_kept_cut", checks);
    await admin.query("SELECT pg_terminate_backend($1)", [pid]);
    const second = await next();
    expect(sessions.made).toHaveLength(2);
    const [now] = await advisoryHolders(admin);
    expect(now).not.toBe(pid);
    expect(leases.lockLost(second.lockId)).toBeNull();
    // The new session ended in turn: the lock is lost, not given back.
    await admin.query("SELECT pg_terminate_backend($1)", [now]);
    await until("the lock to be known lost", async () => leases.lockLost(second.lockId) !== null);
    await leases.releaseLock(second.lockId);
    await leases.releaseLock((await next()).lockId);
    expect(sessions.made).toHaveLength(3);
  });

  it("is given up when it does not answer in the check's time (its backend frozen, as across a cut network)", async () => {
    const checks = { everyMs: 60_000, timeoutMs: 500 };
    const { admin, sessions, leases, pid, next } = await afterOneLock("leases_kept_frozen", checks);
    expect(spawnSync("kill", ["-STOP", String(pid)]).status).toBe(0);
    try {
      const second = await next();
      expect(sessions.made).toHaveLength(2);
      const [holder] = await advisoryHolders(admin);
      expect(holder).not.toBe(pid);
      expect(leases.lockLost(second.lockId)).toBeNull();
      await leases.releaseLock(second.lockId);
    } finally {
      spawnSync("kill", ["-CONT", String(pid)]);
    }
  });
});

describe("the lease checks' settings", () => {
  it("refuses a takeover wait that is not a whole number of milliseconds from 1", () => {
    const lock: LockInfo = { account: ACCOUNT, lockId: "x", holder: "me", acquiredAt: 1, heartbeatAt: 1 };
    const connect = () => Promise.reject(new Error("no session is opened here"));
    for (const takeoverMs of [0, -5, 1.5, Number.NaN])
      expect(
        () => new PgLeaseLockStore(freeRows(lock), connect, { ...DEFAULT_LEASE_CHECKS, takeoverMs }),
        String(takeoverMs),
      ).toThrow(`leaseChecks.takeoverMs: ${takeoverMs} is not a whole number of milliseconds from 1`);
    expect(
      () => new PgLeaseLockStore(freeRows(lock), connect, { ...DEFAULT_LEASE_CHECKS, takeoverMs: 1 }),
    ).not.toThrow();
  });
});

describe("a lock lost to its session's error", () => {
  it("says why without the connection's password, in any spelling or piece", async () => {
    const url = await server().createDatabase("leases_secret");
    const password = "Wq8/zLp@sS+e4rT:Mn2#Vb";
    const lock: LockInfo = {
      account: ACCOUNT,
      lockId: "secret-1",
      holder: "me",
      acquiredAt: 1,
      heartbeatAt: 1,
    };
    const sessions = sessionsOf(url);
    await stateOf(url).locks(); // the tables: the lock's row is written with its take
    const leases = new PgLeaseLockStore(freeRows(lock), sessions.connect, undefined, password);
    try {
      const { lockId } = acquired(await leases.acquireLock(ACCOUNT, "me", 1, STALE));
      const said = `server said: "${encodeURIComponent(password)}" / ${password.slice(3, 15)}`;
      sessions.made[0]!.emit("error", new Error(said));
      const why = leases.lockLost(lockId) ?? "";
      expect(why).toContain("the state database closed its connection (server said:");
      expect(why).not.toContain(encodeURIComponent(password));
      expect(why).not.toContain(password.slice(3, 15));
    } finally {
      await leases.close();
      await Promise.all(sessions.made.map((s) => s.end().catch(() => undefined)));
    }
  });
});

describe("a lock's session under the server's idle_session_timeout", () => {
  it("is exempted before the account is taken: idling after the take (a run's length) does not lose it", async () => {
    const url = await server().createDatabase("leases_idle");
    await stateOf(url).locks(); // the tables: the lock's row is written with its take
    const admin = poolOf(url);
    await admin.query(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" SET idle_session_timeout = 100`);
    const lock: LockInfo = {
      account: ACCOUNT,
      lockId: "idle-1",
      holder: "me",
      acquiredAt: 1,
      heartbeatAt: 1,
    };
    const sessions = sessionsOf(url);
    const leases = new PgLeaseLockStore(freeRows(lock), sessions.connect);
    try {
      const { lockId } = acquired(await leases.acquireLock(ACCOUNT, "me", 1, STALE));
      // Longer than the timeout: the session idles meanwhile.
      await new Promise((r) => setTimeout(r, 300));
      expect(leases.lockLost(lockId)).toBeNull();
      expect(await advisoryHolders(admin)).toHaveLength(1);
    } finally {
      await leases.close();
      await Promise.all(sessions.made.map((s) => s.end().catch(() => undefined)));
    }
  });
});
