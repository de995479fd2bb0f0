/**
 * bench/startup — how long the compiled commands take to start, against `node -e 0`.
 *
 *   npm run build && npx tsx bench/startup.ts [--runs N] [--modules]
 *
 * Each command runs N times (default 15) as a child process, the cases interleaved round by round
 * so a noisy moment on the machine falls on all of them; the median wall time is printed with its
 * ratio to `node -e 0`, the floor no command can go below. Goal: `musicsync --help` and
 * `musicsync validate` of the shipped recipes within 2.5x of it.
 *
 * The commands are the bundles in dist/bin/ (scripts/bundle-commands.mjs), what an installed
 * `musicsync` (and `npx musicsync`, the last case, with npm's own start-up before it) runs; `validate` is also timed from tsc's unbundled dist/cli/musicsync/main.js, to show what the
 * bundle saves (Node 20 reads and compiles every module file on its own, and yaml alone is ~60).
 *
 * With `--modules` it also prints what each command loads (bench/loaded-modules.ts): the
 * repository's folders and the packages under node_modules whose files were read.
 *
 * What the commands load (each action imports its module when it runs):
 * - `--help`, `--version`: commander, cli/ and the command modules of cli/musicsync/commands (option
 *   lists only), engine/output/scrub + shared/redact (the output scrubbing every command goes through).
 *   `init` adds its own module when it runs.
 * - `validate`: the above + engine/recipe, yaml, ajv's small runtime helper, node-cron.
 * - `plan`, `apply`, `sync`, `status`, `history`, `drift`, `resume`, `doctor`: the above + the
 *   engine (plan, apply, sources, targets, state), undici, better-sqlite3, drizzle-orm, pino,
 *   cli-progress.
 * - `daemon`: as `sync` + pino-pretty. `demo` (and an account with `emulator:`): + the emulator.
 * Before, every command (`--help` included) loaded all of it, the emulator and pino-pretty too.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { commandLine } from "./args.js";
import { modulesOf } from "./loaded-modules.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const SYNC = join(ROOT, "dist/bin/musicsync.js");
const API = join(ROOT, "dist/bin/musicapi.js");
const UNBUNDLED = join(ROOT, "dist/cli/musicsync/main.js");
const PROJECT = join(ROOT, "examples/musicsync.yaml");

const args = commandLine({
  script: "bench/startup",
  numbers: { runs: { default: 15 } },
  switches: ["modules"],
});
const { runs } = args.numbers;
const showModules = args.switches.modules;

const CASES: [string, string[]][] = [
  ["node -e 0", ["-e", "0"]],
  ["musicsync --help", [SYNC, "--help"]],
  ["musicsync --version", [SYNC, "--version"]],
  ["musicsync validate recipes/", [SYNC, "validate", "-p", PROJECT, join(ROOT, "recipes")]],
  ["musicapi --help", [API, "--help"]],
  ["validate, unbundled (tsc only)", [UNBUNDLED, "validate", "-p", PROJECT, join(ROOT, "recipes")]],
  // What the README's commands cost when typed through npx instead of from the PATH:
  // npm starts, reads its configuration and the package's, then starts the command.
  ["npx musicsync --help", ["npx", "musicsync", "--help"]],
];

/** One run: `npx …` as the shell runs it, any other case as node's arguments. */
function once(args: readonly string[]): number {
  const [command, rest] = args[0] === "npx" ? ["npx", args.slice(1)] : [process.execPath, args];
  const start = process.hrtime.bigint();
  // npx must run this package's own command, never fetch one.
  const env = { ...process.env, npm_config_yes: "false", npm_config_offline: "true" };
  const r = spawnSync(command, [...rest], { cwd: ROOT, stdio: "ignore", env });
  if (r.status !== 0) console.error(`  (${args.join(" ")}: exit ${r.status})`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

if (![SYNC, API, UNBUNDLED].every((f) => existsSync(f))) {
  console.error("bench/startup: dist/ is missing; run `npm run build` first");
  process.exit(1);
}
console.log(`median of ${runs} runs, compiled dist/, node ${process.version}`);
for (const [, args] of CASES) once(args); // warm the file cache
const times: number[][] = CASES.map(() => []);
for (let round = 0; round < runs; round++) {
  for (const [i, [, args]] of CASES.entries()) times[i]!.push(once(args));
}
const floor = median(times[0]!);
CASES.forEach(([label], i) => {
  const ms = median(times[i]!);
  console.log(`${label.padEnd(32)} ${ms.toFixed(0).padStart(5)} ms  ${(ms / floor).toFixed(2)}x`);
});
if (showModules) {
  for (const [label, args] of CASES.slice(1).filter(([, a]) => a[0] !== "npx"))
    console.log(`\n${label}: ${modulesOf(args).join(", ")}`);
}
