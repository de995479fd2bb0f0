/**
 * The PostgreSQL EngineState: one store per part of the state (./runs.ts, ./health.ts, …), all over
 * one pool, joined here method by method (prototype methods, so a Proxy or a spy over the state
 * sees each one), as ../sqlite/state.ts does for SQLite.
 *
 * Opening stays synchronous for callers (openState returns a state at once) although connecting and
 * migrating are not: the constructor starts `ready` (migrate, then close the runs a process that is
 * gone left `running`) and every method waits for it first, so no method ever runs on a database
 * that is not migrated, and an opening failure surfaces from the first call (and from close()
 * never: closing a state that could not open just ends its pool).
 *
 * Once open, a call that cannot reach the server (a restart, a failover) is tried again for a
 * while (./reconnect.ts): the pool opens new connections as the old ones fail.
 */
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { DEFAULT_LOCK_STALE_MS } from "../holder.js";
import type { EngineState } from "../types.js";
import { PgAccountStore } from "./accounts.js";
import { PgApprovalStore } from "./approvals.js";
import type { PgDb } from "./common.js";
import { openingError, queryError } from "./errors.js";
import { PgHealthStore } from "./health.js";
import { type LeaseChecks, PgLeaseLockStore } from "./leases.js";
import { PgLockStore } from "./locks.js";
import { PgMatchStore } from "./matches.js";
import { PgOwnershipStore } from "./ownership.js";
import { DEFAULT_RECONNECT, type Reconnect, reconnecting } from "./reconnect.js";
import { PgRunStore } from "./runs.js";
import * as schema from "./schema.js";

type Args<K extends keyof EngineState> = Parameters<NonNullable<EngineState[K]>>;

/** Idle time after which TCP keepalive starts probing a lock's connection. */
const KEEPALIVE_MS = 5_000;

export interface PgStateOptions {
  /** Brings the database to the current schema; concurrent openers must be safe (../pg-migrate.ts). */
  migrate: (pool: pg.Pool) => Promise<void>;
  /** As OpenStateOptions: the staleness after which another machine's `running` run is closed. */
  lockStaleMs?: number;
  /** Wall-clock now, for that check (tests). */
  now?: number;
  /** How long a call keeps trying while the server cannot be reached (default 30 s). */
  reconnect?: Reconnect;
  /** How often a held lock's session is checked (default every 3 s, 10 s to answer). */
  leaseChecks?: LeaseChecks;
}

export class PgState implements EngineState {
  /** Settles once the database is migrated and abandoned runs closed; rejects with why it could not. */
  readonly ready: Promise<void>;
  private readonly runStore: PgRunStore;
  private readonly ownershipStore: PgOwnershipStore;
  private readonly lockStore: PgLeaseLockStore;
  private readonly healthStore: PgHealthStore;
  private readonly matchStore: PgMatchStore;
  private readonly approvalStore: PgApprovalStore;
  private readonly accountStore: PgAccountStore;
  private closing: Promise<void> | null = null;
  private readonly reconnect: Reconnect;

  constructor(
    private readonly pool: pg.Pool,
    options: PgStateOptions,
  ) {
    // An idle client whose server went away emits 'error' on the pool; unheard, that event would
    // end the process. The pool drops that client, and the next query connects afresh.
    pool.on("error", () => undefined);
    const db: PgDb = drizzle({ client: pool, schema });
    this.runStore = new PgRunStore(db);
    this.ownershipStore = new PgOwnershipStore(db);
    // Each held lock keeps a connection of its own (./leases.ts), outside the pool.
    this.lockStore = new PgLeaseLockStore(new PgLockStore(db), () => sessionOf(pool), options.leaseChecks);
    this.healthStore = new PgHealthStore(db);
    this.matchStore = new PgMatchStore(db);
    this.approvalStore = new PgApprovalStore(db);
    this.accountStore = new PgAccountStore(db);
    this.reconnect = options.reconnect ?? DEFAULT_RECONNECT;
    this.ready = opening(pool, this.runStore, options);
    // Nobody may call a method before the process ends: the failure is reported by the first call.
    this.ready.catch(() => undefined);
  }

  /**
   * After `ready`, tried again while the server cannot be reached; a connection error that outlasts
   * that is named by host:port/database, never with the password.
   */
  private async after<T>(call: () => Promise<T>): Promise<T> {
    await this.ready;
    try {
      return await reconnecting(call, this.reconnect);
    } catch (e) {
      throw queryError(this.pool, e);
    }
  }

  /** Closes the runs a process that is gone left `running` (see PgRunStore); returns their ids. */
  closeAbandonedRuns(now: number, staleMs: number): Promise<number[]> {
    return this.after(() => this.runStore.closeAbandonedRuns(now, staleMs));
  }

  // ── runs ──
  startRun(...a: Args<"startRun">) {
    return this.after(() => this.runStore.startRun(...a));
  }
  finishRun(...a: Args<"finishRun">) {
    return this.after(() => this.runStore.finishRun(...a));
  }
  runs(...a: Args<"runs">) {
    return this.after(() => this.runStore.runs(...a));
  }
  recentRuns(...a: Args<"recentRuns">) {
    return this.after(() => this.runStore.recentRuns(...a));
  }
  run(...a: Args<"run">) {
    return this.after(() => this.runStore.run(...a));
  }
  markInterrupted(...a: Args<"markInterrupted">) {
    return this.after(() => this.runStore.markInterrupted(...a));
  }
  journalPlanned(...a: Args<"journalPlanned">) {
    return this.after(() => this.runStore.journalPlanned(...a));
  }
  journalMark(...a: Args<"journalMark">) {
    return this.after(() => this.runStore.journalMark(...a));
  }
  journal(...a: Args<"journal">) {
    return this.after(() => this.runStore.journal(...a));
  }
  unfinishedWrites(...a: Args<"unfinishedWrites">) {
    return this.after(() => this.runStore.unfinishedWrites(...a));
  }
  recordRunBefore(...a: Args<"recordRunBefore">) {
    return this.after(() => this.runStore.recordRunBefore(...a));
  }
  runBefore(...a: Args<"runBefore">) {
    return this.after(() => this.runStore.runBefore(...a));
  }
  // ── ownership ──
  ownedPlaylist(...a: Args<"ownedPlaylist">) {
    return this.after(() => this.ownershipStore.ownedPlaylist(...a));
  }
  recordOwnedPlaylist(...a: Args<"recordOwnedPlaylist">) {
    return this.after(() => this.ownershipStore.recordOwnedPlaylist(...a));
  }
  forgetOwnedPlaylist(...a: Args<"forgetOwnedPlaylist">) {
    return this.after(() => this.ownershipStore.forgetOwnedPlaylist(...a));
  }
  ownedRows(...a: Args<"ownedRows">) {
    return this.after(() => this.ownershipStore.ownedRows(...a));
  }
  addOwnedRows(...a: Args<"addOwnedRows">) {
    return this.after(() => this.ownershipStore.addOwnedRows(...a));
  }
  removeOwnedRows(...a: Args<"removeOwnedRows">) {
    return this.after(() => this.ownershipStore.removeOwnedRows(...a));
  }
  tombstones(...a: Args<"tombstones">) {
    return this.after(() => this.ownershipStore.tombstones(...a));
  }
  tombstonesSince(...a: Args<"tombstonesSince">) {
    return this.after(() => this.ownershipStore.tombstonesSince(...a));
  }
  addTombstones(...a: Args<"addTombstones">) {
    return this.after(() => this.ownershipStore.addTombstones(...a));
  }
  removeTombstones(...a: Args<"removeTombstones">) {
    return this.after(() => this.ownershipStore.removeTombstones(...a));
  }
  snapshot(...a: Args<"snapshot">) {
    return this.after(() => this.ownershipStore.snapshot(...a));
  }
  saveSnapshot(...a: Args<"saveSnapshot">) {
    return this.after(() => this.ownershipStore.saveSnapshot(...a));
  }
  snapshotOf(...a: Args<"snapshotOf">) {
    return this.after(() => this.ownershipStore.snapshotOf(...a));
  }
  // ── locks ──
  acquireLock(...a: Args<"acquireLock">) {
    return this.after(() => this.lockStore.acquireLock(...a));
  }
  heartbeat(...a: Args<"heartbeat">) {
    return this.after(() => this.lockStore.heartbeat(...a));
  }
  releaseLock(...a: Args<"releaseLock">) {
    return this.after(() => this.lockStore.releaseLock(...a));
  }
  lock(...a: Args<"lock">) {
    return this.after(() => this.lockStore.lock(...a));
  }
  locks(...a: Args<"locks">) {
    return this.after(() => this.lockStore.locks(...a));
  }
  forceUnlock(...a: Args<"forceUnlock">) {
    return this.after(() => this.lockStore.forceUnlock(...a));
  }
  /** Synchronous, and no query: asked before every write a run sends. */
  lockLost(lockId: string): string | null {
    return this.lockStore.lockLost(lockId);
  }
  // ── health ──
  recordGeneration(...a: Args<"recordGeneration">) {
    return this.after(() => this.healthStore.recordGeneration(...a));
  }
  setCondition(...a: Args<"setCondition">) {
    return this.after(() => this.healthStore.setCondition(...a));
  }
  conditions(...a: Args<"conditions">) {
    return this.after(() => this.healthStore.conditions(...a));
  }
  recordFailure(...a: Args<"recordFailure">) {
    return this.after(() => this.healthStore.recordFailure(...a));
  }
  recordSuccess(...a: Args<"recordSuccess">) {
    return this.after(() => this.healthStore.recordSuccess(...a));
  }
  health(...a: Args<"health">) {
    return this.after(() => this.healthStore.health(...a));
  }
  resume(...a: Args<"resume">) {
    return this.after(() => this.healthStore.resume(...a));
  }
  accountHealth(...a: Args<"accountHealth">) {
    return this.after(() => this.healthStore.accountHealth(...a));
  }
  recipeHealth(...a: Args<"recipeHealth">) {
    return this.after(() => this.healthStore.recipeHealth(...a));
  }
  recordRecipeFailure(...a: Args<"recordRecipeFailure">) {
    return this.after(() => this.healthStore.recordRecipeFailure(...a));
  }
  recordRecipeSuccess(...a: Args<"recordRecipeSuccess">) {
    return this.after(() => this.healthStore.recordRecipeSuccess(...a));
  }
  resumeRecipe(...a: Args<"resumeRecipe">) {
    return this.after(() => this.healthStore.resumeRecipe(...a));
  }
  setNextRun(...a: Args<"setNextRun">) {
    return this.after(() => this.healthStore.setNextRun(...a));
  }
  sourceReads(...a: Args<"sourceReads">) {
    return this.after(() => this.healthStore.sourceReads(...a));
  }
  recordSourceReads(...a: Args<"recordSourceReads">) {
    return this.after(() => this.healthStore.recordSourceReads(...a));
  }
  // ── matches ──
  cachedMatches(...a: Args<"cachedMatches">) {
    return this.after(() => this.matchStore.cachedMatches(...a));
  }
  recordMatches(...a: Args<"recordMatches">) {
    return this.after(() => this.matchStore.recordMatches(...a));
  }
  // ── approvals ──
  recordPendingApproval(...a: Args<"recordPendingApproval">) {
    return this.after(() => this.approvalStore.recordPendingApproval(...a));
  }
  approvals(...a: Args<"approvals">) {
    return this.after(() => this.approvalStore.approvals(...a));
  }
  approval(...a: Args<"approval">) {
    return this.after(() => this.approvalStore.approval(...a));
  }
  supersedeApprovals(...a: Args<"supersedeApprovals">) {
    return this.after(() => this.approvalStore.supersedeApprovals(...a));
  }
  decideApproval(...a: Args<"decideApproval">) {
    return this.after(() => this.approvalStore.decideApproval(...a));
  }
  // ── accounts ──
  saveAccount(...a: Args<"saveAccount">) {
    return this.after(() => this.accountStore.saveAccount(...a));
  }
  storedAccount(...a: Args<"storedAccount">) {
    return this.after(() => this.accountStore.storedAccount(...a));
  }
  storedAccounts(...a: Args<"storedAccounts">) {
    return this.after(() => this.accountStore.storedAccounts(...a));
  }
  removeAccount(...a: Args<"removeAccount">) {
    return this.after(() => this.accountStore.removeAccount(...a));
  }

  /** Ends the pool once opening has settled (a migration is never cut off midway); idempotent. */
  close(): Promise<void> {
    this.closing ??= this.ready
      .catch(() => undefined)
      .then(() => this.lockStore.close())
      .then(() => this.pool.end());
    return this.closing;
  }
}

/** Migrates, then closes the runs a process that is gone left `running`, as SQLite does on open. */
async function opening(pool: pg.Pool, runs: PgRunStore, options: PgStateOptions): Promise<void> {
  const now = options.now ?? Date.now();
  try {
    await options.migrate(pool);
    await runs.closeAbandonedRuns(now, options.lockStaleMs ?? DEFAULT_LOCK_STALE_MS);
  } catch (e) {
    throw openingError(pool, e);
  }
}

/**
 * A connection with the pool's settings but outside it; a lost one only ends its lease. TCP
 * keepalive makes a silent network cut end it (and so the lease) instead of leaving it waiting.
 */
async function sessionOf(pool: pg.Pool): Promise<pg.Client> {
  const client = new pg.Client({
    ...pool.options,
    application_name: "musicsync lock",
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_MS,
  });
  client.on("error", () => undefined);
  await client.connect();
  return client;
}
