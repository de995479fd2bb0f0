/**
 * What a state setting names, read without touching the disk or the network and without loading a
 * database driver: `validate`, `doctor` and the project's paths need only this, and importing
 * ./open.ts would load better-sqlite3 (and the stores) with it.
 */
import { isAbsolute, resolve } from "node:path";

/** Where a state setting points: a SQLite file (or `:memory:`), or a PostgreSQL server. */
export type StateTarget = { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };

export class StateUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StateUrlError";
  }
}

// A scheme of two letters or more, so that a Windows drive (`C:\…`) still reads as a path.
const SCHEME = /^([a-z][a-z0-9+.-]+):/i;

/**
 * Reads a state setting, without touching the disk or the network:
 * - `path/to/state.db`, `/abs/state.db`, `:memory:` — SQLite;
 * - `sqlite:relative/path.db`, `sqlite:/abs/path.db`, `sqlite:///abs/path.db`, `sqlite::memory:` —
 *   SQLite (the path is taken as written: no percent-decoding);
 * - `postgres://…`, `postgresql://…` — PostgreSQL.
 * Anything else throws a StateUrlError naming the value (its password, if any, masked).
 */
export function parseStateUrl(value: string): StateTarget {
  if (value.trim() === "") throw new StateUrlError("the state setting is empty: give a file path or a URL");
  if (value === ":memory:") return { kind: "sqlite", file: value };
  const scheme = SCHEME.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) return { kind: "sqlite", file: value };
  if (scheme === "postgres" || scheme === "postgresql") return { kind: "postgres", url: value };
  if (scheme === "sqlite") return { kind: "sqlite", file: sqliteFileOf(value) };
  throw new StateUrlError(
    `unknown state ${JSON.stringify(masked(value))}: expected a file path, :memory:, sqlite:… or postgres://…`,
  );
}

/** The file of a `sqlite:` URL; `sqlite://host/…` has no meaning for a local file and is refused. */
function sqliteFileOf(url: string): string {
  const rest = url.slice("sqlite:".length);
  if (rest === "" || rest === "///")
    throw new StateUrlError(`no file in the state URL ${JSON.stringify(url)}: e.g. sqlite:state.db`);
  if (!rest.startsWith("//")) return rest;
  if (rest.startsWith("///")) return rest.slice(2);
  throw new StateUrlError(
    `a SQLite state URL takes no host: ${JSON.stringify(masked(url))} (write sqlite:///absolute/path.db or sqlite:relative/path.db)`,
  );
}

/** The value with the password of `scheme://user:password@host` replaced, for error messages. */
function masked(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^/:@]*):[^/@]*@/i, "$1:***@");
}

/**
 * A relative SQLite path (plain or `sqlite:`) resolved against `base` (the project's folder); others,
 * and a value that does not parse (openState refuses it with its message), returned unchanged.
 */
export function resolveStateUrl(value: string, base: string): string {
  let target: StateTarget;
  try {
    target = parseStateUrl(value);
  } catch {
    return value;
  }
  if (target.kind !== "sqlite" || target.file === ":memory:" || isAbsolute(target.file)) return value;
  return resolve(base, target.file);
}
