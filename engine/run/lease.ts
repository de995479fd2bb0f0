/**
 * The account's lock around a run that writes: taken before the first write, beaten while the run
 * goes on, released at its end — and watched. A lock can be lost while its run still goes on (on
 * PostgreSQL its session ended; on either state, `musicsync unlock` or a stale takeover removed its
 * row): from then on another process may write to the account, so the run must send no further
 * write. The applier asks the lease before each one (engine/apply/session.ts) and the run ends
 * `interrupted`, saying why. It never takes the lock again mid-run — another process may have
 * written meanwhile; the next run reconciles through the journal.
 */
import { currentHolder, DEFAULT_LOCK_STALE_MS, holderGone } from "../state/holder.js";
import type { LockInfo } from "../state/types.js";
import type { EngineEnv, Lease } from "./run-types.js";

export type { Lease };

export class LockedError extends Error {
  constructor(readonly heldBy: LockInfo) {
    super(
      `account "${heldBy.account}" is locked by ${heldBy.holder} (lock ${heldBy.lockId}); if that process is gone, run: musicsync unlock ${heldBy.lockId}`,
    );
    this.name = "LockedError";
  }
}

/** A heartbeat that found the lock's row gone or replaced. */
const ROW_GONE = "its record was removed (musicsync unlock) or taken over as stale by another process";

/**
 * Runs `body` holding the account's lock, with a heartbeat; a lock left by a dead local process is
 * taken over. `body` gets the environment with the lease (`env.lease`), which the applier asks
 * before every write. A failure to release the lock is logged, never thrown over the body's result
 * or error: that error is what went wrong (a database that went away, say), the release only
 * suffered from it — and a lock not released ends with its session, or goes stale.
 */
export async function withLock<T>(
  env: EngineEnv,
  account: string,
  body: (held: EngineEnv) => Promise<T>,
): Promise<T> {
  const { lockId } = await acquire(env, account);
  let rowGone = false;
  let said = false;
  const lease: Lease = {
    account,
    lockId,
    lost() {
      const why = rowGone ? ROW_GONE : (env.state.lockLost?.(lockId) ?? null);
      return why === null ? null : `the lock on account "${account}" was lost: ${why}`;
    },
  };
  const stale = env.lockStaleMs ?? DEFAULT_LOCK_STALE_MS;
  // A failed heartbeat (the database unreachable a while) must not end the process mid-run; a lock
  // found lost is said loudly and stops the run's writes.
  const beat = setInterval(
    () => {
      env.state.heartbeat(lockId, env.clock.now()).then(
        (held) => {
          if (held || said) return;
          // On PostgreSQL the session's end says more than the row (and came first).
          if (lease.lost() === null) rowGone = true;
          said = true;
          env.logger.warn(
            { account, lock: lockId, reason: lease.lost() },
            "the account's lock was lost during the run",
          );
        },
        (e: unknown) => env.logger.warn({ account, error: String(e) }, "lock heartbeat failed"),
      );
    },
    Math.max(1000, stale / 3),
  );
  beat.unref();
  try {
    return await body({ ...env, lease });
  } finally {
    clearInterval(beat);
    await env.state.releaseLock(lockId).catch((e: unknown) => {
      env.logger.warn(
        { account, lock: lockId, error: e instanceof Error ? e.message : String(e) },
        "the account's lock could not be released; it ends with its session or goes stale",
      );
    });
  }
}

/** The account's lock, taking over one a dead process of this machine left; LockedError if busy. */
async function acquire(env: EngineEnv, account: string): Promise<LockInfo> {
  const stale = env.lockStaleMs ?? DEFAULT_LOCK_STALE_MS;
  let attempt = await env.state.acquireLock(account, currentHolder(), env.clock.now(), stale);
  if (!attempt.acquired && holderGone(attempt.heldBy.holder)) {
    env.logger.warn(
      { account, lock: attempt.heldBy.lockId, holder: attempt.heldBy.holder },
      "taking over a dead process's lock",
    );
    await env.state.forceUnlock(attempt.heldBy.lockId);
    attempt = await env.state.acquireLock(account, currentHolder(), env.clock.now(), stale);
  }
  if (!attempt.acquired) throw new LockedError(attempt.heldBy);
  return attempt.lock;
}
