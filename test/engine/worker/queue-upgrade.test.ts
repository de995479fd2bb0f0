/**
 * A database whose job queue an earlier musicsync made with pg-boss 10 (schema version 24,
 * which pg-boss 12 refuses to upgrade). The first worker or `enqueue` of this version sets the old
 * schema aside, lets pg-boss 12 install its own, and carries over every run the old queue still
 * held — waiting, delayed, retrying, or taken by a worker that is gone — once, whatever the number
 * of processes starting together; the finished and failed jobs stay in the old schema, and nothing
 * that is not a run is taken.
 *
 * And the queue's own connections: a session the server ends while pg-boss holds its client is heard.
 */

import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type JobQueue, openQueue, QUEUE_SCHEMA, RUN_QUEUE } from "../../../engine/worker/queue.js";
import { oldQueueSchema, setAsideOldQueue } from "../../../engine/worker/queue-upgrade.js";
import type { QueueSettings } from "../../../engine/worker/settings.js";
import { ensureBuilt, musicsync } from "../../support/cli-process.js";
import { writeRecipes } from "../../support/daemon-harness.js";
import { waitUntil } from "../../support/load.js";
import { usePostgres } from "../../support/postgres-server.js";

const server = usePostgres();
const OLD_SCHEMA_SQL = readFileSync(new URL("./pg-boss-10-schema.sql", import.meta.url), "utf8");
const SETTINGS: QueueSettings = { leaseSeconds: 30, superviseSeconds: 10, pollSeconds: 1 };
const ASIDE = oldQueueSchema(QUEUE_SCHEMA);

beforeAll(async () => {
  await ensureBuilt();
}, 240_000);

const opened: JobQueue[] = [];
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const q of opened.splice(0)) await q.stop().catch(() => undefined);
  for (const f of cleanups.splice(0).reverse()) await f().catch(() => undefined);
});

async function sql<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A database as an earlier musicsync left it: pg-boss 10's schema, the run queue as that version
 * created it, and a job in each state a pg-boss 10 queue can hold (one of them not a run at all).
 */
async function oldDatabase(): Promise<string> {
  const url = await server().createDatabase("upgrade");
  await sql(url, OLD_SCHEMA_SQL);
  await sql(url, `SELECT ${QUEUE_SCHEMA}.create_queue($1, $2)`, [
    RUN_QUEUE,
    JSON.stringify({
      policy: "short",
      retryLimit: 10,
      retryDelay: 1,
      expireInSeconds: 900,
      retentionMinutes: 1440,
    }),
  ]);
  const job = (recipe: string | null, state: string, startAfter = "now()", startedOn = "NULL") =>
    sql(
      url,
      `INSERT INTO ${QUEUE_SCHEMA}.job (name, data, state, singleton_key, start_after, started_on, policy,
                                         retry_limit, retry_delay, expire_in)
       VALUES ($1, $2, $3, $4, ${startAfter}, ${startedOn}, 'short', 10, 1, interval '15 minutes')`,
      [
        RUN_QUEUE,
        recipe === null ? { something: "else" } : { recipeId: recipe, trigger: "manual", attempt: 1 },
        state,
        recipe ?? "foreign",
      ],
    );
  await job("waiting", "created");
  await job("later", "created", "now() + interval '10 minutes'");
  await job("again", "retry");
  await job("taken", "active", "now() - interval '2 minutes'", "now() - interval '1 minute'");
  await job("done", "completed");
  await job("gave-up", "failed");
  await job(null, "created");
  return url;
}

async function open(url: string, settings: QueueSettings | null = SETTINGS): Promise<JobQueue> {
  const queue = await openQueue(url, settings, () => undefined);
  opened.push(queue);
  return queue;
}

interface NewJob {
  recipe: string;
  state: string;
  delayed: boolean;
}

/** The runs of the new (pg-boss 12) queue, by recipe. */
async function newJobs(url: string): Promise<NewJob[]> {
  return sql<NewJob>(
    url,
    `SELECT data->>'recipeId' AS recipe, state::text AS state, start_after > now() + interval '5 minutes' AS delayed
       FROM ${QUEUE_SCHEMA}.job WHERE name = $1 ORDER BY data->>'recipeId'`,
    [RUN_QUEUE],
  );
}

/** What is left in the set-aside schema, by recipe (null: the job that is not a run). */
async function leftBehind(url: string): Promise<{ recipe: string | null; state: string }[]> {
  return sql(
    url,
    `SELECT data->>'recipeId' AS recipe, state::text AS state FROM ${ASIDE}.job ORDER BY data->>'recipeId'`,
  );
}

const CARRIED: NewJob[] = [
  { recipe: "again", state: "created", delayed: false },
  { recipe: "later", state: "created", delayed: true },
  { recipe: "taken", state: "created", delayed: false },
  { recipe: "waiting", state: "created", delayed: false },
];
const KEPT = [
  { recipe: "done", state: "completed" },
  { recipe: "gave-up", state: "failed" },
  { recipe: null, state: "created" },
];

describe("a pg-boss 10 job queue", () => {
  it("is set aside and its runs carried over to pg-boss 12's queue, the rest kept", async () => {
    const url = await oldDatabase();
    const queue = await open(url);
    expect(queue.carriedOver).toBe(4);
    expect(await newJobs(url)).toEqual(CARRIED);
    expect(await leftBehind(url)).toEqual(KEPT);
    const [version] = await sql<{ version: number }>(url, `SELECT version FROM ${QUEUE_SCHEMA}.version`);
    expect(Number(version?.version)).toBeGreaterThan(24);
    // The new queue works: a run sent for a carried recipe is that waiting run, a new one is added.
    expect(await queue.send({ recipeId: "waiting", trigger: "manual", attempt: 1 })).toBeNull();
    expect(await queue.send({ recipeId: "fresh", trigger: "manual", attempt: 1 })).not.toBeNull();

    // Opened again (the next worker): nothing more to carry, nothing doubled.
    const again = await open(url);
    expect(again.carriedOver).toBe(0);
    expect((await newJobs(url)).map((j) => j.recipe)).toEqual([
      "again",
      "fresh",
      "later",
      "taken",
      "waiting",
    ]);
  });

  it("several workers starting together carry each run over once, and none fails", async () => {
    const url = await oldDatabase();
    const queues = await Promise.all([open(url), open(url), open(url, null)]);
    expect(queues.map((q) => q.carriedOver).reduce((a, b) => a + b, 0)).toBe(4);
    expect(await newJobs(url)).toEqual(CARRIED);
    expect(await leftBehind(url)).toEqual(KEPT);
  });

  it("a start cut short after the old queue was set aside: the next start carries the runs over", async () => {
    const url = await oldDatabase();
    expect(await setAsideOldQueue(url, QUEUE_SCHEMA)).toBe(true);
    expect(await setAsideOldQueue(url, QUEUE_SCHEMA)).toBe(false);
    const queue = await open(url);
    expect(queue.carriedOver).toBe(4);
    expect(await newJobs(url)).toEqual(CARRIED);
  });

  it("refuses, naming both schemas, when an old queue was set aside already and another is in place", async () => {
    const url = await oldDatabase();
    await sql(url, `ALTER SCHEMA ${QUEUE_SCHEMA} RENAME TO ${ASIDE}`);
    await sql(url, OLD_SCHEMA_SQL);
    const refused = await openQueue(url, SETTINGS, () => undefined).then(
      (q) => {
        opened.push(q);
        return null;
      },
      (e: Error) => e.message,
    );
    expect(refused).toContain(`schema ${QUEUE_SCHEMA} is of pg-boss 10`);
    expect(refused).toContain(`DROP SCHEMA ${ASIDE} CASCADE`);
    // Both old queues are as they were.
    expect(await leftBehind(url)).toHaveLength(7);
    const [version] = await sql<{ version: number }>(url, `SELECT version FROM ${QUEUE_SCHEMA}.version`);
    expect(Number(version?.version)).toBe(24);
  });

  it("musicsync enqueue says what it carried over and where the old jobs are, without the URL", async () => {
    const url = await oldDatabase();
    const dir = await mkdtemp(join(tmpdir(), "musicsync-upgrade-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, "headers.json"), "{}");
    const project = join(dir, "musicsync.yaml");
    await writeFile(
      project,
      [
        "apiVersion: musicsync/v1",
        "kind: Project",
        "accounts:",
        '  default: { auth: headers.json, base_url: "http://127.0.0.1:9" }',
        "recipes: [recipes]",
        `state: "${url}"`,
        "",
      ].join("\n"),
    );
    await writeRecipes(dir, [{ id: "waiting", ids: ["aaaaaaaaaaa"] }]);
    const r = await musicsync(["enqueue", "waiting", "-p", project]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("Queued 0 runs (1 already waiting).");
    expect(r.stderr).toContain("carried 4 runs over from the job queue of an earlier version (pg-boss 10)");
    expect(r.stderr).toContain(`DROP SCHEMA ${ASIDE} CASCADE`);
    expect(r.stderr).not.toContain(url);
    expect(await newJobs(url)).toEqual(CARRIED);
  });
});

describe("the job queue's connections", () => {
  // Soak seed 401 at a load of 21: the server ended (idle_session_timeout) the session of a client
  // pg-boss had checked out, and node-postgres's unheard 'error' ended the worker. Here the session of
  // a checked-out client is ended the same way (pg_terminate_backend, while it idles between statements).
  it("a checked-out client whose session the server ends: heard, its next statement fails, the queue goes on", async () => {
    const url = await server().createDatabase("heard");
    const errors: Error[] = [];
    const queue = await openQueue(url, SETTINGS, (e) => errors.push(e));
    opened.push(queue);
    const { pool } = queue.boss.getDb() as unknown as { pool: pg.Pool };
    const client = await pool.connect();
    const pid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    const ended = new Promise((done) => client.once("end", done));
    await sql(url, "SELECT pg_terminate_backend($1)", [pid]);
    // Unheard, the 'error' is thrown from the socket's handler and the client's end never comes.
    await waitUntil(
      () => Promise.race([ended.then(() => true), sleep(100).then(() => false)]),
      "the client's end",
    );
    await expect(client.query("SELECT 1")).rejects.toThrow();
    client.release(true);
    // The queue's other connections are unharmed: a run is sent and found.
    expect(await queue.send({ recipeId: "after", trigger: "manual", attempt: 1 })).not.toBeNull();
    const [row] = await sql<{ n: string }>(
      url,
      `SELECT count(*) AS n FROM ${QUEUE_SCHEMA}.job WHERE singleton_key = 'after'`,
    );
    expect(Number(row?.n)).toBe(1);
  });
});
