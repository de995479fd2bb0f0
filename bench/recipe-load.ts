/**
 * bench/recipe-load — what loading one recipe file costs: the shipped recipes, and the hostile
 * files of test/support/hostile-recipes.ts that are refused for their size of structure (deep
 * nesting, many aliases, a huge mapping).
 *
 *   npx tsx bench/recipe-load.ts [--rounds 7] [--against DIR]
 *
 * Each file goes through `loadRecipeText` (text already in memory: no disk in the figure). A
 * sample repeats the load until 20 ms have passed and is the mean load; figures are the medians
 * of the rounds' samples, in ms. With `--against DIR` (another checkout, its dependencies
 * installed) that tree's loader is timed in the same rounds, the order turning each round, and
 * a file whose issues differ between the trees is marked ✗.
 */
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { hostileRecipes } from "../test/support/hostile-recipes.js";
import { commandLine } from "./args.js";

const args = commandLine({
  script: "bench/recipe-load",
  numbers: { rounds: { default: 7 } },
  texts: { against: "" },
});
const HERE = fileURLToPath(new URL("..", import.meta.url));
/** Refused for their structure; the other hostile files are refused by cheaper checks or are small. */
const STRUCTURAL = new Set([
  "deep-flow-seq-100000",
  "deep-flow-map-100000",
  "deep-flow-unclosed-100000",
  "deep-block-seq-100000",
  "deep-explicit-keys-100000",
  "deep-block-map-1400",
  "alias-150000",
  "ninety-thousand-keys",
]);
const SAMPLE_MS = 20;

type Load = (file: string, text: string) => { issues: unknown[] };

interface Tree {
  name: string;
  load: Load;
  /** Milliseconds per file name, one per round. */
  times: Map<string, number[]>;
}

async function tree(name: string, root: string): Promise<Tree> {
  const url = pathToFileURL(resolve(root, "engine/recipe/load.ts")).href;
  const { loadRecipeText } = (await import(url)) as { loadRecipeText: Load };
  return { name, load: loadRecipeText, times: new Map() };
}

function corpus(): { name: string; text: string }[] {
  const shipped = readdirSync(resolve(HERE, "recipes"))
    .filter((f) => f.endsWith(".yaml"))
    .sort()
    .map((f) => ({ name: `recipes/${f}`, text: readFileSync(resolve(HERE, "recipes", f), "utf8") }));
  const hostile = hostileRecipes()
    .filter((c) => STRUCTURAL.has(c.name) && typeof c.content === "string")
    .map((c) => ({ name: c.name, text: c.content as string }));
  return [...shipped, ...hostile];
}

/** The mean time of one load, over as many loads as fill SAMPLE_MS (at least one). */
function sample(load: Load, name: string, text: string): number {
  const started = performance.now();
  let loads = 0;
  do {
    load(name, text);
    loads++;
  } while (performance.now() - started < SAMPLE_MS);
  return (performance.now() - started) / loads;
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? Number.NaN;

function differs(trees: readonly Tree[], name: string, text: string): boolean {
  const issues = trees.map((t) => JSON.stringify(t.load(name, text).issues));
  return issues.some((i) => i !== issues[0]);
}

async function main(): Promise<void> {
  const trees = [await tree("this tree", HERE)];
  if (args.texts.against) trees.push(await tree(args.texts.against, args.texts.against));
  const files = corpus();
  for (let round = 0; round < args.numbers.rounds; round++) {
    for (const f of files) {
      const order = round % 2 === 0 ? trees : [...trees].reverse();
      for (const t of order)
        t.times.set(f.name, [...(t.times.get(f.name) ?? []), sample(t.load, f.name, f.text)]);
    }
  }
  console.log(`bench/recipe-load: ${args.numbers.rounds} rounds, median ms per load`);
  console.log(`  ${"file".padEnd(34)} ${trees.map((t) => t.name.slice(-16).padStart(16)).join(" ")}`);
  for (const f of files) {
    const mark = trees.length > 1 && differs(trees, f.name, f.text) ? "✗" : " ";
    const cells = trees.map((t) =>
      median(t.times.get(f.name) ?? [])
        .toFixed(3)
        .padStart(16),
    );
    console.log(`${mark} ${f.name.padEnd(34)} ${cells.join(" ")}`);
  }
}

await main();
