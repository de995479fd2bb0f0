/**
 * The implementations of EngineState that contract.test.ts holds to one contract, and the small
 * builders its tests share. Adding an implementation (PostgreSQL, say) is one entry in `implementations`.
 */
import { join } from "node:path";
import { openSqliteState } from "../../../engine/state/sqlite.js";
import type { Approval, EngineState, RunKind, Snapshot } from "../../../engine/state/types.js";

export interface StateImplementation {
  name: string;
  /** A fresh, empty state; `scratch` is an empty folder of its own, removed after the test. */
  open(scratch: string): EngineState | Promise<EngineState>;
}

export const implementations: StateImplementation[] = [
  { name: "sqlite memory", open: () => openSqliteState(":memory:") },
  { name: "sqlite file", open: (scratch) => openSqliteState(join(scratch, "state.db")) },
];

/** Starts a run with the details a test does not care about filled in. */
export function startRun(
  state: EngineState,
  recipeId: string,
  at: number,
  more: { account?: string; kind?: RunKind; holder?: string } = {},
): Promise<number> {
  return state.startRun({
    recipeId,
    account: more.account ?? "acc",
    kind: more.kind ?? "apply",
    recipeHash: `hash-${recipeId}`,
    at,
    ...(more.holder !== undefined ? { holder: more.holder } : {}),
  });
}

export function snapshotFor(
  target: string,
  recipeId: string,
  takenAt: number,
  more: Partial<Snapshot> = {},
): Snapshot {
  return {
    account: "acc",
    target,
    recipeId,
    runId: null,
    takenAt,
    fingerprint: `fp-${target}-${takenAt}`,
    rows: [{ key: `k-${takenAt}`, setVideoId: `s-${takenAt}` }],
    ...more,
  };
}

export function pendingApproval(
  runId: number,
  recipeId: string,
  createdAt: number,
): Omit<Approval, "status" | "decidedAt" | "appliedRunId"> {
  return {
    runId,
    recipeId,
    account: "acc",
    plan: { recipeId, actions: [{ kind: "add", key: `k${runId}` }] },
    reason: "removes 40% of the playlist",
    createdAt,
  };
}
