/**
 * The engine against a real emulator on 127.0.0.1: a project file whose account points at it, a
 * state database in a temporary folder, and write requests counted at the emulator.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../emulator/index.js";
import type { EngineClient } from "../../engine/apply/client.js";
import type { Clock } from "../../engine/apply/pacer.js";
import { loadProjectText, loadRecipeText } from "../../engine/recipe/load.js";
import type { LoadedRecipe, Project } from "../../engine/recipe/types.js";
import { createEnv } from "../../engine/run/env.js";
import { createLogger } from "../../engine/run/logger.js";
import { type EngineEnv, planRecipe, type RecipeRun, syncRecipe } from "../../engine/run/runner.js";
import { MusicClient } from "../../src/index.js";
import { harnessFetch, harnessJson } from "./harness-fetch.js";

/** The endpoints that change state (the emulator's write routes). */
export const WRITE_ENDPOINTS = [
  "feedback",
  "like/like",
  "like/dislike",
  "like/removelike",
  "subscription/subscribe",
  "subscription/unsubscribe",
  "playlist/create",
  "playlist/delete",
  "browse/edit_playlist",
  "music/delete_privately_owned_entity",
];

export interface Harness {
  emulator: RunningEmulator;
  dir: string;
  projectFile: string;
  project: Project;
  /** The state's file (or, when the harness was given one, its `state` setting). */
  stateFile: string;
  /** A client of the same account, for playing the person who edits by hand. */
  person: MusicClient;
  headers: Record<string, string>;
  env(options?: {
    stateFile?: string;
    wrap?: (c: EngineClient) => EngineClient;
    clock?: Clock;
  }): EngineEnv & {
    close(): Promise<void>;
  };
  /** Write requests the emulator has received so far (faulted attempts included). */
  writes(): Promise<number>;
  faults(body: unknown): Promise<void>;
  stop(): Promise<void>;
}

export async function startHarness(
  options: EmulatorOptions & {
    /** The account's display language (`hl`), as a project's `language` sets it. */
    language?: string;
    /** The emulator's seeded account to sign in as (default 1; 5 is the premium login). */
    account?: number;
    /** The project's `state` setting (default `state.db` in the harness's folder), e.g. a postgres:// URL. */
    state?: string;
  } = {},
): Promise<Harness> {
  const { language, account = 1, state, ...emulatorOptions } = options;
  const emulator = await startEmulator({ catalogueSize: 300, ...emulatorOptions });
  const dir = await mkdtemp(join(tmpdir(), "musicsync-test-"));
  const headers = await harnessJson<Record<string, string>>(
    `${emulator.url}/_emulator/accounts/${account}/headers`,
  );
  await writeFile(join(dir, "headers.json"), JSON.stringify(headers));
  const projectFile = join(dir, "musicsync.yaml");
  const text = [
    "apiVersion: musicsync/v1",
    "kind: Project",
    "accounts:",
    `  default: { auth: headers.json, base_url: "${emulator.url}"${language ? `, language: ${language}` : ""} }`,
    "pacing: { min_interval_ms: 0 }",
    "recipes: [recipes]",
    `state: ${state === undefined ? "state.db" : JSON.stringify(state)}`,
    "",
  ].join("\n");
  await writeFile(projectFile, text);
  const { project, issues } = loadProjectText(projectFile, text);
  if (!project) throw new Error(issues.map((i) => i.message).join("; "));
  const logger = createLogger(process.env.MUSICSYNC_TEST_LOG ?? "silent");
  const opened: { close(): Promise<void> }[] = [];
  return {
    emulator,
    dir,
    projectFile,
    project,
    stateFile: state ?? join(dir, "state.db"),
    headers,
    person: new MusicClient({ auth: headers, baseUrl: emulator.url }),
    env(o = {}) {
      const env = createEnv({
        project,
        projectFile,
        logger,
        ...(o.stateFile ? { stateFile: o.stateFile } : {}),
        ...(o.clock ? { clock: o.clock } : {}),
        pacing: { minIntervalMs: 0, maxPerMinute: 0, baseDelayMs: 100 },
      });
      if (o.wrap) {
        const inner = env.clientFor.bind(env);
        env.clientFor = (name) => o.wrap!(inner(name));
      }
      opened.push(env);
      return env;
    },
    async writes() {
      const stats = await harnessJson<{ requests: Record<string, number> }>(
        `${emulator.url}/_emulator/stats`,
      );
      return WRITE_ENDPOINTS.reduce((n, e) => n + (stats.requests[e] ?? 0), 0);
    },
    async faults(body) {
      // Setting the faults replaces them: sent twice, the same faults.
      const r = await harnessFetch(
        `${emulator.url}/_emulator/faults`,
        { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) },
        { idempotent: true },
      );
      if (!r.ok) throw new Error(`faults: ${r.status} ${r.text}`);
    },
    async stop() {
      for (const e of opened) await e.close().catch(() => {});
      await emulator.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One recipe from text. `where` puts it in a project (its file and the project file), as a file
 * source needs: its paths are confined to the project's folder.
 */
export function recipe(
  project: Project,
  yaml: string,
  where?: { file: string; projectFile: string },
): LoadedRecipe {
  const { recipes, issues } = loadRecipeText(where?.file ?? "test.yaml", yaml, {
    project,
    ...(where ? { projectFile: where.projectFile } : {}),
  });
  if (issues.length > 0) throw new Error(issues.map((i) => `${i.line}:${i.col} ${i.message}`).join("\n"));
  return recipes[0]!;
}

/** Available songs of the catalogue in a stable order, read from the emulator's database. */
/** A recipe mirroring one playlist into a private "Copy" (the guard and truncation tests). */
export function mirrorOfPlaylist(playlistId: string): string {
  return `apiVersion: musicsync/v1
kind: Recipe
id: copy
sources:
  - { id: src, type: playlist, playlistId: ${playlistId} }
target:
  type: playlist
  playlist: { title: "Copy", privacy: PRIVATE }
mode: mirror
`;
}

export function catalogueSongs(h: Harness, count: number): string[] {
  const rows = h.emulator.state.store.sqlite
    .prepare(
      "SELECT video_id AS id FROM songs WHERE available = 1 AND album_id IS NOT NULL ORDER BY id LIMIT ?",
    )
    .all(count) as { id: string }[];
  if (rows.length < count) throw new Error(`only ${rows.length} songs in the catalogue, ${count} needed`);
  return rows.map((r) => r.id);
}

/** A song of the emulator's catalogue, as a file source's entry would name it. */
export interface CatalogueSong {
  id: number;
  videoId: string;
  title: string;
  artist: string;
  album: string;
  duration: number;
}

/**
 * Original songs of the catalogue (not a look-alike or a version of another, audio, available, one
 * artist), read from the emulator's own database, never through the matcher. `pick`:
 * - "first": in catalogue order;
 * - "unambiguous": only songs no other song shares a title with, with no versions and no video
 *   counterpart (a match can only be the song itself);
 * - "hard-first": those with the most versions (covers, karaoke, live) first.
 */
export function originalSongs(
  h: Harness,
  count: number,
  pick: "first" | "unambiguous" | "hard-first" = "first",
): CatalogueSong[] {
  const unambiguous = `AND s.counterpart_id IS NULL
         AND NOT EXISTS (SELECT 1 FROM songs v WHERE v.variant_of = s.id)
         AND NOT EXISTS (SELECT 1 FROM songs t WHERE t.title = s.title AND t.id <> s.id)`;
  const order =
    pick === "hard-first" ? "(SELECT count(*) FROM songs v WHERE v.variant_of = s.id) DESC, s.id" : "s.id";
  const rows = h.emulator.state.store.sqlite
    .prepare(
      `SELECT s.id, s.video_id AS videoId, s.title, a.name AS artist, coalesce(al.title, '') AS album,
              s.duration_seconds AS duration
       FROM songs s JOIN artists a ON a.id = s.artist_id LEFT JOIN albums al ON al.id = s.album_id
       WHERE s.lookalike IS NULL AND s.variant_of IS NULL AND s.video_type = 'MUSIC_VIDEO_TYPE_ATV'
         AND s.available = 1 AND s.featured_artist_id IS NULL ${pick === "unambiguous" ? unambiguous : ""}
       ORDER BY ${order} LIMIT ?`,
    )
    .all(count) as CatalogueSong[];
  if (rows.length < count)
    throw new Error(`only ${rows.length} such songs in the catalogue, ${count} needed`);
  return rows;
}

/** Rows of a playlist as the person sees them. */
export async function playlistRows(h: Harness, playlistId: string) {
  return (await h.person.getPlaylist(playlistId, { limit: null })).tracks.map((t) => ({
    videoId: t.videoId ?? "",
    setVideoId: t.setVideoId ?? "",
  }));
}

/**
 * A playlist's video ids in order as the emulator holds them, read from its store: for playlists of
 * thousands of rows, where reading them back through the client (a CPU-second per 5,000 rows) would
 * cost more than the run under test. What the client reads of a playlist is playlistRows.
 */
export function storedVideoIds(h: Harness, playlistId: string): string[] {
  // The cap of a playlist (5,000) and a row more: a longer answer would show the cap broken.
  return h.emulator.state.store.playlists.playlistItems(playlistId, 0, 5001).map((r) => r.videoId);
}

/** Playlists of the person's library with this title. */
export async function playlistsTitled(h: Harness, title: string): Promise<string[]> {
  return (await h.person.getLibraryPlaylists({ limit: null }))
    .filter((p) => p.title === title)
    .map((p) => p.playlistId ?? "");
}

/** What `converge` saw: the sync's run and the writes the emulator counted. */
export interface Converged {
  run: RecipeRun;
  /** Write requests the sync sent (counted at the emulator). */
  writes: number;
}

/**
 * The end-to-end promise for one recipe: planning (and `sync --dry-run`) writes nothing, the sync
 * sends exactly its planned requests and converges, and a fresh plan then has nothing to do.
 */
export async function converge(
  h: Harness,
  env: EngineEnv,
  loaded: LoadedRecipe,
  expected: RecipeRun["outcome"][] = ["converged"],
): Promise<Converged> {
  const before = await h.writes();
  const { plan } = await planRecipe(loaded, env);
  const dry = await syncRecipe(loaded, env, { dryRun: true });
  if ((await h.writes()) !== before) throw new Error(`${loaded.recipe.id}: planning wrote`);
  if (JSON.stringify(dry.plan?.actions) !== JSON.stringify(plan.actions))
    throw new Error(`${loaded.recipe.id}: dry-run planned differently`);
  const run = await syncRecipe(loaded, env);
  if (!expected.includes(run.outcome))
    throw new Error(`${loaded.recipe.id}: ${run.outcome} (${run.error ?? "no error"})`);
  const writes = (await h.writes()) - before;
  // A partial apply may split refused batches (more requests than planned); a converged one may not.
  const planned = run.plan!.summary.requests;
  if (run.outcome === "partial" ? writes < planned : writes !== planned)
    throw new Error(`${loaded.recipe.id}: ${writes} writes for ${run.plan!.summary.requests} planned`);
  const again = await planRecipe(loaded, env);
  if (again.plan.actions.length > 0)
    throw new Error(
      `${loaded.recipe.id} does not converge: ${JSON.stringify(again.plan.actions).slice(0, 400)}`,
    );
  return { run, writes };
}

/**
 * A clock shared by the engine and the emulator (`startHarness({ now: clock.now })`): the engine's
 * waits move it forward at once, so a test of "wait 20 s for the service" takes no time.
 */
export function virtualClock(start = Date.now()): Clock & { slept: number[] } {
  let at = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => at,
    sleep: async (ms: number) => {
      slept.push(ms);
      at += ms;
    },
  };
}

/** A mirror of a long static list: the scale test's and bench/emulator's churn sync. */
export const bigMirror = (ids: readonly string[]) => `apiVersion: musicsync/v1
kind: Recipe
id: big
sources:
  - { id: list, type: static, videoIds: [${ids.join(", ")}] }
target:
  type: playlist
  playlist: { title: "Big mirror", privacy: PRIVATE }
mode: mirror
policy: { batch_size: 100, max_removals: 1000 }
`;
