/**
 * `state: postgres://…`: every command of `musicsync` against a fresh PostgreSQL
 * database and the emulator, each checked by its output, its exit code and what it left in
 * PostgreSQL — and no SQLite state file made beside the project. Commands run in this process
 * (`musicsync` of the daemon harness) except where a signal is part of the test (serve, daemon,
 * a lock holder killed outright).
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newAccountsKey } from "../../../engine/accounts/seal.js";
import { openState } from "../../../engine/state/open.js";
import type { EngineState } from "../../../engine/state/types.js";
import { QUEUE_SCHEMA, RUN_QUEUE } from "../../../engine/worker/queue.js";
import { ensureBuilt } from "../../support/cli-process.js";
import {
  MAIN,
  musicsync,
  type RecipeSpec,
  ROOT,
  spawnDaemon,
  waitUntil,
  writeRecipes,
} from "../../support/daemon-harness.js";
import { usePostgres } from "../../support/postgres-server.js";
import {
  catalogueSongs,
  type Harness,
  playlistRows,
  playlistsTitled,
  startHarness,
} from "../../support/sync-harness.js";
import { spawnLockHolder } from "./pg-lock-holder.js";

const server = usePostgres();
const KEY = newAccountsKey();

let h: Harness;
let url: string;
/** The engine's state as the test reads it back, and a pool for what only SQL shows. */
let state: EngineState;
let sql: pg.Pool;
let songs: string[];

beforeAll(async () => {
  await ensureBuilt();
  url = await server().createDatabase("commands");
  h = await startHarness({ state: url });
  songs = catalogueSongs(h, 20);
  state = openState(url);
  sql = new pg.Pool({ connectionString: url, max: 2 });
  sql.on("error", () => undefined);
}, 240_000);

afterAll(async () => {
  await state?.close();
  await sql?.end();
  await h?.stop();
});

/** `musicsync … -p <project>` in this process, with the key of the stored accounts. */
const ms = (...args: string[]) => musicsync([...args, "-p", h.projectFile], { MUSICSYNC_ACCOUNTS_KEY: KEY });

const MIX: RecipeSpec = { id: "mix", ids: [], title: "Mix" };
const mix = (ids: readonly string[]) => writeRecipes(h.dir, [{ ...MIX, ids }]);

async function rowsOf(title: string): Promise<string[]> {
  const [pid] = await playlistsTitled(h, title);
  return pid ? (await playlistRows(h, pid)).map((r) => r.videoId) : [];
}

async function count(query: string, values: unknown[] = []): Promise<number> {
  const { rows } = await sql.query<{ n: string }>(`SELECT count(*) AS n FROM ${query}`, values);
  return Number(rows[0]!.n);
}

/** No SQLite state appears beside the project, whatever a command did. */
function noSqliteState(): void {
  expect(readdirSync(h.dir).filter((f) => /\.db(-wal|-shm)?$/.test(f))).toEqual([]);
}

describe("musicsync with its state on PostgreSQL", () => {
  it("sync writes its run to PostgreSQL; a second sync has nothing to do", async () => {
    await mix(songs.slice(0, 8));
    const first = await ms("sync");
    expect(first.code, first.stderr).toBe(0);
    expect(await rowsOf("Mix")).toEqual(songs.slice(0, 8));
    const runs = await state.runs("mix", 10);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ kind: "sync", result: "converged", account: "default" });
    expect(await count("owned_playlists WHERE recipe_id = $1", ["mix"])).toBe(1);
    expect(await count("owned_rows")).toBe(8);

    const writes = await h.writes();
    const second = await ms("sync");
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("nothing to do");
    expect(await h.writes()).toBe(writes);
    noSqliteState();
  });

  it("plan -o saves a plan without writing; apply applies exactly it", async () => {
    await mix(songs.slice(0, 10));
    const file = join(h.dir, "plan.json");
    const writes = await h.writes();
    const runs = (await state.runs("mix", 50)).length;
    const planned = await ms("plan", "-o", file);
    expect(planned.code, planned.stderr).toBe(2);
    expect(planned.stdout).toContain("2 to add");
    expect(await h.writes()).toBe(writes);
    const applied = await ms("apply", file);
    expect(applied.code, applied.stderr).toBe(0);
    expect(await rowsOf("Mix")).toEqual(songs.slice(0, 10));
    const after = await state.runs("mix", 50);
    expect(after.length).toBeGreaterThan(runs);
    expect(after[0]).toMatchObject({ kind: "apply", result: "converged" });
    expect(await count("owned_rows")).toBe(10);
  });

  it("sync --dry-run writes nothing, to the service or to PostgreSQL's ownership", async () => {
    await mix(songs.slice(2, 10));
    const writes = await h.writes();
    const dry = await ms("sync", "--dry-run");
    expect(dry.code, dry.stderr).toBe(2);
    expect(dry.stdout).toContain("2 to remove");
    expect(await h.writes()).toBe(writes);
    expect(await count("owned_rows")).toBe(10);
    expect((await ms("sync")).code).toBe(0);
    expect(await rowsOf("Mix")).toEqual(songs.slice(2, 10));
    expect(await count("owned_rows")).toBe(8);
  });

  it("plan and sync --dry-run read the rows the engine owns from PostgreSQL (mode sync)", async () => {
    const owned = (ids: readonly string[]) =>
      writeRecipes(h.dir, [{ id: "owned", ids, title: "Owned", mode: "sync" }]);
    await owned(songs.slice(15, 18));
    expect((await ms("sync", "-r", "owned")).code).toBe(0);
    await owned(songs.slice(15, 17));
    // Only a row the engine added is removed in mode sync: without the state, none would be.
    const planned = await ms("plan", "-r", "owned");
    expect(planned.code, planned.stderr).toBe(2);
    expect(planned.stdout).toContain("1 to remove");
    expect((await ms("sync", "--dry-run", "-r", "owned")).stdout).toContain("1 to remove");
    await rm(join(h.dir, "recipes", "owned.yaml"));
  });

  it("status and history -r report the runs PostgreSQL holds", async () => {
    const runs = await state.runs("mix", 50);
    const status = await ms("status", "--json");
    expect(status.code, status.stderr).toBe(0);
    const report = JSON.parse(status.stdout) as { recipes: { recipe: string; lastRun: { id: number } }[] };
    expect(report.recipes.find((r) => r.recipe === "mix")?.lastRun.id).toBe(runs[0]!.id);
    expect((await ms("status")).stdout).toContain("mix");

    const history = await ms("history", "-r", "mix", "--json");
    expect(history.code, history.stderr).toBe(0);
    const listed = (JSON.parse(history.stdout) as { runs: { id: number }[] }).runs.map((r) => r.id);
    expect(listed).toEqual(runs.map((r) => r.id));
    const text = await ms("history", "-r", "mix");
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`#${runs[0]!.id}`);
  });

  it("drift finds a row removed by hand since the last apply (snapshot in PostgreSQL)", async () => {
    expect(await count("target_snapshots")).toBeGreaterThan(0);
    const clean = await ms("drift");
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
    const [pid] = await playlistsTitled(h, "Mix");
    const track = (await h.person.getPlaylist(pid!, { limit: null })).tracks[0]!;
    await h.person.removePlaylistItems(pid!, [track]);
    const drifted = await ms("drift");
    expect(drifted.code, drifted.stderr).toBe(2);
    expect(drifted.stdout).toContain(track.videoId!);
    expect((await ms("sync")).code).toBe(0);
    expect(await rowsOf("Mix")).toEqual(songs.slice(2, 10));
  });

  it("unlock removes the lock a killed process left; status showed it first", async () => {
    const holder = await spawnLockHolder(url, "default");
    try {
      expect(holder.attempt.acquired).toBe(true);
    } finally {
      await holder.kill();
    }
    const lockId = holder.attempt.acquired ? holder.attempt.lock.lockId : "";
    const status = JSON.parse((await ms("status", "--json")).stdout) as { locks: { lockId: string }[] };
    expect(status.locks.map((l) => l.lockId)).toEqual([lockId]);
    const unlocked = await ms("unlock", lockId);
    expect(unlocked.code, unlocked.stderr).toBe(0);
    expect(unlocked.stdout).toContain(`Lock ${lockId} removed.`);
    expect(await count("locks")).toBe(0);
    expect((await ms("unlock", lockId)).code).toBe(1);
  });

  it("undo takes the last sync back, from the journal in PostgreSQL", async () => {
    await mix(songs.slice(2, 12));
    expect((await ms("sync")).code).toBe(0);
    const [last] = await state.runs("mix", 1);
    expect(await rowsOf("Mix")).toEqual(songs.slice(2, 12));
    const undone = await ms("undo", String(last!.id));
    expect(undone.code, undone.stdout + undone.stderr).toBe(0);
    expect(await rowsOf("Mix")).toEqual(songs.slice(2, 10));
    expect((await state.runs("mix", 1))[0]).toMatchObject({ kind: "undo", result: "converged" });
    await mix(songs.slice(2, 10));
  });

  it("a plan over require_approval is held (exit 5) and approve applies it; the approval is in PostgreSQL", async () => {
    const held = (ids: readonly string[]) =>
      writeRecipes(h.dir, {
        "held.yaml": [
          "apiVersion: musicsync/v1",
          "kind: Recipe",
          "id: held",
          "sources:",
          `  - { id: list, type: static, videoIds: [${ids.join(", ")}] }`,
          "target:",
          "  type: playlist",
          '  playlist: { title: "Held", privacy: PRIVATE }',
          "mode: mirror",
          "policy: { require_approval: { removals: 2 } }",
          "",
        ].join("\n"),
      });
    await held(songs.slice(0, 8));
    expect((await ms("sync", "-r", "held")).code).toBe(0);
    await held(songs.slice(0, 3));
    const sync = await ms("sync", "-r", "held");
    expect(sync.code, sync.stdout + sync.stderr).toBe(5);
    expect(await rowsOf("Held")).toEqual(songs.slice(0, 8));
    const pending = await state.approvals();
    expect(pending).toHaveLength(1);
    const runId = pending[0]!.runId;
    const approved = await ms("approve", String(runId));
    expect(approved.code, approved.stderr).toBe(0);
    expect(await rowsOf("Held")).toEqual(songs.slice(0, 3));
    expect(await state.approvals()).toEqual([]);
    expect((await state.approvals({ all: true })).map((a) => a.status)).toEqual(["approved"]);
  });

  it("resume lifts an account's suspension kept in PostgreSQL", async () => {
    await state.recordFailure("default", Date.now(), "test", { suspendAfter: 1, authExpired: true });
    expect((await state.health("default")).suspendedAt).not.toBeNull();
    const resumed = await ms("resume", "default");
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((await state.health("default")).suspendedAt).toBeNull();
  });

  it("doctor checks the PostgreSQL state (reachable, latest schema) and the account", async () => {
    const r = await ms("doctor");
    expect(r.stdout).toMatch(/^ok +state: .*\/commands_\w+ is at the latest schema version/m);
    expect(r.stdout).toMatch(/^ok +account default: /m);
    expect(r.stdout).toContain("0 errors");
    expect(r.code, r.stdout).toBe(0);
  });

  it("export writes a playlist's rows; match keeps its matches in PostgreSQL's cache", async () => {
    const [pid] = await playlistsTitled(h, "Mix");
    const file = join(h.dir, "mix.csv");
    const exported = await ms("export", pid!, "-o", file);
    expect(exported.code, exported.stderr).toBe(0);
    for (const id of songs.slice(2, 10)) expect(readFileSync(file, "utf8")).toContain(id);

    // "Artist - Title" lines, without video ids: each entry is searched, and the result cached.
    const named = h.emulator.state.store.sqlite
      .prepare(
        `SELECT a.name || ' - ' || s.title AS line FROM songs s JOIN artists a ON a.id = s.artist_id
          WHERE s.video_id IN (?, ?, ?) ORDER BY s.video_id`,
      )
      .all(...songs.slice(2, 5)) as { line: string }[];
    const text = join(h.dir, "wanted.txt");
    await writeFile(text, `${named.map((n) => n.line).join("\n")}\n`);
    expect(await count("match_cache")).toBe(0);
    const matched = await ms("--json", "match", text);
    expect(matched.code, matched.stderr).toBe(0);
    const listed = JSON.parse(matched.stdout) as { by: string }[];
    expect(listed.map((e) => e.by)).toEqual(["search", "search", "search"]);
    expect(await count("match_cache")).toBe(3);
    const again = JSON.parse((await ms("--json", "match", text)).stdout) as { by: string }[];
    expect(again.map((e) => e.by)).toEqual(["cache", "cache", "cache"]);
  });

  it("accounts add / list / remove keep a sealed account in PostgreSQL, and every command sees it", async () => {
    const headers = join(h.dir, "headers.json");
    const added = await ms("accounts", "add", "extra", "--auth", headers, "--base-url", h.emulator.url);
    expect(added.code, added.stderr).toBe(0);
    const { rows } = await sql.query<{ name: string; sealed: string }>("SELECT name, sealed FROM accounts");
    expect(rows.map((r) => r.name)).toEqual(["extra"]);
    expect(rows[0]!.sealed).not.toContain(h.headers.cookie!.slice(0, 40));
    const list = JSON.parse((await ms("accounts", "list", "--json")).stdout) as {
      accounts: { name: string }[];
    };
    expect(list.accounts.map((a) => a.name)).toEqual(["extra"]);

    // A recipe of the stored account: plan, sync and status load it like the file's own.
    await writeRecipes(h.dir, [{ id: "stored", ids: songs.slice(0, 2), title: "Stored", account: "extra" }]);
    expect((await ms("plan", "-r", "stored")).code).toBe(2);
    expect((await ms("sync", "-r", "stored")).code).toBe(0);
    expect((await state.runs("stored", 1))[0]).toMatchObject({ account: "extra", result: "converged" });
    const status = JSON.parse((await ms("status", "--json", "-r", "stored")).stdout) as {
      recipes: { account: string }[];
    };
    expect(status.recipes.map((r) => r.account)).toEqual(["extra"]);
    await rm(join(h.dir, "recipes", "stored.yaml"));

    expect((await ms("accounts", "remove", "extra")).code).toBe(0);
    expect(await count("accounts")).toBe(0);
    expect((await ms("accounts", "list")).stdout).toBe("No stored accounts.\n");
    expect((await ms("accounts", "remove", "extra")).code).toBe(1);
  });

  it("a project file naming no accounts runs on the stored ones; an account in neither is named", async () => {
    const dir = join(h.dir, "bare");
    await mkdir(join(dir, "recipes"), { recursive: true });
    const project = join(dir, "musicsync.yaml");
    await writeFile(
      project,
      `apiVersion: musicsync/v1\nkind: Project\npacing: { min_interval_ms: 0 }\nstate: "${url}"\n`,
    );
    const bare = (...args: string[]) => musicsync([...args, "-p", project], { MUSICSYNC_ACCOUNTS_KEY: KEY });
    await writeRecipes(dir, [{ id: "bare", ids: songs.slice(0, 2), title: "Bare" }]);
    // validate does not open the state: a file naming no accounts leaves them unchecked.
    expect((await bare("validate")).code).toBe(0);
    const none = await bare("plan");
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('unknown account "default"');
    expect(none.stderr).toContain("musicsync accounts add default");

    const headers = join(h.dir, "headers.json");
    expect(
      (await bare("accounts", "add", "solo", "--auth", headers, "--base-url", h.emulator.url)).code,
    ).toBe(0);
    // No `account:` and no defaults: the first stored account.
    const synced = await bare("sync");
    expect(synced.code, synced.stderr).toBe(0);
    expect((await state.runs("bare", 1))[0]).toMatchObject({ account: "solo", result: "converged" });
    await writeRecipes(dir, [{ id: "bare", ids: songs.slice(0, 2), title: "Bare", account: "ghost" }]);
    const ghost = await bare("plan");
    expect(ghost.code).toBe(1);
    expect(ghost.stderr).toContain('unknown account "ghost" (accounts: solo)');
    expect((await bare("accounts", "remove", "solo")).code).toBe(0);
    await rm(dir, { recursive: true, force: true });
  });

  it("enqueue puts the recipes on the job queue in PostgreSQL", async () => {
    const r = await ms("enqueue", "--all");
    expect(r.code, r.stderr).toBe(0);
    const { rows } = await sql.query<{ recipe: string }>(
      `SELECT data->>'recipeId' AS recipe FROM ${QUEUE_SCHEMA}.job WHERE name = $1 ORDER BY 1`,
      [RUN_QUEUE],
    );
    expect(rows.map((j) => j.recipe)).toEqual(["held", "mix"]);
  });

  it("serve shows the state PostgreSQL holds, and stops on SIGTERM", async () => {
    const child = spawn(process.execPath, [MAIN, "serve", "-p", h.projectFile, "--http", "127.0.0.1:0"], {
      cwd: ROOT,
      env: { ...process.env, MUSICSYNC_LOG_LEVEL: "silent", NO_COLOR: "1" },
      stdio: ["ignore", "ignore", "pipe"],
    });
    const exited = new Promise<number | null>((r) => child.once("close", (code) => r(code)));
    let err = "";
    child.stderr!.on("data", (c: Buffer) => {
      err += c.toString();
    });
    try {
      const page = await waitUntil(
        () => /Status page at (\S+)/.exec(err)?.[1],
        () => `the page: ${err}`,
      );
      const res = await fetch(page);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain("Mix");
      expect(html).toContain("held");
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });

  it("daemon runs a scheduled recipe into PostgreSQL and exits on SIGTERM", async () => {
    await writeRecipes(h.dir, [{ id: "tick", ids: songs.slice(12, 15), title: "Tick", cron: "* * * * * *" }]);
    const d = spawnDaemon(h.projectFile);
    try {
      const done = await d.waitForLog(
        (l) => l.msg === "run finished" && l.recipe === "tick",
        "a scheduled run",
      );
      expect(done).toMatchObject({ account: "default", outcome: "converged" });
    } finally {
      d.child.kill("SIGTERM");
    }
    expect((await d.exited).code).toBe(0);
    const runs = await state.runs("tick", 10);
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.every((r) => r.result !== "running")).toBe(true);
    expect(await rowsOf("Tick")).toEqual(songs.slice(12, 15));
    await rm(join(h.dir, "recipes", "tick.yaml"));
    noSqliteState();
  });
});
