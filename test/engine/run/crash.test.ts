/**
 * Crash safety: the real `musicsync sync` process is killed with SIGKILL at a random action (20
 * seeds), then the sync is run again. Each re-run must converge with no duplicate row, no second
 * playlist, and every row the person added (sync mode) still there.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRecipePaths } from "../../../engine/recipe/load.js";
import { planRecipe, syncRecipe } from "../../../engine/run/runner.js";
import { rng, shuffled } from "../../soak/generate.js";
import { MAIN } from "../../support/cli-process.js";
import {
  catalogueSongs,
  type Harness,
  playlistRows,
  playlistsTitled,
  startHarness,
} from "../../support/sync-harness.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
// The compiled command, as `npx musicsync` runs it (test/global-setup.ts builds dist/ first).

const recipeYaml = (ids: readonly string[]) => `apiVersion: musicsync/v1
kind: Recipe
id: crashy
sources:
  - { id: list, type: static, videoIds: [${ids.join(", ")}] }
target:
  type: playlist
  playlist: { title: "Crash test", privacy: PRIVATE }
mode: sync
policy: { batch_size: 3 }
`;

/** Runs `musicsync sync` and kills it (SIGKILL) once it has started action `killAt`. */
function syncKilledAt(
  h: Harness,
  killAt: number,
  delayMs: number,
): Promise<{ killed: boolean; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [MAIN, "sync", "-p", h.projectFile], {
      cwd: ROOT,
      env: { ...process.env, MUSICSYNC_LOG_LEVEL: "debug", NO_COLOR: "1" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    let killed = false;
    let buffer = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      buffer += chunk.toString();
      let nl = buffer.indexOf("\n");
      while (nl >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf("\n");
        if (killed || !line.startsWith("{")) continue;
        const entry = JSON.parse(line) as { msg?: string; seq?: number };
        if (entry.msg === "action sent" && entry.seq === killAt) {
          killed = true;
          // A random moment after the action was journaled as sent: before, during or after its request.
          setTimeout(() => child.kill("SIGKILL"), delayMs);
        }
      }
    });
    child.on("error", reject);
    // "close", not "exit": a process that ends right after its last action may exit before its
    // stderr has been read, and that action's line would be missed.
    child.on("close", () => resolve({ killed, stderr }));
  });
}

describe("crash safety", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ catalogueSize: 300 });
  });
  afterAll(async () => {
    await h?.stop();
  });

  const seeds = Array.from({ length: 20 }, (_, i) => i + 1);
  it.each(seeds)(
    "seed %i: killed at a random action, the re-run converges with nothing duplicated or lost",
    async (seed) => {
      const random = rng(seed);
      const songs = catalogueSongs(h, 200);
      const pool = songs.slice((seed - 1) * 5, (seed - 1) * 5 + 60);
      const title = "Crash test";
      const recipesDir = join(h.dir, "recipes");
      await mkdir(recipesDir, { recursive: true });
      const stateFile = join(h.dir, `state-${seed}.db`);
      // Each seed gets its own playlist title space: clear the previous seed's playlists first.
      for (const pid of await playlistsTitled(h, title)) await h.person.deletePlaylist(pid);
      const person: string[] = [];
      const env = h.env({ stateFile });
      const project = { ...h.project, state: stateFile };
      const load = async () => (await loadRecipePaths([recipesDir], { project })).recipes[0]!;

      const creating = seed % 2 === 1;
      if (!creating) {
        // An existing playlist the engine made, plus two rows the person added by hand.
        await writeFile(join(recipesDir, "r.yaml"), recipeYaml(pool.slice(0, 15)));
        await syncRecipe(await load(), env);
        const pid = (await env.state.ownedPlaylist("default", "crashy"))!.playlistId;
        person.push(pool[50]!, pool[51]!);
        await h.person.addPlaylistItems(pid, person);
      }
      const desired = creating
        ? shuffled(random, pool.slice(0, 20))
        : shuffled(random, [...pool.slice(5, 15), ...pool.slice(20, 30)]);
      await writeFile(join(recipesDir, "r.yaml"), recipeYaml(desired));
      // The killed process uses this seed's state file too.
      const projectText = await readFile(h.projectFile, "utf8");
      await writeFile(h.projectFile, projectText.replace(/state: .*/, `state: state-${seed}.db`));
      const planned = (await planRecipe(await load(), env)).plan;
      expect(planned.actions.length).toBeGreaterThan(3);
      const killAt = 1 + Math.floor(random() * planned.actions.length);
      const { killed, stderr } = await syncKilledAt(h, killAt, Math.floor(random() * 8));
      expect(
        killed,
        `no "action sent" of seq ${killAt}; the sync's last lines:\n${stderr.slice(-3000)}`,
      ).toBe(true);

      const rerun = await syncRecipe(await load(), env);
      expect(rerun.outcome, rerun.error ?? "").toMatch(/^(converged|no_changes)$/);
      expect((await planRecipe(await load(), env)).plan.actions).toEqual([]);
      const playlists = await playlistsTitled(h, title);
      expect(playlists).toHaveLength(1);
      const rows = (await playlistRows(h, playlists[0]!)).map((r) => r.videoId);
      expect(new Set(rows).size).toBe(rows.length);
      expect(rows.filter((v) => !person.includes(v))).toEqual(desired);
      for (const p of person) expect(rows).toContain(p);
      // The engine knows every row it added (a killed add included) and claims none of the person's.
      const owned = new Set(
        (await env.state.ownedRows("default", `playlist/${playlists[0]}`)).map((o) => o.itemKey),
      );
      expect(rows.filter((v) => !owned.has(v)).sort()).toEqual([...person].sort());
      await env.close();
    },
  );
});
