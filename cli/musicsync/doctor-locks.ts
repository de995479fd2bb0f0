/**
 * `musicsync doctor`'s findings that any state database gives the same way, SQLite or PostgreSQL:
 * locks whose holder is gone, suspended accounts and recipes. Apart from doctor-state.ts, which
 * loads the PostgreSQL checks (doctor-pg.ts) lazily, so that those can use these without a circle.
 */
import { DEFAULT_LOCK_STALE_MS, lockHolderAlive } from "../../engine/state/holder.js";
import type { HealthStore, LockStore } from "../../engine/state/types.js";
import { type Check, ok, warning } from "./doctor-check.js";

const SUBJECT = "state";

export async function lockChecks(state: Pick<LockStore, "locks">, nowMs: number): Promise<Check[]> {
  return (await state.locks()).map((lock) =>
    lockHolderAlive(lock, nowMs, DEFAULT_LOCK_STALE_MS)
      ? ok(SUBJECT, `account ${lock.account} is locked by ${lock.holder}, which is running`)
      : warning(
          SUBJECT,
          `stale lock ${lock.lockId} on account ${lock.account} (holder ${lock.holder} is gone): ` +
            `\`musicsync unlock ${lock.lockId}\``,
        ),
  );
}

export async function suspensionChecks(
  state: Pick<HealthStore, "accountHealth" | "recipeHealth">,
  recipeIds: readonly string[],
): Promise<Check[]> {
  const checks: Check[] = [];
  for (const a of await state.accountHealth()) {
    if (a.suspendedAt !== null)
      checks.push(
        warning(
          `account ${a.account}`,
          `suspended: ${a.suspendedReason ?? "after failures"}; fix the cause, then \`musicsync resume ${a.account}\``,
        ),
      );
  }
  for (const id of recipeIds) {
    const h = await state.recipeHealth(id);
    if (h.suspendedAt !== null)
      checks.push(
        warning(
          `recipe ${id}`,
          `suspended: ${h.suspendedReason ?? "after failures"}; fix the cause, then \`musicsync resume ${id}\``,
        ),
      );
  }
  return checks;
}
