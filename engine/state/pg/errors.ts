/**
 * Errors of the PostgreSQL state that name the server as `host:port/database` and never carry its
 * password: not in the message, and not in a `cause` either (a URL parser's error keeps the whole
 * URL in its `input`, which Node prints with an uncaught error's cause chain).
 */
import type pg from "pg";
import { describePool, PgMigrationError } from "../pg-migrate.js";

export class PgStateError extends Error {
  /** The original error's code, when it had one (`ECONNREFUSED`, `28P01`, `3D000`…). */
  readonly code: string | undefined;

  constructor(
    /** `host:port/database`. */
    readonly database: string,
    what: string,
    cause: unknown,
    secret: string,
  ) {
    super(`${what} ${database}: ${redact(messageOf(cause), secret)}`);
    this.name = "PgStateError";
    const code = (cause as { code?: unknown } | null)?.code;
    this.code = typeof code === "string" ? code : undefined;
  }
}

function messageOf(e: unknown): string {
  if (e instanceof AggregateError && e.errors.length > 0 && e.message === "")
    return e.errors.map(messageOf).join("; ");
  return e instanceof Error ? e.message : String(e);
}

function redact(message: string, secret: string): string {
  return secret === "" ? message : message.split(secret).join("***");
}

/**
 * Why opening failed (the migration, or closing abandoned runs), as an error naming the server.
 * The migrator's own error already does (and says which migration): it is kept as it is.
 */
export function openingError(pool: pg.Pool, e: unknown): Error {
  if (e instanceof PgMigrationError) return e;
  const { database, secret } = describePool(pool);
  return new PgStateError(database, "cannot open the state database", e, secret);
}

// SQLSTATE classes of a connection that failed or was refused: 08 connection exception, 28 invalid
// authorisation, 3D000 no such database, 53300 too many connections, 57P01-57P03 server shut down.
const CONNECTION_STATES = /^(08|28)...$|^3D000$|^53300$|^57P0[1-3]$/;
// Node's socket errors (ECONNREFUSED, ENOTFOUND, ETIMEDOUT, EAI_AGAIN…).
const SOCKET_CODES = /^E[A-Z_]+$/;
// node-postgres' own connection failures, which carry no code.
const POOL_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|not queryable/i;

/** Whether an error is about reaching the server rather than about a query. */
export function isConnectionError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === "string") return CONNECTION_STATES.test(code) || SOCKET_CODES.test(code);
  return e instanceof Error && POOL_MESSAGES.test(messageOf(e));
}

/** A connection error met by a query, as an error naming the server; other errors unchanged. */
export function queryError(pool: pg.Pool, e: unknown): unknown {
  if (!isConnectionError(e)) return e;
  const { database, secret } = describePool(pool);
  return new PgStateError(database, "the state database", e, secret);
}
