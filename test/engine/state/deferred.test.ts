/**
 * The state openState gives for PostgreSQL (engine/state/deferred.ts): its driver is imported by the
 * first call, every call waits for it, and a state closed or never used opens nothing.
 */
import { describe, expect, it } from "vitest";
import { deferredState } from "../../../engine/state/deferred.js";
import { openSqliteState } from "../../../engine/state/sqlite.js";
import type { EngineState } from "../../../engine/state/types.js";

const run = { recipeId: "r", account: "a", kind: "plan" as const, recipeHash: "h", at: 1 };

/** A deferred state over SQLite in memory, counting how often it was opened. */
function counted(inner: () => EngineState = () => openSqliteState(":memory:")) {
  const opens = { count: 0 };
  const state = deferredState(async () => {
    opens.count++;
    return inner();
  });
  return { state, opens };
}

describe("deferredState", () => {
  it("opens on the first call, once, and passes every call and its answer through", async () => {
    const { state, opens } = counted();
    expect(opens.count).toBe(0);
    const [a, b] = await Promise.all([state.startRun(run), state.startRun({ ...run, at: 2 })]);
    expect(opens.count).toBe(1);
    expect((await state.runs("r")).map((r) => r.id).sort()).toEqual([a, b].sort());
    await state.close();
  });

  it("is no promise, and says no lock is lost before it opened", async () => {
    const { state, opens } = counted();
    expect((state as unknown as { then?: unknown }).then).toBeUndefined();
    expect(await Promise.resolve(state)).toBe(state);
    expect(state.lockLost?.("lock-1")).toBeNull();
    expect(opens.count).toBe(0);
  });

  it("closed before any call, opens nothing, then or after", async () => {
    const { state, opens } = counted();
    await state.close();
    await expect(state.locks()).rejects.toThrow(/closed/);
    expect(opens.count).toBe(0);
  });

  it("passes on a failure to open to every call, and closes without throwing it again", async () => {
    const state = deferredState(async () => {
      throw new Error("cannot connect to the state database db:5432/music");
    });
    await expect(state.locks()).rejects.toThrow(/cannot connect/);
    await expect(state.runs("r")).rejects.toThrow(/cannot connect/);
    await state.close();
  });
});
