/**
 * The state's PostgreSQL going away under a run.
 *
 * The account lock lives on a session of its own, and whatever ends that session
 * (pg_terminate_backend, a server restart, a hung connection) frees the account at once. The run
 * must know, send no further write and end `interrupted` saying why, while a second sync — the real
 * command, another process — takes the account. The server's idle_session_timeout must not end the
 * lock's session at all. The run under test (A) runs in this process with its writes held at a gate
 * in the pacer — before the lock is asked, so A has no write in flight — while the test ends A's
 * lock session and lets B sync the account to the end; then the gate opens, and A must stop.
 *
 * A database that blinks while a write's answer comes back: the confirmation is recorded once the
 * database is back, the run is closed truthfully and `status` does not call the recipe Ready; a
 * longer outage is reported as the database being unreachable (never as the lock release's failed
 * query), and the next run closes the run and keeps its write.
 */
import { spawnSync } from "node:child_process";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { EngineClient } from "../../../engine/apply/client.js";
import { WRITE_METHODS } from "../../../engine/apply/client.js";
import type { Clock } from "../../../engine/apply/pacer.js";
import { createEnv } from "../../../engine/run/env.js";
import { createLogger } from "../../../engine/run/logger.js";
import { type EngineEnv, syncRecipe } from "../../../engine/run/runner.js";
import { openPgState, type PgStateOptions } from "../../../engine/state/pg.js";
import { openSqliteState } from "../../../engine/state/sqlite.js";
import type { EngineState } from "../../../engine/state/types.js";
import { collectStatus } from "../../../engine/status/status.js";
import { ensureBuilt, musicsync } from "../../support/cli-process.js";
import { type RecipeSpec, recipeYaml, waitUntil, writeRecipes } from "../../support/daemon-harness.js";
import { usePostgres } from "../../support/postgres-server.js";
import {
  catalogueSongs,
  type Harness,
  playlistRows,
  playlistsTitled,
  recipe,
  startHarness,
} from "../../support/sync-harness.js";

const server = usePostgres();
let h: Harness;
let url: string;
let admin: pg.Pool;
let songs: string[];
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  await ensureBuilt();
  url = await server().createDatabase("outage");
  h = await startHarness({ state: url });
  songs = catalogueSongs(h, 60);
  // Idle connections closed at once: the idle_session_timeout test must not find one ended under it.
  admin = new pg.Pool({ connectionString: url, max: 2, idleTimeoutMillis: 50 });
  admin.on("error", () => undefined);
}, 240_000);

afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f().catch(() => undefined);
});

afterAll(async () => {
  await admin?.end();
  await h?.stop();
});

/** Checks of the lock's session often, so that a test waits little (the default is every 3 s). */
const FAST_CHECKS = { everyMs: 200, timeoutMs: 1_000 };

/** A clock whose sleeps (the pacer's waits before a write) wait for `open()` once `arm()` was called. */
function gatedClock() {
  let opened = false;
  const waiting: (() => void)[] = [];
  let reach!: () => void;
  const reached = new Promise<void>((r) => {
    reach = r;
  });
  const clock: Clock = {
    now: () => Date.now(),
    async sleep(ms) {
      reach();
      if (!opened) await new Promise<void>((r) => waiting.push(r));
      await new Promise((r) => setTimeout(r, ms));
    },
  };
  return {
    clock,
    /** Settles when the pacer first waits: a write answered, the next not yet asked for. */
    reached,
    get opened() {
      return opened;
    },
    open() {
      opened = true;
      for (const w of waiting.splice(0)) w();
    },
  };
}

interface Writer {
  env: EngineEnv;
  state: EngineState;
  gate: ReturnType<typeof gatedClock>;
  /** Each write method A called, and whether the gate was open by then. */
  writes: { method: string; afterGate: boolean }[];
}

/** A write's answer kept from the run until `release()`: the service has done it, the run does not know yet. */
function heldAnswer() {
  let release!: () => void;
  const released = new Promise<void>((r) => {
    release = r;
  });
  let reach!: () => void;
  const reached = new Promise<void>((r) => {
    reach = r;
  });
  return { released, reached, reach, release };
}

/**
 * Run A: this process, its own state (pool and lock session), writes paced through the gate
 * (`hold`: the answer of its `hold.nth` write kept back instead, writes not gated).
 */
function writer(
  options: Partial<Pick<PgStateOptions, "leaseChecks" | "reconnect">> = {},
  hold?: { nth: number; answer: ReturnType<typeof heldAnswer> },
): Writer {
  const state = openPgState(url, { leaseChecks: FAST_CHECKS, ...options });
  const gate = gatedClock();
  if (hold) gate.open();
  const env = createEnv({
    project: h.project,
    projectFile: h.projectFile,
    logger: createLogger(process.env.MUSICSYNC_TEST_LOG ?? "silent"),
    state,
    clock: gate.clock,
    // Longer than a write takes: the pacer waits (at the gate) between any two writes.
    pacing: { minIntervalMs: 1_000, maxPerMinute: 0, baseDelayMs: 50 },
  });
  cleanups.push(() => env.close());
  const writes: Writer["writes"] = [];
  const inner = env.clientFor.bind(env);
  env.clientFor = (name) =>
    recording(
      inner(name),
      (method) => writes.push({ method, afterGate: hold ? false : gate.opened }),
      async (answer) => {
        if (hold && writes.length === hold.nth) {
          hold.answer.reach();
          await hold.answer.released;
        }
        return answer;
      },
    );
  return { env, state, gate, writes };
}

/** The client with each write noted as it is asked for, and its answer passed through `answered`. */
function recording(
  client: EngineClient,
  note: (method: string) => void,
  answered: (answer: unknown) => Promise<unknown> = async (a) => a,
): EngineClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      if (!WRITE_METHODS.has(property as never)) return value.bind(target);
      return async (...args: unknown[]) => {
        note(String(property));
        return answered(await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      };
    },
  });
}

/** A recipe of 16 songs in batches of 2 (a create and seven adds), on a title of its own. */
async function recipeOf(id: string, offset: number): Promise<RecipeSpec> {
  const spec: RecipeSpec = { id, title: `Outage ${id}`, ids: songs.slice(offset, offset + 16), batch: 2 };
  await writeRecipes(h.dir, [spec]);
  return spec;
}

/** The lock sessions of this database: pid and the lock id it is named after. */
async function lockSessions(): Promise<{ pid: number; lockId: string }[]> {
  const { rows } = await admin.query<{ pid: number; name: string }>(
    `SELECT pid, application_name AS name FROM pg_stat_activity
      WHERE datname = current_database() AND application_name LIKE 'musicsync lock %'`,
  );
  return rows.map((r) => ({ pid: r.pid, lockId: r.name.slice("musicsync lock ".length) }));
}

async function control<T>(path: string, method = "GET"): Promise<T> {
  const r = await fetch(`${h.emulator.url}/_emulator/${path}`, { method });
  return (await r.json()) as T;
}

/** What A knows of its lock (the method is new with the watch: absent, A knows nothing). */
function lostBy(state: EngineState, lockId: string): string | null {
  return (state as { lockLost?: (id: string) => string | null }).lockLost?.(lockId) ?? null;
}

/**
 * Runs A up to its gate, ends its lock's session with `end`, lets B (the real command) sync the
 * recipe to the end, opens the gate, and returns A's run with what was seen on the way.
 */
async function loseTheLockMidRun(spec: RecipeSpec, end: (pid: number) => Promise<void>, a = writer()) {
  await control("requests", "DELETE");
  const running = syncRecipe(recipe(h.project, recipeYaml(spec)), a.env);
  await a.gate.reached;
  const [session] = await lockSessions();
  expect(session).toBeDefined();
  await end(session!.pid);
  await waitUntil(() => lostBy(a.state, session!.lockId), "run A to know its lock is lost", 10_000);
  const b = await musicsync(["sync", "-p", h.projectFile, "-r", spec.id]);
  expect(b.code, b.stderr).toBe(0);
  a.gate.open();
  const run = await running;
  // Newest first: B's run, which converged, then A's.
  const runs = await a.state.runs(spec.id, 10);
  expect(runs.map((r) => r.result)).toEqual(["converged", "interrupted"]);
  return { a, run, b, record: runs[1]! };
}

/** The promises that hold whatever ended A's lock: one playlist with exactly the recipe's rows. */
async function onlyBsWrites(spec: RecipeSpec, a: Writer) {
  expect(a.writes.filter((w) => w.afterGate)).toEqual([]);
  const lists = await playlistsTitled(h, spec.title!);
  expect(lists).toHaveLength(1);
  expect((await playlistRows(h, lists[0]!)).map((r) => r.videoId)).toEqual(spec.ids);
  const tally = await control<{ overlaps: number; writes: number }>("requests/overlaps");
  expect(tally.writes).toBeGreaterThan(0);
  expect(tally.overlaps).toBe(0);
}

describe("a run whose PostgreSQL lock session ends", () => {
  it("pg_terminate_backend: the run sends no further write and ends interrupted saying why; a second sync takes the account", async () => {
    const spec = await recipeOf("terminated", 0);
    const { a, run, record } = await loseTheLockMidRun(spec, async (pid) => {
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
    });
    const why =
      'the lock on account "default" was lost: the state database closed its connection (terminating connection due to administrator command)';
    expect(run.outcome).toBe("interrupted");
    expect(run.error).toBe(why);
    expect(record.result).toBe("interrupted");
    expect(record.error).toBe(why);
    // The write before the gate went through; none after it: each later action is "not sent".
    const journal = await a.state.journal(record.id);
    expect(journal[0]?.status).toBe("confirmed");
    const rest = journal.slice(1);
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((e) => e.status === "failed" && (e.result as { sent?: boolean }).sent === false)).toBe(
      true,
    );
    await onlyBsWrites(spec, a);
  });

  it("a lock session kept from A's last run and ended under its next: the same (the session is reused, the promise kept)", async () => {
    // A's first run finds nothing to do (the real command synced the recipe first), and its lock's
    // session waits for A's next lock.
    const warm = await recipeOf("warm", 40);
    const first = await musicsync(["sync", "-p", h.projectFile, "-r", warm.id]);
    expect(first.code, first.stderr).toBe(0);
    const a = writer();
    expect((await syncRecipe(recipe(h.project, recipeYaml(warm)), a.env)).outcome).toBe("no_changes");
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'musicsync lock'`,
    );
    expect(rows).toHaveLength(1);
    const spec = await recipeOf("reused", 20);
    const { run, record } = await loseTheLockMidRun(
      spec,
      async (pid) => {
        expect(pid).toBe(rows[0]!.pid);
        await admin.query("SELECT pg_terminate_backend($1)", [pid]);
      },
      a,
    );
    expect(run.outcome).toBe("interrupted");
    expect(record.error).toMatch(/^the lock on account "default" was lost: the state database closed/);
    await onlyBsWrites(spec, a);
  });

  it("a server restart (fast shutdown, then up): the same, and A's run is still recorded afterwards", async () => {
    const outage = server().outage;
    if (!outage) return; // MUSICSYNC_TEST_PG_URL: a server this test cannot restart
    const spec = await recipeOf("restarted", 16);
    const { a, run, record } = await loseTheLockMidRun(spec, async () => {
      await outage.down("fast");
      await outage.up();
    });
    expect(run.outcome).toBe("interrupted");
    expect(run.error).toMatch(
      /^the lock on account "default" was lost: the state database closed its connection/,
    );
    expect(record.result).toBe("interrupted");
    await onlyBsWrites(spec, a);
  });

  it("idle_session_timeout on the server does not end the lock's session: the run converges alone", async () => {
    await admin.query(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" SET idle_session_timeout = '1s'`);
    cleanups.push(() =>
      admin.query(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" RESET idle_session_timeout`),
    );
    const spec = await recipeOf("idle", 32);
    // Checks rarer than the timeout: only the session's own setting can keep it.
    const a = writer({ leaseChecks: { everyMs: 60_000, timeoutMs: 10_000 } });
    await control("requests", "DELETE");
    const running = syncRecipe(recipe(h.project, recipeYaml(spec)), a.env);
    await a.gate.reached;
    const [session] = await lockSessions();
    expect(session).toBeDefined();
    // The timeout demonstrably applies: A's idle pool connections are ended by it meanwhile.
    await waitUntil(
      async () => {
        const { rows } = await admin.query(
          `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'musicsync'`,
        );
        return rows.length === 0;
      },
      "the server to end A's idle pool connections",
      15_000,
    );
    expect(await lockSessions()).toEqual([session]);
    expect(lostBy(a.state, session!.lockId)).toBeNull();
    a.gate.open();
    const run = await running;
    expect(run.outcome, run.error ?? "").toBe("converged");
    const lists = await playlistsTitled(h, spec.title!);
    expect((await playlistRows(h, lists[0]!)).map((r) => r.videoId)).toEqual(spec.ids);
    expect((await control<{ overlaps: number }>("requests/overlaps")).overlaps).toBe(0);
  });

  it("a connection that stops answering (its backend frozen) is taken as lost within the check's time", async () => {
    const state = openPgState(url, { leaseChecks: FAST_CHECKS });
    cleanups.push(() => state.close());
    const attempt = await state.acquireLock("frozen", "test", Date.now(), 60_000);
    if (!attempt.acquired) throw new Error("the test could not take the lock");
    const session = (await lockSessions()).find((s) => s.lockId === attempt.lock.lockId);
    expect(session).toBeDefined();
    // SIGSTOP: the backend keeps its socket open but answers nothing, as across a cut network.
    expect(spawnSync("kill", ["-STOP", String(session!.pid)]).status).toBe(0);
    cleanups.push(async () => spawnSync("kill", ["-CONT", String(session!.pid)]));
    const why = await waitUntil(
      () => lostBy(state, attempt.lock.lockId),
      "the frozen session to be noticed",
      10_000,
    );
    expect(why).toBe("the state database did not answer a check of its connection within 1 s");
    expect(await state.heartbeat(attempt.lock.lockId, Date.now())).toBe(false);
  });
});

describe("a state database that blinks during a sync", () => {
  /** A's sync with the answer of its second write held while the server goes down; then `restore`. */
  async function blinkAtSecondAnswer(
    spec: RecipeSpec,
    options: Partial<Pick<PgStateOptions, "reconnect">>,
    restore: (running: Promise<unknown>) => Promise<void>,
  ) {
    const outage = server().outage!;
    const answer = heldAnswer();
    const a = writer(options, { nth: 2, answer });
    await control("requests", "DELETE");
    const loaded = recipe(h.project, recipeYaml(spec));
    const running = syncRecipe(loaded, a.env);
    await answer.reached;
    await outage.down("fast");
    // The service did the write; the run learns it while its database is down.
    answer.release();
    await restore(running);
    return { a, loaded, run: await running };
  }

  it("a few seconds down while a write is answered: the write stays confirmed, the run is closed interrupted, status is not Ready", async () => {
    if (!server().outage) return;
    const spec = await recipeOf("blink", 32);
    const { a, loaded, run } = await blinkAtSecondAnswer(spec, {}, async () => {
      // Down for a while (the run keeps trying to record the answer meanwhile), then back.
      await new Promise((r) => setTimeout(r, 2_000));
      await server().outage!.up();
    });
    // The restart ended the lock's session: no write after it, and the run says why.
    expect(run.outcome).toBe("interrupted");
    expect(run.error).toMatch(
      /^the lock on account "default" was lost: the state database closed its connection/,
    );
    const [record] = await a.state.runs(spec.id, 1);
    expect(record?.result).toBe("interrupted");
    expect(record?.error).toBe(run.error);
    const journal = await a.state.journal(record!.id);
    expect(journal.slice(0, 2).map((e) => e.status)).toEqual(["confirmed", "confirmed"]);
    expect(journal.slice(2).every((e) => e.status === "failed")).toBe(true);
    expect(a.writes).toHaveLength(2);
    const status = await collectStatus(a.state, [loaded], Date.now());
    expect(status.recipes[0]?.conditions.find((c) => c.type === "Ready")?.status).toBe("False");

    const b = await musicsync(["sync", "-p", h.projectFile, "-r", spec.id]);
    expect(b.code, b.stderr).toBe(0);
    // The confirmed write was not taken for an unanswered one by the next run.
    expect((await a.state.journal(record!.id))[1]?.status).toBe("confirmed");
    const lists = await playlistsTitled(h, spec.title!);
    expect(lists).toHaveLength(1);
    expect((await playlistRows(h, lists[0]!)).map((r) => r.videoId)).toEqual(spec.ids);
    expect((await control<{ overlaps: number }>("requests/overlaps")).overlaps).toBe(0);
  });

  it("down for longer than the retries: the run says the database was unreachable (not a lock release's failed query); the next run closes it and keeps the write", async () => {
    if (!server().outage) return;
    const spec = await recipeOf("down", 48);
    const { a, run } = await blinkAtSecondAnswer(
      spec,
      { reconnect: { forMs: 1_000, firstDelayMs: 100, maxDelayMs: 400 } },
      async (running) => {
        await running;
        await server().outage!.up();
      },
    );
    const name = new URL(url).pathname.slice(1);
    expect(run.error).toMatch(
      new RegExp(`^the state database 127\\.0\\.0\\.1:\\d+/${name} was unreachable: connect ECONNREFUSED`),
    );
    expect(run.error).not.toMatch(/Failed query|params:|delete from/);
    expect(run.outcome).toBe("partial");

    const b = await musicsync(["sync", "-p", h.projectFile, "-r", spec.id]);
    expect(b.code, b.stderr).toBe(0);
    const runs = await a.state.runs(spec.id, 10);
    expect(runs.map((r) => r.result)).toEqual(["converged", "interrupted"]);
    // The write the service did is confirmed by the next run's reading of the target.
    expect((await a.state.journal(runs[1]!.id))[1]?.status).toBe("confirmed");
    const lists = await playlistsTitled(h, spec.title!);
    expect(lists).toHaveLength(1);
    expect((await playlistRows(h, lists[0]!)).map((r) => r.videoId)).toEqual(spec.ids);
  });
});

describe("status after a run that did not finish", () => {
  it("is not Ready when the last run ended interrupted without recording its conditions", async () => {
    const state = openSqliteState(":memory:");
    cleanups.push(() => state.close());
    const loaded = recipe(h.project, recipeYaml({ id: "cut", ids: songs.slice(0, 2) }));
    const at = Date.now();
    const run = (n: number) =>
      state.startRun({ recipeId: "cut", account: "default", kind: "sync", recipeHash: "h", at: at + n });
    const first = await run(0);
    await state.finishRun(first, { at: at + 1, result: "converged" });
    const ready = { type: "Ready" as const, status: "True" as const, reason: "Converged", message: "ok" };
    await state.setCondition("cut", ready, at + 1);
    // A run whose process died, closed later by whoever opened the state: conditions untouched.
    const second = await run(2);
    await state.markInterrupted(second, at + 3, "interrupted: its process is gone");
    const report = await collectStatus(state, [loaded], at + 4);
    const condition = report.recipes[0]?.conditions.find((c) => c.type === "Ready");
    expect(condition).toMatchObject({ status: "False", reason: "LastRunUnfinished" });
    expect(condition?.message).toContain(`the last run (${second}) ended interrupted`);
  });
});
