/**
 * `npm run soak -- --seeds N [--from S] [--seed S] [--jobs J] [--no-build] [--trace] [--undo]`: runs
 * seeds of the soak (soak.ts; with `--undo` the undo soak, undo.ts), J at a time in worker processes
 * (default 2: this machine's cores), prints one line per seed and ends with `seeds N, violations V`
 * and each violation with its seed; exit 1 if any.
 */
import { fork, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Violation } from "./invariants.js";
import { musicsyncCommand, ROOT } from "./kill.js";
import { runSeed, type SeedResult } from "./soak.js";
import { runUndoSeed } from "./undo.js";

interface Args {
  seeds: number[];
  jobs: number;
  build: boolean;
  trace: boolean;
  undo: boolean;
}

function parse(argv: readonly string[]): Args {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    if (i < 0) return null;
    const v = argv[i + 1];
    if (v === undefined || !/^\d+$/.test(v))
      throw new Error(`${flag} needs a whole number, got ${v ?? "nothing"}`);
    return Number(v);
  };
  const one = value("--seed");
  const count = value("--seeds") ?? 20;
  const from = value("--from") ?? 1;
  return {
    seeds: one !== null ? [one] : Array.from({ length: count }, (_, i) => from + i),
    jobs: Math.max(1, value("--jobs") ?? 2),
    build: !argv.includes("--no-build"),
    trace: argv.includes("--trace"),
    undo: argv.includes("--undo"),
  };
}

/** A worker: runs the seeds its parent sends, one at a time, and sends each result back. */
async function worker(trace: boolean, build: boolean, undo: boolean) {
  process.on("message", async (msg: { seed?: number; done?: boolean }) => {
    if (msg.done) process.exit(0);
    const lines: string[] = [];
    let result: SeedResult;
    try {
      result = undo
        ? await runUndoSeed(msg.seed!, { trace: (l) => lines.push(l) })
        : await runSeed(msg.seed!, {
            kill: "auto",
            command: musicsyncCommand(build),
            trace: (l) => lines.push(l),
          });
    } catch (e) {
      const detail = e instanceof Error ? (e.stack ?? e.message) : String(e);
      result = {
        seed: msg.seed!,
        runs: 0,
        kills: 0,
        echoRuns: 0,
        hostile: null,
        ms: 0,
        violations: [{ seed: msg.seed!, run: 0, recipe: "*", invariant: "soak-crashed", detail }],
      };
    }
    process.send!({ result, trace: trace || result.violations.length > 0 ? lines : [] });
  });
}

function describe(v: Violation): string {
  const run = v.run === -1 ? "settle" : v.run === 0 ? "setup" : `run ${v.run}`;
  return `seed ${v.seed} ${run} ${v.recipe}: ${v.invariant}: ${v.detail}`;
}

async function main() {
  const args = parse(process.argv.slice(2));
  if (process.env.SOAK_WORKER === "1") return worker(args.trace, args.build, args.undo);
  // The undo soak runs in process only: it needs no build.
  if (args.build && !args.undo) {
    // The real process starts faster compiled; a build with type errors elsewhere still emits.
    // tsc, then the bundles the real process runs (dist/bin/, scripts/bundle-commands.mjs).
    const b = spawnSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "ignore" });
    const bundle = spawnSync(process.execPath, ["scripts/bundle-commands.mjs"], {
      cwd: ROOT,
      stdio: "ignore",
    });
    console.log(`build: ${b.status === 0 ? "ok" : `exit ${b.status} (using what was emitted)`}`);
    if (bundle.status !== 0)
      console.log(`bundle: exit ${bundle.status} (the real process runs an older build)`);
  }
  const started = Date.now();
  const queue = [...args.seeds];
  const violations: Violation[] = [];
  let done = 0;
  const self = fileURLToPath(import.meta.url);
  const workers = Array.from({ length: Math.min(args.jobs, queue.length) }, () =>
    fork(self, process.argv.slice(2), {
      env: { ...process.env, SOAK_WORKER: "1" },
      execArgv: ["--import", "tsx"],
    }),
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
            const { result } = msg;
            violations.push(...result.violations);
            const v = result.violations.length;
            console.log(
              `[${done}/${args.seeds.length}] seed ${result.seed}: ${v === 0 ? "ok" : `${v} violations`} (${result.runs} runs, ${result.kills} killed${result.echoRuns > 0 ? `, ${result.echoRuns} through the echo proxy` : ""}${result.hostile ? `, hostile ${result.hostile}` : ""}, ${(result.ms / 1000).toFixed(1)} s)`,
            );
            for (const l of msg.trace) console.log(`    ${l.replace(/\n/g, "\n    ")}`);
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
  console.log(
    `\nseeds ${args.seeds.length}, violations ${violations.length} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
  for (const v of violations.sort((a, b) => a.seed - b.seed)) console.log(describe(v));
  process.exit(violations.length > 0 ? 1 : 0);
}

void main();
