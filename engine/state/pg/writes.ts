/**
 * A batch's writes in one statement on PostgreSQL (docs/ARCHITECTURE.md#the-state): each write a
 * data-modifying part of one WITH, so the whole is one round trip and one commit, all or nothing,
 * where BEGIN, the writes and COMMIT were one each. Each round trip costs this process more than the
 * server's running of such a write.
 *
 * The batch runs its work first over a view that takes the writes for later (`deferring`); a
 * batch that reads, or takes a guard, needs a transaction around what it reads and writes, so it
 * is run again as one (as a batch retried after a lost connection is: its work may run twice).
 */
import { getTableName, type SQL, sql } from "drizzle-orm";
import type { Db, Dialect, Write } from "../dialect.js";
import { combiner } from "./combine.js";

/**
 * Thrown by the deferring view where the work needs a transaction; the batch is then run as one.
 * One error for all: nobody sees it but the batch, and a stack each time would cost more than the batch.
 */
const TRANSACTION_NEEDED = Object.freeze(new Error("this batch needs a transaction"));

/** `d` as a batch's work sees it when its writes go at its end: anything else asks for a transaction. */
export function deferring(d: Dialect): { view: Dialect; writes: Write[]; needed: () => boolean } {
  const writes: Write[] = [];
  let needed = false;
  const refuse = (): never => {
    needed = true;
    throw TRANSACTION_NEEDED;
  };
  const view: Dialect = {
    get db(): Db {
      return refuse();
    },
    t: d.t,
    open: (work) => work(),
    call: (work) => work(),
    transaction: async () => refuse(),
    batch: (work) => work(view),
    guarded: async () => refuse(),
    guard: async () => refuse(),
    lightly: (work) => work(),
    bytewise: (column) => d.bytewise(column),
    close: async () => undefined,
    defer: (write) => writes.push(write),
  };
  return { view, writes, needed: () => needed };
}

/** A batch's writes as the parts of one WITH; its answer is not read (the parts' counts are not checked). */
const joined = combiner("writes", (parts) => {
  const withs = parts.map((part, i) => sql`${sql.raw(`w${i}`)} as (${part})`);
  return sql`with ${sql.join(withs, sql`, `)} select 1`;
});

/**
 * Whether `writes` can be one statement: the parts of a WITH all see the database as it was before
 * it, so two writes of one table (which may touch one row) must go one after the other; and a
 * write with a check is checked before the commit, which one statement of several would not wait for.
 */
export function joinable(writes: readonly Write[]): boolean {
  const tables = new Set(writes.map((w) => getTableName(w.table)));
  return writes.length > 1 && tables.size === writes.length && writes.every((w) => !w.check);
}

/** The one statement of `writes` (see `joinable`), its values filled in for node-postgres. */
export function joinedQuery(
  db: Db,
  writes: readonly Write[],
): { name: string; text: string; values: unknown[] } {
  return joined(
    writes.map((w) => w.key),
    () => writes.map((w) => (w.build(db) as unknown as { getSQL(): SQL }).getSQL()),
    writes.map((w) => w.values),
  );
}
