/**
 * From a pg-boss 10 job queue to pg-boss 12's. pg-boss 12 upgrades a schema of pg-boss 11 (schema
 * version 25) or later and refuses an older one, so the queue musicsync kept with pg-boss 10 (version
 * 24) can neither be used nor upgraded in place. It is drained and replaced instead, on the first
 * start of a worker (or `enqueue`) of this version:
 * 1. its schema is renamed (`setAsideOldQueue`), so that pg-boss 12 installs a fresh one in its place;
 * 2. once the new queue exists, the runs the old one still held — waiting, delayed, retrying, or
 *    taken by a worker that is gone — are sent to it and removed from the old table
 *    (`carryOverOldQueue`). A crash in between leaves them in the old table, and the next start
 *    sends them again (a recipe's waiting run is never doubled: the queue keeps one per recipe).
 * Nothing else is dropped: the renamed schema keeps the finished and failed jobs for the operator,
 * who drops it when done (README, "Many accounts"). Several processes starting at once take turns
 * under a transaction's advisory lock.
 */
import pg from "pg";

/** The oldest queue schema pg-boss 12 upgrades by itself (pg-boss 11's). */
const OLDEST_UPGRADABLE = 25;
/** The key of the advisory lock held while the old queue is set aside or emptied ("msqu"). */
const UPGRADE_LOCK = 0x6d73_7175;

/** Where the old queue's schema goes: `musicsync_queue` → `musicsync_queue_pgboss10`. */
export function oldQueueSchema(schema: string): string {
  return `${schema}_pgboss10`;
}

/** Sends one carried run to the new queue; false when the job is not a run (it stays behind). */
export type CarryRun = (data: unknown, afterMs: number) => Promise<boolean>;

/** One transaction under the upgrade lock, on a connection of its own. */
async function underLock<T>(url: string, body: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({
    connectionString: url,
    application_name: "musicsync queue upgrade",
    // A server that does not answer fails the start, as the state's own connections do.
    connectionTimeoutMillis: 30_000,
  });
  // Heard, or a connection that ends under us would end the process instead of failing the call.
  client.on("error", () => undefined);
  await client.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [UPGRADE_LOCK]);
    const result = await body(client);
    await client.query("COMMIT");
    return result;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The pg-boss schema version in `schema`, or null when there is no pg-boss there. */
async function schemaVersion(client: pg.Client, schema: string): Promise<number | null> {
  const table = await client.query<{ found: boolean }>("SELECT to_regclass($1) IS NOT NULL AS found", [
    `${schema}.version`,
  ]);
  if (!table.rows[0]?.found) return null;
  const { rows } = await client.query<{ version: string }>(`SELECT version FROM ${schema}.version`);
  return rows[0] ? Number(rows[0].version) : null;
}

/**
 * Renames a queue schema too old for pg-boss 12 out of its way; true when it did. Refuses (naming
 * both schemas) when an earlier one was set aside already and is still there: two old queues are
 * not merged silently.
 */
export async function setAsideOldQueue(url: string, schema: string): Promise<boolean> {
  return underLock(url, async (client) => {
    const version = await schemaVersion(client, schema);
    if (version === null || version >= OLDEST_UPGRADABLE) return false;
    const aside = oldQueueSchema(schema);
    const taken = await client.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [aside]);
    if (taken.rowCount) {
      throw new Error(
        `the job queue in schema ${schema} is of pg-boss 10 (schema version ${version}), and schema ${aside} ` +
          `already holds an older one: carry its runs over or drop it (DROP SCHEMA ${aside} CASCADE), then start again`,
      );
    }
    await client.query(`ALTER SCHEMA ${schema} RENAME TO ${aside}`);
    return true;
  });
}

interface OldRun {
  id: string;
  data: unknown;
  /** Milliseconds until the run was due (0 when due already). */
  wait_ms: string;
}

/**
 * Sends the runs still held by a set-aside pg-boss 10 queue to the new one (`carry`), and removes
 * them from the old table; the number carried (0 when there is no old queue, or nothing left).
 */
export async function carryOverOldQueue(
  url: string,
  schema: string,
  queueName: string,
  carry: CarryRun,
): Promise<number> {
  const aside = oldQueueSchema(schema);
  return underLock(url, async (client) => {
    if ((await schemaVersion(client, aside)) === null) return 0;
    // A run "active" in the old queue was taken by a pg-boss 10 worker, which cannot finish it in a
    // queue that has moved: it runs again (the account's lock keeps two runs apart, the journal
    // reconciles what the first one sent).
    const { rows } = await client.query<OldRun>(
      `SELECT id::text AS id, data,
              GREATEST(0, floor(EXTRACT(epoch FROM start_after - now()) * 1000))::text AS wait_ms
         FROM ${aside}.job
        WHERE name = $1 AND state IN ('created', 'retry', 'active')
        ORDER BY created_on
          FOR UPDATE`,
      [queueName],
    );
    const carried: string[] = [];
    for (const row of rows) if (await carry(row.data, Number(row.wait_ms))) carried.push(row.id);
    if (carried.length > 0)
      await client.query(`DELETE FROM ${aside}.job WHERE id = ANY($1::uuid[])`, [carried]);
    return carried.length;
  });
}
