/**
 * The accounts' locks, as rows: what `status` and `unlock` read. On PostgreSQL a lock is also held
 * by a session (../pg/leases.ts), which takes these rows' methods as its own.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { changed, type Db, inByteOrder, oneRow, placeholders, prepared, type Stored } from "../dialect.js";
import type { Tables } from "../tables.js";
import type { LockInfo, LockStore } from "../types.js";

const LOCK = placeholders("account", "lockId", "holder", "acquiredAt", "heartbeatAt");

/** A lock's row written over whatever row its account has. */
const replacing = (l: Tables["locks"]) => (q: Db) =>
  q.insert(l).values(LOCK).onConflictDoUpdate({ target: l.account, set: LOCK });

export type RowLocks = Required<Omit<LockStore, "lockLost">>;

export const lockStore: RowLocks & ThisType<Stored> = {
  async acquireLock(account, holder, at, staleAfterMs, lockId = randomUUID()) {
    const l = this.d.t.locks;
    const lock: LockInfo = { account, lockId, holder, acquiredAt: at, heartbeatAt: at };
    const replace = (q: Db) => prepared(q, "locks.replace", replacing(l), lock);
    // Every row stale: the caller holds the account otherwise (PostgreSQL's session lock), so no
    // other taker can come between; whatever row is there is replaced in one statement.
    if (staleAfterMs === Number.NEGATIVE_INFINITY) {
      await replace(this.d.db);
      return { acquired: true as const, lock };
    }
    // Guarded per account (the guard taken before the read): two processes racing for a free
    // account cannot both see it free, and a racer waits for the winner's commit and then sees its
    // lock. The primary key alone would only turn the loser's insert into an error.
    return this.d.guarded("locks", account, async (tx) => {
      const current = await oneRow(tx, l, { account });
      if (current && at - current.heartbeatAt <= staleAfterMs)
        return { acquired: false as const, heldBy: current };
      await replace(tx);
      return { acquired: true as const, lock };
    });
  },

  async heartbeat(lockId, at) {
    const { db, t } = this.d;
    return changed(await db.update(t.locks).set({ heartbeatAt: at }).where(eq(t.locks.lockId, lockId))) > 0;
  },

  async releaseLock(lockId) {
    const l = this.d.t.locks;
    await prepared(this.d.db, "locks.release", (q) => q.delete(l).where(eq(l.lockId, LOCK.lockId)), {
      lockId,
    });
  },

  async lock(account) {
    return oneRow(this.d.db, this.d.t.locks, { account });
  },

  async locks() {
    return inByteOrder(this, this.d.t.locks, this.d.t.locks.account);
  },

  async forceUnlock(lockId) {
    const { db, t } = this.d;
    return changed(await db.delete(t.locks).where(eq(t.locks.lockId, lockId))) > 0;
  },
};
