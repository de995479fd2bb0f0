/**
 * The SQLite side of the seam (../dialect.ts), over one better-sqlite3 connection. Its transactions
 * are synchronous (a callback that awaits commits before its awaited half), but the stores await
 * between read and write: so a transaction is `BEGIN IMMEDIATE`, the work, `COMMIT` (or `ROLLBACK`),
 * and every call runs in a queue, so nothing of another caller lands inside one left open across an
 * await (each query blocks the process anyway: the queue costs nothing). BEGIN IMMEDIATE takes the
 * write lock before the first read, waiting for another process's: the guard between processes,
 * for every key, so `guarded` is a plain transaction.
 */
import type Database from "better-sqlite3";
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { type Db, type Dialect, within } from "../dialect.js";
import { engineTables } from "../schema.js";
import type { Tables } from "../tables.js";

export class SqliteDialect implements Dialect {
  readonly db: Db;
  readonly t: Tables = engineTables;
  /** The last call queued; each next one starts when it has settled. */
  private tail: Promise<unknown> = Promise.resolve();
  private opened: Promise<void> = Promise.resolve();

  constructor(private readonly sqlite: Database.Database) {
    this.db = drizzle(withStatementCache(sqlite)) as unknown as Db;
  }

  open(work: () => Promise<void>): Promise<void> {
    this.opened = this.queued(work);
    return this.opened;
  }

  call<T>(work: () => Promise<T>): Promise<T> {
    return this.queued(async () => {
      await this.opened;
      return work();
    });
  }

  private queued<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  async transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    this.sqlite.exec("BEGIN IMMEDIATE");
    try {
      const result = await work(this.db);
      this.sqlite.exec("COMMIT");
      return result;
    } catch (e) {
      // A failed COMMIT (the disk full) may have ended the transaction already.
      if (this.sqlite.inTransaction) this.sqlite.exec("ROLLBACK");
      throw e;
    }
  }

  /** Its writes go as they come: each costs no more than a call, and the commit is one either way. */
  batch<T>(work: (d: Dialect) => Promise<T>): Promise<T> {
    return this.transaction((tx) => work(within(this, tx)));
  }

  guarded<T>(_scope: string, _key: string, work: (tx: Db) => Promise<T>): Promise<T> {
    return this.transaction(work);
  }

  /** BEGIN IMMEDIATE already holds the database's one write lock. */
  async guard(): Promise<void> {}

  /**
   * With `synchronous = NORMAL` for the call: in WAL mode a commit then reaches the log without
   * waiting for the disk. It stays atomic, and a killed process loses nothing; only a power cut may
   * lose it, until the next FULL commit, which writes the log through to the disk with it.
   */
  async lightly<T>(work: () => Promise<T>): Promise<T> {
    // exec: pragma() would prepare a statement on every run of a sync, to return nothing.
    this.sqlite.exec("PRAGMA synchronous = NORMAL");
    try {
      return await work();
    } finally {
      this.sqlite.exec("PRAGMA synchronous = FULL");
    }
  }

  bytewise(column: SQLWrapper): SQL {
    return sql`${column}`;
  }

  async close(): Promise<void> {
    await this.tail;
    this.sqlite.close();
  }
}

/**
 * The connection as drizzle sees it, preparing each distinct SQL text once: drizzle asks for a new
 * statement on every query, and compiling one costs more than running it. A reader's statement
 * is handed back in object mode: drizzle switches it to arrays (`raw()`) where it maps the rows
 * itself and expects objects where it does not, for what may be the same text.
 */
const STATEMENTS_KEPT = 256;

function withStatementCache(sqlite: Database.Database): Database.Database {
  const prepared = new Map<string, Database.Statement>();
  const prepare = (source: string) => {
    let statement = prepared.get(source);
    if (statement === undefined) {
      statement = sqlite.prepare(source);
      // Texts that name a varying count of values (multi-row inserts) are many: keep the newest.
      if (prepared.size >= STATEMENTS_KEPT) prepared.delete(prepared.keys().next().value!);
      prepared.set(source, statement);
    } else if (statement.reader) statement.raw(false);
    return statement;
  };
  return new Proxy(sqlite, {
    get: (target, key) => {
      if (key === "prepare") return prepare;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
