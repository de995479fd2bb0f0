/** The accounts' locks on PostgreSQL. */
import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { LockAttempt, LockInfo, LockStore } from "../types.js";
import type { PgDb } from "./common.js";
import { bytewise, serialised, touched } from "./query.js";
import * as schema from "./schema.js";

export class PgLockStore implements LockStore {
  constructor(private readonly db: PgDb) {}

  async acquireLock(account: string, holder: string, at: number, staleAfterMs: number): Promise<LockAttempt> {
    // Serialised per account (an advisory lock taken before the read): two processes racing for a
    // free account cannot both see it free, and a racer waits for the winner's commit and then
    // sees its lock. The primary key alone would only turn the loser's insert into an error.
    return serialised(this.db, "locks", account, async (tx) => {
      const t = schema.locks;
      const [current] = await tx.select().from(t).where(eq(t.account, account));
      if (current && at - current.heartbeatAt <= staleAfterMs)
        return { acquired: false as const, heldBy: current };
      const lock: LockInfo = { account, lockId: randomUUID(), holder, acquiredAt: at, heartbeatAt: at };
      if (current) await tx.delete(t).where(eq(t.account, account));
      await tx.insert(t).values(lock);
      return { acquired: true as const, lock };
    });
  }

  async heartbeat(lockId: string, at: number): Promise<boolean> {
    const t = schema.locks;
    return touched(await this.db.update(t).set({ heartbeatAt: at }).where(eq(t.lockId, lockId)));
  }

  async releaseLock(lockId: string): Promise<void> {
    await this.db.delete(schema.locks).where(eq(schema.locks.lockId, lockId));
  }

  async lock(account: string): Promise<LockInfo | null> {
    const [row] = await this.db.select().from(schema.locks).where(eq(schema.locks.account, account));
    return row ?? null;
  }

  async locks(): Promise<LockInfo[]> {
    return this.db
      .select()
      .from(schema.locks)
      .orderBy(asc(bytewise(schema.locks.account)));
  }

  async forceUnlock(lockId: string): Promise<boolean> {
    return touched(await this.db.delete(schema.locks).where(eq(schema.locks.lockId, lockId)));
  }
}
