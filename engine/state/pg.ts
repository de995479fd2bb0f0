/**
 * EngineState on PostgreSQL through drizzle (node-postgres), one store per file in `./pg/`.
 * Migrations from `migrations/engine-pg/` are applied when the state opens, by any number of
 * processes at once (./pg-migrate.ts).
 */
import type pg from "pg";
import { StatePool } from "./pg/pool.js";
import { PgState, type PgStateOptions } from "./pg/state.js";
import { enginePgMigrationsFolder, migratePostgres } from "./pg-migrate.js";
import type { OpenStateOptions } from "./sqlite.js";

export { PgAccountStore } from "./pg/accounts.js";
export { PgApprovalStore } from "./pg/approvals.js";
export type { PgDb } from "./pg/common.js";
export { isConnectionError, PgStateError } from "./pg/errors.js";
export { PgHealthStore } from "./pg/health.js";
export { PgLockStore } from "./pg/locks.js";
export { PgMatchStore } from "./pg/matches.js";
export { PgOwnershipStore } from "./pg/ownership.js";
export { PgRunStore } from "./pg/runs.js";
export { PgState, type PgStateOptions } from "./pg/state.js";

/** How long a query waits for a connection (a server that does not answer) before failing. */
const CONNECT_TIMEOUT_MS = 30_000;

/**
 * Opens the state on the PostgreSQL server of `url` (`postgres://user:password@host:port/db`),
 * synchronously: connecting and migrating happen behind the returned state's `ready`, and a
 * failure comes out of its first method call, naming host:port/database without the password.
 * `migrate` replaces the migrator (tests); `reconnect` and `leaseChecks` change how long a call
 * waits for a server that went away and how often a held lock is checked (tests).
 */
export function openPgState(
  url: string,
  options: OpenStateOptions & Partial<Pick<PgStateOptions, "migrate" | "reconnect" | "leaseChecks">> = {},
): PgState {
  const pool = new StatePool({
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: "musicsync",
    // A connection on a cut network fails instead of waiting for an answer that cannot come.
    keepAlive: true,
  });
  const migrate =
    options.migrate ?? ((p: pg.Pool) => migratePostgres(p, enginePgMigrationsFolder(), "state database"));
  return new PgState(pool, { ...options, migrate });
}
