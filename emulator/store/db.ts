import Database from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { migrationsFolder as shipped } from "../../shared/package-root.js";
import { migrateSqlite, openSqliteFile } from "../../shared/sqlite-migrate.js";
import * as schema from "./schema.js";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/** The folder holding the emulator's migrations. */
export function migrationsFolder(from?: string): string {
  return shipped("emulator", from);
}

/**
 * Opens (creating it and its folder if needed) the emulator's database, or an in-memory copy of a
 * serialized one. Several emulators started on one new file at once migrate it one after the other
 * (the same helper as the engine's state: drizzle's migrator reads what is applied outside its
 * transaction, and the second one failed).
 */
export function openDb(file: string | Buffer): Db {
  const what = "emulator database";
  // A serialized database (Database#serialize) opens as an in-memory copy of it.
  const sqlite = typeof file === "string" ? openSqliteFile(file, what) : new Database(file);
  const name = typeof file === "string" ? file : ":memory:";
  try {
    sqlite.pragma("synchronous = NORMAL");
    sqlite.pragma("foreign_keys = OFF");
    migrateSqlite(sqlite, migrationsFolder(), name, what);
  } catch (e) {
    sqlite.close();
    throw e;
  }
  return drizzle(sqlite, { schema }) as Db;
}
