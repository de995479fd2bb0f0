/**
 * What the PostgreSQL stores share beyond common.ts: a transaction's type, the per-key guard that
 * stands in for SQLite's BEGIN IMMEDIATE, and SQLite's byte order for text.
 */
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { PgDb } from "./common.js";

/** The handle a transaction's callback receives (same query builder as PgDb). */
export type PgTx = Parameters<Parameters<PgDb["transaction"]>[0]>[0];

/**
 * Runs `work` in a transaction that first takes a transaction-scoped advisory lock on
 * (scope, key), held until commit or rollback. This is what makes a read-then-write safe between
 * processes: SQLite gets it from BEGIN IMMEDIATE (one writer at a time); on PostgreSQL two
 * transactions under READ COMMITTED could both read "no row" and both write, and SELECT … FOR
 * UPDATE cannot help when the row does not exist yet (the first lock of an account, its first
 * failure). Each statement after the lock sees what the previous holder committed. One lock per
 * transaction, always taken first, so these transactions cannot deadlock one another; a hash
 * collision between two keys only makes them wait for each other.
 */
export function serialised<T>(
  db: PgDb,
  scope: string,
  key: string,
  work: (tx: PgTx) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${scope}), hashtext(${key}))`);
    return work(tx);
  });
}

/**
 * A text column compared byte by byte (`COLLATE "C"`), for ORDER BY: SQLite's default BINARY
 * order. The database's own collation (en-US, say) would put `apple` before `Zed`, SQLite after.
 */
export function bytewise(column: SQLWrapper): SQL {
  return sql`${column} collate "C"`;
}

/** Whether an UPDATE or DELETE touched a row (node-postgres' rowCount; null for other commands). */
export function touched(result: { rowCount: number | null }): boolean {
  return (result.rowCount ?? 0) > 0;
}

/**
 * The rows to write in one multi-row upsert: each key once, with the last value given for it.
 * PostgreSQL refuses an ON CONFLICT DO UPDATE that touches one row twice in a statement, where
 * SQLite's loop of single upserts let the last one win.
 */
export function lastOfEach<T>(items: readonly T[], keyOf: (item: T) => string): T[] {
  return [...new Map(items.map((item) => [keyOf(item), item])).values()];
}

/** `items` in slices of `size` (a statement binds at most 65,535 parameters). */
export function slices<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
