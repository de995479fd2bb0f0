/**
 * drizzle's migrations applied to PostgreSQL by any number of processes at once. drizzle's migrator
 * reads what is applied outside any lock, so two daemons on a new database both see "none" and one
 * fails ("relation … already exists"). Here the read comes after a transaction-level advisory lock:
 * the second waits for the first's commit, then finds all applied. drizzle's table layout is kept
 * (`drizzle.__drizzle_migrations`), so drizzle-kit agrees. SQLite's: shared/sqlite-migrate.ts.
 */
import { type MigrationMeta, readMigrationFiles } from "drizzle-orm/migrator";
import type pg from "pg";
import { pending } from "../../shared/sqlite-migrate.js";
import { describePool, isConnectionError, PgStateError } from "./errors.js";

const SCHEMA = "drizzle";
const TABLE = "__drizzle_migrations";
const QUALIFIED = `"${SCHEMA}"."${TABLE}"`;
/** Taken by every migrator; advisory locks are per database, so one key serialises only its own. */
const LOCK_KEY = 0x6d75_7369_6373; // "musics"
/** How long a process waits for another's migration (the lock) before giving up with an error. */
const LOCK_WAIT = "5min";

/** A database that cannot be migrated or reached to be; named as host:port/dbname, never with a password. */
export class PgMigrationError extends PgStateError {
  constructor(
    database: string,
    /** The migration's number in its folder (`0002`), or null when none was being applied. */
    readonly migration: string | null,
    what: string,
    cause: unknown,
    secret: string,
  ) {
    const which = migration !== null ? ` (migration ${migration})` : "";
    const verb = migration === null && isConnectionError(cause) ? "connect to" : "migrate";
    super(database, `cannot ${verb} the ${what} ${database}${which}`, cause, secret);
    this.name = "PgMigrationError";
  }
}

/**
 * Applies the migrations of `folder` not applied yet. An up-to-date database costs one read;
 * otherwise one transaction takes the lock, reads the applied list again, applies what is pending
 * and records it. `what` names the database in errors ("state database").
 */
export async function migratePostgres(pool: pg.Pool, folder: string, what: string): Promise<void> {
  const { database, secret } = describePool(pool);
  const fail = (migration: string | null, cause: unknown) =>
    new PgMigrationError(database, migration, what, cause, secret);
  let migrations: MigrationMeta[];
  try {
    migrations = readMigrationFiles({ migrationsFolder: folder });
    if (pending(migrations, await lastApplied(pool)).length === 0) return;
  } catch (e) {
    throw fail(null, e);
  }
  const progress: { applying: string | null } = { applying: null };
  try {
    await applyLocked(pool, migrations, progress);
  } catch (e) {
    throw fail(progress.applying, e);
  }
}

/** The last applied migration's time; a missing table means none. */
async function lastApplied(q: pg.Pool | pg.PoolClient): Promise<number | null> {
  try {
    const { rows } = await q.query(`SELECT created_at FROM ${QUALIFIED} ORDER BY created_at DESC LIMIT 1`);
    const row = rows[0] as { created_at: string | number } | undefined;
    return row ? Number(row.created_at) : null;
  } catch (e) {
    // 42P01: no such table; 3F000: no such schema. Both mean a database never migrated.
    const code = (e as { code?: string }).code;
    if (code === "42P01" || code === "3F000") return null;
    throw e;
  }
}

/** One transaction: the lock, the table if missing, the applied list read again, the pending ones. */
async function applyLocked(
  pool: pg.Pool,
  migrations: readonly MigrationMeta[],
  progress: { applying: string | null },
): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    await client.query(`SET LOCAL lock_timeout = '${LOCK_WAIT}'`);
    // Waits here while another process migrates; its work is committed when the wait ends.
    await client.query("SELECT pg_advisory_xact_lock($1)", [LOCK_KEY]);
    await ensureTable(client);
    for (const m of pending(migrations, await lastApplied(client))) {
      // The index is the migration's number in the folder (`0002_…`).
      progress.applying = String(migrations.indexOf(m)).padStart(4, "0");
      for (const statement of m.sql) if (statement.trim() !== "") await client.query(statement);
      await client.query(`INSERT INTO ${QUALIFIED} ("hash", "created_at") VALUES ($1, $2)`, [
        m.hash,
        m.folderMillis,
      ]);
    }
    progress.applying = null;
    await client.query("COMMIT");
  } catch (e) {
    broken = e instanceof Error ? e : new Error(String(e));
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    // A client whose transaction failed is dropped rather than returned to the pool.
    client.release(broken);
  }
}

/** drizzle's table, made only if missing: `CREATE SCHEMA IF NOT EXISTS` needs a right an owner may lack. */
async function ensureTable(client: pg.PoolClient): Promise<void> {
  const found = await client.query(`SELECT to_regclass('${QUALIFIED}') IS NOT NULL AS found`);
  if ((found.rows[0] as { found: boolean }).found) return;
  await client.query(`CREATE SCHEMA IF NOT EXISTS "${SCHEMA}"`);
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${QUALIFIED} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`,
  );
}
