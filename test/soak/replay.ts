/**
 * Every seed that ever found a break (regressions.ts), each replaying the story that once broke: with
 * no new surface (surfaces.ts), so the seed draws what it drew then (or, for a seed that broke only
 * under them, every attack and surface `npm run soak` draws). Dealt out alternately to two
 * test files (soak-regressions-1 and -2), so that vitest's two workers replay them side by side; a
 * seed added to regressions.ts lands in one of them by its place in the list.
 */
import { expect } from "vitest";
import { REGRESSIONS } from "./regressions.js";
import { runSeed } from "./soak.js";
import { attacks, describeViolations } from "./suite.js";

/** The `share`-th of every `shares` regressions found with the state in SQLite: seed, promise, what broke. */
export function regressionsShare(share: number, shares: number) {
  return REGRESSIONS.filter((r) => !r.state)
    .filter((_, i) => i % shares === share)
    .map((r) => [r.seed, r.promise, r.found] as const);
}

/**
 * Replays one regression seed with `command`, with the attacks it broke under (regressions.ts
 * `attacks`); fails naming every violation.
 */
export async function replay(seed: number, command: readonly string[]): Promise<void> {
  const all = REGRESSIONS.some((r) => r.seed === seed && !r.state && r.attacks === "all");
  const drawn = all
    ? ({ hostile: "all", surfaces: "all" } as const)
    : ({ ...attacks, surfaces: "none" } as const);
  const { violations } = await runSeed(seed, { kill: "auto", command, ...drawn });
  expect(violations, describeViolations(violations)).toEqual([]);
}
