/**
 * Several processes writing one SQLite state file at once: each read-then-write (a failure counted,
 * a next run planned) is guarded by BEGIN IMMEDIATE across processes, and awaited within each, so
 * no process undoes another's write and no count is lost.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, expect, it } from "vitest";
import { openSqliteState } from "../../../engine/state/sqlite.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const PROCESSES = 3;
const CALLS = 15;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "state-processes-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** One process: waits for the common start, then makes its calls all at once; prints "ok" or why not. */
function worker(file: string, start: number, id: number): Promise<string> {
  const script = join(dir, "worker.mjs");
  const state = pathToFileURL(join(ROOT, "engine/state/sqlite.ts")).href;
  writeFileSync(
    script,
    `import { openSqliteState } from ${JSON.stringify(state)};
const [file, start, id, calls] = process.argv.slice(2);
const state = openSqliteState(file);
while (Date.now() < Number(start)) await new Promise((r) => setTimeout(r, 5));
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
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", script, file, String(start), String(id), String(CALLS)],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`worker exited ${code}: ${err}`));
      else resolve(out.trim());
    });
  });
}

it("loses no failure count and no planned run when processes write one file at once", async () => {
  const file = join(dir, "state.db");
  await openSqliteState(file).close();
  // Time for each process to load tsx before the common start.
  const start = Date.now() + 6_000;
  const outs = await Promise.all(Array.from({ length: PROCESSES }, (_, id) => worker(file, start, id)));
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
}, 90_000);
