/**
 * `musicsync doctor`, about the state database: can it be written, is it at the schema this version
 * knows, does an account hold a lock its holder left behind, is a recipe or account suspended.
 * Only reads: the file is opened read-only and never migrated (a newer schema must not be touched).
 */
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { SqliteDialect } from "../../engine/state/sqlite/dialect.js";
import { engineMigrationsFolder } from "../../engine/state/sqlite.js";
import { State } from "../../engine/state/state.js";
import { parseStateUrl, type StateTarget } from "../../engine/state/url.js";
import type { StoredAccountsReader } from "./accounts.js";
import { type Check, error, ok, warning } from "./doctor-check.js";

import { lockChecks, suspensionChecks } from "./doctor-locks.js";

const SUBJECT = "state";

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
  } catch {
    return false;
  }
  // root passes every access check: a file nobody may write is read-only all the same.
  return process.getuid?.() !== 0 || (statSync(path).mode & 0o222) !== 0;
}

/** The nearest folder that exists at or above `path`'s folder (a first sync creates the rest). */
function existingFolder(path: string): string {
  let dir = dirname(path);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** drizzle's marker of the newest migration applied to a file (its `created_at`), or null. */
function appliedMarker(sqlite: Database.Database): number | null {
  const table = sqlite
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'")
    .get();
  if (!table) return null;
  const row = sqlite.prepare("SELECT MAX(created_at) AS last FROM __drizzle_migrations").get() as {
    last: number | string | null;
  };
  return row.last === null ? null : Number(row.last);
}

/** Writable and at the latest schema version; the state itself is then read for locks and suspensions. */
export async function stateChecks(
  file: string,
  recipeIds: readonly string[],
  nowMs: number,
): Promise<Check[]> {
  let target: StateTarget;
  try {
    target = parseStateUrl(file);
  } catch (e) {
    return [error(SUBJECT, (e as Error).message)];
  }
  if (target.kind !== "sqlite")
    return (await import("./doctor-pg.js")).pgStateChecks(target.url, recipeIds, nowMs);
  file = target.file;
  if (!existsSync(file)) {
    const folder = existingFolder(file);
    return writable(folder)
      ? [ok(SUBJECT, `${file} does not exist yet; the first sync creates it`)]
      : [error(SUBJECT, `${file} cannot be created: ${folder} is not writable`)];
  }
  const checks: Check[] = [];
  checks.push(
    writable(file) && writable(dirname(file))
      ? ok(SUBJECT, `${file} is writable`)
      : error(SUBJECT, `${file} is read-only (it and its folder must be writable): fix its permissions`),
  );
  let sqlite: Database.Database;
  try {
    sqlite = new Database(file, { readonly: true, fileMustExist: true });
  } catch (e) {
    return [...checks, error(SUBJECT, `cannot open ${file}: ${(e as Error).message}`)];
  }
  try {
    const schemaCheck = schemaVersion(file, sqlite);
    checks.push(schemaCheck);
    // A newer schema may have moved the tables: nothing more is read from it.
    if (schemaCheck.level === "error") return checks;
    const state = new State(new SqliteDialect(sqlite));
    checks.push(...(await lockChecks(state, nowMs)), ...(await suspensionChecks(state, recipeIds)));
  } catch (e) {
    checks.push(error(SUBJECT, `cannot read ${file}: ${(e as Error).message}`));
  } finally {
    sqlite.close();
  }
  return checks;
}

function schemaVersion(file: string, sqlite: Database.Database): Check {
  const known = readMigrationFiles({ migrationsFolder: engineMigrationsFolder() });
  const latest = Math.max(...known.map((m) => m.folderMillis));
  const applied = appliedMarker(sqlite);
  if (applied !== null && applied > latest) {
    return error(
      SUBJECT,
      `${file} has a newer schema than this musicsync knows: it was written by a newer version; upgrade musicsync`,
    );
  }
  if (applied === null || applied < latest) {
    return warning(SUBJECT, `${file} has an older schema; the next command that writes migrates it`);
  }
  return ok(SUBJECT, `${file} is at the latest schema version (${known.length} migrations)`);
}

/** The stored accounts of a SQLite state, read from the file opened read-only (never migrated). */
export function sqliteStoredAccounts(file: string): StoredAccountsReader {
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  const state = new State(new SqliteDialect(sqlite));
  return {
    storedAccounts: () => state.storedAccounts(),
    close: async () => {
      sqlite.close();
    },
  };
}
