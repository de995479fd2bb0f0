/**
 * Several processes writing one SQLite state file at once: each read-then-write (a failure counted,
 * a next run planned) is guarded by BEGIN IMMEDIATE across processes, and awaited within each, so
 * no process undoes another's write and no count is lost.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { openSqliteState } from "../../../engine/state/sqlite.js";
import { builtModule } from "../../support/cli-process.js";
import { AWAIT_START, runTogether } from "../../support/together.js";

const PROCESSES = 3;
const CALLS = 15;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "state-processes-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The processes: each waits for the common start, then makes its calls all at once; prints "ok" or why not. */
async function writeTogether(file: string): Promise<string[]> {
  const script = join(dir, "worker.mjs");
  writeFileSync(
    script,
    `import { openSqliteState } from ${await builtModule("engine/state/sqlite.js")};
const [file, id, calls] = process.argv.slice(2);
const state = openSqliteState(file);
${AWAIT_START}
while (Date.now() < start) await new Promise((r) => setTimeout(r, 5));
const writes = [];
for (let i = 0; i < Number(calls); i++) {
  writes.push(state.recordFailure("acc", i, "refused", { suspendAfter: 1000 }));
  writes.push(state.recordRecipeFailure("r", "acc", i, "refused", { suspendAfter: 1000 }));
  writes.push(state.setNextRun("r" + id, "acc", { at: i, reason: "retry", by: "p" + id }, i));
}
const settled = await Promise.allSettled(writes);
await state.close();
const failed = settled.filter((s) => s.status === "rejected").map((s) => String(s.reason));
console.log(failed.length === 0 ? "ok" : failed.join("; "));
`,
  );
  return runTogether(
    script,
    Array.from({ length: PROCESSES }, (_, id) => [file, String(id), String(CALLS)]),
  );
}

it("loses no failure count and no planned run when processes write one file at once", async () => {
  const file = join(dir, "state.db");
  await openSqliteState(file).close();
  const outs = await writeTogether(file);
  expect(outs).toEqual(Array(PROCESSES).fill("ok"));
  const state = openSqliteState(file);
  try {
    expect((await state.health("acc")).consecutiveFailures).toBe(PROCESSES * CALLS);
    expect((await state.recipeHealth("r")).consecutiveFailures).toBe(PROCESSES * CALLS);
    for (let id = 0; id < PROCESSES; id++) {
      expect(await state.recipeHealth(`r${id}`)).toMatchObject({ nextRunAt: CALLS - 1, plannedBy: `p${id}` });
    }
  } finally {
    await state.close();
  }
});
