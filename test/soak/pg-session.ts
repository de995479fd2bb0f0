/**
 * One connection kept for a loop's many small reads (the fleet's queue polled four times a
 * second, a lock looked for every 50 ms): a new session costs the server a backend of its own, and
 * those backends were most of the fleet's PostgreSQL CPU. A read that fails drops the connection,
 * and the next read opens a new one, so a database that blinks (or ends this session) still fails
 * only the reads made while it is down.
 */
import pg from "pg";

export interface Reader {
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

export class ReusedSession implements Reader {
  private client: pg.Client | null = null;

  constructor(private readonly url: string) {}

  async query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>> {
    try {
      if (this.client === null) {
        const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 5_000 });
        // A session ended by a fault while idle: the next query fails, and that one reconnects.
        client.on("error", () => undefined);
        this.client = client;
        await client.connect();
      }
      return await this.client.query<R>(text, values);
    } catch (e) {
      await this.close();
      throw e;
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

/** A connection for one piece of work only, closed after it, whatever happens. */
export async function withSession<T>(url: string, work: (r: Reader) => Promise<T>): Promise<T> {
  const session = new ReusedSession(url);
  try {
    return await work(session);
  } finally {
    await session.close();
  }
}
