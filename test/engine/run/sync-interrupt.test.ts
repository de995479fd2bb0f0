/**
 * Ctrl-C during `musicsync sync`, with the real command against an emulator whose
 * playlist edits are slow: the write in flight finishes and no other is sent, the command says
 * what was finished and what was left, exits 130, and the next sync converges without a duplicate.
 * A second Ctrl-C exits at once, and the next sync reconciles that too.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Interruption } from "../../../cli/musicsync/interrupt.js";
import { syncRecipe } from "../../../engine/run/runner.js";
import { openSqliteState } from "../../../engine/state/sqlite.js";
import { ensureBuilt, MAIN, musicsync, ROOT } from "../../support/cli-process.js";
import { waitUntil, writeRecipes } from "../../support/daemon-harness.js";
import {
  catalogueSongs,
  type Harness,
  playlistRows,
  playlistsTitled,
  recipe,
  startHarness,
} from "../../support/sync-harness.js";

beforeAll(() => ensureBuilt(), 180_000);

let h: Harness | null = null;
let child: ChildProcess | null = null;
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  child = null;
  await h?.stop();
  h = null;
});

/** `musicsync sync` (or `args`) as a child process whose output can be watched while it runs. */
function startSync(projectFile: string, args: readonly string[] = ["sync"]) {
  const proc = spawn(process.execPath, [MAIN, ...args, "-p", projectFile], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = proc;
  let stdout = "";
  let stderr = "";
  proc.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
  proc.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.on("close", (code) => resolve(code)));
  return { proc, exited, stdout: () => stdout, stderr: () => stderr };
}

/**
 * Three recipes: "a" of 12 songs written one per request (a create with the first, then the rest),
 * "b" and "c" of 4 songs in one batch; fewer writes than the 30 a minute the pacing allows.
 */
async function threeRecipes(harness: Harness): Promise<Map<string, string[]>> {
  const songs = catalogueSongs(harness, 20);
  const lists = new Map([
    ["a", songs.slice(0, 12)],
    ["b", songs.slice(12, 16)],
    ["c", songs.slice(16, 20)],
  ]);
  await writeRecipes(
    harness.dir,
    [...lists].map(([id, ids]) => ({ id, title: `Stopped ${id}`, ids, batch: id === "a" ? 1 : 4 })),
  );
  return lists;
}

async function slowEdits(harness: Harness, delayMs: number): Promise<void> {
  await harness.faults({
    config: { rate: 1, kinds: ["slow"], endpoints: ["browse/edit_playlist"], delayMs },
  });
}

/** After the interruption: one playlist per recipe, holding exactly its songs, in order. */
async function expectConverged(harness: Harness, lists: Map<string, string[]>): Promise<void> {
  await harness.faults({ config: null });
  const again = await musicsync(["sync", "-p", harness.projectFile]);
  expect(again.code, again.stdout + again.stderr).toBe(0);
  for (const [id, ids] of lists) {
    const found = await playlistsTitled(harness, `Stopped ${id}`);
    expect(found, id).toHaveLength(1);
    expect(
      (await playlistRows(harness, found[0]!)).map((r) => r.videoId),
      id,
    ).toEqual(ids);
  }
}

describe("Ctrl-C during sync", () => {
  it("finishes the write in flight, sends no other, says what was done and left, exits 130", async () => {
    h = await startHarness();
    const lists = await threeRecipes(h);
    await slowEdits(h, 300);
    const sync = startSync(h.projectFile);
    const harness = h;
    await waitUntil(async () => (await harness.writes()) >= 3, "three writes", 60_000, 25);
    sync.proc.kill("SIGINT");
    const code = await sync.exited;
    const err = sync.stderr();
    expect(code, sync.stdout() + err).toBe(130);
    expect(err).toContain("Ctrl-C (SIGINT): stopping — the write in flight finishes, no other is sent");
    expect(err).toContain("Interrupted by Ctrl-C (SIGINT).\n  Finished: none\n");
    // One line for the run, not one warning per write kept back.
    expect(err).not.toContain("action failed");
    expect(err).toMatch(/^ {2}Cut short: a: \d+ of \d+ actions confirmed; \d+ not sent$/m);
    expect(err).toContain("  Not started: b, c\n");
    expect(err).toContain("the next sync reads each target and sends only what is still missing");
    expect(sync.stdout()).toMatch(/^a: Applied partly: interrupted by SIGINT: \d+ of \d+ actions confirmed/m);

    // Every request that left was answered and confirmed: the journal knows the fate of each.
    const state = openSqliteState(h.stateFile);
    try {
      const [run] = await state.runs("a", 5);
      expect(run).toMatchObject({ result: "interrupted", error: "interrupted by SIGINT" });
      expect(run!.counts).toMatchObject({ failed: 0, unknown: 0 });
      expect(run!.counts!.confirmed).toBeGreaterThan(0);
      expect(run!.counts!.notSent).toBeGreaterThan(0);
      expect(await h.writes()).toBe(run!.counts!.confirmed);
      expect(await state.runs("b", 5)).toEqual([]);
      // A stop is no failure: nothing counts towards the account's suspension.
      expect((await state.health("default")).consecutiveFailures).toBe(0);
    } finally {
      await state.close();
    }
    await expectConverged(h, lists);
  }, 180_000);

  it("a second Ctrl-C quits at once; the next sync reconciles the write it left", async () => {
    h = await startHarness();
    const lists = await threeRecipes(h);
    // One write takes long enough for two signals to arrive while it is on the wire.
    await slowEdits(h, 4_000);
    const sync = startSync(h.projectFile);
    const harness = h;
    await waitUntil(async () => (await harness.writes()) >= 2, "a slow write on the wire", 60_000, 25);
    sync.proc.kill("SIGINT");
    await waitUntil(() => sync.stderr().includes("stopping"), "the first Ctrl-C's answer", 10_000, 25);
    sync.proc.kill("SIGINT");
    expect(await sync.exited).toBe(130);
    expect(sync.stderr()).toContain(
      "Ctrl-C (SIGINT) again: quitting now; the next sync reconciles what was sent.",
    );
    await expectConverged(h, lists);
  }, 180_000);

  it("apply stops the same way: exit 130, the saved plan's recipes finished, cut short, not started", async () => {
    h = await startHarness();
    const lists = await threeRecipes(h);
    const file = join(h.dir, "plan.json");
    expect((await musicsync(["plan", "-o", file, "-p", h.projectFile])).code).toBe(2);
    await slowEdits(h, 300);
    const apply = startSync(h.projectFile, ["apply", file]);
    const harness = h;
    await waitUntil(async () => (await harness.writes()) >= 3, "three writes", 60_000, 25);
    apply.proc.kill("SIGINT");
    expect(await apply.exited).toBe(130);
    expect(apply.stderr()).toMatch(/^ {2}Cut short: a: \d+ of \d+ actions confirmed; \d+ not sent$/m);
    expect(apply.stderr()).toContain("  Not started: b, c\n");
    await expectConverged(h, lists);
  }, 180_000);

  it("stopped while planning, a recipe sends no search either; its run is interrupted, no failure", async () => {
    h = await startHarness();
    const stop = new Interruption({ stdout: process.stdout, stderr: new PassThrough(), env: {} }, () => {
      throw new Error("no second signal here");
    });
    const env = h.env({ wrap: (c) => stop.client(c) });
    env.state = stop.state(env.state);
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    await writeFile(join(h.dir, "recipes", "list.txt"), "Nobody - Nothing Like It\nSomeone - Something\n");
    const loaded = recipe(
      h.project,
      `apiVersion: musicsync/v1\nkind: Recipe\nid: stopped\nsources:\n  - { id: mine, type: file, path: ${join(h.dir, "recipes", "list.txt")} }\ntarget:\n  type: playlist\n  playlist: { title: Stopped, privacy: PRIVATE }\nmode: mirror\n`,
      { file: join(h.dir, "recipes", "stopped.yaml"), projectFile: h.projectFile },
    );
    stop.shutdown.request("SIGINT");
    await expect(syncRecipe(loaded, env)).rejects.toThrow("not sent: interrupted by SIGINT");
    const [run] = await env.state.runs("stopped", 5);
    expect(run).toMatchObject({ result: "interrupted", error: "not sent: interrupted by SIGINT" });
    expect((await env.state.health("default")).consecutiveFailures).toBe(0);
    const stats = (await (await fetch(`${h.emulator.url}/_emulator/stats`)).json()) as {
      requests: Record<string, number>;
    };
    expect(stats.requests.search ?? 0).toBe(0);
    expect(await h.writes()).toBe(0);
  });
});
