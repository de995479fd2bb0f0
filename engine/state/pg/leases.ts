/**
 * The accounts' locks on PostgreSQL, held by a session: whoever takes an account's lock also holds
 * a session advisory lock on it, on a connection of its own kept until the lock is released. When
 * the process dies — killed, its machine gone — PostgreSQL ends the session and frees the account
 * at once, so the next worker does not wait out a heartbeat's staleness (SQLite has no such
 * thing; there a dead process on another machine is known only by its silence).
 *
 * The lock's row (./locks.ts) stays what `status` and `unlock` read. The rules:
 * - session lock free: any row left is a dead process's; it is replaced;
 * - session lock held by a live session and the row fresh: the account is busy;
 * - held, but the row's heartbeat stale (a hung process, as on SQLite): its session is ended and
 *   the lock taken over, so that exactly one session holds the account again;
 * - `forceUnlock` (`musicsync unlock`) also ends the holder's session.
 */
import type pg from "pg";
import type { LockAttempt, LockInfo, LockStore } from "../types.js";
import type { PgLockStore } from "./locks.js";

/** The advisory lock's key: a 64-bit hash of the account, in a space of its own. */
const KEY = "hashtextextended('musicsync account ' || $1, 0)";
/** A lock's session is named after its lock, so that a takeover ends that session and no other. */
const SESSION_NAME = "musicsync lock ";
/** How long to wait for a hung holder's session to end after it was told to. */
const TAKEOVER_TIMEOUT_MS = 10_000;

export class PgLeaseLockStore implements LockStore {
  private readonly rows: PgLockStore;
  /** The session of each lock this process holds, by lock id. */
  private readonly sessions = new Map<string, pg.Client>();
  /** Sessions whose connection failed or ended: their locks are no longer held. */
  private readonly lost = new WeakSet<pg.Client>();

  constructor(
    rows: PgLockStore,
    /** A new connection of its own (not from the pool: a run holds it for its whole length). */
    private readonly connect: () => Promise<pg.Client>,
  ) {
    this.rows = rows;
  }

  async acquireLock(account: string, holder: string, at: number, staleAfterMs: number): Promise<LockAttempt> {
    const session = await this.connect();
    let kept = false;
    try {
      const got = await tryLease(session, account);
      const attempt = got
        ? // The session lock is ours: a row still there belongs to a session that is gone.
          await this.rows.acquireLock(account, holder, at, Number.NEGATIVE_INFINITY)
        : await this.takeOverIfStale(session, account, holder, at, staleAfterMs);
      if (attempt.acquired) {
        await session.query("SELECT set_config('application_name', $1, false)", [
          SESSION_NAME + attempt.lock.lockId,
        ]);
        this.sessions.set(attempt.lock.lockId, session);
        session.on("error", () => this.lost.add(session));
        session.on("end", () => this.lost.add(session));
        kept = true;
      }
      return attempt;
    } finally {
      if (!kept) await session.end().catch(() => undefined);
    }
  }

  /** Busy, unless the holder's heartbeat is stale: then its session is ended and the lock is ours. */
  private async takeOverIfStale(
    session: pg.Client,
    account: string,
    holder: string,
    at: number,
    staleAfterMs: number,
  ): Promise<LockAttempt> {
    const current = await this.rows.lock(account);
    if (current === null) return { acquired: false, heldBy: starting(account, at) };
    if (at - current.heartbeatAt <= staleAfterMs) return { acquired: false, heldBy: current };
    // Only the stale lock's own session is ended: another process taking over at the same moment
    // may already hold the account with a session of its own, which must live on.
    await endSessionOf(session, current.lockId);
    if (!(await waitForLease(session, account))) {
      return { acquired: false, heldBy: (await this.rows.lock(account)) ?? current };
    }
    return this.rows.acquireLock(account, holder, at, Number.NEGATIVE_INFINITY);
  }

  /** False once the lock's row is gone or, in this process, its session was lost (the lock with it). */
  async heartbeat(lockId: string, at: number): Promise<boolean> {
    const session = this.sessions.get(lockId);
    if (session && this.lost.has(session)) return false;
    return this.rows.heartbeat(lockId, at);
  }

  async releaseLock(lockId: string): Promise<void> {
    try {
      await this.rows.releaseLock(lockId);
    } finally {
      const session = this.sessions.get(lockId);
      this.sessions.delete(lockId);
      // Ending the session frees its advisory lock (an unlock first would only cost a round trip).
      await session?.end().catch(() => undefined);
    }
  }

  lock(account: string): Promise<LockInfo | null> {
    return this.rows.lock(account);
  }

  locks(): Promise<LockInfo[]> {
    return this.rows.locks();
  }

  async forceUnlock(lockId: string): Promise<boolean> {
    const row = (await this.rows.locks()).find((l) => l.lockId === lockId);
    const removed = await this.rows.forceUnlock(lockId);
    if (row) {
      const session = await this.connect();
      try {
        await endSessionOf(session, row.lockId);
        await untilLetGo(session, row.account);
      } finally {
        await session.end().catch(() => undefined);
      }
    }
    return removed;
  }

  /** Ends the sessions of the locks this process still holds (the state is closing). */
  async close(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(open.map((s) => s.end().catch(() => undefined)));
  }
}

async function tryLease(session: pg.Client, account: string): Promise<boolean> {
  const { rows } = await session.query<{ got: boolean }>(`SELECT pg_try_advisory_lock(${KEY}) AS got`, [
    account,
  ]);
  return rows[0]?.got === true;
}

/** Ends the session that holds the lock `lockId` (named after it when the lock was taken). */
async function endSessionOf(session: pg.Client, lockId: string): Promise<void> {
  await session.query(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()",
    [SESSION_NAME + lockId],
  );
}

/** Takes the account's session lock, waiting (bounded) for an ended holder to let go; false if it did not. */
async function waitForLease(session: pg.Client, account: string): Promise<boolean> {
  await session.query(`SET lock_timeout = ${TAKEOVER_TIMEOUT_MS}`);
  try {
    await session.query(`SELECT pg_advisory_lock(${KEY})`, [account]);
    return true;
  } catch (e) {
    // 55P03: lock_timeout — someone else holds the account now.
    if ((e as { code?: string }).code === "55P03") return false;
    throw e;
  }
}

/**
 * Waits (bounded) until the ended session has let the account go: pg_terminate_backend only
 * signals it, and an acquire right after `unlock` would otherwise still find the account held.
 * Another process taking the account meanwhile is no failure of the unlock.
 */
async function untilLetGo(session: pg.Client, account: string): Promise<void> {
  await session.query(`SET lock_timeout = ${TAKEOVER_TIMEOUT_MS}`);
  try {
    await session.query(`SELECT pg_advisory_lock(${KEY})`, [account]);
    await session.query(`SELECT pg_advisory_unlock(${KEY})`, [account]);
  } catch (e) {
    // 55P03: lock_timeout, the account is held by whoever took it since.
    if ((e as { code?: string }).code !== "55P03") throw e;
  }
}

/**
 * A session holds the account but has not written its row yet (it is between the two steps of
 * taking it): busy, named as such until its row appears.
 */
function starting(account: string, at: number): LockInfo {
  return { account, lockId: "(being taken)", holder: "another process", acquiredAt: at, heartbeatAt: at };
}
