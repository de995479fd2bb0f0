import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packageRoot } from "../../shared/package-root.js";
import type { EngineClient } from "../apply/client.js";
import { loadProjectText, loadRecipePaths, recipeHash } from "../recipe/load.js";
import type { LoadedRecipe, Recipe, SourceSpec } from "../recipe/types.js";
import { renderPlanText, resultLine } from "../render/text.js";
import { createEnv } from "../run/env.js";
import type { EngineLogger } from "../run/logger.js";
import { planRecipe, type RecipeRun, syncRecipe } from "../run/runner.js";
import { onEmulator, standInJson } from "../run/service-settings.js";
import { chartPlaylist } from "../sources/read.js";

/** The package's own `recipes/` folder, found from this file (works from `engine/` and `dist/engine/`). */
export function shippedRecipesFolder(from: string = import.meta.url): string {
  return join(packageRoot(from), "recipes");
}

type Mutable<T> = { -readonly [K in keyof T]: Mutable<T[K]> };

/** What a generated catalogue offers in place of real ids, read through the client. */
export interface Substitutes {
  artist: string;
  playlists: string[];
  ownedPlaylist: string;
  chartHasSongs: boolean;
  /** The other services' stand-ins on the emulator: a Spotify playlist, a user of each of the others. */
  services?: ServiceSubstitutes;
}

export interface ServiceSubstitutes {
  spotifyPlaylist: string;
  listenBrainzUser: string;
  lastfmUser: string;
}

/**
 * The stand-ins' ids for the recipes (the smallest Spotify playlist with songs: the demo stays
 * short), and the project's `services:` block reading them with the keys they know.
 */
export async function serviceStandIns(
  url: string,
): Promise<{ subs: ServiceSubstitutes; settings: string[] }> {
  const { playlists } = await standInJson<{ playlists: { id: string; length: number }[] }>(
    url,
    "spotify/playlists",
  );
  const app = await standInJson<{ client_id: string; client_secret: string }>(url, "spotify/app");
  const lb = await standInJson<{ users: { name: string }[] }>(url, "listenbrainz/users");
  const fm = await standInJson<{ users: { name: string }[] }>(url, "lastfm/users");
  const { apiKey } = await standInJson<{ apiKey: string }>(url, "lastfm/keys");
  const playlist = playlists.filter((p) => p.length > 0).sort((a, b) => a.length - b.length)[0];
  if (!playlist || !lb.users[0] || !fm.users[0])
    throw new Error("the emulator's stand-ins of other services are empty");
  const at = onEmulator(url);
  return {
    subs: { spotifyPlaylist: playlist.id, listenBrainzUser: lb.users[0].name, lastfmUser: fm.users[0].name },
    settings: [
      "services:",
      `  spotify: { base_url: "${at.spotify.api}", accounts_url: "${at.spotify.accounts}", client_id: ${app.client_id}, client_secret: ${app.client_secret} }`,
      `  listenbrainz: { base_url: "${at.listenbrainz}" }`,
      `  lastfm: { base_url: "${at.lastfm}", api_key: ${apiKey} }`,
    ],
  };
}

export async function findSubstitutes(client: EngineClient): Promise<Substitutes> {
  const subs = await client.getLibrarySubscriptions({ limit: null });
  const library = await client.getLibraryPlaylists({ limit: null });
  const charts = await client.getCharts({ country: "US" });
  const artist = subs.find((s) => s.browseId)?.browseId;
  // Playlists the person owns come back with a count; the smallest is a good cleanup target.
  const ids = library
    .map((p) => p.playlistId)
    .filter((id): id is string => !!id && !["LM", "SE"].includes(id));
  const owned = library.find((p) => p.title === "Road Trip")?.playlistId ?? ids[0];
  if (!artist || !owned || ids.length === 0)
    throw new Error("the emulator's account has no library to fit the demo to");
  return {
    artist,
    playlists: [...ids.filter((id) => id !== owned), owned],
    ownedPlaylist: owned,
    chartHasSongs: chartPlaylist(charts, "songs") !== null,
  };
}

/** Whether a recipe reads another music service (its stand-ins need the project's `services:`). */
export function readsOtherServices(recipe: Recipe): boolean {
  return recipe.sources.some((s) => s.type === "spotify" || s.type === "listenbrainz" || s.type === "lastfm");
}

/** A copy of the recipe whose ids all exist in the emulator; notes say what was swapped. */
export function fitRecipe(
  loaded: LoadedRecipe,
  subs: Substitutes,
): { loaded: LoadedRecipe; notes: string[] } {
  const recipe = structuredClone(loaded.recipe) as Mutable<Recipe>;
  const notes: string[] = [];
  let nextPlaylist = 0;
  for (const s of recipe.sources as Mutable<SourceSpec>[]) {
    if (s.type === "artist") {
      notes.push(`source ${s.id}: artist ${s.channelId} → ${subs.artist}`);
      s.channelId = subs.artist;
    } else if (s.type === "playlist") {
      const id = subs.playlists[nextPlaylist++ % subs.playlists.length]!;
      notes.push(`source ${s.id}: playlist ${s.playlistId} → ${id}`);
      s.playlistId = id;
    } else if (s.type === "spotify" && s.playlist !== null && subs.services) {
      notes.push(`source ${s.id}: Spotify playlist ${s.playlist} → ${subs.services.spotifyPlaylist}`);
      s.playlist = subs.services.spotifyPlaylist;
    } else if ((s.type === "listenbrainz" || s.type === "lastfm") && s.user !== null && subs.services) {
      const user = s.type === "listenbrainz" ? subs.services.listenBrainzUser : subs.services.lastfmUser;
      notes.push(`source ${s.id}: ${s.type} user ${s.user} → ${user}`);
      s.user = user;
    } else if (s.type === "chart" && s.section === "songs" && !subs.chartHasSongs) {
      notes.push(
        `source ${s.id}: the emulator's ${s.country} charts list no songs chart; using its videos chart`,
      );
      s.section = "videos";
    }
  }
  const t = recipe.target;
  if (t.type === "playlist" && t.playlist.id !== null) {
    notes.push(`target: playlist ${t.playlist.id} → ${subs.ownedPlaylist}`);
    t.playlist.id = subs.ownedPlaylist;
  }
  const fitted = recipe as Recipe;
  return { loaded: { ...loaded, recipe: fitted, hash: recipeHash(fitted) }, notes };
}

export interface DemoOptions {
  out: (text: string) => void;
  logger: EngineLogger;
  catalogueSize?: number;
  seed?: number;
  recipesFolder?: string;
  onAction?: Parameters<typeof createEnv>[0]["onAction"];
}

export interface DemoResult {
  runs: RecipeRun[];
  /** Whether the second plan of every recipe said "No changes.". */
  converged: boolean;
}

export async function runDemo(options: DemoOptions): Promise<DemoResult> {
  const { out } = options;
  // The one import of the emulator by the engine, and lazy: only the demo loads it.
  const { startEmulator } = await import("../../emulator/index.js");
  const emulator = await startEmulator({
    catalogueSize: options.catalogueSize ?? 400,
    seed: options.seed ?? 1,
  });
  const dir = await mkdtemp(join(tmpdir(), "musicsync-demo-"));
  try {
    const headers = await (await fetch(`${emulator.url}/_emulator/accounts/1/headers`)).json();
    await writeFile(join(dir, "headers.json"), JSON.stringify(headers));
    const standIns = await serviceStandIns(emulator.url);
    const projectFile = join(dir, "musicsync.yaml");
    const projectText = [
      "apiVersion: musicsync/v1",
      "kind: Project",
      "accounts:",
      `  default: { auth: headers.json, base_url: "${emulator.url}" }`,
      "state: state.db",
      ...standIns.settings,
      "",
    ].join("\n");
    await writeFile(projectFile, projectText);
    const { project, issues } = loadProjectText(projectFile, projectText);
    if (!project) throw new Error(issues.map((i) => i.message).join("; "));
    const folder = options.recipesFolder ?? shippedRecipesFolder();
    const loaded = await loadRecipePaths([folder], { project });
    if (loaded.issues.length > 0)
      throw new Error(`shipped recipes do not load: ${loaded.issues[0]!.message}`);
    const env = createEnv({
      project,
      projectFile,
      logger: options.logger,
      pacing: { minIntervalMs: 0, maxPerMinute: 0 },
      ...(options.onAction ? { onAction: options.onAction } : {}),
    });
    try {
      out(`Emulator at ${emulator.url} (seed ${options.seed ?? 1}); state in ${join(dir, "state.db")}\n\n`);
      const subs = { ...(await findSubstitutes(env.clientFor("default"))), services: standIns.subs };
      const fitted = loaded.recipes.map((r) => fitRecipe(r, subs));
      const runs: RecipeRun[] = [];
      for (const { loaded: recipe, notes } of fitted) {
        out(`── ${recipe.recipe.id} (${recipe.file.split("/").at(-1)})\n`);
        for (const n of notes) out(`   fitted to the emulator: ${n}\n`);
        const run = await syncRecipe(recipe, env);
        runs.push(run);
        if (run.plan) out(renderPlanText(run.plan));
        out(`${resultLine(run)}\n\n`);
      }
      out("── planning again\n");
      let converged = true;
      for (const { loaded: recipe } of fitted) {
        const { plan } = await planRecipe(recipe, env);
        if (plan.actions.length > 0) converged = false;
        // The first line and the verdict; the skip lines were shown with the first plan.
        const text = renderPlanText(plan).trimEnd().split("\n");
        out(plan.actions.length > 0 ? renderPlanText(plan) : `${text[0]}\n  ${text.at(-1)}\n`);
      }
      return { runs, converged };
    } finally {
      await env.close();
    }
  } finally {
    await emulator.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
