/**
 * What the tests of `musicsync worker` share: a project of new emulator accounts whose state and job
 * queue are a PostgreSQL database of the test's own, the real command as child processes, and reads
 * of the queue's jobs. One kit per emulator: a file whose tests each run beside the others (each its
 * own emulator, since the emulator's faults are the whole emulator's) makes one kit per test.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { RunningEmulator } from "../../emulator/index.js";
import { openState } from "../../engine/state/open.js";
import type { EngineState, RunRecord } from "../../engine/state/types.js";
import { openQueue, QUEUE_SCHEMA, RUN_QUEUE } from "../../engine/worker/queue.js";
import { MusicClient } from "../../src/index.js";
import {
  type ChildDaemon,
  type LogLine,
  musicsync,
  type RecipeSpec,
  spawnDaemon,
  waitUntil,
  writeRecipes,
} from "./daemon-harness.js";
import type { PostgresServer } from "./postgres-server.js";

export interface Account {
  name: string;
  client: MusicClient;
}

export interface Fleet {
  dir: string;
  projectFile: string;
  stateUrl: string;
  accounts: Account[];
  /** The engine's state, opened by the test (what `status` and `history` read). */
  state: EngineState;
}

/**
 * A database with the engine's tables and the job queue's schema and run queue as `enqueue` leaves
 * them on a new state (the queue at its defaults), made once per server and closed (a database being
 * copied may have no session). The migrations are test/engine/postgres/migrate.test.ts's subject;
 * run again for every test, by the test and by the commands at once, they cost each a fifth of a
 * second and a core.
 */
const migrated = new Map<string, Promise<string>>();

async function migratedOnce(server: PostgresServer): Promise<string> {
  const url = await server.createDatabase("worker_migrated");
  const state = openState(url);
  await state.locks(); // its first call migrates it
  await state.close();
  const queue = await openQueue(url, null, () => {});
  await queue.stop();
  return url;
}

/** A database of the test's own, with the tables and the queue in place: the state of a new project. */
export async function freshDatabase(server: PostgresServer, prefix: string): Promise<string> {
  let template = migrated.get(server.url);
  if (!template) {
    template = migratedOnce(server);
    migrated.set(server.url, template);
  }
  return server.createDatabase(prefix, await template);
}

/** Jobs of the run queue not finished yet (waiting, retrying or being worked on). */
export async function openJobs(f: Pick<Fleet, "stateUrl">): Promise<{ recipe: string; state: string }[]> {
  return queueRows(
    f,
    `SELECT data->>'recipeId' AS recipe, state::text AS state FROM ${QUEUE_SCHEMA}.job
      WHERE name = $1 AND state IN ('created', 'retry', 'active') ORDER BY created_on`,
    [RUN_QUEUE],
  );
}

/** Every job of the run queue for one recipe: its state and how many times it was handed out again. */
export async function jobsOf(f: Fleet, recipeId: string): Promise<{ state: string; retries: number }[]> {
  return queueRows(
    f,
    `SELECT state::text AS state, retry_count AS retries FROM ${QUEUE_SCHEMA}.job
      WHERE name = $1 AND data->>'recipeId' = $2 ORDER BY created_on`,
    [RUN_QUEUE, recipeId],
  );
}

/** Rows of a query on the fleet's database, through a session of its own. */
export async function queueRows<T extends pg.QueryResultRow>(
  f: Pick<Fleet, "stateUrl">,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: f.stateUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** Every job of the run queue, for a failure's message. */
async function allJobs(f: Fleet): Promise<string> {
  const rows = await queueRows(
    f,
    `SELECT data, state, singleton_key, start_after, retry_count, output, created_on, completed_on
       FROM ${QUEUE_SCHEMA}.job ORDER BY created_on`,
  );
  return rows.map((r) => JSON.stringify(r)).join("\n");
}

export function runsOf(f: Fleet, recipeId: string): Promise<RunRecord[]> {
  return f.state.runs(recipeId, 50);
}

/** The playlists titled `title` in the account's library, each with its video ids in order. */
export async function playlistsOf(a: Account, title: string): Promise<string[][]> {
  const all = await a.client.getLibraryPlaylists({ limit: null });
  const ids = all.filter((p) => p.title === title).map((p) => p.playlistId ?? "");
  const lists: string[][] = [];
  for (const id of ids) {
    const p = await a.client.getPlaylist(id, { limit: null });
    lists.push(p.tracks.map((t) => t.videoId ?? ""));
  }
  return lists;
}

/** waitUntil, with the queue's jobs in the message when it times out. */
export async function until<T>(f: Fleet, check: () => T | Promise<T>, what: () => string, timeoutMs: number) {
  try {
    return await waitUntil(check, what, timeoutMs, 200);
  } catch (e) {
    throw new Error(`${(e as Error).message}\njobs:\n${await allJobs(f)}`);
  }
}

export const logged = (msg: string) => (l: LogLine) => l.msg === msg;

/**
 * `musicsync enqueue` in this process (its `main`): what it prints and its exit code are the
 * command's, without a process's start-up for each of the many a file queues. The worker test's
 * drain runs the compiled command once, and docs/operations.md's guide runs it as a person would.
 */
export function enqueue(f: Fleet, args: readonly string[]) {
  return musicsync(["enqueue", "-p", f.projectFile, ...args]);
}

/** What a test started and opened with one emulator: its children, what to close, its fleets. */
export class WorkerKit {
  /** Every child started, killed at `reset()` if still running (a failed test leaves none). */
  private readonly children: ChildDaemon[] = [];
  /** Everything opened, closed at `reset()`. */
  private readonly cleanups: (() => Promise<unknown>)[] = [];

  constructor(
    readonly emulator: RunningEmulator,
    private readonly server: () => PostgresServer,
  ) {}

  /** Kills the children still running, closes what was opened and clears the emulator's faults. */
  async reset(): Promise<void> {
    for (const c of this.children.splice(0)) {
      if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill("SIGKILL");
      await c.exited;
    }
    for (const f of this.cleanups.splice(0).reverse()) await f().catch(() => undefined);
    await this.control("faults", { method: "DELETE" }).catch(() => undefined);
  }

  /** `f` run at the next `reset()`. */
  onReset(f: () => Promise<unknown>): void {
    this.cleanups.push(f);
  }

  freshDatabase(prefix: string): Promise<string> {
    return freshDatabase(this.server(), prefix);
  }

  /** Songs of the emulator's catalogue in a stable order (the static lists of the recipes). */
  songs(count: number, offset = 0): string[] {
    const rows = this.emulator.state.store.sqlite
      .prepare(
        "SELECT video_id AS id FROM songs WHERE available = 1 AND album_id IS NOT NULL ORDER BY id LIMIT ? OFFSET ?",
      )
      .all(count, offset) as { id: string }[];
    if (rows.length < count) throw new Error(`only ${rows.length} songs in the catalogue, ${count} needed`);
    return rows.map((r) => r.id);
  }

  async control<T>(path: string, init?: { method: string; body?: unknown }): Promise<T> {
    const r = await fetch(`${this.emulator.url}/_emulator/${path}`, {
      method: init?.method ?? "GET",
      headers: { "content-type": "application/json" },
      ...(init?.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  }

  /** Every edit of a playlist takes `delayMs` at the emulator (a run long enough to be cut). */
  async slowWrites(delayMs: number): Promise<void> {
    await this.control("faults", {
      method: "POST",
      body: { config: { rate: 1, kinds: ["slow"], endpoints: ["browse/edit_playlist"], delayMs } },
    });
  }

  /**
   * A project of `count` new emulator accounts (empty libraries), named a1…aN in the project file,
   * its state a fresh PostgreSQL database; recipes are written by each test.
   */
  async fleet(count: number, projectLines: string[] = []): Promise<Fleet> {
    const made = await this.control<{ accounts: { id: number; headers: Record<string, string> }[] }>(
      "accounts",
      { method: "POST", body: { count, playlists: 0, liked: 0 } },
    );
    const dir = await mkdtemp(join(tmpdir(), "musicsync-worker-"));
    this.onReset(() => rm(dir, { recursive: true, force: true }));
    const accounts: Account[] = [];
    const lines: string[] = [];
    for (const [i, a] of made.accounts.entries()) {
      const name = `a${i + 1}`;
      await writeFile(join(dir, `${name}.json`), JSON.stringify(a.headers));
      lines.push(`  ${name}: { auth: ${name}.json, base_url: "${this.emulator.url}" }`);
      accounts.push({ name, client: new MusicClient({ auth: a.headers, baseUrl: this.emulator.url }) });
    }
    const stateUrl = await this.freshDatabase("worker");
    const projectFile = join(dir, "musicsync.yaml");
    const text = [
      "apiVersion: musicsync/v1",
      "kind: Project",
      "accounts:",
      ...lines,
      "defaults: { account: a1 }",
      "pacing: { min_interval_ms: 0 }",
      "recipes: [recipes]",
      `state: "${stateUrl}"`,
      ...projectLines,
      "",
    ].join("\n");
    await writeFile(projectFile, text);
    const state = openState(stateUrl);
    this.onReset(() => state.close());
    // Opened now, before any worker runs, as a process opens its state when it starts: a PostgreSQL
    // state opens on its first call, and opening closes the runs of dead processes — which would
    // close a killed worker's run before the test has looked at it.
    await state.locks();
    return { dir, projectFile, stateUrl, accounts, state };
  }

  /** The real `musicsync worker`, JSON logs at `level`; killed at `reset()` if still running. */
  worker(f: Fleet, args: readonly string[] = [], level = "info"): ChildDaemon {
    const child = spawnDaemon(f.projectFile, ["--poll", "0.5s", ...args], level, "worker");
    this.children.push(child);
    return child;
  }

  /** One account, one recipe of 30 songs in batches of 2 (a create with the first two, then 14 edits). */
  async bigRecipe(): Promise<{ f: Fleet; r: RecipeSpec; account: Account }> {
    const f = await this.fleet(1);
    const r: RecipeSpec = {
      id: "big",
      account: "a1",
      title: "Worker big",
      ids: this.songs(30, 120),
      batch: 2,
    };
    await writeRecipes(f.dir, [r]);
    return { f, r, account: f.accounts[0]! };
  }
}
