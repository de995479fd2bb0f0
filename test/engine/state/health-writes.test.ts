/**
 * A run's bookkeeping that changes nothing writes nothing: the recipe's generation when its hash is
 * the last one seen, and a success of a recipe with no failures counted. Each was a transaction
 * per run (on PostgreSQL a begin, a lock, a read, a commit), counted here under better-sqlite3.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteState } from "../../../engine/state/sqlite.js";
import type { EngineState } from "../../../engine/state/types.js";
import { countCommits } from "../../support/sqlite-commits.js";

const counter = countCommits();
let dir = "";
let s: EngineState;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "health-writes-"));
  s = openSqliteState(join(dir, "state.db"));
});
afterEach(async () => {
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("bookkeeping with nothing to change", () => {
  it("the same hash again: its generation, with no commit; a new hash still numbers a new one", async () => {
    expect(await s.recordGeneration("r", "h1", 10)).toBe(1);
    counter.reset();
    expect(await s.recordGeneration("r", "h1", 20)).toBe(1);
    expect(counter.read().commits).toBe(0);
    expect(await s.recordGeneration("r", "h2", 30)).toBe(2);
    expect(counter.read().commits).toBe(1);
  });

  it("a success with no failure counted: no commit; after a failure, the count is reset", async () => {
    await s.recordRecipeSuccess("r", "acc", 10);
    counter.reset();
    const same = await s.recordRecipeSuccess("r", "acc", 20);
    expect(same).toMatchObject({ account: "acc", consecutiveFailures: 0, suspendedAt: null });
    expect(counter.read().commits).toBe(0);
    await s.recordRecipeFailure("r", "acc", 30, "x", { suspendAfter: 5 });
    expect((await s.recordRecipeSuccess("r", "acc", 40)).consecutiveFailures).toBe(0);
    expect((await s.recipeHealth("r")).consecutiveFailures).toBe(0);
    // Another account's recipe of the same id (moved): the success records the new account.
    expect((await s.recordRecipeSuccess("r", "other", 50)).account).toBe("other");
    expect((await s.recipeHealth("r")).account).toBe("other");
  });
});
