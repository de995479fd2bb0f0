/**
 * `npm run soak -- --seeds N [--from S] [--seed S] [--jobs J] [--no-build] [--trace] [--undo]
 * [--state sqlite|postgres]`: runs seeds of the soak (soak.ts; with `--undo` the undo soak, undo.ts),
 * J at a time in worker processes (default 2: this machine's cores), prints one line per seed and
 * ends with `seeds N, violations V on <state>` and each violation with its seed; exit 1 if any.
 * `--state postgres` puts each seed's state in a fresh database of one PostgreSQL server for the
 * whole run: started here (test/support/postgres-server.ts), or MUSICSYNC_TEST_PG_URL's. There, a
 * seed in two has a fleet of workers under database faults (fleet.ts; `--fleet auto|always|light|none`);
 * `--pg-restart` gives each seed a server of its own, which its fleet (every seed has one) restarts.
 * The commands a seed starts are the compiled ones, built first (tsc and the bundles, about a
 * minute); `--no-build` skips the build and runs them from the sources through tsx instead, about
 * three times the CPU a process.
 */
import { fork, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describeFetchFailure } from "../support/harness-fetch.js";
import { externalPostgres, type PostgresServer, startPostgres } from "../support/postgres-server.js";
import type { FleetMode } from "./fleet-plan.js";
import type { Violation } from "./invariants.js";
import { musicsyncCommand, ROOT } from "./kill.js";
import { runSeed, type SeedResult } from "./soak.js";
import { STATE_NAMES, type StateKind } from "./state.js";
import { runUndoSeed } from "./undo.js";

/** How the parent hands its PostgreSQL server to the workers (the same name the tests read). */
const PG_URL = "MUSICSYNC_TEST_PG_URL";

interface Args {
  seeds: number[];
  jobs: number;
  build: boolean;
  trace: boolean;
  undo: boolean;
  state: StateKind;
  fleet: FleetMode;
  /** Each seed on a PostgreSQL server of its own, which its fleet stops and starts. */
  pgRestart: boolean;
}

const FLEET_MODES: readonly FleetMode[] = ["auto", "always", "light", "none"];

function parse(argv: readonly string[]): Args {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    if (i < 0) return null;
    const v = argv[i + 1];
    if (v === undefined || !/^\d+$/.test(v))
      throw new Error(`${flag} needs a whole number, got ${v ?? "nothing"}`);
    return Number(v);
  };
  const pgRestart = argv.includes("--pg-restart");
  const state = argv.includes("--state")
    ? argv[argv.indexOf("--state") + 1]
    : pgRestart
      ? "postgres"
      : "sqlite";
  if (state !== "sqlite" && state !== "postgres")
    throw new Error(`--state is sqlite or postgres, got ${state ?? "nothing"}`);
  if (pgRestart && state !== "postgres") throw new Error("--pg-restart needs --state postgres");
  const fleet = argv.includes("--fleet") ? argv[argv.indexOf("--fleet") + 1] : pgRestart ? "always" : "auto";
  if (!FLEET_MODES.includes(fleet as FleetMode))
    throw new Error(`--fleet is one of ${FLEET_MODES.join(", ")}, got ${fleet ?? "nothing"}`);
  const one = value("--seed");
  const count = value("--seeds") ?? 20;
  const from = value("--from") ?? 1;
  return {
    seeds: one !== null ? [one] : Array.from({ length: count }, (_, i) => from + i),
    jobs: Math.max(1, value("--jobs") ?? 2),
    build: !argv.includes("--no-build"),
    trace: argv.includes("--trace"),
    undo: argv.includes("--undo"),
    state,
    fleet: fleet as FleetMode,
    pgRestart,
  };
}

/**
 * One seed, its state on SQLite or in a database of the parent's server (dropped after it), or with
 * `--pg-restart` of a server of its own (stopped after it).
 */
async function runOne(seed: number, args: Args, trace: (line: string) => void): Promise<SeedResult> {
  const url = process.env[PG_URL];
  if (args.state === "postgres" && !url && !args.pgRestart)
    throw new Error(`--state postgres: the worker has no ${PG_URL}`);
  const postgres = args.pgRestart
    ? await startPostgres()
    : args.state === "postgres" && url
      ? externalPostgres(url)
      : undefined;
  try {
    return args.undo
      ? await runUndoSeed(seed, { trace, ...(postgres ? { postgres } : {}) })
      : await runSeed(seed, {
          kill: "auto",
          command: musicsyncCommand(args.build),
          trace,
          fleet: args.fleet,
          ...(postgres ? { postgres } : {}),
        });
  } finally {
    await postgres?.stop();
  }
}

/** A worker: runs the seeds its parent sends, one at a time, and sends each result back. */
async function worker(args: Args) {
  process.on("message", async (msg: { seed?: number; done?: boolean }) => {
    if (msg.done) process.exit(0);
    const lines: string[] = [];
    let result: SeedResult;
    try {
      result = await runOne(msg.seed!, args, (l) => lines.push(l));
    } catch (e) {
      // Under tsx a fetch's TypeError has no stack past its message: its cause says what failed.
      const cause = e instanceof Error && e.cause !== undefined ? ` (${describeFetchFailure(e)})` : "";
      const detail = e instanceof Error ? `${e.stack ?? e.message}${cause}` : String(e);
      result = {
        seed: msg.seed!,
        runs: 0,
        kills: 0,
        echoRuns: 0,
        hostile: null,
        surfaces: [],
        ms: 0,
        violations: [{ seed: msg.seed!, run: 0, recipe: "*", invariant: "soak-crashed", detail }],
      };
    }
    process.send!({ result, trace: args.trace || result.violations.length > 0 ? lines : [] });
  });
}

function describe(v: Violation): string {
  const run = v.run === -1 ? "settle" : v.run === 0 ? "setup" : `run ${v.run}`;
  return `seed ${v.seed} ${run} ${v.recipe}: ${v.invariant}: ${v.detail}`;
}

/** The build the real process runs: tsc, then the bundles (dist/bin/, scripts/bundle-commands.mjs). */
function build() {
  // The real process starts faster compiled; a build with type errors elsewhere still emits.
  const b = spawnSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "ignore" });
  const bundle = spawnSync(process.execPath, ["scripts/bundle-commands.mjs"], {
    cwd: ROOT,
    stdio: "ignore",
  });
  console.log(`build: ${b.status === 0 ? "ok" : `exit ${b.status} (using what was emitted)`}`);
  if (bundle.status !== 0)
    console.log(`bundle: exit ${bundle.status} (the real process runs an older build)`);
}

/** The run's one PostgreSQL server: MUSICSYNC_TEST_PG_URL's when set, else one started now. */
async function postgresServer(): Promise<PostgresServer> {
  const given = process.env[PG_URL];
  const server = given ? externalPostgres(given) : await startPostgres();
  const at = new URL(server.url);
  console.log(`state: PostgreSQL at ${at.host}${given ? ` (${PG_URL})` : ""}, a fresh database per seed`);
  return server;
}

function seedLine(result: SeedResult, done: number, total: number): string {
  const v = result.violations.length;
  const extras = [
    `${result.runs} runs`,
    `${result.kills} killed`,
    ...(result.echoRuns > 0 ? [`${result.echoRuns} through the echo proxy`] : []),
    ...(result.hostile ? [`hostile ${result.hostile}`] : []),
    ...result.surfaces,
    ...(result.fleet ? [result.fleet] : []),
    `${(result.ms / 1000).toFixed(1)} s`,
  ];
  return `[${done}/${total}] seed ${result.seed}: ${v === 0 ? "ok" : `${v} violations`} (${extras.join(", ")})`;
}

/** The seeds handed out to `args.jobs` worker processes; every violation they found. */
async function runWorkers(args: Args, env: NodeJS.ProcessEnv): Promise<Violation[]> {
  const queue = [...args.seeds];
  const violations: Violation[] = [];
  let done = 0;
  const self = fileURLToPath(import.meta.url);
  const workers = Array.from({ length: Math.min(args.jobs, queue.length) }, () =>
    fork(self, process.argv.slice(2), { env: { ...env, SOAK_WORKER: "1" }, execArgv: ["--import", "tsx"] }),
  );
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) => {
          const next = () => {
            const seed = queue.shift();
            if (seed === undefined) {
              w.send({ done: true });
              resolve();
            } else w.send({ seed });
          };
          w.on("message", (msg: { result: SeedResult; trace: string[] }) => {
            done += 1;
            violations.push(...msg.result.violations);
            console.log(seedLine(msg.result, done, args.seeds.length));
            for (const l of msg.trace) console.log(`    ${l.replace(/\n/g, "\n    ")}`);
            // Said at once as well as in the summary: a run stopped part way still shows what broke.
            for (const v of msg.result.violations) console.log(`    ! ${describe(v)}`);
            next();
          });
          w.on("exit", (code) => {
            if (code !== 0)
              violations.push({
                seed: -1,
                run: 0,
                recipe: "*",
                invariant: "soak-crashed",
                detail: `a worker exited ${code}`,
              });
            resolve();
          });
          next();
        }),
    ),
  );
  return violations;
}

async function main() {
  const args = parse(process.argv.slice(2));
  if (process.env.SOAK_WORKER === "1") return worker(args);
  // The undo soak runs in process only: it needs no build.
  if (args.build && !args.undo) build();
  const server = args.state === "postgres" && !args.pgRestart ? await postgresServer() : null;
  if (args.pgRestart) console.log("state: PostgreSQL, a server of its own per seed, restarted by its fleet");
  else if (!server) console.log("state: SQLite, state.db in each seed's folder");
  const started = Date.now();
  let violations: Violation[];
  try {
    violations = await runWorkers(args, server ? { ...process.env, [PG_URL]: server.url } : process.env);
  } finally {
    await server?.stop();
  }
  console.log(
    `\nseeds ${args.seeds.length}, violations ${violations.length} on ${STATE_NAMES[args.state]} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
  for (const v of violations.sort((a, b) => a.seed - b.seed)) console.log(describe(v));
  process.exit(violations.length > 0 ? 1 : 0);
}

void main();
