/**
 * `openState(url)`: the one way the engine opens its state, whatever holds it. A file path,
 * `:memory:` or a `sqlite:` URL opens SQLite; `postgres://` (or `postgresql://`) opens PostgreSQL,
 * connecting and migrating behind the state's first call (engine/state/pg.ts). What a setting
 * names is read by ./url.ts, which loads no driver.
 */
import { deferredState } from "./deferred.js";
import { type OpenStateOptions, openSqliteState } from "./sqlite.js";
import type { EngineState } from "./types.js";
import { parseStateUrl } from "./url.js";

/**
 * Opens the state a setting points to (see parseStateUrl); a relative path is relative to the cwd.
 * PostgreSQL's driver (pg and the stores over it, some 30 files) is imported by the state's first
 * call, so that a process on SQLite never loads it; that call already waits for the connection.
 */
export function openState(url: string, options: OpenStateOptions = {}): EngineState {
  const target = parseStateUrl(url);
  if (target.kind === "postgres") {
    return deferredState(async () => (await import("./pg.js")).openPgState(target.url, options));
  }
  return openSqliteState(target.file, options);
}
