/**
 * The soak in `npm test`: a fixed small set of seeds (one of them killing the real process) and
 * every seed that ever found a break (regressions.ts). `npm run soak -- --seeds N` runs more.
 * Seed 1 sends runs through the credential-echo proxy (drawn so by the seed), seed 5 its real
 * process too; every seed drops a hostile recipe file, leaving the ones that take seconds to
 * refuse to `npm run soak`.
 */
import { describe, expect, it } from "vitest";
import { musicsyncCommand } from "./kill.js";
import { REGRESSIONS } from "./regressions.js";
import { runSeed } from "./soak.js";

// The sources through tsx: a dist/ built from an older tree must not stand in for the code under test.
const command = musicsyncCommand(false);
const FIXED = [1, 2, 3, 4];
const attacks = { hostile: "light" } as const;
const describeViolations = (v: { run: number; recipe: string; invariant: string; detail: string }[]) =>
  v.map((x) => `run ${x.run} ${x.recipe}: ${x.invariant}: ${x.detail}`).join("\n");

// issue 10, the suite that finds the next one
describe("soak: random recipes, edits by hand, faults and kills; every promise checked after every run", () => {
  it.each(FIXED)(
    "seed %i keeps every promise",
    async (seed) => {
      const { violations } = await runSeed(seed, { kill: false, command, ...attacks });
      expect(violations, describeViolations(violations)).toEqual([]);
    },
    60_000,
  );

  it("seed 5 (the real process killed at random points, and run through the echo proxy) keeps every promise", async () => {
    const { violations } = await runSeed(5, { kill: true, command, echo: true, ...attacks });
    expect(violations, describeViolations(violations)).toEqual([]);
  }, 90_000);
});

describe("soak regressions: every seed that ever broke a promise", () => {
  it.each(REGRESSIONS.map((r) => [r.seed, r.issueItem, r.found] as const))(
    "seed %i (issue %s): %s",
    async (seed) => {
      const { violations } = await runSeed(seed, { kill: "auto", command, ...attacks });
      expect(violations, describeViolations(violations)).toEqual([]);
    },
    90_000,
  );
});
