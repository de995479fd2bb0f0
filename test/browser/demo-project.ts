/**
 * The demo's recipes (the package's `recipes/`) on the emulator, as files a daemon can load: each
 * fitted to the emulator's ids the way `musicsync demo` fits them (engine/demo/demo.ts), written back
 * as YAML, with a state that shows every kind of recipe the page knows — synced, never run, held
 * for approval, suspended.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { parseDocument } from "yaml";
import {
  findSubstitutes,
  fitRecipe,
  readsOtherServices,
  shippedRecipesFolder,
} from "../../engine/demo/demo.js";
import { loadProjectText, loadRecipePaths } from "../../engine/recipe/load.js";
import type { LoadedRecipe, Project, Recipe } from "../../engine/recipe/types.js";
import { createEnv } from "../../engine/run/env.js";
import { createLogger } from "../../engine/run/logger.js";
import { syncRecipe } from "../../engine/run/runner.js";
import { type Harness, startHarness } from "../support/sync-harness.js";

/** Never run before the page is opened: the page's "run now" makes its playlist. */
export const FRESH = "us-daily-chart";
/** Its first plan removes songs, so the project's `require_approval` holds it. */
export const HELD = "playlist-cleanup";
/** Suspended in the state before the daemon starts. */
export const SUSPENDED = "new-podcast-episodes";

export interface DemoProject {
  h: Harness;
  project: Project;
  recipes: LoadedRecipe[];
  /** The playlist `HELD` cleans (the emulator's "Road Trip"). */
  heldPlaylist: string;
}

const SOURCE_IDS = ["channelId", "playlistId", "section"] as const;

/** The recipe file's text with the ids `fitRecipe` swapped, comments and layout kept. */
export function fittedText(text: string, original: Recipe, fitted: Recipe): string {
  const doc = parseDocument(text);
  fitted.sources.forEach((source, i) => {
    const before = original.sources[i] as unknown as Record<string, unknown>;
    const after = source as unknown as Record<string, unknown>;
    for (const key of SOURCE_IDS) if (after[key] !== before[key]) doc.setIn(["sources", i, key], after[key]);
  });
  const [a, b] = [original.target, fitted.target];
  if (a.type === "playlist" && b.type === "playlist" && a.playlist.id !== b.playlist.id)
    doc.setIn(["target", "playlist", "id"], b.playlist.id);
  return doc.toString();
}

function projectText(emulatorUrl: string): string {
  return [
    "apiVersion: musicsync/v1",
    "kind: Project",
    "accounts:",
    `  default: { auth: headers.json, base_url: "${emulatorUrl}" }`,
    "pacing: { min_interval_ms: 0 }",
    // Any removal waits for a person: only the clean-up's first plan removes anything.
    "defaults: { policy: { require_approval: { removals: 0 } } }",
    "recipes: [recipes]",
    "state: state.db",
    "",
  ].join("\n");
}

/** Writes the fitted recipes to `<dir>/recipes` and loads them back as the daemon will. */
async function writeFitted(h: Harness, project: Project): Promise<LoadedRecipe[]> {
  const env = createEnv({ project, projectFile: h.projectFile, logger: createLogger("silent") });
  try {
    const subs = await findSubstitutes(env.clientFor("default"));
    const shipped = await loadRecipePaths([shippedRecipesFolder()], { project });
    if (shipped.issues.length > 0) throw new Error(shipped.issues[0]!.message);
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    // The other services' recipes need their stand-ins' settings, which this project has not.
    for (const loaded of shipped.recipes.filter((r) => !readsOtherServices(r.recipe))) {
      const fitted = fitRecipe(loaded, subs).loaded.recipe;
      const text = fittedText(await readFile(loaded.file, "utf8"), loaded.recipe, fitted);
      await writeFile(join(h.dir, "recipes", basename(loaded.file)), text);
    }
  } finally {
    await env.close();
  }
  const back = await loadRecipePaths([join(h.dir, "recipes")], { project });
  if (back.issues.length > 0) throw new Error(back.issues[0]!.message);
  return back.recipes;
}

/** Syncs every recipe but `FRESH` (`HELD` ends held for approval) and suspends `SUSPENDED`. */
async function prepareState(h: Harness, project: Project, recipes: LoadedRecipe[]): Promise<void> {
  const env = createEnv({
    project,
    projectFile: h.projectFile,
    logger: createLogger("silent"),
    pacing: { minIntervalMs: 0, maxPerMinute: 0 },
  });
  try {
    for (const r of recipes) {
      if (r.recipe.id === FRESH) continue;
      const run = await syncRecipe(r, env);
      const expected = r.recipe.id === HELD ? "pending_approval" : "converged";
      if (run.outcome !== expected)
        throw new Error(`${r.recipe.id}: ${run.outcome}, not ${expected} (${run.error ?? ""})`);
    }
    await env.state.recordRecipeFailure(SUSPENDED, "default", Date.now(), "feed unreachable (test)", {
      suspendAfter: 1,
    });
  } finally {
    await env.close();
  }
}

export async function startDemoProject(): Promise<DemoProject> {
  const h = await startHarness({ catalogueSize: 400, seed: 1 });
  try {
    const text = projectText(h.emulator.url);
    await writeFile(h.projectFile, text);
    const { project, issues } = loadProjectText(h.projectFile, text);
    if (!project) throw new Error(issues.map((i) => i.message).join("; "));
    const recipes = await writeFitted(h, project);
    await prepareState(h, project, recipes);
    const held = recipes.find((r) => r.recipe.id === HELD)!.recipe.target;
    const heldPlaylist = held.type === "playlist" ? (held.playlist.id ?? "") : "";
    return { h, project, recipes, heldPlaylist };
  } catch (e) {
    await h.stop();
    throw e;
  }
}
