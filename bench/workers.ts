/**
 * bench/workers — many accounts, shared workers.
 *
 *   npx tsx bench/workers.ts [--accounts 200] [--recipes 3] [--songs 15] [--workers 1,2,4]
 *                            [--concurrency 2] [--no-kill] [--kill-every 3] [--timeout 900]
 *                            [--pacing-ms 0] [--cost-rounds 3] [--cost-accounts 50] [--floor-rounds 300]
 *                            [--against DIR] [--cost-only]
 *
 * First, the cost of a recipe run in a worker (./workers-cost.ts): one worker per checkout, kept
 * up, syncs `cost-accounts` × `recipes` recipes round after round; printed are the worker process's
 * own CPU per run (from /proc: not the bench's, the emulator's or PostgreSQL's) and the recipes per
 * minute one core would give at that cost, for no-change runs and for converging runs (one row to
 * add back), and the SQL statements and new connections per run, next to the floor of a run (./floor.ts, as bench/recipe-cost.ts has it). With
 * `--against DIR` (another checkout, built: dist/bin) the same on that checkout, its rounds
 * interleaved with this one's: before and after from one run. `--cost-rounds 0` skips this part;
 * `--cost-only` skips the rest.
 *
 * For each worker count W: a fresh PostgreSQL database, `accounts` new accounts on one emulator
 * (its own process), `recipes` playlist recipes per account, `musicsync enqueue --all`, then W
 * `musicsync worker` processes (the compiled command) until every recipe has converged. Prints the
 * recipes synced per minute and the ratio to one worker, where the CPU time went (emulator, workers,
 * PostgreSQL) and how busy the machine's cores were — with 2 cores, the limit shows there — and the
 * checks: second playlists, duplicate rows, playlists not as desired, and the emulator's count of
 * writes of one account sent while another of the same account was in flight.
 *
 * `--pacing-ms N` keeps N ms between two writes of one account, as the project's pacing does
 * against the real service (off by default: then the engine's own speed is measured).
 *
 * Then (unless --no-kill) the same with 3 workers while one of them, chosen at random, is SIGKILLed
 * every few seconds and replaced: every job must still complete with the same checks at zero.
 * PostgreSQL is started here (test/support/postgres-server.ts) unless MUSICSYNC_TEST_PG_URL is set.
 * Never fails on a slow figure; exits 1 when a check is not zero or a scenario does not finish.
 */
import { type ChildProcess, fork } from "node:child_process";
import { rm } from "node:fs/promises";
import { resolve } from "node:path";
import pg from "pg";
import { ensureBuilt, ROOT } from "../test/support/cli-process.js";
import { externalPostgres, type PostgresServer, startPostgres } from "../test/support/postgres-server.js";
import { commandLine } from "./args.js";
import { exited, musicsync as run, workerCost } from "./workers-cost.js";
import { cpuSeconds, machineBusy, postgresCpu } from "./workers-cpu.js";
import {
  convergedRecipes,
  jobStates,
  prepareScenario,
  type Scenario,
  type Verdict,
  verify,
} from "./workers-setup.js";

const args = commandLine({
  script: "bench/workers",
  numbers: {
    accounts: { default: 200 },
    recipes: { default: 3 },
    songs: { default: 15 },
    concurrency: { default: 2 },
    "kill-every": { default: 3 },
    timeout: { default: 900 },
    "pacing-ms": { default: 0, zero: true },
    "cost-rounds": { default: 3, zero: true },
    "cost-accounts": { default: 50 },
    "floor-rounds": { default: 300 },
  },
  switches: ["no-kill", "cost-only"],
  texts: { workers: "1,2,4", against: "" },
});
const {
  accounts: ACCOUNTS,
  recipes: RECIPES,
  songs: SONGS,
  concurrency: CONCURRENCY,
  "kill-every": KILL_EVERY_S,
  timeout: TIMEOUT_S,
  "pacing-ms": PACING_MS,
} = args.numbers;
const WORKERS = args.texts.workers.split(",").map(Number);
if (!WORKERS.every((n) => Number.isInteger(n) && n > 0)) {
  console.error(
    `bench/workers: --workers must be counts separated by commas (e.g. 1,2,4), not "${args.texts.workers}"`,
  );
  process.exit(2);
}

interface Emulator {
  url: string;
  pid: number;
  songs: string[];
  child: ChildProcess;
}

function startEmulatorProcess(): Promise<Emulator> {
  const child = fork(new URL("./workers-emulator.ts", import.meta.url), ["3000"], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    child.once("message", (m) => resolve({ ...(m as Omit<Emulator, "child">), child }));
    child.once("exit", (code) => reject(new Error(`the emulator exited (${code})`)));
  });
}

/** This checkout's musicsync (built by ensureBuilt). */
const musicsync = (s: Scenario, args: readonly string[]) => run({ dir: ROOT }, s, args);

function workerArgs(lease: string): string[] {
  return [
    "worker",
    "--concurrency",
    String(CONCURRENCY),
    "--no-schedule",
    "--poll",
    "500ms",
    "--lease",
    lease,
  ];
}

interface Outcome {
  workers: number;
  seconds: number;
  finished: boolean;
  perMinute: number;
  cpu: { emulator: number; workers: number; postgres: number; busy: number };
  jobs: Record<string, number>;
  verdict: Verdict;
  kills: number;
}

/** Waits until every recipe converged and no job waits or runs; kills a worker now and then if asked. */
async function drain(s: Scenario, db: pg.Client, workers: ChildProcess[], kill: boolean, lease: string) {
  const total = s.desired.size;
  const started = performance.now();
  let kills = 0;
  let lastKill = started;
  for (;;) {
    const done = await convergedRecipes(db);
    const jobs = await jobStates(db);
    const open = (jobs.created ?? 0) + (jobs.retry ?? 0) + (jobs.active ?? 0);
    if (done >= total && open === 0)
      return { finished: true, kills, seconds: (performance.now() - started) / 1000 };
    if ((performance.now() - started) / 1000 > TIMEOUT_S)
      return { finished: false, kills, seconds: TIMEOUT_S };
    if (kill && performance.now() - lastKill > KILL_EVERY_S * 1000) {
      const i = Math.floor(Math.random() * workers.length);
      workers[i]!.kill("SIGKILL");
      await exited(workers[i]!);
      workers[i] = musicsync(s, workerArgs(lease));
      kills++;
      lastKill = performance.now();
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function scenario(pgServer: PostgresServer, emu: Emulator, count: number, kill: boolean, seed: number) {
  const stateUrl = await pgServer.createDatabase(`bench_${kill ? "kill" : "w"}${count}`);
  const s = await prepareScenario(emu.url, emu.songs, stateUrl, {
    accounts: ACCOUNTS,
    recipes: RECIPES,
    songs: SONGS,
    seed,
    pacingMs: PACING_MS,
  });
  await fetch(`${emu.url}/_emulator/requests`, { method: "DELETE" });
  // Short, so that a killed worker's job comes back within seconds; longer than a run on a loaded machine.
  const lease = kill ? "15s" : "10m";
  if ((await exited(musicsync(s, ["enqueue", "--all"]))) !== 0) throw new Error("enqueue failed");
  const db = new pg.Client({ connectionString: stateUrl });
  await db.connect();
  const before = { emulator: cpuSeconds(emu.pid), postgres: postgresCpu(), busy: machineBusy() };
  const workers = Array.from({ length: count }, () => musicsync(s, workerArgs(lease)));
  const run = await drain(s, db, workers, kill, lease);
  const workerCpu = workers.reduce((sum, w) => sum + (w.pid ? cpuSeconds(w.pid) : 0), 0);
  const busy = machineBusy();
  for (const w of workers) w.kill("SIGTERM");
  await Promise.all(workers.map(exited));
  const outcome: Outcome = {
    workers: count,
    seconds: run.seconds,
    finished: run.finished,
    perMinute: (s.desired.size / run.seconds) * 60,
    cpu: {
      emulator: cpuSeconds(emu.pid) - before.emulator,
      workers: workerCpu,
      postgres: postgresCpu() - before.postgres,
      busy: busy.share(before.busy),
    },
    jobs: await jobStates(db),
    verdict: await verify(emu.url, s),
    kills: run.kills,
  };
  await db.end();
  await rm(s.dir, { recursive: true, force: true });
  return outcome;
}

function line(o: Outcome, base: Outcome | undefined): string {
  const ratio = base ? (o.perMinute / base.perMinute).toFixed(2) : "—";
  const v = o.verdict;
  return [
    `workers ${o.workers}${o.kills ? ` (${o.kills} SIGKILLs)` : ""}:`,
    `${o.finished ? "" : "NOT FINISHED "}${o.seconds.toFixed(1)} s, ${o.perMinute.toFixed(0)} recipes/min, ratio ${ratio};`,
    `cpu s: emulator ${o.cpu.emulator.toFixed(1)}, workers ${o.cpu.workers.toFixed(1)} (live ones), postgres ${o.cpu.postgres.toFixed(1)};`,
    `cores busy ${(o.cpu.busy * 100).toFixed(0)}%;`,
    `jobs ${JSON.stringify(o.jobs)};`,
    `second playlists ${v.secondPlaylists}, duplicate rows ${v.duplicateRows}, not as desired ${v.wrongPlaylists}, overlapping writes ${v.overlaps}`,
  ].join(" ");
}

function costPart(pgServer: PostgresServer, emu: Emulator): Promise<void> {
  const against = args.texts.against ? [{ label: "against", dir: resolve(args.texts.against) }] : [];
  return workerCost(pgServer, emu, [{ label: "this", dir: ROOT }, ...against], {
    accounts: args.numbers["cost-accounts"],
    recipes: RECIPES,
    songs: SONGS,
    rounds: args.numbers["cost-rounds"],
    concurrency: CONCURRENCY,
    floorRounds: args.numbers["floor-rounds"],
    timeoutS: TIMEOUT_S,
  });
}

async function main(): Promise<void> {
  await ensureBuilt();
  const external = process.env.MUSICSYNC_TEST_PG_URL;
  const pgServer = external ? externalPostgres(external) : await startPostgres();
  const emu = await startEmulatorProcess();
  if (!args.switches["cost-only"]) {
    console.log(
      `bench/workers: ${ACCOUNTS} accounts × ${RECIPES} recipes, ${SONGS} songs each, concurrency ${CONCURRENCY}, pacing ${PACING_MS} ms`,
    );
  }
  const outcomes: Outcome[] = [];
  let bad = false;
  try {
    if (args.numbers["cost-rounds"] > 0) await costPart(pgServer, emu);
    for (const [i, w] of args.switches["cost-only"] ? [] : WORKERS.entries()) {
      const o = await scenario(pgServer, emu, w, false, 100 + i);
      outcomes.push(o);
      console.log(line(o, outcomes[0]));
      bad ||= !o.finished || Object.values(o.verdict).some((n) => n > 0);
    }
    if (!args.switches["no-kill"] && !args.switches["cost-only"]) {
      const o = await scenario(pgServer, emu, 3, true, 999);
      console.log(line(o, undefined));
      bad ||= !o.finished || Object.values(o.verdict).some((n) => n > 0) || (o.jobs.failed ?? 0) > 0;
    }
  } finally {
    emu.child.disconnect();
    await pgServer.stop();
  }
  process.exitCode = bad ? 1 : 0;
}

await main();
