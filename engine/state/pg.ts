/**
 * EngineState on PostgreSQL (node-postgres): the stores (./state.ts) over the PostgreSQL dialect
 * (./pg/dialect.ts), each lock also held by a session (./pg/leases.ts), migrated on open (./pg-migrate.ts).
 */
import pg from "pg";
import { describePool } from "../postgres/errors.js";
import { PgDialect } from "./pg/dialect.js";
import { type LeaseChecks, PgLeaseLockStore } from "./pg/leases.js";
import { StatePool } from "./pg/pool.js";
import type { Reconnect } from "./pg/reconnect.js";
import { enginePgMigrationsFolder, migratePostgres } from "./pg-migrate.js";
import type { OpenStateOptions } from "./sqlite.js";
import { State } from "./state.js";
import { closingAbandonedRuns } from "./stores/runs.js";

/** How long a query waits for a connection (a server that does not answer) before failing. */
const CONNECT_TIMEOUT_MS = 30_000;
/** Idle time after which TCP keepalive starts probing a lock's connection. */
const KEEPALIVE_MS = 5_000;

export interface PgStateOptions extends OpenStateOptions {
  /** Brings the database to the current schema; concurrent openers must be safe (./pg-migrate.ts). */
  migrate: (pool: pg.Pool) => Promise<void>;
  /** How long a call keeps trying while the server cannot be reached (default 30 s). */
  reconnect?: Reconnect;
  /** How often a held lock's session is checked (default every 3 s, 10 s to answer). */
  leaseChecks?: LeaseChecks;
}

/** The state on a pool: the migration, then the closing of abandoned runs, happen behind its `ready`. */
export function pgState(pool: pg.Pool, options: PgStateOptions): State {
  const opening = closingAbandonedRuns(options);
  // Each held lock keeps a connection of its own, outside the pool.
  const leases = (rows: PgLeaseLockStore["rows"]) =>
    new PgLeaseLockStore(rows, () => sessionOf(pool), options.leaseChecks, describePool(pool).secret);
  return new State(new PgDialect(pool, options.migrate, options.reconnect), { opening, leases });
}

/**
 * Opens the state on the server of `url` (`postgres://user:password@host:port/db`), synchronously;
 * a failure to connect or migrate comes out of the first call. The options are for tests.
 */
export function openPgState(
  url: string,
  options: OpenStateOptions & Partial<Pick<PgStateOptions, "migrate" | "reconnect" | "leaseChecks">> = {},
): State {
  const pool = new StatePool({
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: "musicsync",
    // A connection on a cut network fails instead of waiting for an answer that cannot come.
    keepAlive: true,
  });
  const migrate =
    options.migrate ?? ((p: pg.Pool) => migratePostgres(p, enginePgMigrationsFolder(), "state database"));
  return pgState(pool, { ...options, migrate });
}

/** The state over a pool opened elsewhere (doctor's): not migrated, nothing closed, no retry, no session. */
export function pgStateOn(pool: pg.Pool): State {
  return new State(new PgDialect(pool, async () => undefined, { forMs: 0, firstDelayMs: 0, maxDelayMs: 0 }));
}

/**
 * A connection with the pool's settings but outside it; a lost one only ends its lease. TCP
 * keepalive makes a silent network cut end it (and so the lease) instead of leaving it waiting.
 */
async function sessionOf(pool: pg.Pool): Promise<pg.Client> {
  const client = new pg.Client({
    ...pool.options,
    application_name: "musicsync lock",
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_MS,
  });
  client.on("error", () => undefined);
  await client.connect();
  return client;
}
