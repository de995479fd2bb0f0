/**
 * A session-level advisory lock on a text key, as PostgreSQL has it: taken, checked, let go of, and
 * taken from the session of a given name. The state's account locks are built on these
 * (engine/state/pg/leases.ts, docs/ENGINE.md#locks); what a lock means is theirs.
 */
import type pg from "pg";

/** The lock's 64-bit key: a hash of its text. */
const KEY = "hashtextextended($1, 0)";

/** No `idle_session_timeout` (PostgreSQL 14+): the session idles by design; its end frees the lock. */
export async function keepIdle(session: pg.Client): Promise<void> {
  await session.query(
    `SELECT set_config('idle_session_timeout', '0', false)
       WHERE current_setting('server_version_num')::int >= 140000`,
  );
}

/** Names the session (`application_name`), so that `takeAdvisoryLock` can end this one and no other. */
export async function nameSession(session: pg.Client, name: string): Promise<void> {
  await session.query("SELECT set_config('application_name', $1, false)", [name]);
}

/**
 * A data-modifying statement sent in the same round trip as the lock's take or release (one
 * statement: it commits with it, or neither), its parameters numbered from $3.
 */
export interface AlsoWrite {
  text: string;
  values: readonly unknown[];
}

/**
 * Takes the lock if it is free, and then (in the same round trip) names the session `name`; a
 * session that did not get it keeps its name. `also` may read `got` (its one column, `named`, is
 * null unless the lock was taken) to write only when it was.
 */
export async function tryAdvisoryLock(
  session: pg.Client,
  key: string,
  name: string,
  also?: AlsoWrite,
): Promise<boolean> {
  const got = `SELECT CASE WHEN pg_try_advisory_lock(${KEY}) THEN set_config('application_name', $2, false) END AS named`;
  const { rows } = await session.query<{ named: string | null }>(
    also ? `WITH got AS (${got}), also_write AS (${also.text}) SELECT named FROM got` : got,
    [key, name, ...(also?.values ?? [])],
  );
  return typeof rows[0]?.named === "string";
}

/** Whether this session still holds the lock (a 64-bit key: classid, objid). */
export async function holdsAdvisoryLock(session: pg.Client, key: string): Promise<boolean> {
  const { rows } = await session.query<{ held: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted
        AND pid = pg_backend_pid() AND objsubid = 1
        AND ((classid::bigint << 32) | objid::bigint) = ${KEY}) AS held`,
    [key],
  );
  return rows[0]?.held === true;
}

/**
 * Lets go of the lock and renames the session, in one round trip, `also` with them; false if it
 * did not hold the lock.
 */
export async function releaseAdvisoryLock(
  session: pg.Client,
  key: string,
  name: string,
  also?: AlsoWrite,
): Promise<boolean> {
  const free = `SELECT pg_advisory_unlock(${KEY}) AS freed, set_config('application_name', $2, false)`;
  const { rows } = await session.query<{ freed: boolean }>(
    also ? `WITH also_write AS (${also.text}) ${free}` : free,
    [key, name, ...(also?.values ?? [])],
  );
  return rows[0]?.freed === true;
}

/**
 * Ends the sessions named `holder`, then takes the lock, waiting at most `timeoutMs` for it to be
 * let go (pg_terminate_backend only signals). False when another session took it first.
 */
export async function takeAdvisoryLock(
  session: pg.Client,
  holder: string,
  key: string,
  timeoutMs: number,
): Promise<boolean> {
  await session.query(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()",
    [holder],
  );
  await session.query(`SET lock_timeout = ${timeoutMs}`);
  try {
    await session.query(`SELECT pg_advisory_lock(${KEY})`, [key]);
    return true;
  } catch (e) {
    // 55P03: lock_timeout — another session holds it now.
    if ((e as { code?: string }).code === "55P03") return false;
    throw e;
  }
}
