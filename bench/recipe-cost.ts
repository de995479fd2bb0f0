/**
 * bench/recipe-cost — what one recipe run costs, next to its floor.
 *
 *   npx tsx bench/recipe-cost.ts [--recipes 50] [--songs 15] [--rounds 9] [--floor-rounds 300]
 *                                [--source static|playlist] [--against DIR]
 *
 * A project of `recipes` unchanged mirrors (a private playlist of `songs` songs each, listed in the
 * recipe — or, with `--source playlist`, copied from a playlist of the account) is
 * synced whole and as one recipe, round after round, by `musicsync sync` running in a process of
 * its own (./recipe-cost-tree.ts) against an emulator in another (so neither's CPU is counted in
 * the other). Printed, as medians:
 * - CPU per extra recipe: (whole sync − one-recipe sync) / (recipes − 1), and its ratio to the
 *   floor: one read of the target as the client sends it (two with a playlist source), gunzip,
 *   JSON.parse, a set difference of the rows, one durable SQLite commit (goal: ≤ 2× the floor,
 *   ≤ 5 ms);
 * - commits of a no-change run of one recipe, and how many were durable (goal: at most 1 durable);
 * - commits of a converging run of one recipe that adds one song (one confirmed write batch).
 * With `--against DIR` (another checkout, its dependencies installed) the same project runs on
 * both, on two accounts of the one emulator, the rounds interleaved: before and after, side by side.
 */
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { commandLine } from "./args.js";
import type { Command, Cost, Setup } from "./recipe-cost-tree.js";

const args = commandLine({
  script: "bench/recipe-cost",
  numbers: {
    recipes: { default: 50 },
    songs: { default: 15 },
    rounds: { default: 9 },
    "floor-rounds": { default: 300 },
  },
  texts: { against: "", source: "static" },
});
const { recipes: RECIPES, songs: SONGS, rounds: ROUNDS, "floor-rounds": FLOOR_ROUNDS } = args.numbers;
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SOURCE = sourceKind(args.texts.source);
/** Reads of the service per recipe run: the target's, and a playlist source's. */
const READS = SOURCE === "playlist" ? 2 : 1;

function sourceKind(value: string): Setup["source"] {
  if (value === "static" || value === "playlist") return value;
  throw new Error(`bench/recipe-cost: --source is static or playlist, not ${JSON.stringify(value)}`);
}

interface Tree {
  label: string;
  dir: string;
  child: ChildProcess;
  ask<T>(command: Command): Promise<T>;
  costs: { all: Cost[]; one: Cost[]; grow: Cost[] };
}

function spawnTree(label: string, dir: string): Tree {
  const child = fork(fileURLToPath(new URL("./recipe-cost-tree.ts", import.meta.url)), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const ask = <T>(command: Command) =>
    new Promise<T>((resolve, reject) => {
      child.once("message", (m: { ok: boolean; value?: T; error?: string }) =>
        m.ok ? resolve(m.value as T) : reject(new Error(`${label}: ${m.error}`)),
      );
      child.send(command);
    });
  return { label, dir, child, ask, costs: { all: [], one: [], grow: [] } };
}

async function startEmulator(size: number): Promise<{ url: string; songs: string[]; child: ChildProcess }> {
  const child = fork(fileURLToPath(new URL("./workers-emulator.ts", import.meta.url)), [String(size)], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const { url, songs } = await new Promise<{ url: string; songs: string[] }>((resolve) =>
    child.once("message", resolve as never),
  );
  return { url, songs, child };
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const ms = (x: number) => `${x.toFixed(2)} ms`;

async function main(): Promise<void> {
  const dirs = [["this", ROOT], ...(args.texts.against ? [["against", args.texts.against]] : [])];
  const perTree = RECIPES * SONGS + ROUNDS + 5;
  const emulator = await startEmulator(Math.max(2000, perTree * dirs.length + 100));
  const trees = dirs.map(([label, dir]) => spawnTree(label!, dir!));
  try {
    for (const [i, tree] of trees.entries()) {
      const catalogue = emulator.songs.slice(i * perTree, (i + 1) * perTree);
      const setup: Setup = {
        dir: tree.dir,
        url: emulator.url,
        account: i + 1,
        recipes: RECIPES,
        songs: SONGS,
        catalogue,
        source: SOURCE,
      };
      await tree.ask({ cmd: "setup", ...setup });
      const first = await tree.ask<Cost>({ cmd: "sync" });
      if (first.code !== 0) throw new Error(`${tree.label}: the first sync exited ${first.code}`);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const tree of trees) {
        tree.costs.all.push(await tree.ask<Cost>({ cmd: "sync" }));
        tree.costs.one.push(await tree.ask<Cost>({ cmd: "sync", recipes: ["r1"] }));
        await tree.ask({ cmd: "grow" });
        tree.costs.grow.push(await tree.ask<Cost>({ cmd: "sync", recipes: ["r0"] }));
      }
      process.stderr.write(`round ${round + 1}/${ROUNDS}\n`);
    }
    const floor = await trees[0]!.ask<number>({ cmd: "floor", rounds: FLOOR_ROUNDS, reads: READS });
    report(trees, floor);
  } finally {
    for (const tree of trees) tree.child.kill();
    emulator.child.kill();
  }
}

function report(trees: readonly Tree[], floor: number): void {
  console.log(
    `${RECIPES} unchanged mirrors of ${SONGS} songs (${SOURCE} source), medians of ${ROUNDS} rounds, node ${process.version}`,
  );
  console.log(
    `floor per recipe (read + gunzip + JSON.parse + set difference + 1 durable commit): ${ms(floor)}`,
  );
  for (const t of trees) {
    const extra = median(t.costs.all.map((a, i) => (a.cpuMs - t.costs.one[i]!.cpuMs) / (RECIPES - 1)));
    const one = t.costs.one;
    const grow = t.costs.grow;
    console.log(`\n${t.label} (${t.dir})`);
    console.log(
      `  CPU per extra recipe        ${ms(extra)}  ${(extra / floor).toFixed(2)}x the floor  (goal ≤ 2x, ≤ 5 ms)`,
    );
    console.log(
      `  whole sync of ${RECIPES}            ${ms(median(t.costs.all.map((c) => c.cpuMs)))} CPU, ${ms(median(t.costs.all.map((c) => c.wallMs)))} wall`,
    );
    console.log(
      `  no-change run of one recipe ${ms(median(one.map((c) => c.cpuMs)))} CPU; commits ${median(one.map((c) => c.commits))}, durable ${median(one.map((c) => c.durable))}  (goal: ≤ 1 durable)`,
    );
    console.log(
      `  converging run (1 song)     ${ms(median(grow.map((c) => c.cpuMs)))} CPU; commits ${median(grow.map((c) => c.commits))}, durable ${median(grow.map((c) => c.durable))}`,
    );
  }
}

await main();
process.exit(0);
