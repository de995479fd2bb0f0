/**
 * `musicsync undo` as a person runs it: --dry-run writes nothing (exit 2), -o saves a plan that
 * `musicsync apply` takes, history marks the runs that can be undone, a refusal is one line with
 * exit 1; and a `sync` process killed mid-run is undone from its partial journal.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../cli/musicsync/main.js";
import { openSqliteState } from "../../../engine/state/sqlite.js";
import { ensureBuilt, MAIN, ROOT, screen } from "../../support/cli-process.js";
import { catalogueSongs, type Harness, playlistRows, startHarness } from "../../support/sync-harness.js";

const recipeYaml = (playlistId: string, ids: readonly string[], title = "Tidy") => `apiVersion: musicsync/v1
kind: Recipe
id: tidy
sources:
  - { id: list, type: static, videoIds: [${ids.join(", ")}] }
target:
  type: playlist
  playlist: { id: ${playlistId}, title: "${title}" }
mode: mirror
policy: { batch_size: 2 }
`;

async function cli(h: Harness, ...args: string[]) {
  const out = screen(false);
  const err = screen(false);
  const code = await main(["-p", h.projectFile, ...args], {
    stdout: out.stream,
    stderr: err.stream,
    env: {},
  });
  return { code, stdout: out.text(), stderr: err.text() };
}

/** Runs `musicsync sync` as a process and kills it (SIGKILL) once action `killAt` was sent. */
function syncKilledAt(h: Harness, killAt: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [MAIN, "sync", "-p", h.projectFile], {
      cwd: ROOT,
      env: { ...process.env, MUSICSYNC_LOG_LEVEL: "debug", NO_COLOR: "1" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let killed = false;
    let buffer = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        if (killed || !line.startsWith("{")) continue;
        const entry = JSON.parse(line) as { msg?: string; seq?: number };
        if (entry.msg === "action sent" && entry.seq === killAt) {
          killed = true;
          // As the request leaves: its answer may or may not be journaled by then, but no later
          // action is (the emulator answering them runs in this process, after this handler).
          child.kill("SIGKILL");
        }
      }
    });
    child.on("error", reject);
    child.on("close", () => resolve(killed));
  });
}

describe("musicsync undo (command)", () => {
  let h: Harness;
  let songs: string[];
  beforeAll(async () => {
    h = await startHarness({ catalogueSize: 300 });
    songs = catalogueSongs(h, 80);
    await mkdir(join(h.dir, "recipes"), { recursive: true });
  });
  afterAll(async () => {
    await h?.stop();
  });

  async function setUp(original: readonly string[], desired: readonly string[]) {
    const pid = await h.person.createPlaylist("Tidy", "", {
      privacyStatus: "PRIVATE",
      videoIds: [...original],
    });
    if (typeof pid !== "string") throw new Error("no playlist");
    await writeFile(join(h.dir, "recipes", "tidy.yaml"), recipeYaml(pid, desired));
    return pid;
  }

  const ids = async (pid: string) => (await playlistRows(h, pid)).map((r) => r.videoId);

  async function lastRunId(): Promise<number> {
    const state = openSqliteState(join(h.dir, "state.db"));
    try {
      return (await state.recentRuns({ recipeId: "tidy", limit: 1 }))[0]!.id;
    } finally {
      await state.close();
    }
  }

  it("--dry-run writes nothing; -o saves a plan that apply takes; history marks undoable runs", async () => {
    const original = songs.slice(0, 5);
    const pid = await setUp(original, [songs[3]!, songs[0]!, songs[20]!]);
    expect((await cli(h, "sync")).code).toBe(0);
    const runId = await lastRunId();

    const history = JSON.parse((await cli(h, "--json", "history")).stdout) as {
      runs: { id: number; undoable: boolean }[];
    };
    expect(history.runs.find((r) => r.id === runId)?.undoable).toBe(true);
    expect((await cli(h, "history")).stdout).toMatch(new RegExp(`#${runId} .*\\(undoable\\)`));

    const writes = await h.writes();
    const dry = await cli(h, "undo", String(runId), "--dry-run");
    expect(dry.code, dry.stderr).toBe(2);
    expect(dry.stdout).toContain(`Undo of run #${runId}:`);
    expect(dry.stdout).toMatch(/\+ add .*removed by run #\d+; back at #2/);
    expect(dry.stdout).toMatch(/- remove .*added by run #\d+/);
    const md = await cli(h, "undo", String(runId), "--dry-run", "--markdown");
    expect(md.stdout).toContain("## musicsync plan");
    expect(await h.writes()).toBe(writes);

    const file = join(h.dir, "undo-plan.json");
    const saved = await cli(h, "undo", String(runId), "-o", file);
    expect(saved.code).toBe(2);
    expect(await h.writes()).toBe(writes);
    expect(JSON.parse(await readFile(file, "utf8")).format).toBe("musicsync-plan");
    const applied = await cli(h, "apply", file);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(await ids(pid)).toEqual(original);
  });

  it("takes its age limit from the project's undo.max_age_days unless --max-age-days is given; history too", async () => {
    const pid = await setUp(songs.slice(50, 53), songs.slice(50, 52));
    expect((await cli(h, "sync")).code).toBe(0);
    const runId = await lastRunId();
    const projectText = await readFile(h.projectFile, "utf8");
    // 0 days: any run that has started is too old.
    await writeFile(h.projectFile, `${projectText}undo: { max_age_days: 0 }\n`);
    try {
      const refused = await cli(h, "undo", String(runId), "--dry-run");
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/undo takes runs up to 0 days old/);
      const history = JSON.parse((await cli(h, "--json", "history")).stdout) as {
        runs: { id: number; undoable: boolean; undoRefusal: string | null }[];
      };
      expect(history.runs.find((r) => r.id === runId)).toMatchObject({ undoable: false });
      expect((await cli(h, "history")).stdout).not.toMatch(new RegExp(`#${runId} .*\\(undoable\\)`));
      const given = await cli(h, "undo", String(runId), "--dry-run", "--max-age-days", "3");
      expect(given.code, given.stderr).toBe(2);
    } finally {
      await writeFile(h.projectFile, projectText);
    }
    // Without the setting: 90 days, so today's run can be undone.
    expect((await cli(h, "undo", String(runId))).code).toBe(0);
    expect(await ids(pid)).toEqual(songs.slice(50, 53));
  });

  it("refuses in one line with exit 1", async () => {
    const r = await cli(h, "undo", "4242");
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("error: cannot undo: there is no run #4242");
    expect((await cli(h, "undo", "x1")).code).toBe(1);
  });

  it.each([2, 3, 4])("a sync killed after action %i is undone from its partial journal", async (killAt) => {
    await ensureBuilt();
    const original = songs.slice(30 + killAt * 6, 36 + killAt * 6);
    const desired = [...original.slice(2).reverse(), songs[70 + killAt]!, songs[71 + killAt]!];
    const pid = await setUp(original, desired);
    expect(await syncKilledAt(h, killAt)).toBe(true);
    const runId = await lastRunId();
    // The run changed the playlist and its journal is partial (killed, not finished).
    expect(await ids(pid)).not.toEqual(original);
    const state = openSqliteState(join(h.dir, "state.db"));
    const journal = await state.journal(runId);
    await state.close();
    // Killed before its last action, the journal is partial; killed at the last one, the run may
    // have confirmed it first (it is undone all the same).
    if (killAt < journal.length) expect(journal.some((e) => e.status !== "confirmed")).toBe(true);
    // Killed while its add was in flight, the run left no answer naming the rows it added: a
    // new row of those videos may as well be the person's, so the undo keeps it and says so.
    const add = journal.find((e) => e.kind === "add_playlist_items");
    const added = desired.slice(-2);
    const kept = add?.status === "confirmed" ? [] : (await ids(pid)).filter((v) => added.includes(v));
    const r = await cli(h, "undo", String(runId));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await ids(pid)).toEqual([...original, ...kept]);
    for (const v of kept)
      expect(r.stdout).toMatch(new RegExp(`<${v}> \\(kept: run #${runId}'s add of it was never answered`));
  });
});
