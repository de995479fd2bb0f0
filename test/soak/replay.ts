/**
 * Every seed that ever found a break (regressions.ts), each replaying the story that once broke: with
 * no new surface (surfaces.ts), so the seed draws what it drew then (or, for a seed that broke only
 * under them, every attack and surface `npm run soak` draws). Dealt out alternately to two
 * test files (soak-regressions-1 and -2), so that vitest's two workers replay them side by side; a
 * seed added to regressions.ts lands in one of them by its place in the list.
 */
import { expect } from "vitest";
import { REGRESSIONS, type Regression } from "./regressions.js";
import { runSeed } from "./soak.js";
import { attacks, describeViolations } from "./suite.js";

/** The `share`-th of every `shares` regressions found with the state in SQLite: seed, promise, what broke. */
export function regressionsShare(share: number, shares: number) {
  return REGRESSIONS.filter((r) => !r.state)
    .filter((_, i) => i % shares === share)
    .map((r) => [r.seed, r.promise, r.found] as const);
}

/** The attacks a regression seed is replayed with: those it broke under (regressions.ts `attacks`). */
export function drawnFor(r: Pick<Regression, "attacks">) {
  return r.attacks === "all"
    ? ({ hostile: "all", surfaces: "all" } as const)
    : ({ ...attacks, surfaces: "none" } as const);
}

/** Replays one regression seed found on SQLite with `command`; fails naming every violation. */
export async function replay(seed: number, command: readonly string[]): Promise<void> {
  const found = REGRESSIONS.find((r) => r.seed === seed && !r.state) ?? {};
  const { violations } = await runSeed(seed, { kill: "auto", command, ...drawnFor(found) });
  expect(violations, describeViolations(violations)).toEqual([]);
}
