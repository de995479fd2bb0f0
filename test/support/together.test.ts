/**
 * runTogether: no process starts its work before every one has loaded, and one that dies before
 * it is ready fails the run, naming its exit and stderr, with the others ended.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { AWAIT_START, runTogether } from "./together.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "together-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("starts each process's work only once the slowest to load is ready", async () => {
  const script = join(dir, "w.mjs");
  // The first process loads 300 ms late: the others' work must still begin after it said ready.
  writeFileSync(
    script,
    `const [id] = process.argv.slice(2);
if (id === "0") await new Promise((r) => setTimeout(r, 300));
const readyAt = Date.now();
${AWAIT_START}
console.log(JSON.stringify({ id, readyAt, start, began: Date.now() }));
`,
  );
  const outs = (await runTogether(script, [["0"], ["1"], ["2"]])).map((o) => JSON.parse(o));
  const lastReady = Math.max(...outs.map((o) => o.readyAt));
  expect(new Set(outs.map((o) => o.start)).size).toBe(1);
  for (const o of outs) expect(o.began).toBeGreaterThanOrEqual(lastReady);
});

it("fails when a process dies before it is ready, naming its exit and what it said", async () => {
  const script = join(dir, "w.mjs");
  writeFileSync(
    script,
    `const [id] = process.argv.slice(2);
if (id === "1") { console.error("no module here"); process.exit(3); }
${AWAIT_START}
console.log("ok");
`,
  );
  await expect(runTogether(script, [["0"], ["1"]])).rejects.toThrow(/worker exited 3: no module here/);
});
