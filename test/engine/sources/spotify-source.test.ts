/**
 * The `spotify` source end to end: a playlist of the emulator's Spotify stand-in mirrored into a
 * playlist of the emulator, the answers checked against what the stand-in says each track is (its
 * ground truth, never the matcher's). A re-run sends no search; songs added on Spotify are the only
 * ones searched; undo takes the mirror back.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { spotifyTruth } from "../../../emulator/services/spotify/index.js";
import { loadProjectText, loadRecipePaths } from "../../../engine/recipe/load.js";
import type { LoadedRecipe } from "../../../engine/recipe/types.js";
import { createEnv } from "../../../engine/run/env.js";
import { createLogger } from "../../../engine/run/logger.js";
import { planRecipe } from "../../../engine/run/runner.js";
import { harnessJson } from "../../support/harness-fetch.js";
import {
  converge,
  type Harness,
  playlistRows,
  playlistsTitled,
  startHarness,
} from "../../support/sync-harness.js";

let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

interface FakePlaylist {
  id: string;
  name: string;
  length: number;
}

async function fakePlaylist(hh: Harness, name: string): Promise<FakePlaylist> {
  const { playlists } = await harnessJson<{ playlists: FakePlaylist[] }>(
    `${hh.emulator.url}/_emulator/services/spotify/playlists`,
  );
  return playlists.find((p) => p.name === name)!;
}

/** The harness's project with `services.spotify` pointed at the emulator's stand-in, and its env. */
async function spotifyProject(hh: Harness, playlistId: string) {
  const app = await harnessJson<{ client_id: string; client_secret: string }>(
    `${hh.emulator.url}/_emulator/services/spotify/app`,
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
    "",
  ].join("\n");
  const projectFile = join(hh.dir, "musicsync.yaml");
  await writeFile(projectFile, text);
  const { project, issues } = loadProjectText(projectFile, text, { SPOTIFY_SECRET: app.client_secret });
  if (!project) throw new Error(issues.map((i) => i.message).join("; "));
  const recipes = join(hh.dir, "recipes");
  await mkdir(recipes, { recursive: true });
  await writeFile(
    join(recipes, "mirror.yaml"),
    `apiVersion: musicsync/v1
kind: Recipe
id: from-spotify
sources:
  - { id: spotify, type: spotify, playlist: "https://open.spotify.com/playlist/${playlistId}?si=abc" }
target: { type: playlist, playlist: { title: From Spotify } }
mode: mirror
`,
  );
  const loaded = await loadRecipePaths([join(recipes, "mirror.yaml")], { project });
  if (loaded.issues.length > 0) throw new Error(loaded.issues.map((i) => i.message).join("\n"));
  const env = () =>
    createEnv({
      project,
      projectFile,
      logger: createLogger("silent"),
      pacing: { minIntervalMs: 0, maxPerMinute: 0, baseDelayMs: 100 },
      environment: {},
    });
  return { loaded: loaded.recipes[0]! as LoadedRecipe, env };
}

const searches = (hh: Harness) => hh.emulator.counts().search ?? 0;

async function mirrored(hh: Harness): Promise<string[]> {
  const [id] = await playlistsTitled(hh, "From Spotify");
  return id ? (await playlistRows(hh, id)).map((r) => r.videoId) : [];
}

describe("spotify source", () => {
  it("mirrors a playlist as the stand-in's truth says, re-runs without a search, searches only what was added", async () => {
    h = await startHarness();
    const gym = await fakePlaylist(h, "Gym");
    const { loaded, env } = await spotifyProject(h, gym.id);
    const e = env();
    try {
      await converge(h, e, loaded);
      const truth = spotifyTruth(h.emulator.state, gym.id);
      const expected = [...new Set(truth.flatMap((t) => (t?.videoId ? [t.videoId] : [])))];
      expect(expected.length).toBeGreaterThan(10);
      expect(await mirrored(h)).toEqual(expected);

      const before = searches(h);
      const again = await planRecipe(loaded, e);
      expect(again.plan.actions).toEqual([]);
      expect(searches(h)).toBe(before);

      await harnessJson(`${h.emulator.url}/_emulator/services/spotify/playlists/${gym.id}/add?count=10`, {
        method: "POST",
      });
      const grown = spotifyTruth(h.emulator.state, gym.id).slice(truth.length);
      await converge(h, e, loaded);
      const sent = searches(h) - before;
      // One search a song the service has (by ISRC or by words), up to three for one it lacks.
      expect(sent).toBeGreaterThanOrEqual(10);
      expect(sent).toBeLessThanOrEqual(10 + 2 * grown.filter((t) => !t?.videoId).length);
      // A song the playlist holds twice is mirrored once, where it first comes (the plan's dedupe).
      const added = grown.flatMap((t) => (t?.videoId ? [t.videoId] : []));
      expect(await mirrored(h)).toEqual([...new Set([...expected, ...added])]);
    } finally {
      await e.close();
    }
  }, 120_000);
});
