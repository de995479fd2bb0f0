/**
 * The credential and hostile-recipe attacks in the soak (docs/ENGINE.md#credentials, docs/ENGINE.md#bad-input): which runs of a seed go through the proxy that
 * echoes credentials back (test/support/echo-server.ts), and which hostile recipe file
 * (test/support/hostile-recipes.ts) is dropped beside the seed's recipes before which run. Pure.
 *
 * Drawn from a second generator of the seed, not the seed's main one: the main sequence (recipes,
 * edits, faults, kills) of every seed stays what it was, so a seed in regressions.ts still replays
 * the story that once broke a promise, and a seed without an echo run is unchanged by this file.
 */
import type { HostileRecipe } from "../support/hostile-recipes.js";
import { chance, int, pick, type Random, rng, shuffled } from "./generate.js";

export interface AttackOptions {
  /** Runs through the echo proxy: `auto` = one seed in six (chosen by the seed). */
  echo: boolean | "auto";
  /** Which hostile files may be dropped: `all`, `light` (not the ones that take seconds to refuse), `none`. */
  hostile: "all" | "light" | "none";
}

export interface Attacks {
  /** Runs (1-based) whose every request goes through the echo proxy in front of the emulator. */
  echoRuns: Set<number>;
  /** The hostile file, in the recipe folder during run `run` (an in-process run: see below). */
  hostile: { run: number; recipe: HostileRecipe } | null;
}

/**
 * Files of the corpus that take a second or more to refuse (hundreds of thousands of documents,
 * keys, aliases or nesting levels): a hostile step loads the folder three or four times, so
 * `npm test`'s fixed seeds leave these to `npm run soak` and to broken-recipes.test.ts.
 */
const HEAVY = /100000|two-hundred-thousand|ninety-thousand|alias-150000/;

export const isHeavy = (recipe: HostileRecipe) => HEAVY.test(recipe.name);

/** The seed's second generator (see the header comment). */
export const attackRng = (seed: number): Random => rng(seed + 0x51ed);

export function attacksOf(
  seed: number,
  runs: number,
  processRuns: ReadonlySet<number>,
  corpus: readonly HostileRecipe[],
  options: AttackOptions,
): Attacks {
  const r = attackRng(seed);
  const echoed = options.echo === "auto" ? chance(r, 1 / 6) : options.echo;
  const echoRuns = new Set<number>();
  if (echoed) {
    for (const run of shuffled(r, range(runs)).slice(0, int(r, 1, 2))) echoRuns.add(run);
    // A seed that runs the real process sends one of those runs through the echo too.
    if (processRuns.size > 0) echoRuns.add(pick(r, [...processRuns]));
  }
  // In a run of the real process the folder as a whole is refused (sync's rule: see hostile.ts), so
  // the file sits beside an in-process run, which runs the valid recipes as the daemon does.
  const inProcess = range(runs).filter((run) => !processRuns.has(run));
  const usable = corpus.filter((c) => options.hostile === "all" || !isHeavy(c));
  const hostile =
    options.hostile === "none" || inProcess.length === 0 || usable.length === 0
      ? null
      : { run: pick(r, inProcess), recipe: pick(r, usable) };
  return { echoRuns, hostile };
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
