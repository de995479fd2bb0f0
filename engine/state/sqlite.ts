/**
 * EngineState on SQLite (better-sqlite3): the stores (./state.ts) over the SQLite dialect
 * (./sqlite/dialect.ts), migrated on open, so a new file and an old one both come up on the current schema.
 */
import { migrationsFolder } from "../../shared/package-root.js";
import { migrateSqlite, openSqliteFile, SqliteFileError } from "../../shared/sqlite-migrate.js";
import type { Stored } from "./dialect.js";
import { SqliteDialect } from "./sqlite/dialect.js";
import { State } from "./state.js";
import { closingAbandonedRuns } from "./stores/runs.js";
import type { EngineState } from "./types.js";

export function engineMigrationsFolder(from?: string): string {
  return migrationsFolder("engine", from);
}

export interface OpenStateOptions {
  /**
   * A run of another machine left `running` is closed as interrupted once it is older than this and
   * its holder keeps no fresher heartbeat on the account's lock (default: the lock staleness, 5 min).
   */
  lockStaleMs?: number;
  /** Wall-clock now, for that check (tests). */
  now?: number;
}

/**
 * Opens (creating it and its folder if needed) the state database; `:memory:` for tests; safe for
 * many processes at once; every error names the file. Typed as EngineState, not the class: this
 * module is public, and the class names drizzle's and better-sqlite3's types, which a consumer
 * could not read without `skipLibCheck` and our devDependencies.
 */
export function openSqliteState(file: string, options: OpenStateOptions = {}): EngineState {
  const what = "state database";
  const sqlite = openSqliteFile(file, what);
  try {
    // The journal is what makes a killed run safe: each write must reach the disk before the next request.
    sqlite.pragma("synchronous = FULL");
    migrateSqlite(sqlite, engineMigrationsFolder(), file, what);
  } catch (e) {
    sqlite.close();
    throw e instanceof SqliteFileError ? e : new SqliteFileError(file, `cannot open the ${what}`, e);
  }
  // Closing abandoned runs is the first call in the queue; should it fail, every call says why.
  const close = closingAbandonedRuns(options);
  const opening = async (state: Stored) => {
    try {
      await close(state);
    } catch (e) {
      throw new SqliteFileError(file, `cannot open the ${what}`, e);
    }
  };
  return new State(new SqliteDialect(sqlite), { opening });
}
