/**
 * The fleet's pure parts: what a seed's fleet is drawn to be, and how its promises are
 * judged from what was read. The fleet itself runs in soak-fleet.test.ts and `npm run soak`.
 */
import { describe, expect, it } from "vitest";
import {
  checkFleetRecipe,
  checkJobsCompleted,
  checkOverlaps,
  checkStopped,
  checkWorkersLived,
  printedStack,
  uncaught,
} from "./fleet-checks.js";
import { describeFleet, fleetPlanOf } from "./fleet-plan.js";

const songs = Array.from({ length: 60 }, (_, i) => `song${String(i).padStart(7, "0")}`);

describe("fleetPlanOf", () => {
  it("is the seed's own: the same plan for the same seed, none without a mode that asks", () => {
    expect(fleetPlanOf(7, 4, songs, "always", false)).toEqual(fleetPlanOf(7, 4, songs, "always", false));
    expect(fleetPlanOf(7, 4, songs, "none", false)).toBeNull();
    const drawn = Array.from({ length: 40 }, (_, i) => fleetPlanOf(i + 1, 4, songs, "auto", false));
    expect(drawn.filter((p) => p !== null).length).toBeGreaterThan(5);
    expect(drawn.filter((p) => p === null).length).toBeGreaterThan(5);
  });

  it("stays within its bounds: 2–3 workers, faults in the first seconds, recipes of the seed's account first", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const plan = fleetPlanOf(seed, 5, songs, "always", false)!;
      expect(plan.after).toBeGreaterThanOrEqual(1);
      expect(plan.after).toBeLessThanOrEqual(5);
      expect([2, 3]).toContain(plan.workers);
      expect(plan.events.length).toBeLessThanOrEqual(4);
      expect(plan.events.every((e) => e.atMs >= 0 && e.atMs <= 6000)).toBe(true);
      expect(plan.events.some((e) => e.fault.kind === "restart")).toBe(false);
      expect(plan.recipes.filter((r) => r.account === "default").length).toBeGreaterThanOrEqual(2);
      expect(plan.recipes.filter((r) => r.scheduled)).toHaveLength(1);
      expect(new Set(plan.recipes.map((r) => r.id)).size).toBe(plan.recipes.length);
    }
  });

  it("restarts the server only when the seed has one of its own, and then at least once", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const plan = fleetPlanOf(seed, 3, songs, "always", true)!;
      expect(plan.events.filter((e) => e.fault.kind === "restart").length).toBeGreaterThanOrEqual(1);
    }
  });

  it("light: two workers, one lock cut, long runs of the seed's account", () => {
    const plan = fleetPlanOf(2, 4, songs, "light", false)!;
    expect(plan.workers).toBe(2);
    expect(plan.concurrency).toBe(1);
    expect(plan.events.map((e) => e.fault.kind)).toEqual(["cut-locks"]);
    expect(plan.recipes.every((r) => r.account === "default" && r.ids.length === 30 && r.batch === 1)).toBe(
      true,
    );
    expect(
      describeFleet(
        plan,
        plan.events.map((e) => e.fault),
      ),
    ).toBe("fleet 2×1 workers, 1 cut");
  });
});

describe("the fleet's checks", () => {
  it("no overlapping write, or a violation naming the accounts", () => {
    expect(checkOverlaps({ writes: 40, overlaps: 0, worst: [] })).toEqual([]);
    const found = checkOverlaps({
      writes: 40,
      overlaps: 3,
      worst: [
        { account: 1, inFlight: 2, overlaps: 3 },
        { account: 6, inFlight: 1, overlaps: 0 },
      ],
    });
    expect(found).toHaveLength(1);
    expect(found[0]!.invariant).toBe("no-overlapping-writes");
    expect(found[0]!.detail).toContain("account 1: 3 overlapping");
    expect(found[0]!.detail).not.toContain("account 6");
  });

  it("a worker that ended by itself died; one the soak killed or stopped did not", () => {
    const end = { started: true, crashed: false, lastWords: "" };
    const ends = [
      { ...end, n: 1, endedBy: null, exit: { code: 1, signal: null }, lastWords: "boom" },
      { ...end, n: 2, endedBy: "kill" as const, exit: { code: null, signal: "SIGKILL" as const } },
      { ...end, n: 3, endedBy: null, exit: null },
      // Started while the database was down: a one-line refusal is no death, a stack is.
      { ...end, n: 4, endedBy: null, exit: { code: 1, signal: null }, started: false },
      { ...end, n: 5, endedBy: null, exit: { code: 1, signal: null }, started: false, crashed: true },
    ];
    expect(checkWorkersLived(ends).map((f) => f.detail)).toEqual([
      "worker 1 ended by itself (exit 1): boom",
      "worker 5 ended by itself (exit 1): ",
    ]);
    expect(printedStack("error: cannot connect to the state database h:1/db: connect ECONNREFUSED")).toBe(
      false,
    );
    expect(
      printedStack(
        "Error: read ECONNRESET\n    at TCP.onStreamRead (node:internal/stream_base_commons:218:20)",
      ),
    ).toBe(true);
  });

  it("SIGTERM: exit 0, or the signal itself before the worker took any job; anything else is not a stop", () => {
    const found = checkStopped([
      { n: 1, forced: false, exit: { code: 0, signal: null } },
      { n: 2, forced: false, exit: { code: null, signal: "SIGTERM" } },
      {
        n: 3,
        forced: false,
        exit: { code: 1, signal: null },
        lastWords: "uncaught: error: Workers are disabled. pg-boss is stopped",
      },
      { n: 4, forced: true, exit: { code: null, signal: "SIGKILL" } },
    ]);
    expect(found.map((f) => f.detail)).toEqual([
      "worker 3 stopped with exit 1 after SIGTERM: uncaught: error: Workers are disabled. pg-boss is stopped",
      "worker 4 did not stop within the grace after SIGTERM (SIGKILLed)",
    ]);
  });

  it("every job completed", () => {
    expect(checkJobsCompleted([{ recipe: "a", state: "completed", output: null }])).toEqual([]);
    const [found] = checkJobsCompleted([
      { recipe: "a", state: "completed", output: null },
      { recipe: "b", state: "failed", output: '{"message":"Connection terminated"}' },
    ]);
    expect(found!.detail).toContain("1 of 2 jobs did not complete: b failed");
  });

  it("an uncaught error is told by its message and where it was emitted", () => {
    const stderr = [
      '{"level":40,"msg":"job queue error"}',
      "node:events:502",
      "      throw er; // Unhandled 'error' event",
      "error: terminating connection due to administrator command",
      "    at Parser.parse (x.js:1:1)",
      "Emitted 'error' event on Client instance at:",
    ].join("\n");
    expect(uncaught(stderr)).toBe(
      "error: terminating connection due to administrator command ⏎ Emitted 'error' event on Client instance at:",
    );
    expect(uncaught('{"level":30,"msg":"worker started"}\n')).toBeNull();
  });

  const recipe = {
    id: "fleet-1-1",
    account: "default" as const,
    title: "Fleet 1-1",
    ids: ["a", "b", "c"],
    batch: 1,
    shuffle: true,
    scheduled: false,
  };
  const mine = { id: "P1", title: "Fleet 1-1", marker: "fleet-1-1" };
  const rows = (ids: string[]) => ids.map((videoId, i) => ({ videoId, setVideoId: `s${i}` }));
  /** What the settle run said; `earlier`: quarantined before the fleet began (by default all it reported). */
  const said = (outcome: string, quarantined: string[] = [], earlier = quarantined) => ({
    outcome,
    quarantined: new Set(quarantined),
    earlier: new Set(earlier),
  });

  it("a fleet recipe settles to one playlist holding each of its songs once", () => {
    expect(checkFleetRecipe(recipe, [mine], rows(["c", "a", "b"]), said("converged"))).toEqual([]);
    const two = checkFleetRecipe(
      recipe,
      [mine, { ...mine, id: "P2" }],
      rows(["a", "b", "c"]),
      said("converged"),
    );
    expect(two.map((f) => f.invariant)).toContain("one-playlist-per-recipe");
    const dup = checkFleetRecipe(recipe, [mine], rows(["a", "b", "c", "c", "c"]), said("converged"));
    expect(dup.map((f) => f.invariant)).toEqual(["no-duplicate-rows"]);
    const short = checkFleetRecipe(recipe, [mine], rows(["a", "b"]), said("no_changes"));
    expect(short).toEqual([
      {
        invariant: "fleet-settles",
        detail: "no_changes but the playlist holds 2 songs, not the recipe's 3: missing c",
      },
    ]);
    const extra = checkFleetRecipe(recipe, [mine], rows(["a", "b", "c", "x"]), said("converged"));
    expect(extra[0]!.detail).toContain("extra x");
    expect(checkFleetRecipe(recipe, [mine], rows(["a", "b", "c"]), said("failed"))[0]!.invariant).toBe(
      "fleet-settles",
    );
    expect(checkFleetRecipe(recipe, [], null, said("converged"))[0]!.invariant).toBe("fleet-settles");
  });

  // Seed 267: songs the service refused through the echo proxy were quarantined account-wide, and
  // the fleet's recipe of that account named two of them; its run skipped them and said so.
  it("a song the run reported quarantined before the fleet may be missing; any other is a loss", () => {
    expect(checkFleetRecipe(recipe, [mine], rows(["a", "c"]), said("converged", ["b"]))).toEqual([]);
    expect(checkFleetRecipe(recipe, [mine], rows(["a", "b", "c"]), said("converged", ["b"]))).toEqual([]);
    const lost = checkFleetRecipe(recipe, [mine], rows(["c"]), said("converged", ["b"]));
    expect(lost).toEqual([
      {
        invariant: "fleet-settles",
        detail: "converged but the playlist holds 1 songs, not the recipe's 3 (1 quarantined): missing a",
      },
    ]);
    // Quarantined during the fleet, which refuses no write: the engine dropped a song it should have kept.
    expect(checkFleetRecipe(recipe, [mine], rows(["a", "c"]), said("converged", ["b"], []))).toEqual([
      {
        invariant: "fleet-settles",
        detail:
          "converged but the playlist holds 2 songs, not the recipe's 3: missing b (quarantined during the fleet)",
      },
    ]);
  });
});
