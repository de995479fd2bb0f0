/**
 * `musicsync doctor` on a PostgreSQL state: can the server be reached, is the database at the
 * schema this version knows, then its locks, suspensions and stored accounts. Like the SQLite
 * checks, it only reads: the state is not opened the way commands open it (that migrates and
 * closes abandoned runs), the stores are used directly on a pool of its own.
 */

import { readMigrationFiles } from "drizzle-orm/migrator";
import pg from "pg";
import { describePool, redact } from "../../engine/postgres/errors.js";
import { enginePgMigrationsFolder, pgStateOn } from "../../engine/state/pg.js";
import type { StoredAccountsReader } from "./accounts.js";
import { type Check, error, ok, warning } from "./doctor-check.js";
import { lockChecks, suspensionChecks } from "./doctor-locks.js";

const SUBJECT = "state";
/** A doctor that waits half a minute for a server that does not answer helps nobody. */
const CONNECT_TIMEOUT_MS = 10_000;

function poolOf(url: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: "musicsync doctor",
    max: 2,
  });
  // An idle client whose server went away emits 'error' on the pool: never the process's end.
  pool.on("error", () => undefined);
  return pool;
}

/** The newest migration applied (drizzle's marker), or null when the database was never migrated. */
async function appliedMarker(pool: pg.Pool): Promise<number | null> {
  try {
    const { rows } = await pool.query<{ last: string | null }>(
      'SELECT MAX(created_at) AS last FROM "drizzle"."__drizzle_migrations"',
    );
    return rows[0]?.last == null ? null : Number(rows[0].last);
  } catch (e) {
    // No such table (42P01) or schema (3F000): a database no command has written yet.
    const code = (e as { code?: string }).code;
    if (code === "42P01" || code === "3F000") return null;
    throw e;
  }
}

/** The schema's check, and whether the tables are this version's (only then are they read). */
function schemaCheck(database: string, applied: number | null): { check: Check; current: boolean } {
  const known = readMigrationFiles({ migrationsFolder: enginePgMigrationsFolder() });
  const latest = Math.max(...known.map((m) => m.folderMillis));
  const old = (check: Check) => ({ check, current: false });
  if (applied !== null && applied > latest)
    return old(error(SUBJECT, `${database} has a newer schema than this musicsync knows: upgrade musicsync`));
  if (applied === null)
    return old(
      ok(SUBJECT, `${database} is reachable and empty; the first command that writes creates its tables`),
    );
  if (applied < latest)
    return old(warning(SUBJECT, `${database} has an older schema; the next command that writes migrates it`));
  return {
    check: ok(SUBJECT, `${database} is at the latest schema version (${known.length} migrations)`),
    current: true,
  };
}

export async function pgStateChecks(
  url: string,
  recipeIds: readonly string[],
  nowMs: number,
): Promise<Check[]> {
  const pool = poolOf(url);
  const { database, secret } = describePool(pool);
  try {
    const { check, current } = schemaCheck(database, await appliedMarker(pool));
    // Tables of another version (or none yet) are not read.
    if (!current) return [check];
    const state = pgStateOn(pool);
    return [check, ...(await lockChecks(state, nowMs)), ...(await suspensionChecks(state, recipeIds))];
  } catch (e) {
    return [error(SUBJECT, `cannot read ${database}: ${redact((e as Error).message, secret)}`)];
  } finally {
    await pool.end().catch(() => undefined);
  }
}

/** The stored accounts of a PostgreSQL state, read without migrating it (for doctor's account checks). */
export function pgStoredAccounts(url: string): StoredAccountsReader {
  const pool = poolOf(url);
  const state = pgStateOn(pool);
  return { storedAccounts: () => state.storedAccounts(), close: () => pool.end().catch(() => undefined) };
}
