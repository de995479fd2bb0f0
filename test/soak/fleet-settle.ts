/**
 * After the fleet: one fault-free run of the fleet's own recipes in this process (as `musicsync
 * sync` makes it), its log scanned, then each account's library read back as its owner sees it:
 * whatever two writers or a cut connection did during the fleet, that run must leave one playlist
 * per recipe holding exactly its songs (fleet-checks.ts).
 */
import { readFile } from "node:fs/promises";
import { loadProjectText, loadRecipePaths } from "../../engine/recipe/load.js";
import { createEnv } from "../../engine/run/env.js";
import { createLogger } from "../../engine/run/logger.js";
import { syncRecipe } from "../../engine/run/runner.js";
import { MusicClient } from "../../src/index.js";
import { captureLog } from "./capture.js";
import type { FleetContext } from "./fleet.js";
import { checkFleetRecipe, type Settled } from "./fleet-checks.js";
import type { FleetPlan } from "./fleet-plan.js";
import type { FleetProject } from "./fleet-setup.js";
import { reportedQuarantine } from "./invariants.js";
import { type LibraryPlaylist, libraryPlaylists, playlistState } from "./readback.js";

/** Each fleet recipe synced once without faults: its outcome (or what it threw) and what it quarantined. */
async function syncOnce(
  ctx: FleetContext,
  project: FleetProject,
): Promise<Map<string, Omit<Settled, "earlier">>> {
  const text = await readFile(project.projectFile, "utf8");
  const { project: loadedProject, issues } = loadProjectText(project.projectFile, text);
  if (!loadedProject) throw new Error(`fleet project invalid: ${issues.map((i) => i.message).join("; ")}`);
  const { recipes, issues: bad } = await loadRecipePaths([project.recipesDir], { project: loadedProject });
  if (bad.length > 0) throw new Error(`fleet recipe invalid: ${bad.map((i) => i.message).join("; ")}`);
  const log = captureLog();
  const env = createEnv({
    project: loadedProject,
    projectFile: project.projectFile,
    logger: createLogger("debug", log.stream),
    clock: ctx.clock,
    pacing: { minIntervalMs: 0, maxPerMinute: 0, baseDelayMs: 100 },
  });
  const outcomes = new Map<string, Omit<Settled, "earlier">>();
  try {
    for (const loaded of recipes) {
      try {
        const run = await syncRecipe(loaded, env);
        ctx.leaks(`error of ${loaded.recipe.id}`, run.error ?? "");
        outcomes.set(loaded.recipe.id, { outcome: run.outcome, quarantined: reportedQuarantine(run) });
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        ctx.leaks(`thrown by ${loaded.recipe.id}`, message);
        outcomes.set(loaded.recipe.id, { outcome: `threw ${message.slice(0, 160)}`, quarantined: new Set() });
      }
    }
  } finally {
    await env.close();
  }
  ctx.leaks("fleet settle log", log.text());
  return outcomes;
}

export async function settleFleetRecipes(
  ctx: FleetContext,
  plan: FleetPlan,
  project: FleetProject,
  /** Ids the seed's account had quarantined before the fleet began (the fleet's new account none). */
  quarantinedBefore: ReadonlySet<string>,
): Promise<void> {
  const outcomes = await syncOnce(ctx, project);
  const readers = {
    default: ctx.h,
    other: project.otherHeaders
      ? { person: new MusicClient({ auth: project.otherHeaders, baseUrl: ctx.h.emulator.url }) }
      : null,
  };
  // Read once per account: nothing writes while the recipes are judged, and each read opens every
  // playlist of the library (a fleet has up to a dozen recipes on two accounts).
  const libraries = new Map<string, Promise<LibraryPlaylist[]>>();
  for (const r of plan.recipes) {
    const reader = readers[r.account]!;
    if (!libraries.has(r.account)) libraries.set(r.account, libraryPlaylists(reader));
    const library = await libraries.get(r.account)!;
    const mine = library.find((p) => p.marker === r.id);
    const rows = mine ? (await playlistState(reader, mine.id)).rows : null;
    const said = outcomes.get(r.id) ?? { outcome: "not run", quarantined: new Set<string>() };
    const earlier = r.account === "default" ? quarantinedBefore : new Set<string>();
    const settled = { ...said, earlier };
    const skipped = [...said.quarantined].filter((id) => r.ids.includes(id));
    ctx.trace(
      `  fleet settle ${r.id}: ${settled.outcome}, ${rows?.length ?? "no"} rows${skipped.length > 0 ? `, quarantined ${skipped.join(" ")}` : ""}`,
    );
    ctx.report(r.id, checkFleetRecipe(r, library, rows, settled));
  }
}
