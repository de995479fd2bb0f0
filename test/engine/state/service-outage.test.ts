/**
 * `musicsync worker` and `musicsync daemon` on a PostgreSQL state carry on
 * through a restart of the server without being restarted themselves — the pools connect again,
 * pg-boss's connection recovers, the workers' scheduler makes its own connection again — and no
 * connection's end becomes an uncaught error. Real processes (the compiled command), a real server
 * taken down and brought back on its port; runs are queued with `enqueue` in this process (its `main`).
 */
import { join } from "node:path";
import pg from "pg";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Daemon } from "../../../engine/daemon/daemon.js";
import { loadRecipePaths } from "../../../engine/recipe/load.js";
import { createLogger } from "../../../engine/run/logger.js";
import { openSqliteState } from "../../../engine/state/sqlite.js";
import type { EngineState } from "../../../engine/state/types.js";
import { ensureBuilt } from "../../support/cli-process.js";
import {
  type ChildDaemon,
  type LogLine,
  musicsync,
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

const server = usePostgres();
const children: ChildDaemon[] = [];
const harnesses: Harness[] = [];

beforeAll(async () => {
  await ensureBuilt();
}, 240_000);

afterEach(async () => {
  for (const c of children.splice(0)) {
    if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill("SIGKILL");
    await c.exited;
  }
  for (const h of harnesses.splice(0)) await h.stop();
});

async function harness(): Promise<Harness> {
  const h = await startHarness({ state: await server().createDatabase("service_outage") });
  harnesses.push(h);
  return h;
}

function start(h: Harness, command: "worker" | "daemon", args: readonly string[] = []): ChildDaemon {
  const child = spawnDaemon(h.projectFile, args, "info", command);
  children.push(child);
  return child;
}

const finished = (recipe: string) => (l: LogLine) => l.msg === "run finished" && l.recipe === recipe;
const logged = (msg: string) => (l: LogLine) => l.msg === msg;

/** The server down for a moment, then back; returns how many log lines the process had by then. */
async function restart(process: ChildDaemon): Promise<number> {
  const outage = server().outage!;
  await outage.down("fast");
  await new Promise((r) => setTimeout(r, 1_500));
  await outage.up();
  return process.logs.length;
}

/** A line matching after the first `from` lines. */
function logAfter(process: ChildDaemon, from: number, match: (l: LogLine) => boolean, what: string) {
  return waitUntil(
    () => process.logs.slice(from).find(match),
    () => `${what}; stderr:\n${process.stderr().slice(-3000)}`,
    60_000,
    100,
  );
}

/** Still running, nothing uncaught on its way, and a clean exit on SIGTERM. */
async function stopsCleanly(process: ChildDaemon): Promise<void> {
  expect(process.child.exitCode).toBeNull();
  process.child.kill("SIGTERM");
  expect((await process.exited).code, process.stderr().slice(-3000)).toBe(0);
  expect(process.stderr()).not.toMatch(/uncaught|unhandled/i);
}

describe("a PostgreSQL restart under running services", () => {
  it("a worker keeps scheduling (its scheduler connects again) and does a job sent after the restart", async () => {
    if (!server().outage) return;
    const h = await harness();
    const songs = catalogueSongs(h, 6);
    await writeRecipes(h.dir, [
      { id: "often", ids: songs.slice(0, 3), title: "Outage often", cron: "* * * * * *" },
      { id: "asked", ids: songs.slice(3, 6), title: "Outage asked" },
    ]);
    const w = start(h, "worker", ["--poll", "0.5s", "--tick", "500ms"]);
    await w.waitForLog(finished("often"), "a scheduled run before the restart", 60_000);
    const from = await restart(w);
    // Three: a job already waiting before the restart accounts for one at most (one waits per recipe).
    await waitUntil(
      () => w.logs.slice(from).filter((l) => finished("often")(l) && l.trigger === "schedule").length >= 3,
      () => `three scheduled runs after the restart; stderr:\n${w.stderr().slice(-3000)}`,
      60_000,
      100,
    );
    const queued = await musicsync(["enqueue", "-p", h.projectFile, "asked"]);
    expect(queued.code, queued.stderr).toBe(0);
    const asked = await logAfter(w, from, finished("asked"), "the job sent after the restart");
    expect(asked.outcome).toBe("converged");
    await stopsCleanly(w);
  }, 180_000);

  it("a worker mid-run when the server stops at once: the run stops at its lost lock, its job goes back and converges, never two writers", async () => {
    if (!server().outage) return;
    const h = await harness();
    const songs = catalogueSongs(h, 30);
    await writeRecipes(h.dir, [{ id: "big", ids: songs, title: "Outage big", batch: 2 }]);
    await h.faults({
      config: { rate: 1, kinds: ["slow"], endpoints: ["browse/edit_playlist"], delayMs: 300 },
    });
    await fetch(`${h.emulator.url}/_emulator/requests`, { method: "DELETE" });
    const w = start(h, "worker", ["--poll", "0.5s", "--no-schedule"]);
    await w.waitForLog(logged("worker started"), "the worker's start", 60_000);
    expect((await musicsync(["enqueue", "-p", h.projectFile, "big"])).code).toBe(0);
    await w.waitForLog(
      (l) => l.msg === "write batch confirmed" && l.recipe === "big" && l.seq === 2,
      "the run's first writes",
      60_000,
    );
    const outage = server().outage!;
    await outage.down("immediate");
    await new Promise((r) => setTimeout(r, 1_500));
    await outage.up();
    const cut = await w.waitForLog(logged("run interrupted"), "the run stopped by its lost lock", 60_000);
    expect(cut.error).toMatch(/^the lock on account "default" was lost: /);
    // The writes were slowed for the run to be cut mid-way; the run again needs them at speed.
    await h.faults({ config: null });
    const done = await w.waitForLog(finished("big"), "the job run again to the end", 60_000);
    expect(done.outcome).toBe("converged");
    const [pid] = await playlistsTitled(h, "Outage big");
    expect(await playlistsTitled(h, "Outage big")).toHaveLength(1);
    expect((await playlistRows(h, pid!)).map((r) => r.videoId)).toEqual(songs);
    const tally = (await (await fetch(`${h.emulator.url}/_emulator/requests/overlaps`)).json()) as {
      overlaps: number;
    };
    expect(tally.overlaps).toBe(0);
    await stopsCleanly(w);
  }, 180_000);

  it("a worker mid-run when its database refuses connections for a while (ALLOW_CONNECTIONS false): it carries on and the job converges", async () => {
    // The soak's fleet found this (PostgreSQL seeds 1, 9 and 20): a FATAL 55000 "database is not
    // currently accepting connections" was not taken for a lost connection, so pg-boss's unawaited
    // fail() ended the worker.
    const h = await harness();
    const songs = catalogueSongs(h, 20);
    await writeRecipes(h.dir, [{ id: "maint", ids: songs, title: "Outage maint", batch: 2 }]);
    await h.faults({
      config: { rate: 1, kinds: ["slow"], endpoints: ["browse/edit_playlist"], delayMs: 300 },
    });
    const w = start(h, "worker", ["--poll", "0.5s", "--no-schedule"]);
    await w.waitForLog(logged("worker started"), "the worker's start", 60_000);
    expect((await musicsync(["enqueue", "-p", h.projectFile, "maint"])).code).toBe(0);
    await w.waitForLog(
      (l) => l.msg === "write batch confirmed" && l.recipe === "maint" && l.seq === 2,
      "the run's first writes",
      60_000,
    );
    const name = new URL(h.stateFile).pathname.slice(1);
    const admin = new pg.Client({ connectionString: server().url });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [name]);
      await new Promise((r) => setTimeout(r, 2_000));
    } finally {
      await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`);
      await admin.end();
    }
    // The writes were slowed for the refusal to come mid-run; what is left of it goes at speed.
    await h.faults({ config: null });
    const done = await w.waitForLog(
      (l) => finished("maint")(l) && l.outcome === "converged",
      "the job run again to the end",
      90_000,
    );
    expect(done.outcome).toBe("converged");
    const [pid] = await playlistsTitled(h, "Outage maint");
    expect(await playlistsTitled(h, "Outage maint")).toHaveLength(1);
    expect((await playlistRows(h, pid!)).map((r) => r.videoId)).toEqual(songs);
    await stopsCleanly(w);
  }, 180_000);

  it("a daemon keeps running its schedule", async () => {
    if (!server().outage) return;
    const h = await harness();
    const songs = catalogueSongs(h, 3);
    await writeRecipes(h.dir, [{ id: "tick", ids: songs, title: "Outage tick", cron: "* * * * * *" }]);
    const d = start(h, "daemon");
    await d.waitForLog(finished("tick"), "a scheduled run before the restart", 60_000);
    const from = await restart(d);
    await logAfter(d, from, finished("tick"), "a scheduled run after the restart");
    await stopsCleanly(d);
  });
});

describe("a daemon whose state cannot be read when a run ends", () => {
  it("a manual run's attempts settle (no rejection to end the process); the failure is logged", async () => {
    const h = await startHarness();
    harnesses.push(h);
    await writeRecipes(h.dir, [{ id: "manual", ids: catalogueSongs(h, 2) }]);
    // The state past its retries: every health read fails, as a database gone for good would.
    const inner = openSqliteState(h.stateFile);
    const state = new Proxy(inner, {
      get(target, property, receiver) {
        if (property === "recipeHealth" || property === "healthOf")
          return () =>
            Promise.reject(new Error("the state database h:5432/db was unreachable: ECONNREFUSED"));
        const value: unknown = Reflect.get(target, property, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }) as EngineState;
    const logged: string[] = [];
    const logger = createLogger("silent");
    const daemon = new Daemon({
      envOptions: { project: h.project, projectFile: h.projectFile, logger, state },
      logger: new Proxy(logger, {
        get(target, property, receiver) {
          if (property === "error") return (_fields: object, msg?: string) => logged.push(msg ?? "");
          return Reflect.get(target, property, receiver);
        },
      }),
      options: { retryDelayMs: 10, lockWaitMs: 10 },
      load: () => loadRecipePaths([join(h.dir, "recipes")], { project: h.project }),
    });
    await daemon.start();
    try {
      const events = await daemon.trigger("manual", "manual");
      expect(events.map((e) => e.outcome)).toEqual(["failed"]);
      expect(logged).toContain("no retry could be planned");
    } finally {
      await daemon.stop("test");
      await daemon.close();
    }
  });
});
