/**
 * `musicsync worker` and `musicsync enqueue` end to end: many emulator accounts, the
 * state and the job queue in a PostgreSQL database of each test's own (a copy of one migrated once), the compiled command as child
 * processes with JSON logs. What must hold whatever the timing: every recipe converges once, one
 * playlist per recipe with exactly its rows, never two writers on one account, a killed or stopped
 * worker's run finished by another, and the queue empty at the end.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { byAccountInTurn } from "../../../cli/musicsync/worker.js";
import { startEmulator } from "../../../emulator/index.js";
import { Daemon } from "../../../engine/daemon/daemon.js";
import { loadProjectFile, loadRecipePaths, loadRecipeText } from "../../../engine/recipe/load.js";
import type { LoadedRecipe } from "../../../engine/recipe/types.js";
import type { EngineLogger } from "../../../engine/run/logger.js";
import { openState } from "../../../engine/state/open.js";
import { openQueue, QUEUE_SCHEMA, RUN_QUEUE, type RunJob } from "../../../engine/worker/queue.js";
import { dueNow, nextScheduled, scheduleTick } from "../../../engine/worker/scheduler.js";
import { Worker } from "../../../engine/worker/worker.js";
import { musicsync as compiled, ensureBuilt } from "../../support/cli-process.js";
import {
  type LogLine,
  musicsync,
  type RecipeSpec,
  recipeYaml,
  waitUntil,
  writeRecipes,
} from "../../support/daemon-harness.js";
import { usePostgres } from "../../support/postgres-server.js";
import {
  enqueue,
  type Fleet,
  jobsOf,
  logged,
  openJobs,
  playlistsOf,
  queueRows,
  runsOf,
  until,
  WorkerKit,
} from "../../support/worker-fleet.js";

const server = usePostgres();
let kit: WorkerKit;

beforeAll(async () => {
  await ensureBuilt();
  kit = new WorkerKit(await startEmulator({ catalogueSize: 300 }), server);
}, 240_000);

afterAll(async () => {
  await kit?.emulator.stop();
});

const fleet = (count: number, projectLines?: string[]) => kit.fleet(count, projectLines);
const worker = (f: Fleet, args?: readonly string[], level?: string) => kit.worker(f, args, level);
const songs = (count: number, offset?: number) => kit.songs(count, offset);
const control = <T>(path: string, init?: { method: string; body?: unknown }) => kit.control<T>(path, init);

/** An emulator and a kit of the test's own, both closed as the test ends. */
async function ownEmulator(onTestFinished: (f: () => Promise<void>) => void): Promise<WorkerKit> {
  const emulator = await startEmulator({ catalogueSize: 300 });
  const own = new WorkerKit(emulator, server);
  onTestFinished(async () => {
    await own.reset();
    await emulator.stop();
  });
  return own;
}

/** An emulator of the test's own with bigRecipe's project, its run queued. */
async function bigRecipeQueued(onTestFinished: (f: () => Promise<void>) => void) {
  const own = await ownEmulator(onTestFinished);
  const big = await own.bigRecipe();
  const queued = await enqueue(big.f, ["big"]);
  if (queued.code !== 0) throw new Error(`enqueue failed: ${queued.stderr}`);
  return { own, ...big };
}

/**
 * The emulator's faults cleared, a new worker runs the big recipe to its end and the queue empties:
 * the worker and its line saying so.
 */
async function anotherWorkerFinishes(own: WorkerKit, f: Fleet, args: readonly string[], what: string) {
  await own.control("faults", { method: "DELETE" });
  const w = own.worker(f, args);
  const finished = await w.waitForLog((l) => l.msg === "run finished" && l.recipe === "big", what, 60_000);
  await until(
    f,
    async () => (await openJobs(f)).length === 0,
    () => "an empty queue",
    30_000,
  );
  return { w, finished };
}

const addConfirmed = (l: LogLine) =>
  l.msg === "write batch confirmed" && l.kind === "add_playlist_items" && l.recipe === "big";

/**
 * A Worker in this process on `f`'s project and state, its job queue open, closed at the kit's
 * reset; what it logged in `said`. `schedulerUrl` is the scheduler's own connection's (the state's
 * unless given); `gate` is awaited before each load of the recipes.
 */
async function inProcessWorker(f: Fleet, o: { schedulerUrl?: string; gate?: () => Promise<void> } = {}) {
  const { project, issues } = await loadProjectFile(f.projectFile);
  expect(issues).toEqual([]);
  const said: { level: string; msg: string }[] = [];
  const logger: EngineLogger = {
    debug: () => {},
    info: (_f, msg) => said.push({ level: "info", msg: msg ?? "" }),
    warn: (_f, msg) => said.push({ level: "warn", msg: msg ?? "" }),
    error: (_f, msg) => said.push({ level: "error", msg: msg ?? "" }),
    child: () => logger,
  };
  const daemon = new Daemon({
    envOptions: { project: project!, projectFile: f.projectFile, logger, stateFile: f.stateUrl },
    logger,
    load: async () => {
      await o.gate?.();
      return loadRecipePaths([join(f.dir, "recipes")], { project: project!, projectFile: f.projectFile });
    },
    queued: true,
  });
  kit.onReset(() => daemon.close());
  const queue = await openQueue(
    f.stateUrl,
    { leaseSeconds: 60, superviseSeconds: 30, pollSeconds: 1 },
    () => {},
  );
  const w = new Worker({
    daemon,
    queue,
    logger,
    stateUrl: o.schedulerUrl ?? f.stateUrl,
    options: { concurrency: 1, tickMs: 200, busyRetryMs: 500, leaseMs: 60_000, pollSeconds: 1 },
  });
  kit.onReset(() => w.stop());
  return { w, said };
}

/**
 * Two branches side by side: the tests that share the file's emulator, one at a time; and the tests
 * whose run is cut or outlasts its lease, each with an emulator of its own (the emulator's faults,
 * which slow their writes, are the whole emulator's). Those wait mostly on the queue's clock (a lease
 * is at least 10 s: pg-boss's shortest heartbeat) and on the slowed writes, using little of a core.
 */
describe.concurrent("musicsync worker", () => {
  // A branch beside the others (a concurrent suite), whose own tests run one at a time.
  describe("the file's emulator", { concurrent: true }, () => {
    describe("one test at a time", { concurrent: false }, () => {
      afterEach(async () => {
        await kit.reset();
      });

      describe("musicsync worker: a drain", () => {
        it("two workers run twelve recipes of six accounts once each, never two writers on one account", async () => {
          const f = await fleet(6);
          const recipes: RecipeSpec[] = f.accounts.flatMap((a, i) =>
            ["x", "y"].map((s, j) => ({
              id: `${a.name}-${s}`,
              account: a.name,
              title: `Worker ${a.name} ${s}`,
              ids: songs(7 + j, (i * 2 + j) * 9),
              batch: 2,
            })),
          );
          await writeRecipes(f.dir, recipes);
          await control("requests", { method: "DELETE" });
          // The compiled command, as an operator queues runs (the other tests queue in this process).
          const queued = await compiled(["enqueue", "-p", f.projectFile, "--all"]);
          expect(queued.stderr).toBe("");
          expect(queued.stdout).toContain("Queued 12 runs.");
          expect(queued.code).toBe(0);
          expect((await openJobs(f)).length).toBe(12);

          const started = Date.now();
          const workers = [worker(f, ["--concurrency", "2"]), worker(f, ["--concurrency", "2"])];
          await until(
            f,
            async () => {
              for (const r of recipes)
                if (!(await runsOf(f, r.id)).some((run) => run.result === "converged")) return false;
              return (await openJobs(f)).length === 0;
            },
            () =>
              `every recipe converged; logs:\n${workers.map((w) => w.stderr().slice(-2000)).join("\n---\n")}`,
            120_000,
          );
          const elapsed = Date.now() - started;
          if (process.env.MUSICSYNC_TEST_TIMINGS)
            process.stderr.write(`[worker] drain of 12 recipes: ${elapsed} ms\n`);

          for (const w of workers) w.child.kill("SIGTERM");
          for (const w of workers) expect((await w.exited).code).toBe(0);

          for (const r of recipes) {
            const runs = await runsOf(f, r.id);
            expect(
              runs.filter((run) => run.result === "converged"),
              r.id,
            ).toHaveLength(1);
            expect(
              runs.every((run) => ["converged", "no_changes"].includes(run.result)),
              r.id,
            ).toBe(true);
            const account = f.accounts.find((a) => a.name === r.account)!;
            expect(await playlistsOf(account, r.title!), r.id).toEqual([[...r.ids]]);
          }
          const overlaps = await control<{ accounts: number; writes: number; overlaps: number }>(
            "requests/overlaps",
          );
          expect(overlaps.accounts).toBe(6);
          expect(overlaps.writes).toBeGreaterThan(0);
          expect(overlaps.overlaps).toBe(0);
          expect(await openJobs(f)).toEqual([]);
        }, 180_000);
      });

      /** The run queue's retry limit, which every job sent from now on takes. */
      async function setRetryLimit(f: Fleet, limit: number): Promise<void> {
        await queueRows(f, `UPDATE ${QUEUE_SCHEMA}.queue SET retry_limit = $2 WHERE name = $1`, [
          RUN_QUEUE,
          limit,
        ]);
      }

      describe("musicsync worker: a busy account", () => {
        it("goes back to the queue while another process holds the account, then runs; no failure", async () => {
          const f = await fleet(1);
          const r: RecipeSpec = { id: "held", account: "a1", title: "Worker held", ids: songs(5, 200) };
          await writeRecipes(f.dir, [r]);
          const lock = await f.state.acquireLock("a1", "the test", Date.now(), 60 * 60_000);
          if (!lock.acquired) throw new Error("the test could not take the account's lock");
          expect((await enqueue(f, ["held"])).code).toBe(0);
          const w = worker(f, ["--busy-retry", "200ms"]);
          // Sent back at least twice: the job keeps coming back while the account stays busy.
          await waitUntil(
            () => w.logs.filter((l) => l.msg === "account busy: the job goes back to the queue").length >= 2,
            () => `two busy turns; stderr:\n${w.stderr().slice(-3000)}`,
            60_000,
          );
          expect(await runsOf(f, "held")).toEqual([]);
          expect((await f.state.recipeHealth("held")).consecutiveFailures).toBe(0);
          expect((await openJobs(f)).map((j) => j.recipe)).toEqual(["held"]);

          await f.state.releaseLock(lock.lock.lockId);
          const finished = await w.waitForLog(
            (l) => l.msg === "run finished" && l.recipe === "held",
            "the run once the account is free",
            60_000,
          );
          expect(finished.outcome).toBe("converged");
          await until(
            f,
            async () => (await openJobs(f)).length === 0,
            () => "an empty queue",
            30_000,
          );
          expect((await runsOf(f, "held")).map((x) => x.result)).toEqual(["converged"]);
          expect((await f.state.recipeHealth("held")).consecutiveFailures).toBe(0);
          expect(w.logs.filter((l) => l.level >= 40)).toEqual([]);
          expect(await playlistsOf(f.accounts[0]!, r.title!)).toEqual([[...r.ids]]);
          w.child.kill("SIGTERM");
          expect((await w.exited).code).toBe(0);
        });
      });

      describe("the workers' scheduler", () => {
        const health = (over: Partial<Parameters<typeof dueNow>[0]> = {}) => ({
          suspendedAt: null,
          nextRunAt: null,
          nextRunReason: null,
          ...over,
        });
        const now = 1_000_000;
        const lease = 60_000;

        it("dueNow: skip when suspended, plan without a next run, send when its time has come", () => {
          expect(dueNow(health(), false, now, lease)).toBe("plan");
          expect(dueNow(health({ nextRunAt: now - 1 }), false, now, lease)).toBe("plan");
          expect(
            dueNow(
              health({ suspendedAt: 1, nextRunAt: now - 1, nextRunReason: "schedule" }),
              false,
              now,
              lease,
            ),
          ).toBe("skip");
          expect(dueNow(health({ nextRunAt: now - 1, nextRunReason: "schedule" }), true, now, lease)).toBe(
            "skip",
          );
          expect(dueNow(health({ nextRunAt: now, nextRunReason: "schedule" }), false, now, lease)).toBe(
            "send",
          );
          expect(dueNow(health({ nextRunAt: now + 1, nextRunReason: "schedule" }), false, now, lease)).toBe(
            "skip",
          );
        });

        it("dueNow: a retry is the failed run's worker's to send, unless overdue by more than a lease", () => {
          const retry = (at: number) => health({ nextRunAt: at, nextRunReason: "retry" });
          expect(dueNow(retry(now - 1), false, now, lease)).toBe("skip");
          expect(dueNow(retry(now - lease), false, now, lease)).toBe("skip");
          expect(dueNow(retry(now - lease - 1), false, now, lease)).toBe("send");
          expect(dueNow(retry(now - lease - 1), true, now, lease)).toBe("skip");
        });

        it("two workers' ticks racing on a due recipe send exactly one job", async () => {
          const url = await kit.freshDatabase("scheduler");
          const { recipes, issues } = loadRecipeText(
            "due.yaml",
            recipeYaml({ id: "due", ids: songs(2), cron: "0 0 1 1 *" }),
          );
          expect(issues).toEqual([]);
          const sent: string[] = [];
          const sides = [];
          for (const holder of ["one", "two"]) {
            const state = openState(url);
            kit.onReset(() => state.close());
            const queue = await openQueue(
              url,
              { leaseSeconds: 60, superviseSeconds: 30, pollSeconds: 1 },
              () => {},
            );
            kit.onReset(() => queue.stop());
            const session = new pg.Client({ connectionString: url });
            await session.connect();
            kit.onReset(() => session.end());
            const counted = {
              ...queue,
              send: (job: RunJob, afterMs?: number) => {
                sent.push(holder);
                return queue.send(job, afterMs);
              },
            };
            sides.push({
              state,
              queue: counted,
              session,
              recipes: () => recipes,
              holder,
              leaseMs: 60_000,
              now: Date.now,
            });
          }
          const state = sides[0]!.state;
          // Bounded rounds, each with the recipe overdue: whoever wins, one job per round.
          for (let round = 1; round <= 5; round++) {
            await state.setNextRun(
              "due",
              "default",
              { at: Date.now() - 1000, reason: "schedule", by: "x" },
              Date.now(),
            );
            const counts = await Promise.all(sides.map((d) => scheduleTick(d)));
            expect(
              counts.reduce((a, b) => a + b, 0),
              `round ${round}`,
            ).toBe(1);
            expect(sent, `round ${round}`).toHaveLength(round);
            const next = await state.recipeHealth("due");
            expect(next.nextRunReason).toBe("schedule");
            expect(next.nextRunAt).toBe(nextScheduled(recipes[0]!));
          }
          const jobs = await openJobs({ stateUrl: url } as Fleet);
          expect(jobs).toEqual([{ recipe: "due", state: "created" }]);
        });

        it("starts while its scheduler cannot connect: the ticks say so and try again, it stops when told", async () => {
          const f = await fleet(1);
          await writeRecipes(f.dir, [
            { id: "yearly", account: "a1", title: "Worker refused", ids: songs(2, 260), cron: "0 0 1 1 *" },
          ]);
          // The scheduler's own connection refused (by a database that is not there), as while the
          // server refuses connections: the rest of the worker reaches its database.
          const refused = new URL(f.stateUrl);
          refused.pathname = "/no_such_database";
          const { w, said } = await inProcessWorker(f, { schedulerUrl: refused.href });
          await w.start();
          expect(said.map((l) => l.msg)).toContain("worker started");
          await waitUntil(
            async () => said.filter((l) => l.msg === "scheduling failed").length >= 2 || null,
            "two ticks that could not connect",
            30_000,
          );
          await w.stop();
          expect(said.map((l) => l.msg)).toContain("worker stopped");
        });

        it("a worker runs a scheduled recipe and records every recipe's next run (status shows it)", async () => {
          const f = await fleet(1);
          await writeRecipes(f.dir, [
            { id: "often", account: "a1", title: "Worker often", ids: songs(3, 240), cron: "* * * * * *" },
            { id: "yearly", account: "a1", title: "Worker yearly", ids: songs(3, 250), cron: "0 0 1 1 *" },
          ]);
          const w = worker(f, ["--tick", "250ms"]);
          const ran = await w.waitForLog(
            (l) => l.msg === "run finished" && l.recipe === "often",
            "a scheduled run",
            60_000,
          );
          expect(ran.trigger).toBe("schedule");
          const holder = await w.waitForLog(logged("worker started"), "the start");
          const yearly = await waitUntil(
            async () => {
              const h = await f.state.recipeHealth("yearly");
              return h.nextRunAt !== null ? h : null;
            },
            "the yearly recipe's next run",
            30_000,
          );
          const january = new Date(new Date().getFullYear() + 1, 0, 1).getTime();
          expect(yearly.nextRunAt).toBe(january);
          expect(yearly.plannedBy).toBe(holder.holder);
          const status = await musicsync(["status", "-p", f.projectFile, "-r", "yearly"]);
          expect(status.code).toBe(0);
          expect(status.stdout).toMatch(new RegExp(`next run .* planned by ${String(holder.holder)}`));
          expect(await runsOf(f, "yearly")).toEqual([]);
          w.child.kill("SIGTERM");
          expect((await w.exited).code).toBe(0);
        });
      });

      describe("musicsync worker: told to stop while it starts", () => {
        it("SIGTERM while its recipes load: the start ends without taking a job, and the stop is clean", async () => {
          const f = await fleet(1);
          await writeRecipes(f.dir, [
            { id: "early", account: "a1", title: "Worker early", ids: songs(2, 270) },
          ]);
          expect((await enqueue(f, ["early"])).code).toBe(0);
          // The recipes' load waits until the test lets it go on.
          let release: (() => void) | null = null;
          const { w, said } = await inProcessWorker(f, {
            gate: () =>
              new Promise<void>((resolve) => {
                release = resolve;
              }),
          });
          const started = w.start();
          const go = await waitUntil(() => release, "the recipes' load to begin");
          const stopped = w.stop("SIGTERM");
          // The stop goes as far as it will before the recipes are in (on a worker that does not wait
          // for its start, as far as stopping the job queue); then the start goes on.
          await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, 2_000))]);
          go();
          const [start, stop] = await Promise.allSettled([started, stopped]);
          expect(start).toEqual({ status: "fulfilled", value: undefined });
          expect(stop).toEqual({ status: "fulfilled", value: undefined });
          const msgs = said.map((l) => l.msg);
          expect(msgs).not.toContain("worker started");
          expect(msgs.at(-1)).toBe("worker stopped");
          expect(said.filter((l) => l.level !== "info")).toEqual([]);
          // No job was taken: it waits for the next worker.
          expect(await openJobs(f)).toEqual([{ recipe: "early", state: "created" }]);
          expect(await runsOf(f, "early")).toEqual([]);
        });
      });

      describe("musicsync worker and enqueue: refusals", () => {
        /** A project on SQLite (the default state file), one recipe. */
        async function sqliteProject(): Promise<string> {
          const dir = await mkdtemp(join(tmpdir(), "musicsync-worker-"));
          kit.onReset(() => rm(dir, { recursive: true, force: true }));
          await writeFile(join(dir, "headers.json"), "{}");
          const text = [
            "apiVersion: musicsync/v1",
            "kind: Project",
            "accounts:",
            `  default: { auth: headers.json, base_url: "${kit.emulator.url}" }`,
            "recipes: [recipes]",
            "state: state.db",
            "",
          ].join("\n");
          await writeFile(join(dir, "musicsync.yaml"), text);
          await writeRecipes(dir, [{ id: "one", ids: songs(2) }]);
          return join(dir, "musicsync.yaml");
        }

        const oneLine = (text: string) => text.trim().split("\n");

        // The compiled commands' exit codes; the flags below are checked in this process.
        it("refuses a state on SQLite, in one line that says what to do", async () => {
          const project = await sqliteProject();
          for (const args of [["worker"], ["enqueue", "--all"]]) {
            const r = await compiled([...args, "-p", project]);
            expect(r.code, args[0]).not.toBe(0);
            expect(oneLine(r.stderr), args[0]).toHaveLength(1);
            expect(r.stderr).toContain(`musicsync ${args[0]} needs the state on PostgreSQL`);
            expect(r.stderr).toContain("musicsync daemon");
          }
        });

        it("enqueue names the recipes it does not know, and sends nothing", async () => {
          const f = await fleet(1);
          await writeRecipes(f.dir, [{ id: "known", account: "a1", ids: songs(2) }]);
          const r = await enqueue(f, ["known", "nope", "gone"]);
          expect(r.code).not.toBe(0);
          expect(oneLine(r.stderr)).toHaveLength(1);
          expect(r.stderr).toContain("no such recipe: nope, gone");
          const nothing = await enqueue(f, []);
          expect(nothing.code).not.toBe(0);
          expect(nothing.stderr).toContain("--all");
          const both = await enqueue(f, ["known", "--all"]);
          expect(both.code).not.toBe(0);
          const ok = await enqueue(f, ["known"]);
          expect(ok.stdout).toContain("Queued 1 run.");
          const again = await enqueue(f, ["known"]);
          expect(again.stdout).toContain("Queued 0 runs (1 already waiting).");
          expect(await openJobs(f)).toEqual([{ recipe: "known", state: "created" }]);
        });

        it("names the flag that is wrong", async () => {
          const project = await sqliteProject();
          const cases: [string[], string][] = [
            [["--concurrency", "0"], "--concurrency"],
            [["--concurrency", "two"], "--concurrency"],
            [["--lease", "10ms"], "--lease"],
            [["--lease", "9s"], "--lease"],
            [["--lease", "soon"], "--lease"],
            [["--busy-retry", "x"], "--busy-retry"],
            [["--poll", "-1"], "--poll"],
            [["--tick", "often"], "--tick"],
          ];
          for (const [flags, name] of cases) {
            const r = await musicsync(["worker", "-p", project, ...flags]);
            expect(r.code, flags.join(" ")).not.toBe(0);
            expect(oneLine(r.stderr), flags.join(" ")).toHaveLength(1);
            expect(r.stderr, flags.join(" ")).toContain(name);
          }
        });
      });

      describe("a job for a recipe the worker's project does not have", () => {
        it("is not dropped unseen: the job fails in the queue (retried, then failed) and status says why", async () => {
          const f = await fleet(1);
          await writeRecipes(f.dir, [
            { id: "known", account: "a1", ids: songs(2) },
            { id: "elsewhere", account: "a1", ids: songs(2, 2) },
          ]);
          // This worker's project is the one recipe file it was given; enqueue's is the whole folder.
          const w = worker(f, [join(f.dir, "recipes", "known.yaml")]);
          await w.waitForLog(logged("worker started"), "the worker's start", 60_000);
          // The queue gives a job out up to 10 times again (time for a worker that has the recipe to take
          // it), a second apart. Here the queue's limit is 2, as its operator may set it: the job is still
          // given out again, then failed, in 3 rounds rather than 11. Set once the worker has opened the
          // queue (which sets its options); a job takes the queue's limit when it is sent.
          await setRetryLimit(f, 2);
          const queued = await enqueue(f, ["elsewhere"]);
          expect(queued.code, queued.stderr).toBe(0);
          await w.waitForLog(
            (l) =>
              l.msg === "no such recipe in this worker's project: job failed" && l.recipe === "elsewhere",
            "the worker's refusal",
            60_000,
          );
          const status = async () =>
            (
              JSON.parse((await musicsync(["status", "--json", "-p", f.projectFile])).stdout) as {
                recipes: {
                  recipe: string;
                  conditions: { type: string; reason: string; message: string }[];
                }[];
              }
            ).recipes.find((r) => r.recipe === "elsewhere");
          const ready = (await status())?.conditions.find((c) => c.type === "Ready");
          expect(ready).toMatchObject({ reason: "UnknownToWorker" });
          expect(ready?.message).toMatch(
            /^no recipe elsewhere in the project of worker \S+:\d+: the job was given back/,
          );
          // The queue gives it out again up to its retry limit, then keeps it as failed, with the reason.
          const failed = await until(
            f,
            async () => {
              const rows = await queueRows<{
                state: string;
                retries: number;
                output: { message?: string } | null;
              }>(
                f,
                `SELECT state::text AS state, retry_count AS retries, output FROM ${QUEUE_SCHEMA}.job WHERE name = $1 AND data->>'recipeId' = 'elsewhere'`,
                [RUN_QUEUE],
              );
              return rows.find((r) => r.state === "failed");
            },
            () => "the job failed in the queue",
            90_000,
          );
          expect(failed.output?.message).toMatch(/no recipe elsewhere in the project of worker/);
          expect(failed.retries).toBe(2);
          const refusals = () => w.logs.filter(logged("no such recipe in this worker's project: job failed"));
          await waitUntil(() => refusals().length >= 3, "the worker's third refusal", 30_000);
          expect(refusals()).toHaveLength(3);
          expect(await runsOf(f, "elsewhere")).toEqual([]);
          w.child.kill("SIGTERM");
          expect((await w.exited).code).toBe(0);
        }, 180_000);
      });

      describe("enqueue's order", () => {
        it("takes the accounts in turn, so that neighbouring jobs are of different accounts", () => {
          const recipe = (id: string, account: string) =>
            ({ recipe: { id, account } }) as unknown as LoadedRecipe;
          const recipes = [
            recipe("a1", "ann"),
            recipe("a2", "ann"),
            recipe("a3", "ann"),
            recipe("b1", "bob"),
            recipe("c1", "cy"),
            recipe("c2", "cy"),
          ];
          const ids = recipes.map((r) => r.recipe.id);
          expect(byAccountInTurn(ids, recipes)).toEqual(["a1", "b1", "c1", "a2", "c2", "a3"]);
          expect(byAccountInTurn(["c2", "a1"], recipes)).toEqual(["c2", "a1"]);
        });
      });

      describe("musicsync worker: the database ends its idle sessions", () => {
        it("idle_session_timeout: the worker lives on, and every job it takes meanwhile converges", async () => {
          const f = await fleet(2);
          const rs: RecipeSpec[] = [0, 1, 2, 3].map((i) => ({
            id: `idle${i}`,
            account: `a${(i % 2) + 1}`,
            title: `Idle ${i}`,
            ids: songs(3, 230 + i * 3),
          }));
          await writeRecipes(f.dir, rs);
          const admin = new pg.Client({ connectionString: f.stateUrl });
          await admin.connect();
          kit.onReset(() => admin.end());
          // Every session the worker opens from now on is ended by the server after 150 ms idle: its
          // pool's, its scheduler's, the job queue's, and its locks' (which must exempt themselves).
          await admin.query(
            `ALTER DATABASE "${new URL(f.stateUrl).pathname.slice(1)}" SET idle_session_timeout = 150`,
          );
          const w = worker(f, ["--tick", "1s", "--concurrency", "2"]);
          await w.waitForLog(logged("worker started"), "the worker's start", 60_000);
          // Idle past the timeout many times over before the jobs come: the server has ended six of its
          // sessions (the admin's own session began before the setting, so it is not among them).
          await waitUntil(
            async () => {
              const { rows } = await admin.query<{ ended: string }>(
                "SELECT sessions_fatal AS ended FROM pg_stat_database WHERE datname = current_database()",
              );
              return Number(rows[0]?.ended ?? 0) >= 6;
            },
            () => `six idle sessions ended by the server; stderr:\n${w.stderr().slice(-3000)}`,
            60_000,
            100,
          );
          expect((await enqueue(f, ["--all"])).code).toBe(0);
          for (const r of rs) {
            const finished = await w.waitForLog(
              (l) => l.msg === "run finished" && l.recipe === r.id,
              `${r.id}'s run`,
              60_000,
            );
            expect(finished.outcome).toBe("converged");
          }
          expect(w.child.exitCode, w.stderr().slice(-3000)).toBeNull();
          w.child.kill("SIGTERM");
          expect((await w.exited).code).toBe(0);
        }, 180_000);
      });
    });
  });

  describe("musicsync worker: a worker that dies or is stopped", () => {
    it("SIGKILL mid-run: the lease runs out, another worker finishes the job without a duplicate", async ({
      expect,
      onTestFinished,
    }) => {
      const { own, f, r, account } = await bigRecipeQueued(onTestFinished);
      await own.slowWrites(300);
      const doomed = own.worker(f, ["--lease", "10s"]);
      await doomed.waitForLog(addConfirmed, "a confirmed add batch", 60_000);
      doomed.child.kill("SIGKILL");
      expect((await doomed.exited).signal).toBe("SIGKILL");
      const killedRun = (await runsOf(f, "big"))[0]!;
      expect(killedRun.result).toBe("running");

      const { w: heir, finished } = await anotherWorkerFinishes(own, f, ["--lease", "10s"], "the heir's run");
      expect(finished.outcome).toBe("converged");

      expect(await playlistsOf(account, r.title!)).toEqual([[...r.ids]]);
      const runs = await runsOf(f, "big");
      expect(runs.find((x) => x.id === killedRun.id)?.result).toBe("interrupted");
      expect(runs.filter((x) => x.result === "converged")).toHaveLength(1);
      expect(runs.filter((x) => x.result === "failed")).toEqual([]);
      heir.child.kill("SIGTERM");
      expect((await heir.exited).code).toBe(0);
    }, 180_000);

    it("SIGTERM mid-run: the write in flight finishes, the run is interrupted, its job goes back", async ({
      expect,
      onTestFinished,
    }) => {
      const { own, f, r, account } = await bigRecipeQueued(onTestFinished);
      await own.slowWrites(300);
      const stopped = own.worker(f);
      await stopped.waitForLog(addConfirmed, "a confirmed add batch", 60_000);
      stopped.child.kill("SIGTERM");
      const exit = await stopped.exited;
      expect(exit, stopped.stderr().slice(-3000)).toEqual({ code: 0, signal: null });
      expect(stopped.logs.some((l) => l.msg === "run interrupted" && l.recipe === "big")).toBe(true);

      const [cut] = await runsOf(f, "big");
      expect(cut?.result).toBe("interrupted");
      const journal = await f.state.journal(cut!.id);
      expect(journal.filter((e) => e.status === "sent")).toEqual([]);
      expect(journal.some((e) => e.status === "confirmed")).toBe(true);
      // The writes after it were never sent (the stop came first): the run did not finish.
      expect(
        journal.some((e) => e.status !== "confirmed"),
        JSON.stringify(journal.map((e) => e.status)),
      ).toBe(true);
      // The job went back before the worker exited: waiting for whichever worker comes next.
      expect(await openJobs(f)).toEqual([{ recipe: "big", state: "created" }]);

      const { w: next, finished } = await anotherWorkerFinishes(own, f, [], "the next worker's run");
      expect(finished.outcome).toBe("converged");
      expect(await playlistsOf(account, r.title!)).toEqual([[...r.ids]]);
      expect((await runsOf(f, "big")).map((x) => x.result)).toEqual(["converged", "interrupted"]);
      next.child.kill("SIGTERM");
      expect((await next.exited).code).toBe(0);
    }, 180_000);
  });

  describe("musicsync worker: a run longer than the lease", () => {
    it("keeps its job while it runs: never handed to a second worker, one run, the job taken once", async ({
      expect,
      onTestFinished,
    }) => {
      const { own, f, r, account } = await bigRecipeQueued(onTestFinished);
      // A create carrying the first batch, then 14 edits of at least 1.5 s each: the run outlasts two
      // leases of 10 s (the shortest pg-boss allows) however fast the machine, with the supervisor
      // looking every 3 s meanwhile.
      const LEASE_MS = 10_000;
      await own.slowWrites(1_500);
      const first = own.worker(f, ["--lease", "10s"]);
      await first.waitForLog(addConfirmed, "the first worker's run under way", 60_000);
      // A second worker, idle: it would take the job the moment its lease lapsed.
      const second = own.worker(f, ["--lease", "10s"]);
      await second.waitForLog(logged("worker started"), "the second worker's start", 60_000);
      const finished = await first.waitForLog(
        (l) => l.msg === "run finished" && l.recipe === "big",
        "the run's end",
        120_000,
      );
      expect(finished.outcome).toBe("converged");

      const runs = await runsOf(f, "big");
      expect(runs.map((x) => x.result)).toEqual(["converged"]);
      // The case at hand: the run outlasted its lease and the supervisor's looks at it.
      const run = runs[0]!;
      expect((run.finishedAt ?? 0) - run.startedAt).toBeGreaterThan(LEASE_MS * 2);
      // Handed out once, finished once; the second worker never saw it, nor did the first find its
      // own account busy (what a lapsed lease's second attempt would meet).
      await until(
        f,
        async () => (await openJobs(f)).length === 0,
        () => "an empty queue",
        30_000,
      );
      expect(await jobsOf(f, "big")).toEqual([{ state: "completed", retries: 0 }]);
      expect(second.logs.filter((l) => l.recipe === "big")).toEqual([]);
      const busy = (l: LogLine) => l.msg === "account busy: the job goes back to the queue";
      expect([...first.logs, ...second.logs].filter(busy)).toEqual([]);
      expect(await playlistsOf(account, r.title!)).toEqual([[...r.ids]]);
      for (const w of [first, second]) w.child.kill("SIGTERM");
      for (const w of [first, second]) expect((await w.exited).code).toBe(0);
    }, 240_000);
  });
});
