/** The PostgreSQL column builders (./tables.ts builds the engine's tables from them or SQLite's). */
import * as pgCore from "drizzle-orm/pg-core";

export const pgColumns = {
  table: pgCore.pgTable,
  /** An integer key numbered by the database. */
  id: (name: string) => pgCore.serial(name).primaryKey(),
  text: (name: string) => pgCore.text(name),
  int: (name: string) => pgCore.integer(name),
  time: (name: string) => pgCore.bigint(name, { mode: "number" }),
  real: (name: string) => pgCore.doublePrecision(name),
  index: pgCore.index,
  uniqueIndex: pgCore.uniqueIndex,
  primaryKey: pgCore.primaryKey,
};
