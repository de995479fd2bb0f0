/** What `applyPlan` is given and what it returns (re-exported by apply.ts). */
import type { PlanAction } from "../plan/types.js";
import type { EngineState, JournalStatus, RunBeforeRecord } from "../state/types.js";
import type { EngineClient } from "./client.js";
import type { Clock, Pacer } from "./pacer.js";

export interface ApplyLogger {
  debug(fields: object, message?: string): void;
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
}

export type ActionPhase = "sent" | "confirmed" | "failed" | "unknown";

export interface ActionEvent {
  recipeId: string;
  seq: number;
  total: number;
  kind: PlanAction["kind"];
  phase: ActionPhase;
}

export interface ApplyContext {
  client: EngineClient;
  state: EngineState;
  pacer: Pacer;
  clock: Clock;
  runId: number;
  logger: ApplyLogger;
  onAction?: (event: ActionEvent) => void;
  /**
   * Why no write may be sent any more — the account's lock was lost (engine/run/lease.ts) — or null.
   * Asked before every write request, the last thing before it leaves.
   */
  lockLost?: () => string | null;
  /** What the run is about to change (engine/run/before.ts), committed with the journal of its plan. */
  before?: RunBeforeRecord;
}

export interface ActionOutcome {
  seq: number;
  kind: PlanAction["kind"];
  status: Exclude<JournalStatus, "pending" | "sent">;
  /** Write requests this action took (splits and re-sends included, throttled retries not). */
  requests: number;
  error: string | null;
  /** False when its request never left (a stop, or the create before it failed): not sent, not failed. */
  sent?: boolean;
}

export interface ApplyResult {
  result: "converged" | "partial";
  outcomes: ActionOutcome[];
  /** Write requests sent, throttled retries included. */
  requests: number;
  playlistId: string | null;
  quarantined: string[];
  /**
   * Each confirmed action's result (by seq) as its journal entry keeps it — the service's answer,
   * the new rows' ids — so that what the apply did is known without reading the journal back.
   */
  answers: ReadonlyMap<number, unknown>;
}
