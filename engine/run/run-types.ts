/**
 * The shapes a run passes between the runner and its helpers (lease, approval, split): the engine's
 * environment, a planned recipe and what a run comes to. Apart from runner.ts so the helpers it
 * calls can name them without importing it back.
 */

import type { ApplyLogger, ApplyResult, applyPlan } from "../apply/apply.js";
import type { EngineClient } from "../apply/client.js";
import type { Clock, Pacer } from "../apply/pacer.js";
import type { Owned, Plan } from "../plan/types.js";
import type { ServiceReaders } from "../sources/service-source.js";
import type { EngineState, KnownGeneration } from "../state/types.js";
import type { TargetRead } from "../targets/read.js";
import type { Reconciliation } from "./reconcile.js";

/** The account's lock as a run holds it. */
export interface Lease {
  readonly account: string;
  readonly lockId: string;
  /** Why the lock was lost during the run (`the lock on account "a" was lost: …`), or null while held. */
  lost(): string | null;
}

export interface EngineEnv {
  state: EngineState;
  clientFor(account: string): EngineClient;
  /** The account's pacer for writes, or a separate one for its searches (same pace, own window). */
  pacerFor(account: string, purpose?: "writes" | "searches"): Pacer;
  clock: Clock;
  logger: ApplyLogger;
  /** Reads the other services' sources (engine/run/service-settings.ts); absent: such sources are refused. */
  services?: ServiceReaders;
  onAction?: Parameters<typeof applyPlan>[1]["onAction"];
  /** Told each recipe's plan before any of its writes (the command line prints it then). */
  onPlan?: (plan: Plan) => void;
  /** Consecutive failed runs after which the account is marked suspended (default 5). */
  suspendAfterFailures?: number;
  /** A lock whose heartbeat is older than this is taken over (default 5 minutes). */
  lockStaleMs?: number;
  /** The account's lock the run holds (set by withLock): asked before every write. */
  lease?: Lease;
  /**
   * The caller read the account's health as the attempt began and found no failure counted (the
   * daemon and workers do): a run that succeeds then has nothing to clear and reads nothing for it.
   * A failure another process records meanwhile is as if it came just after this success.
   */
  accountClear?: boolean;
}

/** Exit-code relevant outcomes of one recipe. */
export type Outcome =
  | "no_changes"
  | "changes"
  | "converged"
  | "partial"
  | "failed"
  | "refused"
  | "locked"
  /** Over `policy.require_approval`: recorded for `musicsync approve`, nothing written. */
  | "pending_approval"
  /** The account's lock was lost mid-run: no write was sent after that (engine/run/lease.ts). */
  | "interrupted";

export interface RecipeRun {
  recipeId: string;
  plan: Plan | null;
  apply: ApplyResult | null;
  outcome: Outcome;
  error: string | null;
  /** The account whose credentials the service refused, stopping this run (its outcome `locked`). */
  credentialsRefused?: string;
  /** `overflow: split`: the runs of parts 2, 3, … (this one is part 1's). */
  parts?: RecipeRun[];
}

export interface Planned {
  plan: Plan;
  read: TargetRead;
  reconciliation: Reconciliation;
  /** `overflow: split`: the plans of parts 2, 3, … (this one is part 1), applied in order. */
  parts?: Planned[];
  /** The recipe's last generation as read with its target's memory (absent: read when the run starts). */
  generation?: KnownGeneration | null;
}

/** A target as read for planning, with what the state remembers of it. */
export interface TargetSide {
  read: TargetRead;
  reconciliation: Reconciliation;
  owned: Owned;
  /** The account's quarantine (ids another recipe refused), read with the target's tombstones. */
  quarantine: ReadonlySet<string>;
  /** The recipe's last complete source reads (the shrinkage guard's baselines), read with the rest. */
  lastReads: ReadonlyMap<string, number>;
  /** The recipe's last generation, read with the rest. */
  generation: KnownGeneration | null;
}
