/**
 * Counts what reaches a SQLite database through better-sqlite3 in this process, whatever code
 * drives it: each COMMIT and each write run outside a transaction (SQLite commits it on its own),
 * and of those the durable ones — made while the connection's `synchronous` was FULL or EXTRA, so
 * that the commit waited for the disk. Patches the driver's prototypes once per process: for tests
 * and benchmarks only.
 */
import Database from "better-sqlite3";

interface Counter {
  reset(): void;
  read(): { commits: number; durable: number };
}

type Db = Database.Database & { inTransaction: boolean };
type Fn = (...args: unknown[]) => unknown;

/** The connections' `synchronous` level as last set (SQLite's default, FULL = 2, until then). */
const levels = new WeakMap<object, number>();
const LEVELS: Record<string, number> = {
  off: 0,
  "0": 0,
  normal: 1,
  "1": 1,
  full: 2,
  "2": 2,
  extra: 3,
  "3": 3,
};

let commits = 0;
let durable = 0;
let patched = false;

function commit(db: object): void {
  commits++;
  if ((levels.get(db) ?? 2) >= 2) durable++;
}

/** The counter (its counts are the process's: one patch serves every caller). */
export function countCommits(): Counter {
  if (!patched) patch();
  patched = true;
  return {
    reset() {
      commits = 0;
      durable = 0;
    },
    read: () => ({ commits, durable }),
  };
}

function patch(): void {
  const proto = Database.prototype as unknown as Record<string, Fn>;
  const { exec, prepare, pragma } = proto as Record<"exec" | "prepare" | "pragma", Fn>;
  proto.pragma = function (this: Db, source: unknown, ...rest: unknown[]) {
    const set = /^\s*synchronous\s*=\s*(\w+)/i.exec(String(source));
    if (set) levels.set(this, LEVELS[set[1]!.toLowerCase()] ?? 2);
    return pragma.call(this, source, ...rest);
  };
  proto.exec = function (this: Db, source: unknown) {
    const text = String(source);
    const set = /synchronous\s*=\s*(\w+)/i.exec(text);
    if (set) levels.set(this, LEVELS[set[1]!.toLowerCase()] ?? 2);
    const result = exec.call(this, source);
    if (/^\s*(COMMIT|END)\b/i.test(text)) commit(this);
    return result;
  };
  proto.prepare = function (this: Db, source: unknown) {
    // `readonly`, not `reader`: an INSERT … RETURNING reads rows back, and writes.
    const statement = prepare.call(this, source) as Record<string, Fn> & { readonly: boolean };
    if (statement.readonly) return statement;
    for (const name of ["run", "get", "all"]) {
      const original = statement[name]!;
      statement[name] = (...args: unknown[]) => {
        const outside = !this.inTransaction;
        const result = original.apply(statement, args);
        if (outside) commit(this);
        return result;
      };
    }
    return statement;
  };
}
