/**
 * Applying drizzle's migrations to a PostgreSQL database so that any number of processes can start
 * at once. drizzle's own migrator creates its table and reads the last applied migration outside
 * any lock, then migrates in a transaction: two daemons starting against a new database both see
 * "none applied" and one fails ("relation … already exists", or a duplicate key on the catalog).
 * Here the read happens inside a transaction that first takes a transaction-level advisory lock,
 * so the second process waits for the first to commit and then finds everything applied. The table
 * keeps drizzle's layout (schema `drizzle`, table `__drizzle_migrations`), so `drizzle-kit` and this
 * code agree on what is applied. The SQLite counterpart is shared/sqlite-migrate.ts.
 */
import { join } from "node:path";
import { type MigrationMeta, readMigrationFiles } from "drizzle-orm/migrator";
import type pg from "pg";
import { packageRoot } from "../../shared/package-root.js";

const SCHEMA = "drizzle";
const TABLE = "__drizzle_migrations";
const QUALIFIED = `"${SCHEMA}"."${TABLE}"`;
/**
 * The advisory lock every migrating process takes. Advisory locks are per database, so one fixed
 * key serialises the migrators of one database and never those of another.
 */
const LOCK_KEY = 0x6d75_7369_6373; // "musics"
/** How long a process waits for another's migration (the lock) before giving up with an error. */
const LOCK_WAIT = "5min";

/**
 * A database that cannot be migrated; the message names it as host:port/dbname, never a password.
 * The original error is not kept as `cause`: some carry the whole URL (a URL parser's `input`),
 * which Node prints with an uncaught error. Its code is kept.
 */
export class PgMigrationError extends Error {
  /** The original error's code, when it had one (`ECONNREFUSED`, `42P07`…). */
  readonly code: string | undefined;

  constructor(
    /** `host:port/dbname`. */
    readonly database: string,
    /** The migration's number in its folder (`0002`), or null when none was being applied. */
    readonly migration: string | null,
    what: string,
    cause: unknown,
    secret: string,
  ) {
    const which = migration !== null ? ` (migration ${migration})` : "";
    const reason = redact(cause instanceof Error ? cause.message : String(cause), secret);
    const verb = migration === null && unreachable(cause) ? "connect to" : "migrate";
    super(`cannot ${verb} the ${what} ${database}${which}: ${reason}`);
    this.name = "PgMigrationError";
    const code = (cause as { code?: unknown } | null)?.code;
    this.code = typeof code === "string" ? code : undefined;
  }
}

/**
 * Whether the error is about reaching the database at all (the server, the login, the database's
 * existence), not about a migration: the message then says "cannot connect", which is what to fix.
 */
function unreachable(cause: unknown): boolean {
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return false;
  // Node's socket errors; PostgreSQL's class 28 (login refused), 3D000 (no such database), 57P03 (starting up).
  return /^E[A-Z]+$/.test(code) || code.startsWith("28") || code === "3D000" || code === "57P03";
}

/**
 * `migrations/engine-pg/`, found by walking up from this file to the folder with `package.json`, so
 * the same code works from `engine/state/` and from `dist/engine/state/`.
 */
export function enginePgMigrationsFolder(from: string = import.meta.url): string {
  return join(packageRoot(from), "migrations", "engine-pg");
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
  } catch (e) {
    throw fail(null, e);
  }
  try {
    if (pending(migrations, await lastAppliedOutside(pool)).length === 0) return;
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

/** The migrations newer than the last applied one (drizzle's own rule: by folder time). */
function pending(migrations: readonly MigrationMeta[], last: number | null): MigrationMeta[] {
  return migrations.filter((m) => last === null || last < m.folderMillis);
}

/** The last applied migration's time, without a transaction: a missing table means none. */
async function lastAppliedOutside(pool: pg.Pool): Promise<number | null> {
  try {
    return lastOf(await pool.query(`SELECT created_at FROM ${QUALIFIED} ORDER BY created_at DESC LIMIT 1`));
  } catch (e) {
    // 42P01: no such table; 3F000: no such schema. Both mean a database never migrated.
    const code = (e as { code?: string }).code;
    if (code === "42P01" || code === "3F000") return null;
    throw e;
  }
}

function lastOf(result: pg.QueryResult): number | null {
  const row = result.rows[0] as { created_at: string | number } | undefined;
  return row ? Number(row.created_at) : null;
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
    const last = lastOf(
      await client.query(`SELECT created_at FROM ${QUALIFIED} ORDER BY created_at DESC LIMIT 1`),
    );
    for (const m of pending(migrations, last)) {
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

/**
 * drizzle's table, created only when missing: `CREATE SCHEMA IF NOT EXISTS` asks for the right to
 * create schemas even when the schema exists, which a role that only owns its tables may lack.
 */
async function ensureTable(client: pg.PoolClient): Promise<void> {
  const found = await client.query(`SELECT to_regclass('${QUALIFIED}') IS NOT NULL AS found`);
  if ((found.rows[0] as { found: boolean }).found) return;
  await client.query(`CREATE SCHEMA IF NOT EXISTS "${SCHEMA}"`);
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${QUALIFIED} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`,
  );
}

/**
 * The pool's database as `host:port/dbname` for messages, and its password (to be kept out of
 * them). Read from the pool's options: a connection string, or separate fields.
 */
export function describePool(pool: pg.Pool): { database: string; secret: string } {
  const options = pool.options;
  let host = options.host;
  let port = options.port !== undefined ? String(options.port) : undefined;
  let name = options.database;
  let user = options.user;
  let secret = typeof options.password === "string" ? options.password : "";
  if (options.connectionString !== undefined) {
    try {
      const url = new URL(options.connectionString);
      host ??= decodeURIComponent(url.hostname) || url.searchParams.get("host") || undefined;
      port ??= url.port || url.searchParams.get("port") || undefined;
      name ??= decodeURIComponent(url.pathname.slice(1)) || undefined;
      user ??= decodeURIComponent(url.username) || undefined;
      secret ||= decodeURIComponent(url.password);
    } catch {
      // Not a URL (a key=value string): name the database as unknown rather than echo the string.
    }
  }
  return { database: `${host ?? "localhost"}:${port ?? "5432"}/${name ?? user ?? "?"}`, secret };
}

/** The message with every occurrence of the password masked. */
function redact(message: string, secret: string): string {
  return secret === "" ? message : message.split(secret).join("***");
}
