/**
 * Opening a SQLite file and applying drizzle's migrations so that any number of processes can do it
 * at once. drizzle's own migrator reads the list of applied migrations before its transaction, so
 * two processes opening a new file together both see "none applied" and the second fails with
 * "table … already exists". Here the read happens inside one `BEGIN IMMEDIATE` transaction (the
 * write lock first, then the read), after `busy_timeout`, so the second process waits for the
 * first and then finds everything applied. The table keeps drizzle's layout, so databases migrated
 * by drizzle before stay compatible both ways. Shared by the engine's state and the emulator's store.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import Database from "better-sqlite3";
import { type MigrationMeta, readMigrationFiles } from "drizzle-orm/migrator";

const TABLE = "__drizzle_migrations";
/** How long a process waits for another's write lock (a migration, a journal write) before failing. */
export const BUSY_TIMEOUT_MS = 30_000;

/** A state file that cannot be opened or migrated; the message names the file. */
export class SqliteFileError extends Error {
  constructor(
    readonly file: string,
    what: string,
    cause: unknown,
    detail = "",
  ) {
    super(`${what} ${file}${detail}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "SqliteFileError";
  }
}

/**
 * Opens (creating it and its folder if needed) a database file, waiting on other processes' locks.
 * `what` names the database in errors ("state database", "emulator database").
 */
export function openSqliteFile(file: string, what: string): Database.Database {
  const memory = file === ":memory:" || file === "";
  const path = memory ? file : resolve(file);
  let sqlite: Database.Database;
  try {
    // A missing folder is created: a first run with `state: data/state.db` should just work.
    if (!memory) mkdirSync(dirname(path), { recursive: true });
    sqlite = new Database(path);
  } catch (e) {
    throw new SqliteFileError(path, `cannot open the ${what}`, e);
  }
  try {
    // Before anything that takes a lock (switching to WAL does): wait for other processes, never fail at once.
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (!memory) whileBusy(() => sqlite.pragma("journal_mode = WAL"));
  } catch (e) {
    sqlite.close();
    throw new SqliteFileError(path, `cannot open the ${what}`, e);
  }
  return sqlite;
}

/**
 * Runs `step` again while SQLite answers SQLITE_BUSY without waiting: switching a new file to WAL
 * while another process does the same is refused at once (the busy handler is not called for it).
 * Bounded: after about BUSY_TIMEOUT_MS the error goes to the caller.
 */
function whileBusy<T>(step: () => T): T {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return step();
    } catch (e) {
      const busy = (e as { code?: string }).code?.startsWith("SQLITE_BUSY") === true;
      if (!busy || Date.now() - started > BUSY_TIMEOUT_MS) throw e;
      // A synchronous pause (opening is synchronous): a few ms, growing, jittered so openers spread out.
      Atomics.wait(
        new Int32Array(new SharedArrayBuffer(4)),
        0,
        0,
        Math.min(100, attempt * 5) + Math.random() * 10,
      );
    }
  }
}

/** The `created_at` of the newest applied migration (drizzle's marker of progress), or null. */
function lastApplied(sqlite: Database.Database): number | null {
  const exists = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(TABLE);
  if (!exists) return null;
  const row = sqlite.prepare(`SELECT created_at FROM "${TABLE}" ORDER BY created_at DESC LIMIT 1`).get() as
    | { created_at: number | string }
    | undefined;
  return row ? Number(row.created_at) : null;
}

/** The migrations newer than the last applied one (drizzle's own rule: by folder time); PostgreSQL's too. */
export function pending(migrations: readonly MigrationMeta[], last: number | null): MigrationMeta[] {
  return migrations.filter((m) => last === null || last < m.folderMillis);
}

/**
 * The folder time of the newest migration in `folder`'s journal (drizzle's `when`, its MigrationMeta's
 * folderMillis), or null for an empty journal: what tells an up-to-date database without reading
 * and hashing every migration's SQL, which a command opening its state would do on each run.
 */
export function newestMigration(folder: string): number | null {
  const journal = JSON.parse(readFileSync(`${folder}/meta/_journal.json`, "utf8")) as {
    entries: { when: number }[];
  };
  const times = journal.entries.map((e) => e.when);
  return times.length > 0 ? Math.max(...times) : null;
}

/**
 * Applies the migrations of `folder` not applied yet, all in one IMMEDIATE transaction that reads
 * the applied list under the write lock. An up-to-date database is only read (no write lock taken),
 * and only the journal of the folder: nothing is pending when the last applied is as new as its
 * newest entry (pending's rule).
 */
export function migrateSqlite(sqlite: Database.Database, folder: string, file: string, what: string): void {
  const unreadable = (e: unknown) =>
    new SqliteFileError(file, `cannot read the migrations of the ${what}`, e);
  let newest: number | null;
  try {
    newest = newestMigration(folder);
  } catch (e) {
    throw unreadable(e);
  }
  const last = whileBusy(() => lastApplied(sqlite));
  if (newest === null || (last !== null && last >= newest)) return;
  let migrations: MigrationMeta[];
  try {
    migrations = readMigrationFiles({ migrationsFolder: folder });
  } catch (e) {
    throw unreadable(e);
  }
  if (pending(migrations, last).length === 0) return;
  let applying: number | null = null;
  try {
    const apply = sqlite.transaction(() => {
      sqlite.exec(
        `CREATE TABLE IF NOT EXISTS "${TABLE}" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`,
      );
      const insert = sqlite.prepare(`INSERT INTO "${TABLE}" ("hash", "created_at") VALUES (?, ?)`);
      // Read again under the lock: another process may have migrated while this one waited.
      for (const m of pending(migrations, lastApplied(sqlite))) {
        applying = migrations.indexOf(m);
        for (const statement of m.sql) if (statement.trim() !== "") sqlite.exec(statement);
        insert.run(m.hash, m.folderMillis);
      }
    });
    // IMMEDIATE: the write lock before the read. Waited for through busy_timeout; retried in case
    // SQLite refuses at once (a busy answer that skips the handler) — a rollback leaves nothing half done.
    whileBusy(() => apply.immediate());
  } catch (e) {
    // The index is the migration's number in the folder (`0002_…`).
    const which = applying !== null ? ` (migration ${String(applying).padStart(4, "0")})` : "";
    throw new SqliteFileError(file, `cannot migrate the ${what}`, e, which);
  }
}
