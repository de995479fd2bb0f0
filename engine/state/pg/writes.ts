/**
 * A batch's writes in one statement on PostgreSQL (docs/ARCHITECTURE.md#the-state): each write a
 * data-modifying part of one WITH, so the whole is one round trip and one commit, all or nothing,
 * where BEGIN, the writes and COMMIT were one each. Each round trip costs this process more than the
 * server's running of such a write.
 *
 * The batch runs its work first over a view that takes the writes for later (`deferring`); a
 * batch that reads, or opens a transaction of its own, needs a transaction around what it reads and
 * writes, so it is run again as one (as a batch retried after a lost connection is: its work may
 * run twice). A write made under a guard (owned rows, numbered in the order they are added) is
 * taken as one part after the guard's (`GuardedWrite`), and a write of a row that must exist as
 * one whose count the statement checks: so a converging run's commit of an action is one statement.
 */
import { getTableName, type SQL, sql } from "drizzle-orm";
import type { Db, Dialect, GuardedWrite, Write } from "../dialect.js";
import { combiner } from "./combine.js";

/**
 * Thrown by the deferring view where the work needs a transaction; the batch is then run as one.
 * One error for all: nobody sees it but the batch, and a stack each time would cost more than the batch.
 */
const TRANSACTION_NEEDED = Object.freeze(new Error("this batch needs a transaction"));

/** `d` as a batch's work sees it when its writes go at its end: anything else asks for a transaction. */
export function deferring(d: Dialect): {
  view: Dialect;
  writes: (Write | GuardedWrite)[];
  needed: () => boolean;
} {
  const writes: (Write | GuardedWrite)[] = [];
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

/** A batch's writes as the parts of one WITH: every part but the last is one of its queries, the last its main select. */
const joined = combiner("writes", (parts) => {
  const withs = parts.slice(0, -1);
  return sql`with ${sql.join(withs, sql`, `)} ${parts.at(-1)!}`;
});

/** A write that takes its guard (an advisory lock) in the statement that writes it. */
export const guarded = (w: Write | GuardedWrite): w is GuardedWrite => "guard" in w;

/**
 * Whether `writes` can be one statement: the parts of a WITH all see the database as it was before
 * it, so two writes of one table (which may touch one row) must go one after the other. One write
 * alone is a statement already, but for a guarded one: its guard is then taken in the same statement.
 */
export function joinable(writes: readonly (Write | GuardedWrite)[]): boolean {
  const tables = new Set(writes.map((w) => getTableName(w.table)));
  return tables.size === writes.length && (writes.length > 1 || writes.some(guarded));
}

/**
 * Whether `e` is the joined statement's refusal of a write that must write a row and wrote none
 * (its main select divides by the count of such a write's rows): nothing was kept, and the batch
 * run as a transaction says which write it was.
 */
export const unwritten = (e: unknown): boolean => (e as { code?: unknown } | null)?.code === "22012";

/**
 * The one statement of `writes` (see `joinable`), its values filled in for node-postgres. Each guard
 * is a part (`pg_advisory_xact_lock`, as `Dialect.guard` takes it), which its writes read their rows
 * from: PostgreSQL runs a part another reads before that one. The main select divides by the count
 * of rows each write that must write (`mustWrite`) returned: none fails the whole statement.
 */
export function joinedQuery(
  db: Db,
  writes: readonly (Write | GuardedWrite)[],
): { name: string; text: string; values: unknown[] } {
  const guards = [...new Set(writes.filter(guarded).map(guardKey))];
  const held = (w: GuardedWrite) => `g${guards.indexOf(guardKey(w))}`;
  const checked = (w: Write | GuardedWrite) => !guarded(w) && w.mustWrite !== undefined;
  const keys = [
    ...guards.map(() => "guard"),
    ...writes.map((w) => (guarded(w) ? `${w.key} after ${held(w)}` : w.key)),
    writes.map((w) => (checked(w) ? "1" : "0")).join(""),
  ];
  const parts = () => {
    const locks = guards.map((_, i) => sql`${sql.raw(`g${i}`)} as (${LOCK})`);
    const made = writes.map((w, i) => {
      const part = guarded(w)
        ? w.after(sql.raw(held(w)))
        : (w.build(db) as unknown as { getSQL(): SQL }).getSQL();
      return sql`${sql.raw(`w${i}`)} as (${part})`;
    });
    const checks = writes.flatMap((w, i) =>
      checked(w) ? [sql`1 / (select count(*) from ${sql.raw(`w${i}`)})`] : [],
    );
    const main = sql`select ${checks.length > 0 ? sql.join(checks, sql`, `) : sql`1`}`;
    return [...locks, ...made, main];
  };
  const values = [
    ...guards.map((g) => {
      const [scope, key] = JSON.parse(g) as [string, string];
      return { scope, key };
    }),
    ...writes.map((w) => w.values),
    {},
  ];
  return joined(keys, parts, values);
}

/** `Dialect.guard`'s lock, as a part of a statement. */
const LOCK = sql`select pg_advisory_xact_lock(hashtext(${sql.placeholder("scope")}), hashtext(${sql.placeholder("key")}))`;

const guardKey = (w: GuardedWrite) => JSON.stringify([w.guard.scope, w.guard.key]);
