/**
 * What the fleet's PostgreSQL goes through, done from a connection to the server's
 * `postgres` database, never to the seed's own: its lock sessions ended, every session ended, the
 * database refusing connections a few seconds, an idle-session timeout, and — on a server of the
 * seed's own — the server stopped and started. Each acts on the seed's database alone, so seeds
 * sharing a server do not disturb one another. Each answers a line for the seed's trace.
 */
import pg from "pg";
import type { PostgresServer } from "../support/postgres-server.js";
import type { FleetFault } from "./fleet-plan.js";
import { type Reader, withSession } from "./pg-session.js";
import { databaseName } from "./state.js";

/** Where the faults are done from: the server (its `postgres` database) and the seed's database. */
export interface FaultTarget {
  server: PostgresServer;
  /** The seed's database (a name from createDatabase: letters, digits, `_`). */
  database: string;
}

export const faultTarget = (server: PostgresServer, stateUrl: string): FaultTarget => ({
  server,
  database: databaseName(stateUrl),
});

async function onAdmin<T>(t: FaultTarget, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: t.server.url, connectionTimeoutMillis: 10_000 });
  client.on("error", () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Advisory locks held now in the seed's database (accounts' locks, the scheduler's): asked on a
 * connection of its own, or on `admin`, a session to the server's `postgres` database that a
 * polling loop keeps (pg-session.ts).
 */
export async function advisoryLocks(t: FaultTarget, admin?: Reader): Promise<number> {
  if (admin === undefined) return withSession(t.server.url, (c) => advisoryLocks(t, c));
  const { rows } = await admin.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
      WHERE l.locktype = 'advisory' AND l.granted AND d.datname = $1`,
    [t.database],
  );
  return rows[0]?.n ?? 0;
}

/** Ends the sessions of the seed's database that hold an advisory lock; how many. */
export function cutLockSessions(t: FaultTarget): Promise<number> {
  return onAdmin(t, async (c) => {
    const { rows } = await c.query<{ pid: number }>(
      `SELECT DISTINCT a.pid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND a.datname = $1 AND a.pid <> pg_backend_pid()`,
      [t.database],
    );
    return terminate(
      c,
      rows.map((r) => r.pid),
    );
  });
}

/** Ends every session of the seed's database; how many. */
export function cutAllSessions(t: FaultTarget): Promise<number> {
  return onAdmin(t, (c) => cutAll(c, t.database));
}

async function cutAll(c: pg.Client, database: string): Promise<number> {
  const { rows } = await c.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
    [database],
  );
  return terminate(
    c,
    rows.map((r) => r.pid),
  );
}

async function terminate(c: pg.Client, pids: readonly number[]): Promise<number> {
  let ended = 0;
  for (const pid of pids) {
    const { rows } = await c.query<{ ok: boolean }>("SELECT pg_terminate_backend($1) AS ok", [pid]);
    if (rows[0]?.ok) ended++;
  }
  return ended;
}

/**
 * The database refuses connections for `downMs`, every session of it ended at the start: what its
 * clients see of a restart, for this database only. Connections are allowed again whatever happens.
 */
export async function blinkDatabase(t: FaultTarget, downMs: number): Promise<number> {
  return onAdmin(t, async (c) => {
    await c.query(`ALTER DATABASE "${t.database}" ALLOW_CONNECTIONS false`);
    try {
      const ended = await cutAll(c, t.database);
      await new Promise((r) => setTimeout(r, downMs));
      return ended;
    } finally {
      await c.query(`ALTER DATABASE "${t.database}" ALLOW_CONNECTIONS true`);
    }
  });
}

/** Sessions of the seed's database that start from now on end after `ms` idle (null: no limit again). */
export function setIdleTimeout(t: FaultTarget, ms: number | null): Promise<void> {
  return onAdmin(t, async (c) => {
    if (ms === null) await c.query(`ALTER DATABASE "${t.database}" RESET idle_session_timeout`);
    else await c.query(`ALTER DATABASE "${t.database}" SET idle_session_timeout = ${Math.floor(ms)}`);
  });
}

/** One database fault (not `kill`: that one is the workers'), and what it did, for the trace. */
export async function databaseFault(t: FaultTarget, fault: FleetFault): Promise<string> {
  switch (fault.kind) {
    case "cut-locks":
      return `ended ${await cutLockSessions(t)} sessions holding advisory locks`;
    case "cut-all":
      return `ended all ${await cutAllSessions(t)} sessions of the database`;
    case "blink":
      return `database refused connections ${fault.downMs} ms (${await blinkDatabase(t, fault.downMs)} sessions ended)`;
    case "restart":
      if (!t.server.restart) throw new Error("a restart needs a server of the seed's own (--pg-restart)");
      await t.server.restart(fault.downMs, fault.mode);
      return `server stopped (${fault.mode}) and started again after ${fault.downMs} ms`;
    case "kill":
      throw new Error("a worker's kill is not a database fault");
  }
}
