/**
 * A harness's project with `services:` pointed at the emulator's stand-ins (Spotify's app, the
 * Last.fm key from the environment), one recipe beside it, and the engine env to run it: how the
 * other services' sources are tested end to end.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { loadProjectText, loadRecipePaths } from "../../engine/recipe/load.js";
import type { LoadedRecipe } from "../../engine/recipe/types.js";
import { createEnv } from "../../engine/run/env.js";
import { createLogger } from "../../engine/run/logger.js";
import { keptTokenText } from "../../engine/run/spotify-token.js";
import { writeSecretFile } from "../../shared/secret-file.js";
import { harnessJson } from "./harness-fetch.js";
import { signInToStandIn } from "./spotify-sign-in.js";
import type { Harness } from "./sync-harness.js";

/**
 * The harness's project with `services:` pointed at the emulator's stand-ins, a recipe, and its
 * env; `signedIn`: a person signed in to Spotify, their token kept where `musicsync auth spotify`
 * keeps it (spotify-token.json beside the project file), so the recipe may read their library.
 */
export async function servicesProject(hh: Harness, recipeText: string, options: { signedIn?: boolean } = {}) {
  const app = await harnessJson<{ client_id: string; client_secret: string }>(
    `${hh.emulator.url}/_emulator/services/spotify/app`,
  );
  const { apiKey } = await harnessJson<{ apiKey: string }>(
    `${hh.emulator.url}/_emulator/services/lastfm/keys`,
  );
  const text = [
    "apiVersion: musicsync/v1",
    "kind: Project",
    "accounts:",
    `  default: { auth: headers.json, base_url: "${hh.emulator.url}" }`,
    "pacing: { min_interval_ms: 0 }",
    "recipes: [recipes]",
    "state: state.db",
    "services:",
    "  spotify:",
    `    base_url: "${hh.emulator.url}/spotify/api/v1"`,
    `    accounts_url: "${hh.emulator.url}/spotify/accounts"`,
    `    client_id: ${app.client_id}`,
    `    client_secret: $\{SPOTIFY_SECRET}`,
    `  listenbrainz: { base_url: "${hh.emulator.url}/listenbrainz" }`,
    `  lastfm: { base_url: "${hh.emulator.url}/lastfm/2.0/" }`,
    "",
  ].join("\n");
  const projectFile = join(hh.dir, "musicsync.yaml");
  await writeFile(projectFile, text);
  if (options.signedIn) {
    const token = await signInToStandIn(hh.emulator.url);
    await writeSecretFile(
      join(hh.dir, "spotify-token.json"),
      keptTokenText({ token, clientId: app.client_id }),
    );
  }
  const { project, issues } = loadProjectText(projectFile, text, { SPOTIFY_SECRET: app.client_secret });
  if (!project) throw new Error(issues.map((i) => i.message).join("; "));
  const recipes = join(hh.dir, "recipes");
  await mkdir(recipes, { recursive: true });
  await writeFile(join(recipes, "recipe.yaml"), recipeText);
  const loaded = await loadRecipePaths([join(recipes, "recipe.yaml")], { project });
  if (loaded.issues.length > 0) throw new Error(loaded.issues.map((i) => i.message).join("\n"));
  const env = () =>
    createEnv({
      project,
      projectFile,
      logger: createLogger("silent"),
      pacing: { minIntervalMs: 0, maxPerMinute: 0, baseDelayMs: 100 },
      // The Last.fm key from the environment, as a person would keep it out of the file.
      environment: { LASTFM_API_KEY: apiKey },
    });
  // What a command run on the project needs from the environment.
  const environment = { SPOTIFY_SECRET: app.client_secret, LASTFM_API_KEY: apiKey };
  return {
    loaded: loaded.recipes[0]! as LoadedRecipe,
    env,
    warnings: loaded.warnings,
    projectFile,
    environment,
  };
}
