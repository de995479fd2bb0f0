/**
 * What the soak's test files share (soak.test.ts, soak-regressions-1/-2.test.ts,
 * soak-postgres.test.ts, soak-fleet.test.ts): split so that vitest's workers run them side by side,
 * each starts the same compiled command with the same attacks and words a violation the same way.
 */
import { beforeAll } from "vitest";
import { ensureBuilt, MAIN } from "../support/cli-process.js";

/**
 * The compiled `musicsync` (dist/bin, what `npx musicsync` runs), a third of tsx's CPU per process.
 * The file's first hook rebuilds dist/ if a source is newer, so a stale build never stands in for
 * the code under test.
 */
export function builtCommand(): readonly string[] {
  beforeAll(ensureBuilt);
  return [process.execPath, MAIN];
}

/** The attacks the fixed seeds and regressions run with: light, leaving the slow ones to `npm run soak`. */
export const attacks = { hostile: "light", surfaces: "light" } as const;

export const describeViolations = (v: { run: number; recipe: string; invariant: string; detail: string }[]) =>
  v.map((x) => `run ${x.run} ${x.recipe}: ${x.invariant}: ${x.detail}`).join("\n");
