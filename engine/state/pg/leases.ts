/**
 * The accounts' locks on PostgreSQL (docs/ENGINE.md#locks): the taker also holds a session advisory
 * lock, on a connection of its own, so the account is freed the moment its process dies (SQLite
 * waits out the heartbeat). The row (../stores/locks.ts) stays what `status` and `unlock` read.
 * Session lock free: a row left is a dead process's, replaced. Held and the row fresh: busy. Held
 * but the heartbeat stale (a hung process): its session is ended and the lock taken over. `unlock`
 * ends the holder's session too.
 * A session may also end under a live process (a server restart, `pg_terminate_backend`,
 * `idle_session_timeout`, a pooler, a network cut), freeing the account to others at once. So a held
 * session is watched ('error' and 'end', TCP keepalive, a check every few seconds that it answers
 * and still holds the lock) and `lockLost` says so, for the runner to send no further write
 * (engine/run/lease.ts). It is never retaken behind the run's back: another may have written since.
 * A session whose lock was released on purpose (the row deleted, the advisory lock let go) waits
 * for the process's next lock (../../postgres/sessions.ts); a lost one is never used again.
 */
import { randomUUID } from "node:crypto";
import type pg from "pg";
import {
  type AlsoWrite,
  holdsAdvisoryLock,
  keepIdle,
  nameSession,
  releaseAdvisoryLock,
  takeAdvisoryLock,
  tryAdvisoryLock,
} from "../../postgres/advisory.js";
import { redact } from "../../postgres/errors.js";
import { KeptSessions } from "../../postgres/sessions.js";
import type { Leases } from "../state.js";
import type { RowLocks } from "../stores/locks.js";
import type { LockAttempt, LockInfo } from "../types.js";

/** The advisory lock's key: the account, in a space of its own. */
const KEY = "musicsync account ";
const SESSION_NAME = "musicsync lock ";
/** A waiting session's name: no lock's, so that no takeover or `unlock` ends it. */
const WAITING_NAME = "musicsync lock";
/** How long to wait for a hung holder's session to end after it was told to. */
const TAKEOVER_TIMEOUT_MS = 10_000;

/** How often a held lock's session is checked, and how long it may take to answer. */
export interface LeaseChecks {
  everyMs: number;
  timeoutMs: number;
  /**
   * How long a takeover (of a stale lock, or by `unlock`) waits for the account to be let go once
   * the holder's session was told to end (default 10 s; a whole number of milliseconds from 1). It
   * is also how long the losers of a race to take over one stale lock wait before they call the
   * account busy.
   */
  takeoverMs?: number;
}

export const DEFAULT_LEASE_CHECKS: LeaseChecks = Object.freeze({ everyMs: 3_000, timeoutMs: 10_000 });

/** The takeover's wait, checked: it becomes a `SET lock_timeout`, where 0 would mean no limit. */
function takeoverMsOf(checks: LeaseChecks): number {
  const ms = checks.takeoverMs ?? TAKEOVER_TIMEOUT_MS;
  if (!Number.isInteger(ms) || ms < 1)
    throw new Error(`leaseChecks.takeoverMs: ${ms} is not a whole number of milliseconds from 1`);
  return ms;
}

/** A lock this process holds: its session, and why it was lost (null while held). */
interface Held {
  account: string;
  session: pg.Client;
  lost: string | null;
  timer: NodeJS.Timeout | null;
  checking: boolean;
  /** Its session's listeners, removed when the session goes back to wait. */
  listeners: { error: (e: Error) => void; end: () => void };
}

export class PgLeaseLockStore implements Leases {
  /** The locks this process holds, by lock id. */
  private readonly held = new Map<string, Held>();
  private readonly sessions: KeptSessions;
  private readonly takeoverMs: number;
  /** Reading locks is the rows' business alone. */
  readonly lock: RowLocks["lock"];
  readonly locks: RowLocks["locks"];

  constructor(
    /** The lock rows' own methods (../stores/locks.ts), run in the same call of the state. */
    readonly rows: RowLocks,
    /** A new connection of its own (not from the pool: a run holds it for its whole length). */
    private readonly connect: () => Promise<pg.Client>,
    private readonly checks: LeaseChecks = DEFAULT_LEASE_CHECKS,
    /** The connection's password, kept out of a lost lock's reason (which quotes the server). */
    private readonly secret = "",
  ) {
    this.lock = rows.lock;
    this.locks = rows.locks;
    this.takeoverMs = takeoverMsOf(checks);
    // Exempt before the advisory lock is taken: the row's write that follows may idle a session
    // past the server's timeout, and its end would free the account (and fail the acquire).
    this.sessions = new KeptSessions(connect, keepIdle, checks.timeoutMs);
  }

  async acquireLock(account: string, holder: string, at: number, staleAfterMs: number): Promise<LockAttempt> {
    // Named after its lock once it holds the account (by the try itself, or after a takeover), so
    // that a takeover or `unlock` ends this session and no other.
    const lockId = randomUUID();
    const name = SESSION_NAME + lockId;
    const lock: LockInfo = { account, lockId, holder, acquiredAt: at, heartbeatAt: at };
    const [session, got] = await this.sessions.take((c) =>
      tryAdvisoryLock(c, KEY + account, name, rowIfTaken(lock)),
    );
    let attempt: LockAttempt | null = null;
    try {
      attempt = got
        ? // The session lock is ours, and its row was written with it (over a row still there, which
          // belongs to a session that is gone).
          { acquired: true, lock }
        : await this.takeOverIfStale(session, account, holder, at, staleAfterMs, lockId);
      if (attempt.acquired) {
        if (!got) await nameSession(session, name);
        this.watch(attempt.lock.lockId, account, session);
      }
      return attempt;
    } finally {
      // Not taken, the session holds nothing and waits for the next lock; after a failure it may
      // hold the account, and only its end surely frees it.
      if (attempt?.acquired === false) this.sessions.giveBack(session);
      else if (!this.held.has(attempt?.lock.lockId ?? "")) await session.end().catch(() => undefined);
    }
  }

  /** From now on, the session's end in any way marks the lock lost. */
  private watch(lockId: string, account: string, session: pg.Client): void {
    const listeners = {
      error: (e: Error) => lose(held, this.closed(e)),
      end: () => lose(held, "the state database closed its connection"),
    };
    const held: Held = { account, session, lost: null, timer: null, checking: false, listeners };
    this.held.set(lockId, held);
    session.on("error", listeners.error);
    session.on("end", listeners.end);
    held.timer = setInterval(() => void this.check(held), this.checks.everyMs);
    held.timer.unref();
  }

  /** One check: the session answers in time and still holds the account's advisory lock. */
  private async check(held: Held): Promise<void> {
    if (held.lost !== null || held.checking) return;
    held.checking = true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => {
      timer = setTimeout(() => resolve("late"), this.checks.timeoutMs);
    });
    try {
      const answer = await Promise.race([holdsAdvisoryLock(held.session, KEY + held.account), late]);
      if (answer === "late") {
        const seconds = Math.round(this.checks.timeoutMs / 1000);
        lose(held, `the state database did not answer a check of its connection within ${seconds} s`);
      } else if (!answer) lose(held, "the state database no longer holds it");
    } catch (e) {
      lose(held, this.closed(e as Error));
    } finally {
      clearTimeout(timer);
      held.checking = false;
    }
  }

  private closed(e: Error): string {
    return `the state database closed its connection (${redact(e.message, this.secret)})`;
  }

  lockLost(lockId: string): string | null {
    return this.held.get(lockId)?.lost ?? null;
  }

  /** Busy, unless the holder's heartbeat is stale: then its session is ended and the lock is ours. */
  private async takeOverIfStale(
    session: pg.Client,
    account: string,
    holder: string,
    at: number,
    staleAfterMs: number,
    lockId: string,
  ): Promise<LockAttempt> {
    const current = await this.rows.lock(account);
    if (current === null) return { acquired: false, heldBy: starting(account, at) };
    if (at - current.heartbeatAt <= staleAfterMs) return { acquired: false, heldBy: current };
    // Only the stale lock's own session is ended: another process taking over at the same moment
    // may already hold the account with a session of its own, which must live on.
    if (!(await takeFrom(session, current.lockId, account, this.takeoverMs))) {
      return { acquired: false, heldBy: (await this.rows.lock(account)) ?? current };
    }
    return this.rows.acquireLock(account, holder, at, Number.NEGATIVE_INFINITY, lockId);
  }

  /** False once the lock's row is gone or its session was lost. */
  async heartbeat(lockId: string, at: number): Promise<boolean> {
    if (this.lockLost(lockId) !== null) return false;
    return this.rows.heartbeat(lockId, at);
  }

  async releaseLock(lockId: string): Promise<void> {
    const held = this.held.get(lockId);
    if (held && held.lost === null && (await this.releaseTogether(lockId, held))) return;
    let rowGone = false;
    try {
      await this.rows.releaseLock(lockId);
      rowGone = true;
    } finally {
      this.held.delete(lockId);
      // A row left (the database unreachable) names this session: it ends, freeing the account.
      if (held) await this.letGo(held, rowGone);
    }
  }

  /**
   * A lock held to its end: its row deleted and the account let go of in one statement on its
   * session, which then waits for the next lock. False when that statement failed (the session is
   * no longer watched; the row is the caller's to delete, the session to end).
   */
  private async releaseTogether(lockId: string, held: Held): Promise<boolean> {
    unwatch(held);
    const freed = await releaseAdvisoryLock(held.session, KEY + held.account, WAITING_NAME, {
      text: "DELETE FROM locks WHERE lock_id = $3",
      values: [lockId],
    }).catch(() => null);
    if (freed === null) return false;
    this.held.delete(lockId);
    if (freed) this.sessions.giveBack(held.session);
    else await held.session.end().catch(() => undefined);
    return true;
  }

  /**
   * Released on purpose: a session whose row is gone lets go of the account and waits for the
   * next lock; any other ends. Its end from now on is no loss.
   */
  private async letGo(held: Held, reuse: boolean): Promise<void> {
    const { session } = held;
    const wasLost = held.lost !== null;
    unwatch(held);
    if (
      reuse &&
      !wasLost &&
      (await releaseAdvisoryLock(session, KEY + held.account, WAITING_NAME).catch(() => false))
    )
      this.sessions.giveBack(session);
    else await session.end().catch(() => undefined);
  }

  async forceUnlock(lockId: string): Promise<boolean> {
    const row = (await this.rows.locks()).find((l) => l.lockId === lockId);
    const removed = await this.rows.forceUnlock(lockId);
    if (row) {
      const session = await this.connect();
      try {
        // Waited for, so an acquire right after `unlock` finds the account free (or taken by another).
        if (await takeFrom(session, row.lockId, row.account, this.takeoverMs)) {
          // Let go before `unlock` returns, not whenever the server sees the session end.
          await releaseAdvisoryLock(session, KEY + row.account, WAITING_NAME);
        }
      } finally {
        await session.end().catch(() => undefined);
      }
    }
    return removed;
  }

  /** Ends the sessions of the locks this process still holds and those waiting (the state is closing). */
  async close(): Promise<void> {
    const open = [...this.held.values()];
    this.held.clear();
    await Promise.all(open.map((held) => this.letGo(held, false)));
    await this.sessions.close();
  }
}

/** The session's end or silence is no loss from now on: its lock is being let go of on purpose. */
function unwatch(held: Held): void {
  if (held.timer) clearInterval(held.timer);
  held.lost ??= "released";
  held.session.removeListener("error", held.listeners.error);
  held.session.removeListener("end", held.listeners.end);
}

/**
 * The lock's row as ../stores/locks.ts writes it, over any row of the account, written in the
 * statement that takes the advisory lock and only if it took it (`got`, tryAdvisoryLock's).
 */
function rowIfTaken(lock: LockInfo): AlsoWrite {
  return {
    text: `INSERT INTO locks (account, lock_id, holder, acquired_at, heartbeat_at)
      SELECT $3::text, $4::text, $5::text, $6::bigint, $7::bigint FROM got WHERE named IS NOT NULL
      ON CONFLICT (account) DO UPDATE SET lock_id = excluded.lock_id, holder = excluded.holder,
        acquired_at = excluded.acquired_at, heartbeat_at = excluded.heartbeat_at`,
    values: [lock.account, lock.lockId, lock.holder, lock.acquiredAt, lock.heartbeatAt],
  };
}

/** Marks the lock lost (the first reason stays) and ends its session, freeing the account for sure. */
function lose(held: Held, why: string): void {
  if (held.lost !== null) return;
  held.lost = why;
  if (held.timer) clearInterval(held.timer);
  // Not awaited: on a cut network the goodbye may never be answered.
  held.session.end().catch(() => undefined);
}

/** Ends the session of lock `lockId`, then takes the account, waiting (bounded) for it to let go. */
function takeFrom(session: pg.Client, lockId: string, account: string, timeoutMs: number): Promise<boolean> {
  return takeAdvisoryLock(session, SESSION_NAME + lockId, KEY + account, timeoutMs);
}

/** A session holds the account but has not written its row yet: busy, named as such. */
function starting(account: string, at: number): LockInfo {
  return { account, lockId: "(being taken)", holder: "another process", acquiredAt: at, heartbeatAt: at };
}
