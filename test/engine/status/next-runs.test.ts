/**
 * What runs next across recipes: `status` opens with every scheduled recipe's next run,
 * soonest first, and says who will run it — a daemon or worker that planned it, or nothing seen so
 * far; the status page without a daemon says the same instead of implying that it runs anything.
 */
import { spawn } from "node:child_process";
import { hostname } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteState } from "../../../engine/state/sqlite.js";
import type { RecipeStatus, StatusReport } from "../../../engine/status/status.js";
import { indexPage } from "../../../engine/web/index-page.js";
import { musicsync, writeRecipes } from "../../support/daemon-harness.js";
import { catalogueSongs, type Harness, startHarness } from "../../support/sync-harness.js";

let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

/** The pid of a process of this machine that has exited. */
function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", "0"], { stdio: "ignore" });
    child.on("error", reject);
    child.on("exit", () => resolve(child.pid!));
  });
}

describe("what runs next", () => {
  it("status lists each scheduled recipe's next run, soonest first, and who will run it", async () => {
    h = await startHarness();
    const ids = catalogueSongs(h, 3);
    await writeRecipes(h.dir, [
      { id: "new-year", cron: "0 0 1 1 *", ids },
      { id: "often", cron: "*/5 * * * *", ids },
      { id: "by-hand", ids },
    ]);
    const first = await musicsync(["status", "-p", h.projectFile]);
    expect(first.code).toBe(0);
    const head = first.stdout.split("\n\n")[0]!.split("\n");
    expect(head[0]).toBe("Next runs");
    expect(head.slice(1).map((l) => / (often|new-year) /.exec(l)?.[1])).toEqual(["often", "new-year"]);
    for (const l of head.slice(1)) expect(l).toMatch(/by its schedule; no daemon or worker has planned it/);

    // A plan left by a daemon of this machine that is gone speaks for nothing.
    const state = openSqliteState(h.stateFile);
    try {
      const at = Date.now() + 60_000;
      await state.setNextRun(
        "often",
        "default",
        { at, reason: "schedule", by: `${hostname()}:${await deadPid()}` },
        Date.now(),
      );
      await state.setNextRun(
        "new-year",
        "default",
        { at, reason: "schedule", by: `${hostname()}:${process.pid}` },
        Date.now(),
      );
    } finally {
      await state.close();
    }
    const later = await musicsync(["status", "-p", h.projectFile]);
    const lines = later.stdout.split("\n\n")[0]!.split("\n");
    expect(lines.find((l) => l.includes(" often "))).toMatch(/no daemon or worker has planned it/);
    expect(lines.find((l) => l.includes(" new-year "))).toMatch(
      new RegExp(`planned by ${hostname()}:${process.pid}$`),
    );
  });

  it("the status page without a daemon says its next run is the schedule's, which nothing here runs", () => {
    const now = Date.parse("2026-11-27T10:00:00Z");
    const recipe = (id: string, plannedBy: string | null): RecipeStatus => ({
      recipe: id,
      account: "default",
      file: `${id}.yaml`,
      schedule: { cron: "* * * * *", timezone: null, jitterSeconds: 0 },
      nextRun: { at: new Date(now + 39_000).toISOString(), reason: "schedule", plannedBy },
      suspended: null,
      consecutiveFailures: 0,
      lastRun: null,
      lastSuccess: null,
      conditions: [],
    });
    const report: StatusReport = {
      at: new Date(now).toISOString(),
      recipes: [recipe("alone", null), recipe("planned", "box:42")],
      approvals: [],
      locks: [],
    };
    const page = (daemon: boolean) => indexPage({ report, titles: {}, daemon }).replace(/<[^>]+>/g, "");
    const served = page(false);
    expect(served).toContain(
      "2026-11-27 10:00:39Z (in 39 s): the schedule's next time — no daemon or worker has planned it, and this page runs nothing",
    );
    expect(served).toContain("2026-11-27 10:00:39Z (in 39 s), planned by box:42");
    expect(page(true)).not.toContain("no daemon or worker");
  });
});
