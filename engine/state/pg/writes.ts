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
import { createHash } from "node:crypto";
import { fillPlaceholders, getTableName, type SQL, sql } from "drizzle-orm";
import { PgDialect as SqlBuilder } from "drizzle-orm/pg-core";
import type { Db, Dialect, Write } from "../dialect.js";

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

/** One statement of several writes: its text, its prepared name, and each write's share of the values. */
interface Joined {
  text: string;
  name: string;
  /** Per write, its parameters (values and placeholders) in the statement's order. */
  params: unknown[][];
}

const builder = new SqlBuilder();
/** By the writes' keys: the texts a process makes are few (a run's end, with or without a snapshot). */
const joinedByKeys = new Map<string, Joined>();
const KEPT = 64;

function joined(db: Db, writes: readonly Write[]): Joined {
  const keys = writes.map((w) => w.key).join("\n");
  const known = joinedByKeys.get(keys);
  if (known) return known;
  const parts = writes.map((w) => (w.build(db) as unknown as { getSQL(): SQL }).getSQL());
  const withs = parts.map((part, i) => sql`${sql.raw(`w${i}`)} as (${part})`);
  const query = builder.sqlToQuery(sql`with ${sql.join(withs, sql`, `)} select 1`);
  // Drizzle numbers the parameters in the order it meets them: each part's come together.
  const params: unknown[][] = [];
  let at = 0;
  for (const part of parts) {
    const n = builder.sqlToQuery(part).params.length;
    params.push(query.params.slice(at, at + n));
    at += n;
  }
  const name = `writes ${createHash("sha256").update(query.sql).digest("hex").slice(0, 24)}`;
  const made = { text: query.sql, name, params };
  if (joinedByKeys.size >= KEPT) joinedByKeys.delete(joinedByKeys.keys().next().value!);
  joinedByKeys.set(keys, made);
  return made;
}

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
  const j = joined(db, writes);
  const values = writes.flatMap((w, i) =>
    fillPlaceholders(j.params[i] ?? [], w.values as Record<string, unknown>),
  );
  return { name: j.name, text: j.text, values };
}
