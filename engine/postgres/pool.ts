/**
 * The state's pool, sturdy against connections that end under it (a restart, `idle_session_timeout`,
 * a pooler). node-postgres hears an idle client's end but not a checked-out one's, and drizzle's
 * transactions check clients out: an end mid-transaction raised an unheard 'error' (ending the
 * process), and a failed `begin` never gave its client back (`end()` then waited for ever). Here a
 * checked-out client whose connection fails is released at once, as broken; releasing it again is
 * harmless.
 */
import pg from "pg";

type Done = (release?: unknown) => void;
type ConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: Done) => void;

export class StatePool extends pg.Pool {
  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | undefined {
    if (callback === undefined) return super.connect().then(guarded);
    super.connect((err, client, done) => {
      if (err || client === undefined) return callback(err, client, done);
      const safe = guarded(client);
      callback(undefined, safe, (e) => safe.release(e as Error | boolean | undefined));
    });
    return undefined;
  }
}

/** The client, released as broken the moment its connection fails, and released at most once. */
function guarded(client: pg.PoolClient): pg.PoolClient {
  const release = client.release;
  let released = false;
  const once = (err?: Error | boolean) => {
    if (released) return;
    released = true;
    client.removeListener("error", lost);
    release(err);
  };
  const lost = (e: Error) => once(e);
  client.on("error", lost);
  client.release = once;
  return client;
}

/**
 * node-postgres's client for a pool we do not build (pg-boss builds the job queue's, handing on its
 * options: `Client` among them), its connection's end always heard. pg-boss checks a client out for
 * some statements (a worker's fetch of its next job among them); the server ending that session
 * between two of them (its idle_session_timeout, met while the worker was starved of CPU: soak seed
 * 401 at a load of 21) raised an unheard 'error', which ended the worker. Heard, it only fails the
 * statement the client is given next, which pg-boss reports (its 'error' event) and tries again.
 */
export class HeardClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.on("error", () => undefined);
  }
}
