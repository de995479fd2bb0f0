/** The state's records for undo (what a run was about to change) and for approvals (held plans). */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteState } from "../../../engine/state/sqlite.js";
import type { EngineState } from "../../../engine/state/types.js";

let state: EngineState;
beforeEach(() => {
  state = openSqliteState(":memory:");
});
afterEach(async () => {
  await state.close();
});

const held = (runId: number, recipeId: string, createdAt: number) => ({
  runId,
  recipeId,
  account: "default",
  plan: { recipe: { id: recipeId }, actions: [{ kind: "remove_playlist_items" }] },
  reason: "30 removals, over require_approval.removals 20",
  createdAt,
});

describe("run_before", () => {
  it("keeps the plan and the target before the run, as data, by run id", async () => {
    const runId = await state.startRun({
      recipeId: "r",
      account: "default",
      kind: "sync",
      recipeHash: "h",
      at: 5,
    });
    expect(await state.runBefore(runId)).toBeNull();
    const before = { rows: [{ videoId: "a", setVideoId: "s1" }], title: "T" };
    await state.recordRunBefore({
      runId,
      recipeId: "r",
      account: "default",
      target: "PL1",
      takenAt: 6,
      plan: { v: 1 },
      before,
    });
    expect(await state.runBefore(runId)).toEqual({
      runId,
      recipeId: "r",
      account: "default",
      target: "PL1",
      takenAt: 6,
      plan: { v: 1 },
      before,
    });
    expect((await state.run(runId))?.recipeId).toBe("r");
    expect(await state.run(runId + 1)).toBeNull();
  });
});

describe("approvals", () => {
  it("a newer held plan supersedes the recipe's pending one; other recipes keep theirs", async () => {
    await state.recordPendingApproval(held(1, "r", 10));
    await state.recordPendingApproval(held(2, "other", 11));
    await state.recordPendingApproval(held(3, "r", 12));
    expect((await state.approvals()).map((a) => [a.runId, a.status])).toEqual([
      [3, "pending"],
      [2, "pending"],
    ]);
    expect((await state.approval(1))?.status).toBe("superseded");
    expect((await state.approvals({ recipeId: "r", all: true })).map((a) => a.runId)).toEqual([3, 1]);
    expect((await state.approval(3))?.plan).toEqual(held(3, "r", 12).plan);
  });

  it("is decided once: approving twice, or a superseded plan, says no", async () => {
    await state.recordPendingApproval(held(1, "r", 10));
    await state.recordPendingApproval(held(2, "r", 11));
    expect(await state.decideApproval(1, { status: "approved", at: 20, appliedRunId: 9 })).toBe(false);
    expect(await state.decideApproval(2, { status: "approved", at: 20, appliedRunId: 9 })).toBe(true);
    expect(await state.decideApproval(2, { status: "approved", at: 21, appliedRunId: 10 })).toBe(false);
    expect(await state.approval(2)).toMatchObject({ status: "approved", decidedAt: 20, appliedRunId: 9 });
    expect(await state.approvals()).toEqual([]);
  });

  it("a run that applied a newer plan supersedes the recipe's pending approvals, and only those", async () => {
    await state.recordPendingApproval(held(1, "r", 10));
    await state.recordPendingApproval(held(2, "r", 11));
    await state.recordPendingApproval(held(3, "other", 12));
    await state.recordPendingApproval(held(4, "done", 13));
    expect(await state.decideApproval(4, { status: "approved", at: 14, appliedRunId: 5 })).toBe(true);
    expect(await state.supersedeApprovals("r", 30)).toBe(1);
    expect(await state.approval(2)).toMatchObject({
      status: "superseded",
      decidedAt: 30,
      appliedRunId: null,
    });
    // Superseded earlier by run 2's held plan: its decision stays as it was.
    expect(await state.approval(1)).toMatchObject({ status: "superseded", decidedAt: 11 });
    expect(await state.supersedeApprovals("done", 31)).toBe(0);
    expect(await state.approval(4)).toMatchObject({ status: "approved", decidedAt: 14 });
    expect(await state.supersedeApprovals("r", 32)).toBe(0);
    expect((await state.approvals()).map((a) => a.runId)).toEqual([3]);
    expect(await state.decideApproval(2, { status: "approved", at: 40, appliedRunId: 9 })).toBe(false);
  });
});
