/**
 * The EngineState for both databases: the stores' methods (./stores/) on this class's prototype (so
 * a Proxy or spy sees each), each call run through the dialect (./dialect.ts). A store method never
 * calls the state's (on SQLite it would wait behind itself in the queue): stores share functions.
 */
import type { Dialect, Stored } from "./dialect.js";
import { accountStore } from "./stores/accounts.js";
import { approvalStore } from "./stores/approvals.js";
import { healthStore } from "./stores/health.js";
import { lockStore, type RowLocks } from "./stores/locks.js";
import { matchStore } from "./stores/matches.js";
import { ownershipStore } from "./stores/ownership.js";
import { runStore } from "./stores/runs.js";
import type { EngineState, Stores } from "./types.js";

/** Locks held beyond their rows (PostgreSQL's sessions, ./pg/leases.ts), built over the rows' methods. */
export interface Leases extends RowLocks {
  lockLost(lockId: string): string | null;
  close(): Promise<void>;
}

export interface StateOptions {
  /** What opening does once the database is migrated (closing abandoned runs), given the state. */
  opening?: (state: Stored) => Promise<void>;
  leases?: (rows: RowLocks) => Leases;
}

export interface State extends EngineState {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: see the interface.
export class State implements Stored {
  /** Settles once the state is open; rejects with why it could not (as every call then does). */
  readonly ready: Promise<void>;
  private readonly leases: Leases | null;
  /** Where lock calls go: the leases when there are, else the rows. */
  readonly locking: RowLocks;
  private closing: Promise<void> | null = null;

  constructor(
    readonly d: Dialect,
    options: StateOptions = {},
  ) {
    const rows = Object.fromEntries(
      Object.entries(lockStore).map(([name, method]) => [name, method.bind(this)]),
    ) as RowLocks;
    this.leases = options.leases?.(rows) ?? null;
    this.locking = this.leases ?? rows;
    const opening = options.opening;
    this.ready = d.open(async () => opening?.(this));
    this.ready.catch(() => undefined);
  }

  lockLost(lockId: string): string | null {
    return this.leases?.lockLost(lockId) ?? null;
  }

  batch<T>(work: (stores: Stores) => Promise<T>): Promise<T> {
    return this.d.call(() => this.d.batch((d) => work(storesOver({ d }))));
  }

  /** Once opening has settled and the calls under way are done; idempotent. */
  close(): Promise<void> {
    this.closing ??= this.ready
      .catch(() => undefined)
      .then(() => this.leases?.close())
      .then(() => this.d.close());
    return this.closing;
  }
}

type Method = (this: Stored, ...args: unknown[]) => Promise<unknown>;

const STORES = [runStore, ownershipStore, healthStore, matchStore, approvalStore, accountStore];

/**
 * Calls whose commits need not wait for the disk (Dialect.lightly): the locks, which die with their
 * process anyway; a run's start, its recipe's generation and what it recorded for undo, which the
 * journal's durable commit before the run's first write (or the run's end) carries with it.
 */
const LIGHT = new Set([
  "acquireLock",
  "heartbeat",
  "releaseLock",
  "startRun",
  "recordGeneration",
  "recordRunBefore",
]);

/** Puts `method` on the prototype under `name`, run as one call of the dialect. */
function define(name: string, method: Method): void {
  const light = LIGHT.has(name);
  Object.defineProperty(State.prototype, name, {
    value(this: State, ...args: unknown[]) {
      const call = () => method.apply(this, args);
      return this.d.call(light ? () => this.d.lightly(call) : call);
    },
    writable: true,
    configurable: true,
  });
}

for (const store of STORES) {
  for (const [name, method] of Object.entries(store)) define(name, method as Method);
}
for (const name of Object.keys(lockStore) as (keyof RowLocks)[]) {
  define(name, function (this: Stored, ...args: unknown[]) {
    return ((this as State).locking[name] as (...a: unknown[]) => Promise<unknown>)(...args);
  });
}

/** Every store's methods, on one object: a batch's stores take it as their prototype. */
const STORE_METHODS: object = Object.assign({}, ...STORES);

/**
 * The stores' methods over `stored` as they are, for a batch's calls: `stored`'s dialect as their
 * `this.d`, the methods shared (made once, not per batch).
 */
function storesOver(stored: Stored): Stores {
  return Object.assign(Object.create(STORE_METHODS), { d: stored.d }) as Stores;
}
