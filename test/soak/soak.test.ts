/**
 * The soak in `npm test`: a fixed small set of seeds (one of them killing the real process);
 * `npm run soak -- --seeds N` runs more. The seeds that ever found a break replay in
 * soak-regressions-1/-2.test.ts, and the state on PostgreSQL in soak-postgres.test.ts and
 * soak-fleet.test.ts: files of their own, so that vitest's two workers share the soak's minutes.
 * Seed 1 sends runs through the credential-echo proxy (drawn so by the seed), seed 5 its real
 * process too; every seed drops a hostile recipe file, leaving the ones that take seconds to
 * refuse to `npm run soak`.
 * The new surfaces (surfaces.ts) come in their light form (no /dev/zero; an attacked file read
 * in this process only), as the fixed seeds draw them, but for seed 4's files, forced on (with an
 * attack on one): together they post actions through the status page, hold plans for approval and
 * apply saved ones (seed 53's is held when `apply` meets it), swap a file source for a folder and
 * sync with every notification target down. The last test checks that each surface came up, from
 * what this file's seeds saw: they stay together here.
 */
import { describe, expect, it } from "vitest";
import { stretched } from "../support/load.js";
import { runSeed, type SoakOptions } from "./soak.js";
import { attacks, builtCommand, describeViolations } from "./suite.js";

const command = builtCommand();
const FIXED = [1, 2, 3, 4];
/** Surfaces a fixed seed has whatever it draws (so that every one comes up). */
const FORCED: Record<number, SoakOptions["force"]> = { 4: { files: true } };
/** What the fixed seeds' surfaces were, each as its seed line words it (`page run@2`, `file directory@4`…). */
const seen: string[] = [];

// docs/ENGINE.md#principles: the suite that finds the next break
describe("soak: random recipes, edits by hand, faults and kills; every promise checked after every run", () => {
  it.each(FIXED)(
    "seed %i keeps every promise",
    async (seed) => {
      const force = FORCED[seed];
      const { violations, surfaces } = await runSeed(seed, {
        kill: false,
        command,
        ...attacks,
        ...(force ? { force } : {}),
      });
      seen.push(...surfaces);
      expect(violations, describeViolations(violations)).toEqual([]);
    },
    stretched(150_000),
  );

  it(
    "seed 5 (the real process killed at random points, and run through the echo proxy) keeps every promise",
    async () => {
      const { violations, surfaces } = await runSeed(5, { kill: true, command, echo: true, ...attacks });
      seen.push(...surfaces);
      expect(violations, describeViolations(violations)).toEqual([]);
    },
    stretched(180_000),
  );

  it(
    "seed 53 (a saved plan that holds its recipe for approval, given to `apply`) keeps every promise",
    async () => {
      const { violations, surfaces } = await runSeed(53, { kill: false, command, ...attacks });
      seen.push(...surfaces);
      expect(violations, describeViolations(violations)).toEqual([]);
    },
    stretched(150_000),
  );

  it("the fixed seeds came up against every surface", () => {
    // Run alone (a filter that left the seeds out), there is nothing to look at.
    if (seen.length === 0) return;
    for (const surface of [/^page /, /^approval \d+ apply@/, /^files /, /^file \S+@/, /^notify down@/])
      expect(
        seen.some((x) => surface.test(x)),
        `${surface} among ${seen.join("; ")}`,
      ).toBe(true);
  });
});
