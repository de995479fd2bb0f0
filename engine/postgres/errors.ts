/**
 * PostgreSQL connection errors, and naming a server as `host:port/database` without its password,
 * for the state (engine/state/pg/), the worker's job queue and `doctor`. The password is in no
 * message and no `cause` (a URL parser's error keeps the whole URL in its `input`, which Node
 * prints with an uncaught error's cause chain).
 */
import type pg from "pg";
import { Redactor } from "../../shared/redact.js";

export class PgStateError extends Error {
  /** The original error's code, when it had one (`ECONNREFUSED`, `28P01`, `3D000`…). */
  readonly code: string | undefined;

  constructor(
    /** `host:port/database`. */
    readonly database: string,
    /** What happened, naming the database ("cannot open the state database h:p/db"). */
    what: string,
    cause: unknown,
    secret: string,
    /** The server could not be reached (engine/state/unreachable.ts): nothing was recorded, try again later. */
    readonly stateUnreachable = false,
  ) {
    super(`${what}: ${redact(messageOf(rootOf(cause)), secret)}`);
    this.name = "PgStateError";
    this.code = codeOf(cause);
  }
}

/**
 * The error under drizzle's wrapper: a failed query comes as "Failed query: <sql> params: <values>"
 * with the driver's error as its cause. The SQL and its values say nothing of why a server could
 * not be reached, and a value may be anything a caller stored; the driver's error says it all.
 */
function rootOf(e: unknown): unknown {
  let current = e;
  for (let depth = 0; depth < 5; depth++) {
    const cause = (current as { cause?: unknown } | null)?.cause;
    if (!(current instanceof Error) || !("query" in current) || cause === undefined) return current;
    current = cause;
  }
  return current;
}

function codeOf(e: unknown): string | undefined {
  const code = (rootOf(e) as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function messageOf(e: unknown): string {
  if (e instanceof AggregateError && e.errors.length > 0 && e.message === "")
    return e.errors.map(messageOf).join("; ");
  return e instanceof Error ? e.message : String(e);
}

/**
 * The message without the password: whole, as `***`; then in every spelling (percent-encoded,
 * base64…) and every 12-character piece of one, as the client scrubs its own credentials
 * (shared/redact.ts), for a server or driver may echo any of them.
 */
export function redact(message: string, secret: string): string {
  if (secret === "") return message;
  return new Redactor(() => [secret]).text(message.split(secret).join("***"));
}

/**
 * The pool's database as `host:port/dbname` for messages, and its password (to be kept out of
 * them). Read from the pool's options: a connection string, or separate fields.
 */
export function describePool(pool: pg.Pool): { database: string; secret: string } {
  const options = pool.options;
  let host = options.host;
  let port = options.port !== undefined ? String(options.port) : undefined;
  let name = options.database;
  let user = options.user;
  let secret = typeof options.password === "string" ? options.password : "";
  if (options.connectionString !== undefined) {
    try {
      const url = new URL(options.connectionString);
      host ??= decodeURIComponent(url.hostname) || url.searchParams.get("host") || undefined;
      port ??= url.port || url.searchParams.get("port") || undefined;
      name ??= decodeURIComponent(url.pathname.slice(1)) || undefined;
      user ??= decodeURIComponent(url.username) || undefined;
      secret ||= decodeURIComponent(url.password);
    } catch {
      // Not a URL (a key=value string): name the database as unknown rather than echo the string.
    }
  }
  return { database: `${host ?? "localhost"}:${port ?? "5432"}/${name ?? user ?? "?"}`, secret };
}

/**
 * Why opening failed (the migration, or closing abandoned runs), as an error naming the server.
 * The migrator's own error already does (and says which migration): it is kept as it is.
 */
export function openingError(pool: pg.Pool, e: unknown): Error {
  if (e instanceof PgStateError) return e;
  const { database, secret } = describePool(pool);
  return new PgStateError(database, `cannot open the state database ${database}`, e, secret);
}

// SQLSTATE classes of a connection that failed or was refused: 08 connection exception, 28 invalid
// authorisation, 3D000 no such database, 53300 too many connections, 57P01-57P03 server shut down,
// 57P05 ended by the server's idle_session_timeout. A FATAL 55000 is a database that does not take
// connections for now (ALLOW_CONNECTIONS false, as during maintenance): it comes back like a restart.
const CONNECTION_STATES = /^(08|28)...$|^3D000$|^53300$/;
/** The server ended the session: 57P01-57P03 shut down, 57P05 its idle_session_timeout. */
const SESSION_ENDED = /^57P0[1235]$/;
// Node's socket errors (ECONNREFUSED, ENOTFOUND, ETIMEDOUT, EAI_AGAIN…).
const SOCKET_CODES = /^E[A-Z_]+$/;
// node-postgres' own connection failures, which carry no code.
const POOL_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|not queryable/i;

/** Whether an error is about reaching the server rather than about a query (drizzle's wrapper looked through). */
export function isConnectionError(e: unknown): boolean {
  const root = rootOf(e);
  const code = codeOf(root);
  if (code === "55000") return (root as { severity?: unknown }).severity === "FATAL";
  if (code !== undefined)
    return CONNECTION_STATES.test(code) || SESSION_ENDED.test(code) || SOCKET_CODES.test(code);
  return root instanceof Error && POOL_MESSAGES.test(messageOf(root));
}

/**
 * Whether the server ended a session it had let in (a restart, its idle_session_timeout) rather than
 * refused one: opening tries again after that, but says at once that a server cannot be reached.
 */
export function isSessionEnded(e: unknown): boolean {
  // Through every cause: the migrator wraps what the server said in an error of its own.
  for (let link = e, depth = 0; link instanceof Error && depth < 5; link = link.cause, depth++) {
    const code = codeOf(link);
    if (code !== undefined && SESSION_ENDED.test(code)) return true;
    if (code === undefined && /Connection terminated/i.test(link.message)) return true;
  }
  return false;
}

/** A connection error met by a query, as an error naming the server; other errors unchanged. */
export function queryError(pool: pg.Pool, e: unknown): unknown {
  if (!isConnectionError(e)) return e;
  const { database, secret } = describePool(pool);
  return new PgStateError(database, `the state database ${database} was unreachable`, e, secret, true);
}
