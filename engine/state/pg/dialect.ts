/**
 * The PostgreSQL side of the seam (../dialect.ts), over a pool. Opening is synchronous for callers:
 * every call waits for the migration and opening work (whose failure the first call reports); an
 * unreachable server is retried (./reconnect.ts), then named without its password.
 */
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import { isSessionEnded, openingError, queryError } from "../../postgres/errors.js";
import { DEFAULT_RECONNECT, type Reconnect, reconnecting } from "../../postgres/reconnect.js";
import {
  type Db,
  type Dialect,
  type GuardedWrite,
  type Read,
  sendNow,
  type Write,
  within,
} from "../dialect.js";
import type { Tables } from "../tables.js";
import { readsQuery, rowsOf } from "./reads.js";
import { engineTables } from "./schema.js";
import { deferring, guarded, joinable, joinedQuery, unwritten } from "./writes.js";

export class PgDialect implements Dialect {
  readonly db: Db;
  readonly t: Tables = engineTables;
  private opened: Promise<void> = Promise.resolve();
  /** The calls under way, which close() lets finish. */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly migrate: (pool: pg.Pool) => Promise<void>,
    private readonly reconnect: Reconnect = DEFAULT_RECONNECT,
  ) {
    // An idle client whose server went away emits 'error' on the pool; unheard, that event would
    // end the process. The pool drops that client, and the next query connects afresh.
    pool.on("error", () => undefined);
    this.db = drizzle({ client: pool });
  }

  open(work: () => Promise<void>): Promise<void> {
    this.opened = (async () => {
      try {
        // A session the server ends under the opening (a restart, a short idle_session_timeout met
        // while this process was busy) is opened again: the migration and the opening work are
        // each one transaction, rolled back with their session, or idempotent.
        const again = <T>(step: () => Promise<T>) =>
          reconnecting(step, this.reconnect, Date.now, isSessionEnded);
        await again(() => this.migrate(this.pool));
        await again(work);
      } catch (e) {
        throw openingError(this.pool, e);
      }
    })();
    // Nobody may call before the process ends: the failure is reported by the first call.
    this.opened.catch(() => undefined);
    return this.opened;
  }

  call<T>(work: () => Promise<T>): Promise<T> {
    const run = (async () => {
      await this.opened;
      try {
        return await reconnecting(work, this.reconnect);
      } catch (e) {
        throw queryError(this.pool, e);
      }
    })();
    this.inFlight.add(run);
    const done = () => this.inFlight.delete(run);
    run.then(done, done);
    return run;
  }

  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(tx as unknown as Db));
  }

  /**
   * A batch of writes only is one statement (./writes.ts); one that reads, or whose writes cannot be
   * one statement, is a transaction, its work run again inside it.
   */
  async batch<T>(work: (d: Dialect) => Promise<T>): Promise<T> {
    const later = deferring(this);
    let result: T | undefined;
    try {
      result = await work(later.view);
    } catch (e) {
      if (!later.needed()) throw e;
    }
    if (!later.needed() && (await this.sent(later.writes))) return result as T;
    return this.transaction((tx) => work(within(this, tx)));
  }

  /** `reads` in one statement (./reads.ts). */
  readonly readTogether = async (reads: readonly Read[]): Promise<unknown[][]> => {
    const { rows } = await this.pool.query(readsQuery(this.db, reads));
    const answer = rows[0] as Record<string, Record<string, unknown>[]>;
    return reads.map((read, i) => rowsOf(this.db, read, answer[`r${i}`] ?? []));
  };

  /**
   * `writes` as one statement, or the one alone: false (nothing kept) where the batch must be a
   * transaction instead, which also says which write that must write a row wrote none.
   */
  private async sent(writes: readonly (Write | GuardedWrite)[]): Promise<boolean> {
    if (joinable(writes)) {
      try {
        await this.pool.query(joinedQuery(this.db, writes));
        return true;
      } catch (e) {
        if (unwritten(e)) return false;
        throw e;
      }
    }
    const [only, ...more] = writes;
    if (more.length > 0 || (only && guarded(only))) return false;
    if (only) await sendNow(this.db, only);
    return true;
  }

  /**
   * First a transaction-scoped advisory lock on (scope, key): under READ COMMITTED two transactions
   * could both read "no row" and write, and FOR UPDATE cannot lock a row not there yet. One lock,
   * taken first, so no deadlock; a hash collision only makes two keys wait for each other.
   */
  guarded<T>(scope: string, key: string, work: (tx: Db) => Promise<T>): Promise<T> {
    return this.transaction(async (tx) => {
      await this.guard(tx, scope, key);
      return work(tx);
    });
  }

  async guard(tx: Db, scope: string, key: string): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${scope}), hashtext(${key}))`);
  }

  /** Every commit is durable here: the server's fsyncs cost this process nothing. */
  lightly<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  /** `COLLATE "C"`: the database's own collation (en-US, say) would put `apple` before `Zed`, SQLite after. */
  bytewise(column: SQLWrapper): SQL {
    return sql`${column} collate "C"`;
  }

  /** Once opening has settled (a migration is never cut off midway) and the calls under way are done. */
  async close(): Promise<void> {
    await this.opened.catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
    await this.pool.end();
  }
}
