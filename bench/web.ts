/**
 * bench/web — how long the status page takes on the demo's state.
 *
 *   npx tsx bench/web.ts [--rounds N] [--requests N]
 *
 * Starts an emulator, syncs the shipped recipes (fitted to the emulator as `musicsync demo` does)
 * `--rounds` times (default 3) so the state holds their runs and journals, serves the page on
 * 127.0.0.1 and fetches the index, a run's page and the account's page `--requests` times each
 * (default 40). Prints each page's median and worst time in ms; the goal (docs/ENGINE.md#the-status-page-and-metrics) is a median
 * under 100 ms.
 */

import { findSubstitutes, fitRecipe, shippedRecipesFolder } from "../engine/demo/demo.js";
import { loadRecipePaths } from "../engine/recipe/load.js";
import { syncRecipe } from "../engine/run/runner.js";
import { startWeb } from "../engine/web/server.js";
import { startHarness } from "../test/support/sync-harness.js";
import { commandLine } from "./args.js";

const { rounds, requests } = commandLine({
  script: "bench/web",
  numbers: { rounds: { default: 3 }, requests: { default: 40 } },
}).numbers;

const h = await startHarness({ catalogueSize: 400 });
const env = h.env();
try {
  const loaded = await loadRecipePaths([shippedRecipesFolder()], { project: h.project });
  const subs = await findSubstitutes(env.clientFor("default"));
  const recipes = loaded.recipes.map((r) => fitRecipe(r, subs).loaded);
  for (let i = 0; i < rounds; i++) for (const r of recipes) await syncRecipe(r, env).catch(() => null);
  const web = await startWeb(
    {
      project: h.project,
      projectFile: h.projectFile,
      env,
      recipes: () => recipes,
      schedulesLoaded: () => true,
      daemon: false,
    },
    { address: "127.0.0.1:0", token: null },
  );
  const [latest] = await env.state.recentRuns({ limit: 1 });
  const pages = ["/", `/runs/${latest?.id ?? 1}`, "/accounts/default"];
  console.log(`${recipes.length} recipes, ${latest?.id ?? 0} runs in the state`);
  for (const page of pages) {
    const times: number[] = [];
    for (let i = 0; i < requests; i++) {
      const start = performance.now();
      const r = await fetch(`${web.url}${page}`);
      await r.text();
      if (r.status !== 200) throw new Error(`${page}: HTTP ${r.status}`);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    console.log(`${page.padEnd(20)} median ${median.toFixed(1)} ms, worst ${times.at(-1)!.toFixed(1)} ms`);
  }
  await web.close();
} finally {
  await h.stop();
}
