/**
 * bench/workers.ts's cost part: the CPU one `musicsync worker` process spends per recipe run, read
 * from /proc for the worker alone (not the bench, the emulator or PostgreSQL), next to the floor of
 * a run (./floor.ts). One worker per checkout stays up through all rounds (its start-up is not
 * counted); each round, for each checkout in turn (before and after interleaved):
 * - no-change runs: `musicsync enqueue --all` while every playlist is as its recipe wants;
 * - converging runs: one row of every target playlist removed by its owner first, so that each
 *   run reads, finds one row missing and adds it back (one write).
 * Each checkout has its own database on the one PostgreSQL server and its own accounts on the one
 * emulator, set up by its own bench/workers-setup.ts (its own schema and sealing). The worker also
 * counts the SQL statements and connections it sends and opens (./statement-count.mjs), per run.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { Agent } from "undici";
import { MusicClient } from "../src/index.js";
import type { PostgresServer } from "../test/support/postgres-server.js";
import { captureRead, floorCost } from "./floor.js";
import { cpuSeconds } from "./workers-cpu.js";
import type { Scenario, ScenarioSize } from "./workers-setup.js";

export interface CostOptions {
  accounts: number;
  recipes: number;
  songs: number;
  rounds: number;
  concurrency: number;
  floorRounds: number;
  timeoutS: number;
}

export interface Checkout {
  label: string;
  dir: string;
}

type Kind = "noChange" | "converging";

interface Side {
  checkout: Checkout;
  scenario: Scenario;
  db: pg.Client;
  worker: ChildProcess;
  /** Where the worker writes its statement counts (./statement-count.mjs). */
  countsFile: string;
  /** Worker CPU ms per recipe run, one figure per round. */
  perRun: Record<Kind, number[]>;
  wallPerRun: Record<Kind, number[]>;
  /** The worker's statements and new connections per recipe run, one figure per round. */
  statements: Record<Kind, Counts[]>;
}

/** What ./statement-count.mjs counts in the worker process. */
interface Counts {
  state: number;
  queue: number;
  connections: number;
}

/** A checkout's built musicsync on the scenario's project, its warnings as JSON on this stderr. */
export function musicsync(
  checkout: Pick<Checkout, "dir">,
  s: Scenario,
  args: readonly string[],
  node: { args: readonly string[]; env: Record<string, string> } = { args: [], env: {} },
): ChildProcess {
  return spawn(
    process.execPath,
    [...node.args, join(checkout.dir, "dist/bin/musicsync.js"), "-p", s.projectFile, ...args],
    {
      cwd: checkout.dir,
      env: {
        ...process.env,
        ...s.env,
        ...node.env,
        MUSICSYNC_LOG_LEVEL: "warn",
        MUSICSYNC_LOG_FORMAT: "json",
      },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
}

export const exited = (c: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) resolve(c.exitCode);
    else c.once("exit", (code) => resolve(code));
  });

/** Finished sync runs (none before a first process opened the state and made its tables). */
async function finishedRuns(db: pg.Client): Promise<number> {
  const made = await db.query<{ found: boolean }>("SELECT to_regclass('runs') IS NOT NULL AS found");
  if (!made.rows[0]?.found) return 0;
  const { rows } = await db.query<{ n: string }>(
    "SELECT count(*) AS n FROM runs WHERE kind = 'sync' AND finished_at IS NOT NULL",
  );
  return Number(rows[0]?.n ?? 0);
}

/** Jobs still waiting or running (the queue's tables exist once a first enqueue made them). */
async function openJobs(db: pg.Client): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM musicsync_queue.job
      WHERE name = 'musicsync-recipe-run' AND state IN ('created', 'retry', 'active')`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** Enqueues every recipe and waits until each has one more finished run and no job is open. */
async function runAll(side: Side, timeoutS: number): Promise<{ cpuMs: number; wallMs: number }> {
  const total = side.scenario.desired.size;
  const before = await finishedRuns(side.db);
  const cpu = cpuSeconds(side.worker.pid!);
  const started = performance.now();
  if ((await exited(musicsync(side.checkout, side.scenario, ["enqueue", "--all"]))) !== 0)
    throw new Error(`${side.checkout.label}: enqueue failed`);
  for (;;) {
    const runs = (await finishedRuns(side.db)) - before;
    if (runs >= total && (await openJobs(side.db)) === 0) break;
    if (side.worker.exitCode !== null) throw new Error(`${side.checkout.label}: the worker exited`);
    if (performance.now() - started > timeoutS * 1000)
      throw new Error(`${side.checkout.label}: ${runs} of ${total} runs in ${timeoutS} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { cpuMs: (cpuSeconds(side.worker.pid!) - cpu) * 1000, wallMs: performance.now() - started };
}

/** Every target playlist loses one row, removed by its owner: the next run of each adds it back. */
async function removeOneRowEach(emulator: string, s: Scenario): Promise<void> {
  const titles = new Map<string, Set<string>>();
  for (const d of s.desired.values())
    titles.set(d.account, (titles.get(d.account) ?? new Set()).add(d.title));
  for (const a of s.accounts) {
    const client = new MusicClient({ auth: a.headers, baseUrl: emulator });
    for (const p of await client.getLibraryPlaylists({ limit: null })) {
      if (!titles.get(a.name)?.has(p.title)) continue;
      const tracks = (await client.getPlaylist(p.playlistId, { limit: null })).tracks;
      if (tracks.length > 0) await client.removePlaylistItems(p.playlistId, tracks.slice(0, 1));
    }
  }
}

/**
 * With BENCH_CPU_PROF=DIR, each worker writes a V8 CPU profile into DIR/<label> when it stops; with
 * BENCH_PERF=1 it writes its JIT symbols for Linux perf (/tmp/perf-<pid>.map), to be recorded from
 * outside: a V8 profile counts the time a loaded machine keeps the worker waiting, perf its CPU only.
 */
function profileArgs(checkout: Checkout): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  return [
    ...(dir ? ["--cpu-prof", `--cpu-prof-dir=${join(resolve(dir), checkout.label)}`] : []),
    ...(process.env.BENCH_PERF ? ["--perf-basic-prof"] : []),
  ];
}

async function openSide(
  server: PostgresServer,
  emu: { url: string; songs: string[] },
  checkout: Checkout,
  size: ScenarioSize,
  o: CostOptions,
): Promise<Side> {
  const setup = await import(pathToFileURL(join(checkout.dir, "bench/workers-setup.ts")).href);
  const stateUrl = await server.createDatabase(`bench_cost_${checkout.label}`);
  const scenario = (await setup.prepareScenario(emu.url, emu.songs, stateUrl, size)) as Scenario;
  const db = new pg.Client({ connectionString: stateUrl });
  await db.connect();
  const args = ["worker", "--concurrency", String(o.concurrency), "--no-schedule", "--poll", "500ms"];
  const countsFile = join(scenario.dir, "statements.json");
  const worker = musicsync(checkout, scenario, [...args, "--lease", "10m"], {
    args: [
      "--import",
      pathToFileURL(resolve(import.meta.dirname, "statement-count.mjs")).href,
      ...profileArgs(checkout),
    ],
    env: { BENCH_STATEMENTS_FILE: countsFile },
  });
  const side: Side = {
    checkout,
    scenario,
    db,
    worker,
    countsFile,
    perRun: { noChange: [], converging: [] },
    wallPerRun: { noChange: [], converging: [] },
    statements: { noChange: [], converging: [] },
  };
  await runAll(side, o.timeoutS); // the first runs make the playlists: not counted
  return side;
}

async function closeSide(side: Side): Promise<void> {
  side.worker.kill("SIGTERM");
  await exited(side.worker);
  await side.db.end();
  await rm(side.scenario.dir, { recursive: true, force: true });
}

/** The worker's counts so far: it writes them when signalled (asked outside the CPU readings). */
async function countsOf(side: Side): Promise<Counts> {
  await rm(side.countsFile, { force: true });
  side.worker.kill("SIGUSR2");
  for (let tries = 0; tries < 100; tries++) {
    const text = await readFile(side.countsFile, "utf8").catch(() => "");
    if (text !== "") return JSON.parse(text) as Counts;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${side.checkout.label}: the worker did not write its statement counts`);
}

/** One checkout's round of one kind: its worker's CPU, wall time and statements per run. */
async function measure(side: Side, kind: Kind, emulator: string, timeoutS: number): Promise<void> {
  if (kind === "converging") await removeOneRowEach(emulator, side.scenario);
  const before = await countsOf(side);
  const { cpuMs, wallMs } = await runAll(side, timeoutS);
  const after = await countsOf(side);
  const n = side.scenario.desired.size;
  side.perRun[kind].push(cpuMs / n);
  side.wallPerRun[kind].push(wallMs / n);
  side.statements[kind].push({
    state: (after.state - before.state) / n,
    queue: (after.queue - before.queue) / n,
    connections: (after.connections - before.connections) / n,
  });
}

/** The floor of one of the first checkout's recipe runs (a static source: one read, the target's). */
async function floorOf(emulator: string, s: Scenario, rounds: number): Promise<number> {
  const [id, first] = [...s.desired.entries()][0]!;
  const account = s.accounts.find((a) => a.name === first.account)!;
  const client = new MusicClient({ auth: account.headers, baseUrl: emulator });
  const target = (await client.getLibraryPlaylists({ limit: null })).find((p) => p.title === first.title);
  if (!target) throw new Error(`bench/workers: no playlist for ${id}`);
  const agent = new Agent();
  const dir = await mkdtemp(join(tmpdir(), "bench-floor-"));
  try {
    const read = await captureRead(agent, (dispatcher) =>
      new MusicClient({ auth: account.headers, baseUrl: emulator, dispatcher }).getPlaylist(
        target.playlistId,
        {
          limit: 100,
        },
      ),
    );
    const wanted = new Set(first.ids);
    return await floorCost({ agent, read, wanted, dbFile: join(dir, "floor.db"), rounds, reads: 1 });
  } finally {
    await agent.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

function report(sides: readonly Side[], floor: number, o: CostOptions): void {
  const perMin = (ms: number) => (60_000 / ms).toFixed(0);
  const n = sides[0]?.scenario.desired.size ?? 0;
  console.log(
    `worker CPU per recipe run: 1 worker (concurrency ${o.concurrency}) per checkout, ${n} recipes of ${o.songs} songs on PostgreSQL, medians of ${o.rounds} rounds`,
  );
  console.log(
    `  floor (read + gunzip + JSON.parse + set difference + 1 durable SQLite commit): ${floor.toFixed(2)} ms, ${perMin(floor)} recipes/min/core`,
  );
  const base = sides[1];
  for (const kind of ["noChange", "converging"] as const) {
    const what =
      kind === "noChange" ? "no-change runs (nothing to write)" : "converging runs (one row added back)";
    console.log(`  ${what}:`);
    for (const s of sides) {
      const ms = median(s.perRun[kind]);
      const ratio =
        base && base !== s ? `, ${(ms / median(base.perRun[kind])).toFixed(2)}x ${base.checkout.label}` : "";
      console.log(
        `    ${s.checkout.label.padEnd(7)} ${ms.toFixed(1)} ms CPU/run (${(ms / floor).toFixed(1)}x the floor${ratio}), ${perMin(ms)} recipes/min/core, wall ${median(s.wallPerRun[kind]).toFixed(1)} ms/run; rounds ${s.perRun[kind].map((x) => x.toFixed(1)).join(" ")}`,
      );
      const per = (key: keyof Counts) => median(s.statements[kind].map((c) => c[key])).toFixed(1);
      console.log(
        `            per run: ${per("state")} state statements, ${per("queue")} queue statements (its polling included), ${per("connections")} new connections`,
      );
    }
  }
}

/** The cost part: rounds interleaved over the checkouts, then the floor, then the report. */
export async function workerCost(
  server: PostgresServer,
  emu: { url: string; songs: string[] },
  checkouts: readonly Checkout[],
  o: CostOptions,
): Promise<void> {
  const sides: Side[] = [];
  try {
    for (const [i, checkout] of checkouts.entries()) {
      const size = { accounts: o.accounts, recipes: o.recipes, songs: o.songs, seed: 500 + i, pacingMs: 0 };
      sides.push(await openSide(server, emu, checkout, size, o));
    }
    for (let round = 0; round < o.rounds; round++) {
      for (const kind of ["noChange", "converging"] as const)
        for (const side of sides) await measure(side, kind, emu.url, o.timeoutS);
      process.stderr.write(`cost round ${round + 1}/${o.rounds}\n`);
    }
    const floor = await floorOf(emu.url, sides[0]!.scenario, o.floorRounds);
    report(sides, floor, o);
  } finally {
    for (const side of sides) await closeSide(side);
  }
}
