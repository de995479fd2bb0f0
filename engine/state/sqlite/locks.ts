/** The accounts' locks on SQLite. */
import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import * as schema from "../schema.js";
import type { LockAttempt, LockInfo, LockStore } from "../types.js";
import { type Db, IMMEDIATE } from "./common.js";

export class SqliteLockStore implements LockStore {
  constructor(private readonly db: Db) {}

  async acquireLock(account: string, holder: string, at: number, staleAfterMs: number): Promise<LockAttempt> {
    // One IMMEDIATE transaction: the write lock is taken before the read, so two processes racing
    // for the account cannot both see it free (and a deferred read-then-write would fail at once
    // with SQLITE_BUSY instead of waiting for the other).
    return this.db.transaction((tx) => {
      const current = tx.select().from(schema.locks).where(eq(schema.locks.account, account)).get();
      if (current && at - current.heartbeatAt <= staleAfterMs)
        return { acquired: false as const, heldBy: current };
      const lock: LockInfo = { account, lockId: randomUUID(), holder, acquiredAt: at, heartbeatAt: at };
      if (current) tx.delete(schema.locks).where(eq(schema.locks.account, account)).run();
      tx.insert(schema.locks).values(lock).run();
      return { acquired: true as const, lock };
    }, IMMEDIATE);
  }

  async heartbeat(lockId: string, at: number): Promise<boolean> {
    const r = this.db
      .update(schema.locks)
      .set({ heartbeatAt: at })
      .where(eq(schema.locks.lockId, lockId))
      .run();
    return r.changes > 0;
  }

  async releaseLock(lockId: string): Promise<void> {
    this.db.delete(schema.locks).where(eq(schema.locks.lockId, lockId)).run();
  }

  async lock(account: string): Promise<LockInfo | null> {
    return this.db.select().from(schema.locks).where(eq(schema.locks.account, account)).get() ?? null;
  }

  async locks(): Promise<LockInfo[]> {
    return this.db.select().from(schema.locks).orderBy(asc(schema.locks.account)).all();
  }

  async forceUnlock(lockId: string): Promise<boolean> {
    return this.db.delete(schema.locks).where(eq(schema.locks.lockId, lockId)).run().changes > 0;
  }
}
