/**
 * Several reads in one statement on PostgreSQL (docs/ARCHITECTURE.md#the-state): each read a scalar
 * subquery that aggregates its rows into one JSON array, so the whole is one round trip where there
 * was one per read, and the reads see one snapshot of the database. The rows come back as JSON
 * objects keyed by column name, and are turned into what the read's own query would have given by
 * each selected column's own decoding.
 */
import { Column, is, type SQL, sql } from "drizzle-orm";
import type { Db, Read } from "../dialect.js";
import { combiner } from "./combine.js";

/**
 * A sorted subquery feeds an aggregate in its order when nothing else (a join) comes between: the
 * PostgreSQL manual's way for an aggregate's input order besides ORDER BY inside the call.
 */
const together = combiner("reads", (parts) => {
  const columns = parts.map((part, i) => {
    const r = sql.raw(`r${i}`);
    return sql`(select coalesce(json_agg(${r}), '[]'::json) from (${part}) ${r}) as ${r}`;
  });
  return sql`select ${sql.join(columns, sql`, `)}`;
});

interface Select {
  getSQL(): SQL;
  getSelectedFields(): Record<string, unknown>;
}

/** The one statement of `reads`, its values filled in for node-postgres. */
export function readsQuery(
  db: Db,
  reads: readonly Read[],
): { name: string; text: string; values: unknown[] } {
  return together(
    reads.map((r) => r.key),
    () => reads.map((r) => (r.build(db) as unknown as Select).getSQL()),
    reads.map((r) => r.values),
  );
}

/** Per field of a read's select, the column it reads (which names and decodes it). */
function columnsOf(db: Db, read: Read): [string, Column][] {
  const fields = Object.entries((read.build(db) as unknown as Select).getSelectedFields());
  return fields.map(([field, column]) => {
    if (!is(column, Column)) throw new Error(`read ${read.key}: field ${field} is not a column`);
    return [field, column];
  });
}

const columnsByKey = new Map<string, [string, Column][]>();

/** The rows of `read` from its JSON array (`json`), as its own query gives them. */
export function rowsOf(db: Db, read: Read, json: readonly Record<string, unknown>[]): unknown[] {
  let columns = columnsByKey.get(read.key);
  if (!columns) {
    columns = columnsOf(db, read);
    columnsByKey.set(read.key, columns);
  }
  const cs = columns;
  return json.map((raw) => {
    const row: Record<string, unknown> = {};
    for (const [field, column] of cs) {
      const value = raw[column.name];
      row[field] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row;
  });
}
