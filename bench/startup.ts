/**
 * bench/startup — what the compiled commands cost to start and to do a small job, against `node -e 0`.
 *
 *   npm run build && npx tsx bench/startup.ts [--runs N] [--modules] [--dir CHECKOUT] [--against CHECKOUT]
 *
 * Each case runs N times (default 15) as a child process, the cases interleaved round by round so a
 * noisy moment on the machine falls on all of them. Printed per case: the median wall time and the
 * median CPU time (user + system of the child, all its threads), each with its ratio to `node -e 0`,
 * the floor no command goes below, and the case's goal beside its figure:
 * `musicsync --help` ≤ 1.5× the floor's wall time, `validate` ≤ 2.5×, and a `sync` of one unchanged
 * recipe ≤ 0.2 CPU-s.
 *
 * The CPU time is what the child's kernel accounting says at its `exit` event (`process.cpuUsage()`
 * from a preloaded file that writes it out): exact to the microsecond for everything the command
 * did, leaving out only the process's last teardown; the preload is the same for every case,
 * `node -e 0` included. `npx` runs npm first, in processes of its own: its CPU is not counted.
 *
 * The sync cases run the README's quick start recipe (`musicsync init --emulator`'s, a chart mirrored
 * into a playlist; state in SQLite), converged once before the timed runs, so that each timed run is
 * a `sync` that finds nothing to change. The goal's case reads an emulator served by a process of
 * its own (`musicapi emulator`, started here), so that the figure is the command's alone; the
 * quick start's own project, whose `emulator:` account starts the emulator inside the command, is
 * timed beside it.
 *
 * The round that warms the file cache also fills the commands' compile cache (cli/compile-cache.ts,
 * in the user's cache folder): the timed runs are later runs. A first run, with an empty cache,
 * costs a `sync` about 6 % more CPU here (NODE_COMPILE_CACHE=$(mktemp -d) per run shows it).
 *
 * `--dir` times another checkout's commands (its dist/, built); `--against` times a second checkout
 * in the same rounds, each case of the two trees side by side (e.g. `--against /work/base25`, main
 * before a change), so that a before and an after are measured at the same moments.
 * With `--modules` it also prints, per tree, how many module files each command reads and what they
 * are (bench/loaded-modules.ts): the repository's folders and the packages under node_modules.
 *
 * What the commands load (each action imports its module when it runs):
 * - `--help`, `--version`: commander, cli/ and the command modules of cli/musicsync/commands (option
 *   lists only), engine/output/scrub + shared/redact (the output scrubbing every command goes through).
 * - `validate`: the above + engine/recipe, yaml, ajv's small runtime helpers, node-cron; no state driver
 *   (engine/state/url.ts reads the setting).
 * - `plan`, `apply`, `sync`, `status`, `history`, `drift`, `resume`, `doctor`: the above + the
 *   engine (plan, apply, sources, targets, state), undici, better-sqlite3, drizzle-orm, pino; pg only
 *   for a `postgres:` state; ajv's compiler only to read a saved plan; cli-progress only on a terminal.
 * - `daemon`: as `sync` + pino-pretty on a terminal. `demo` (and an account with `emulator:`): + the emulator.
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { commandLine } from "./args.js";
import { loadedBy, ownersOf } from "./loaded-modules.js";

const HERE = fileURLToPath(new URL("../", import.meta.url));

const args = commandLine({
  script: "bench/startup",
  numbers: { runs: { default: 15 } },
  switches: ["modules"],
  texts: { dir: HERE, against: "" },
});
const { runs } = args.numbers;

/** A start-up goal, checked against a case's figures. */
interface Goal {
  text: string;
  met(m: Medians, floor: Medians): boolean;
}

interface Case {
  label: string;
  args: string[];
  goal?: Goal;
}

interface Medians {
  wallMs: number;
  cpuMs: number | null;
}

interface Tree {
  name: string;
  root: string;
  cases: Case[];
  /** The folder of the sync case's project, removed at the end. */
  scratch: string;
}

const wallWithin = (x: number): Goal => ({
  text: `≤ ${x}× wall`,
  met: (m, floor) => m.wallMs <= x * floor.wallMs,
});
const cpuWithin = (ms: number): Goal => ({
  text: `≤ ${ms / 1000} CPU-s`,
  met: (m) => m.cpuMs !== null && m.cpuMs <= ms,
});

/** The two sync projects of a tree: against the served emulator, and with an `emulator:` account. */
interface Projects {
  served: string;
  embedded: string;
}

function casesOf(root: string, p: Projects): Case[] {
  const sync = join(root, "dist/bin/musicsync.js");
  const examples = join(root, "examples/musicsync.yaml");
  const recipes = join(root, "recipes");
  return [
    { label: "node -e 0", args: ["-e", "0"] },
    { label: "musicsync --help", args: [sync, "--help"], goal: wallWithin(1.5) },
    { label: "musicsync --version", args: [sync, "--version"] },
    {
      label: "musicsync validate (init project)",
      args: [sync, "validate", "-p", p.embedded],
      goal: wallWithin(2.5),
    },
    {
      label: "musicsync validate recipes/",
      args: [sync, "validate", "-p", examples, recipes],
      goal: wallWithin(2.5),
    },
    { label: "sync, 1 unchanged recipe", args: [sync, "sync", "-p", p.served], goal: cpuWithin(200) },
    // The quick start's: the command also starts the emulator and serves its own reads.
    { label: "sync, same, emulator: account", args: [sync, "sync", "-p", p.embedded] },
    { label: "musicapi --help", args: [join(root, "dist/bin/musicapi.js"), "--help"] },
    {
      label: "validate, unbundled (tsc only)",
      args: [join(root, "dist/cli/musicsync/main.js"), "validate", "-p", examples, recipes],
    },
    // What the README's commands cost when typed through npx instead of from the PATH:
    // npm starts, reads its configuration and the package's, then starts the command.
    { label: "npx musicsync --help", args: ["npx", "musicsync", "--help"] },
  ];
}

/** Runs the tree's musicsync to set up, stopping the bench if it fails. */
function setUp(root: string, cwd: string, a: readonly string[]): void {
  const r = spawnSync(process.execPath, [join(root, "dist/bin/musicsync.js"), ...a], {
    cwd,
    encoding: "utf8",
  });
  if (r.status !== 0) {
    throw new Error(
      `bench/startup: musicsync ${a.join(" ")} in ${root} failed (exit ${r.status}): ${r.stderr}`,
    );
  }
}

/**
 * A tree's two projects in a new folder, made and converged by the tree's own command: the quick
 * start's (`init --emulator`), and the same recipe on `account` of the served emulator.
 */
function prepare(name: string, root: string, emulator: Served, account: number): Tree {
  const missing = ["dist/bin/musicsync.js", "dist/bin/musicapi.js", "dist/cli/musicsync/main.js"].filter(
    (f) => !existsSync(join(root, f)),
  );
  if (missing.length > 0) {
    throw new Error(`bench/startup: ${root} has no ${missing.join(", ")}; run \`npm run build\` there first`);
  }
  const scratch = mkdtempSync(join(tmpdir(), "startup-sync-"));
  const p = {
    embedded: join(scratch, "p", "musicsync.yaml"),
    served: join(scratch, "served", "musicsync.yaml"),
  };
  setUp(root, scratch, ["init", "--emulator", "p"]);
  mkdirSync(join(scratch, "served"));
  cpSync(join(scratch, "p", "recipes"), join(scratch, "served", "recipes"), { recursive: true });
  writeFileSync(join(scratch, "served", "headers.json"), JSON.stringify(emulator.headers[account - 1]));
  writeFileSync(
    p.served,
    `apiVersion: musicsync/v1
kind: Project
accounts:
  default: { auth: headers.json, base_url: "${emulator.url}" }
recipes: [recipes]
state: musicsync.db
`,
  );
  for (const project of [p.embedded, p.served]) setUp(root, root, ["sync", "-p", project]);
  return { name, root, cases: casesOf(root, p), scratch };
}

interface Served {
  url: string;
  /** The browser headers of its accounts 1 and 2 (one per tree: each owns its own playlist). */
  headers: Record<string, string>[];
  stop(): void;
}

/**
 * The emulator the sync case reads, in a process of its own (this one waits in spawnSync while a
 * command runs, and its CPU must not be counted as the command's): `musicapi emulator` of `root`.
 */
async function serveEmulator(root: string): Promise<Served> {
  const child = spawn(
    process.execPath,
    [join(root, "dist/bin/musicapi.js"), "emulator", "--catalogue", "2000"],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const url = await new Promise<string>((resolvePromise, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolvePromise(out.split("\n")[0]!.trim());
    });
    child.on("exit", (code) => reject(new Error(`bench/startup: the emulator stopped (exit ${code})`)));
  });
  const headers = await Promise.all(
    [1, 2].map(
      async (n) =>
        (await (await fetch(`${url}/_emulator/accounts/${n}/headers`)).json()) as Record<string, string>,
    ),
  );
  return { url, headers, stop: () => child.kill("SIGTERM") };
}

/** The preload that writes the child's CPU time (µs, user + system) to the file named in its environment. */
const CPU_PRELOAD = (() => {
  const dir = mkdtempSync(join(tmpdir(), "startup-cpu-"));
  const file = join(dir, "cpu.cjs");
  writeFileSync(
    file,
    `process.on("exit", () => { const u = process.cpuUsage(); require("node:fs").writeFileSync(process.env.STARTUP_CPU_FILE, String(u.user + u.system)); });`,
  );
  return { dir, file };
})();

/** One run: its wall time, and its CPU time (null for npx, whose npm runs in processes of its own). */
function once(c: Case, cwd: string): Medians {
  const cpuFile = join(CPU_PRELOAD.dir, "used.txt");
  rmSync(cpuFile, { force: true });
  const viaNpx = c.args[0] === "npx";
  const [command, rest] = viaNpx
    ? ["npx", c.args.slice(1)]
    : [process.execPath, ["--require", CPU_PRELOAD.file, ...c.args]];
  // npx must run this package's own command, never fetch one.
  const env = {
    ...process.env,
    npm_config_yes: "false",
    npm_config_offline: "true",
    STARTUP_CPU_FILE: cpuFile,
  };
  const start = process.hrtime.bigint();
  const r = spawnSync(command, rest, { cwd, stdio: "ignore", env });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) console.error(`  (${c.label} in ${cwd}: exit ${r.status})`);
  const cpuMs = !viaNpx && existsSync(cpuFile) ? Number(readFileSync(cpuFile, "utf8")) / 1000 : null;
  return { wallMs, cpuMs };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const served = await serveEmulator(resolve(args.texts.dir));
const trees: Tree[] = [];
try {
  trees.push(prepare("after", resolve(args.texts.dir), served, 1));
  if (args.texts.against) trees.push(prepare("before", resolve(args.texts.against), served, 2));
  console.log(
    `median of ${runs} rounds, node ${process.version}; ${trees.map((t) => `${t.name}: ${t.root}`).join(", ")}`,
  );
  for (const t of trees) for (const c of t.cases) once(c, t.root); // warm the file cache
  const samples = trees.map((t) => t.cases.map(() => [] as Medians[]));
  for (let round = 0; round < runs; round++) {
    for (const [i] of trees[0]!.cases.entries()) {
      for (const [ti, t] of trees.entries()) samples[ti]![i]!.push(once(t.cases[i]!, t.root));
    }
  }
  const medians = samples.map((perCase) =>
    perCase.map((ms) => {
      const cpu = ms.map((m) => m.cpuMs).filter((x) => x !== null);
      return { wallMs: median(ms.map((m) => m.wallMs)), cpuMs: cpu.length > 0 ? median(cpu) : null };
    }),
  );
  console.log(
    `${"case".padEnd(36)} ${"tree".padEnd(7)} ${"wall ms".padStart(8)} ${"×".padStart(6)} ${"CPU ms".padStart(8)} ${"×".padStart(6)}  goal`,
  );
  for (const [i, c] of trees[0]!.cases.entries()) {
    for (const [ti, t] of trees.entries()) {
      const m = medians[ti]![i]!;
      const floor = medians[ti]![0]!;
      const cpu =
        m.cpuMs === null || floor.cpuMs === null
          ? ["-", "-"]
          : [m.cpuMs.toFixed(0), (m.cpuMs / floor.cpuMs).toFixed(2)];
      const goal = c.goal ? `${c.goal.text}: ${c.goal.met(m, floor) ? "met" : "NOT met"}` : "";
      const label = ti === 0 ? c.label : "";
      console.log(
        `${label.padEnd(36)} ${t.name.padEnd(7)} ${m.wallMs.toFixed(0).padStart(8)} ${(m.wallMs / floor.wallMs).toFixed(2).padStart(6)} ${cpu[0]!.padStart(8)} ${cpu[1]!.padStart(6)}  ${goal}`,
      );
    }
  }
  if (args.switches.modules) {
    for (const [i, c] of trees[0]!.cases.entries()) {
      if (c.args[0] === "npx" || i === 0) continue;
      for (const t of trees) {
        const tc = t.cases[i]!;
        const { files, sources } = loadedBy(tc.args, t.root);
        console.log(
          `\n${c.label} [${t.name}]: ${files.length} files; ${ownersOf(sources, t.root).join(", ")}`,
        );
      }
    }
  }
} catch (e) {
  // A tree that cannot be set up: said in one line, the emulator still stopped.
  console.error((e as Error).message);
  process.exitCode = 1;
} finally {
  served.stop();
  for (const t of trees) rmSync(t.scratch, { recursive: true, force: true });
  rmSync(CPU_PRELOAD.dir, { recursive: true, force: true });
}
