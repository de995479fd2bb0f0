/**
 * Opening the emulator's database: better-sqlite3 under drizzle, migrations applied on start.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "./schema.js";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/**
 * The folder holding the migrations: found by walking up from this file to the directory with
 * `package.json`, so the same code works from `emulator/store/` and from `dist/emulator/store/`.
 */
export function migrationsFolder(from: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    if (existsSync(join(dir, "package.json"))) return join(dir, "migrations", "emulator");
    const parent = dirname(dir);
    if (parent === dir) throw new Error("emulator: no package.json above " + fileURLToPath(from));
    dir = parent;
  }
}

export function openDb(file: string): Db {
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = OFF");
  const db = drizzle(sqlite, { schema }) as Db;
  migrate(db, { migrationsFolder: migrationsFolder() });
  return db;
}
