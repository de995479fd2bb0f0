/**
 * The seam between the stores (./stores/) and the database: what SQLite (./sqlite/dialect.ts) and
 * PostgreSQL (./pg/dialect.ts) do differently (docs/ARCHITECTURE.md#the-state). Upserts need none
 * (both speak `ON CONFLICT … excluded.`), nor counts of changed rows (`changed` reads either).
 */
import { and, eq, getTableName, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { chunk } from "../../shared/chunk.js";
import type { Tables } from "./tables.js";

/** The stores' query builder, typed as PostgreSQL's (as the tables are); SQLite's answers the same calls. */
export type Db = NodePgDatabase;

export interface Dialect {
  readonly db: Db;
  readonly t: Tables;
  /** Runs the opening work (migrations are done; abandoned runs closed) before any call. */
  open(work: () => Promise<void>): Promise<void>;
  /** Runs one call of the state, after the opening (SQLite: one at a time; PostgreSQL: retried while unreachable). */
  call<T>(work: () => Promise<T>): Promise<T>;
  /** All or nothing. */
  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T>;
  /**
   * `work`'s calls, all or nothing, over the dialect `work` is given. Its writes (`send`) may go
   * together at its end: they see none of its reads, which see none of them.
   */
  batch<T>(work: (d: Dialect) => Promise<T>): Promise<T>;
  /** Inside a batch that sends its writes at its end (PostgreSQL's): takes `write` for then. */
  readonly defer?: (write: Write | GuardedWrite) => void;
  /** Where several reads cost a round trip each (PostgreSQL's pool): `reads` in one (see `readAll`). */
  readonly readTogether?: (reads: readonly Read[]) => Promise<unknown[][]>;
  /**
   * A transaction that no other `guarded` transaction of the same (scope, key) runs beside, in any
   * process, so that what `work` reads is still so when it writes.
   */
  guarded<T>(scope: string, key: string, work: (tx: Db) => Promise<T>): Promise<T>;
  /** Within transaction `tx`, what `guarded` takes first: held until `tx` ends. */
  guard(tx: Db, scope: string, key: string): Promise<void>;
  /**
   * Runs a call whose commits need not wait for the disk: nothing outside the database depends on
   * them surviving a power cut (a lock's row, a run's start), and the next durable commit takes
   * them along. A process killed after it loses nothing. The default is durable.
   */
  lightly<T>(work: () => Promise<T>): Promise<T>;
  /** A text column in byte order (SQLite's BINARY collation, which PostgreSQL's collations do not keep). */
  bytewise(column: SQLWrapper): SQL;
  /** Ends the connection (or pool) once the calls under way are done. */
  close(): Promise<void>;
}

/**
 * The dialect as seen inside transaction `tx` (a batch): every query on `tx`, a nested transaction
 * part of it, a call run at once (it is already one).
 */
export function within(d: Dialect, tx: Db): Dialect {
  const view: Dialect = {
    db: tx,
    t: d.t,
    open: (work) => work(),
    call: (work) => work(),
    transaction: (work) => work(tx),
    batch: (work) => work(view),
    guarded: async (scope, key, work) => {
      await d.guard(tx, scope, key);
      return work(tx);
    },
    guard: (inner, scope, key) => d.guard(inner, scope, key),
    lightly: (work) => work(),
    bytewise: (column) => d.bytewise(column),
    close: async () => undefined,
  };
  return view;
}

/** What a store's methods see as `this`: the state they belong to. */
export interface Stored {
  readonly d: Dialect;
}

/** Where each column of `names` equals the placeholder of its name. */
function matching(table: PgTable, names: readonly string[]): SQL | undefined {
  const columns = table as unknown as Record<string, PgColumn>;
  return and(...names.map((name) => eq(columns[name] as PgColumn, sql.placeholder(name))));
}

/** The row of `table` whose columns equal `match`'s values (the first, if several), or null. */
export async function oneRow<T extends PgTable>(
  q: Db,
  table: T,
  match: Partial<T["$inferSelect"]>,
): Promise<T["$inferSelect"] | null> {
  const names = Object.keys(match);
  const build = (db: Db) =>
    db
      .select()
      .from(table as PgTable)
      .where(matching(table, names));
  const key = `${getTableName(table)}(${names.join(",")})`;
  const [row] = (await prepared(q, key, build, match)) as T["$inferSelect"][];
  return row ?? null;
}

/** The read of `table`'s rows whose columns equal `match`'s values, in the byte order of `column`: the same on both. */
export function byteOrderRead<T extends PgTable>(
  d: Dialect,
  table: T,
  column: PgColumn,
  match: Partial<T["$inferSelect"]> = {},
): Read {
  const names = Object.keys(match);
  const build = (db: Db) =>
    db
      .select()
      .from(table as PgTable)
      .where(matching(table, names))
      .orderBy(d.bytewise(column));
  const key = `${getTableName(table)}(${names.join(",")}) by ${column.name}`;
  return { key, build, values: match };
}

/** The rows of `table` whose columns equal `match`'s values, in the byte order of `column`: the same on both. */
export async function inByteOrder<T extends PgTable>(
  s: Stored,
  table: T,
  column: PgColumn,
  match: Partial<T["$inferSelect"]> = {},
): Promise<T["$inferSelect"][]> {
  const r = byteOrderRead(s.d, table, column, match);
  return (await prepared(s.d.db, r.key, r.build, r.values)) as T["$inferSelect"][];
}

// JSON is kept as text, so that what is read back is byte for byte what was written.
export const json = (value: unknown): string => JSON.stringify(value ?? null);
export const parse = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

/**
 * A placeholder for each name, for a prepared query's values. Typed `never`, which fits any column:
 * drizzle takes a placeholder wherever a value goes (its update types leave it out).
 */
export function placeholders<K extends string>(...names: K[]): Record<K, never> {
  return Object.fromEntries(names.map((name) => [name, sql.placeholder(name)])) as Record<K, never>;
}

export type Prepared<R> = { execute(values?: Record<string, unknown>): Promise<R> };
/** The queries prepared on each builder: SQLite's one connection (its transactions' too), PostgreSQL's pool or a transaction. */
const preparedOn = new WeakMap<Db, Map<string, Prepared<unknown>>>();

/**
 * Runs on `q` a query that every run makes, built and prepared the first time with placeholders
 * where `values` go: drizzle's building costs such a query more than the database's running of it.
 * PostgreSQL keeps it as a named statement of each session. `key` names the one text `build` gives.
 */
export function prepared<R>(
  q: Db,
  key: string,
  build: (q: Db) => { prepare(name: string): Prepared<R> },
  values: object,
): Promise<R> {
  const queries = preparedOn.get(q) ?? new Map<string, Prepared<unknown>>();
  preparedOn.set(q, queries);
  const query = queries.get(key) ?? build(q).prepare(key);
  queries.set(key, query);
  return query.execute(values as Record<string, unknown>) as Promise<R>;
}

/**
 * A statement whose only answer is how many rows it changed, prepared as `prepared` has it: what a
 * batch may send together with its other writes (Dialect.defer). `table` is the one it writes.
 */
export interface Write {
  table: PgTable;
  key: string;
  build: (q: Db) => SQLWrapper & { prepare(name: string): Prepared<unknown> };
  values: object;
  /**
   * A write of a row that must exist: the message of the error thrown when it writes none, and the
   * batch then keeps nothing. Such a write counts the rows it RETURNs.
   */
  mustWrite?: string;
}

/**
 * A write made holding a guard (`Dialect.guarded`'s scope and key), as a part of PostgreSQL's one
 * statement of a batch's writes (`Dialect.defer`): the guard is a part of its own, and `after`
 * gives the write's SQL reading its rows from that part (`held`), so that no row is made before the
 * guard is held. Its placeholders are filled from `values`.
 */
export interface GuardedWrite {
  table: PgTable;
  key: string;
  guard: { scope: string; key: string };
  after: (held: SQL) => SQL;
  values: object;
}

/** Runs `write` now (how many rows it changed), or, in a batch that sends its writes at its end, takes it for then (null). */
export async function send(d: Dialect, write: Write): Promise<number | null> {
  if (d.defer) {
    d.defer(write);
    return null;
  }
  return sendNow(d.db, write);
}

/** Runs `write` on `q`, checked: how many rows it changed (or returned). */
export async function sendNow(q: Db, write: Write): Promise<number> {
  const result = await prepared(q, write.key, write.build, write.values);
  const n = Array.isArray(result) ? result.length : changed(result);
  if (n === 0 && write.mustWrite !== undefined) throw new Error(write.mustWrite);
  return n;
}

/**
 * A select that a run makes, prepared as `prepared` has it: what `readAll` may send together with
 * other reads. Its selected fields must be columns (the rows come back keyed by their names).
 */
export interface Read {
  key: string;
  build: (q: Db) => { prepare(name: string): Prepared<unknown[]> };
  values: object;
}

/**
 * The rows of each of `reads`, in their order: one round trip where the dialect joins reads
 * (PostgreSQL), else one read after another (SQLite's, in process, cost no round trip). The reads
 * see the database as one statement does there, as consecutive reads do here: callers hold what
 * keeps their rows still (a run's account lock) or do not depend on it.
 */
export async function readAll(d: Dialect, reads: readonly Read[]): Promise<unknown[][]> {
  if (d.readTogether) return d.readTogether(reads);
  const rows: unknown[][] = [];
  for (const r of reads) rows.push(await prepared(d.db, r.key, r.build, r.values));
  return rows;
}

type SliceWrite<T> = (q: Db, slice: T[]) => Promise<unknown>;

/** Writes `items` a slice of `size` a statement, all or nothing: one statement alone is so already. */
export async function inSlices<T>(d: Dialect, items: readonly T[], size: number, write: SliceWrite<T>) {
  const slices = chunk(items, size);
  if (slices.length < 2) return slices[0] && (await write(d.db, slices[0]));
  return d.transaction(async (tx) => {
    for (const slice of slices) await write(tx, slice);
  });
}

/** How many rows an UPDATE or DELETE changed, as node-postgres (`rowCount`) or better-sqlite3 (`changes`) says. */
export function changed(result: unknown): number {
  const r = result as { rowCount?: number | null; changes?: number };
  return r.rowCount ?? r.changes ?? 0;
}

/**
 * The rows to write in one multi-row upsert: each key once, with the last value given for it.
 * PostgreSQL refuses an ON CONFLICT DO UPDATE that touches one row twice in a statement.
 */
export function lastOfEach<T>(items: readonly T[], keyOf: (item: T) => string): T[] {
  return [...new Map(items.map((item) => [keyOf(item), item])).values()];
}
