/**
 * The SQLite EngineState: one store per part of the state (./runs.ts, ./ownership.ts, …), all over
 * the same connection, so a transaction in one store sees what another wrote. This class only joins
 * them, method by method (prototype methods, so a Proxy or a spy over the state sees each one).
 */
import type Database from "better-sqlite3";
import type { EngineState } from "../types.js";
import { SqliteAccountStore } from "./accounts.js";
import { SqliteApprovalStore } from "./approvals.js";
import type { Db } from "./common.js";
import { SqliteHealthStore } from "./health.js";
import { SqliteLockStore } from "./locks.js";
import { SqliteMatchStore } from "./matches.js";
import { SqliteOwnershipStore } from "./ownership.js";
import { SqliteRunStore } from "./runs.js";

type Args<K extends keyof EngineState> = Parameters<NonNullable<EngineState[K]>>;

export class SqliteState implements EngineState {
  private readonly runStore: SqliteRunStore;
  private readonly ownershipStore: SqliteOwnershipStore;
  private readonly lockStore: SqliteLockStore;
  private readonly healthStore: SqliteHealthStore;
  private readonly matchStore: SqliteMatchStore;
  private readonly approvalStore: SqliteApprovalStore;
  private readonly accountStore: SqliteAccountStore;

  constructor(
    db: Db,
    private readonly sqlite: Database.Database,
  ) {
    this.runStore = new SqliteRunStore(db);
    this.ownershipStore = new SqliteOwnershipStore(db);
    this.lockStore = new SqliteLockStore(db);
    this.healthStore = new SqliteHealthStore(db);
    this.matchStore = new SqliteMatchStore(db);
    this.approvalStore = new SqliteApprovalStore(db);
    this.accountStore = new SqliteAccountStore(db);
  }

  /** Closes the runs a process that is gone left `running` (see SqliteRunStore); returns their ids. */
  closeAbandonedRuns(now: number, staleMs: number): number[] {
    return this.runStore.closeAbandonedRuns(now, staleMs);
  }

  // ── runs ──
  startRun(...a: Args<"startRun">) {
    return this.runStore.startRun(...a);
  }
  finishRun(...a: Args<"finishRun">) {
    return this.runStore.finishRun(...a);
  }
  runs(...a: Args<"runs">) {
    return this.runStore.runs(...a);
  }
  recentRuns(...a: Args<"recentRuns">) {
    return this.runStore.recentRuns(...a);
  }
  run(...a: Args<"run">) {
    return this.runStore.run(...a);
  }
  markInterrupted(...a: Args<"markInterrupted">) {
    return this.runStore.markInterrupted(...a);
  }
  journalPlanned(...a: Args<"journalPlanned">) {
    return this.runStore.journalPlanned(...a);
  }
  journalMark(...a: Args<"journalMark">) {
    return this.runStore.journalMark(...a);
  }
  journal(...a: Args<"journal">) {
    return this.runStore.journal(...a);
  }
  unfinishedWrites(...a: Args<"unfinishedWrites">) {
    return this.runStore.unfinishedWrites(...a);
  }
  recordRunBefore(...a: Args<"recordRunBefore">) {
    return this.runStore.recordRunBefore(...a);
  }
  runBefore(...a: Args<"runBefore">) {
    return this.runStore.runBefore(...a);
  }

  // ── ownership ──
  ownedPlaylist(...a: Args<"ownedPlaylist">) {
    return this.ownershipStore.ownedPlaylist(...a);
  }
  recordOwnedPlaylist(...a: Args<"recordOwnedPlaylist">) {
    return this.ownershipStore.recordOwnedPlaylist(...a);
  }
  forgetOwnedPlaylist(...a: Args<"forgetOwnedPlaylist">) {
    return this.ownershipStore.forgetOwnedPlaylist(...a);
  }
  ownedRows(...a: Args<"ownedRows">) {
    return this.ownershipStore.ownedRows(...a);
  }
  addOwnedRows(...a: Args<"addOwnedRows">) {
    return this.ownershipStore.addOwnedRows(...a);
  }
  removeOwnedRows(...a: Args<"removeOwnedRows">) {
    return this.ownershipStore.removeOwnedRows(...a);
  }
  tombstones(...a: Args<"tombstones">) {
    return this.ownershipStore.tombstones(...a);
  }
  tombstonesSince(...a: Args<"tombstonesSince">) {
    return this.ownershipStore.tombstonesSince(...a);
  }
  addTombstones(...a: Args<"addTombstones">) {
    return this.ownershipStore.addTombstones(...a);
  }
  removeTombstones(...a: Args<"removeTombstones">) {
    return this.ownershipStore.removeTombstones(...a);
  }
  snapshot(...a: Args<"snapshot">) {
    return this.ownershipStore.snapshot(...a);
  }
  saveSnapshot(...a: Args<"saveSnapshot">) {
    return this.ownershipStore.saveSnapshot(...a);
  }
  snapshotOf(...a: Args<"snapshotOf">) {
    return this.ownershipStore.snapshotOf(...a);
  }

  // ── locks ──
  acquireLock(...a: Args<"acquireLock">) {
    return this.lockStore.acquireLock(...a);
  }
  heartbeat(...a: Args<"heartbeat">) {
    return this.lockStore.heartbeat(...a);
  }
  releaseLock(...a: Args<"releaseLock">) {
    return this.lockStore.releaseLock(...a);
  }
  lock(...a: Args<"lock">) {
    return this.lockStore.lock(...a);
  }
  locks(...a: Args<"locks">) {
    return this.lockStore.locks(...a);
  }
  forceUnlock(...a: Args<"forceUnlock">) {
    return this.lockStore.forceUnlock(...a);
  }

  // ── health ──
  recordGeneration(...a: Args<"recordGeneration">) {
    return this.healthStore.recordGeneration(...a);
  }
  setCondition(...a: Args<"setCondition">) {
    return this.healthStore.setCondition(...a);
  }
  conditions(...a: Args<"conditions">) {
    return this.healthStore.conditions(...a);
  }
  recordFailure(...a: Args<"recordFailure">) {
    return this.healthStore.recordFailure(...a);
  }
  recordSuccess(...a: Args<"recordSuccess">) {
    return this.healthStore.recordSuccess(...a);
  }
  health(...a: Args<"health">) {
    return this.healthStore.health(...a);
  }
  resume(...a: Args<"resume">) {
    return this.healthStore.resume(...a);
  }
  accountHealth(...a: Args<"accountHealth">) {
    return this.healthStore.accountHealth(...a);
  }
  recipeHealth(...a: Args<"recipeHealth">) {
    return this.healthStore.recipeHealth(...a);
  }
  recordRecipeFailure(...a: Args<"recordRecipeFailure">) {
    return this.healthStore.recordRecipeFailure(...a);
  }
  recordRecipeSuccess(...a: Args<"recordRecipeSuccess">) {
    return this.healthStore.recordRecipeSuccess(...a);
  }
  resumeRecipe(...a: Args<"resumeRecipe">) {
    return this.healthStore.resumeRecipe(...a);
  }
  setNextRun(...a: Args<"setNextRun">) {
    return this.healthStore.setNextRun(...a);
  }
  sourceReads(...a: Args<"sourceReads">) {
    return this.healthStore.sourceReads(...a);
  }
  recordSourceReads(...a: Args<"recordSourceReads">) {
    return this.healthStore.recordSourceReads(...a);
  }

  // ── matches ──
  cachedMatches(...a: Args<"cachedMatches">) {
    return this.matchStore.cachedMatches(...a);
  }
  recordMatches(...a: Args<"recordMatches">) {
    return this.matchStore.recordMatches(...a);
  }

  // ── approvals ──
  recordPendingApproval(...a: Args<"recordPendingApproval">) {
    return this.approvalStore.recordPendingApproval(...a);
  }
  approvals(...a: Args<"approvals">) {
    return this.approvalStore.approvals(...a);
  }
  approval(...a: Args<"approval">) {
    return this.approvalStore.approval(...a);
  }
  supersedeApprovals(...a: Args<"supersedeApprovals">) {
    return this.approvalStore.supersedeApprovals(...a);
  }
  decideApproval(...a: Args<"decideApproval">) {
    return this.approvalStore.decideApproval(...a);
  }

  // ── accounts ──
  saveAccount(...a: Args<"saveAccount">) {
    return this.accountStore.saveAccount(...a);
  }
  storedAccount(...a: Args<"storedAccount">) {
    return this.accountStore.storedAccount(...a);
  }
  storedAccounts(...a: Args<"storedAccounts">) {
    return this.accountStore.storedAccounts(...a);
  }
  removeAccount(...a: Args<"removeAccount">) {
    return this.accountStore.removeAccount(...a);
  }

  async close(): Promise<void> {
    this.sqlite.close();
  }
}
