/**
 * The real `musicsync` command as a child process, for tests that check what a person sees. It
 * runs the compiled command (`dist/bin/musicsync.js`, what `npx musicsync` runs after `npm ci`),
 * not tsx: after a source edit, the first call builds dist/ once (a lock folder keeps two test
 * workers from building at the same time), so a fresh clone and a working copy both test the code
 * as it is.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, rmdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The bundled commands `npm run build` writes (scripts/bundle-commands.mjs), as the package's `bin` names them. */
export const MAIN = join(ROOT, "dist/bin/musicsync.js");
export const MUSICAPI = join(ROOT, "dist/bin/musicapi.js");
const LOCK = join(ROOT, "dist", ".build-lock");
const TSC = join(ROOT, "node_modules", ".bin", "tsc");
const BUNDLE = join(ROOT, "scripts", "bundle-commands.mjs");

/** The newest modification time of the TypeScript files the build compiles. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (e.name.endsWith(".ts")) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function stale(): boolean {
  let built: number;
  try {
    built = statSync(MAIN).mtimeMs;
  } catch {
    return true;
  }
  return ["cli", "src", "engine", "emulator"].some((d) => newestSource(join(ROOT, d)) > built);
}

function tryLock(): boolean {
  mkdirSync(join(ROOT, "dist"), { recursive: true });
  try {
    mkdirSync(LOCK);
    return true;
  } catch {
    // A lock left by a worker that was killed mid-build: a build takes seconds, not minutes.
    if (Date.now() - statSync(LOCK).mtimeMs > 120_000) rmdirSync(LOCK);
    return false;
  }
}

/** Builds once if the sources are newer than dist/ (an edit made during the build waits for the next run). */
async function build(): Promise<void> {
  while (stale()) {
    if (!tryLock()) {
      await sleep(200);
      continue;
    }
    try {
      if (!stale()) return;
      // What `npm run build` does, without npm's start-up. Type errors elsewhere still emit; only
      // a missing command is fatal.
      const tsc = spawnSync(TSC, ["-p", "tsconfig.build.json"], { cwd: ROOT, encoding: "utf8" });
      const bundle = spawnSync(process.execPath, [BUNDLE], { cwd: ROOT, encoding: "utf8" });
      const output = [tsc, bundle].map((r) => `${r.stdout}${r.stderr}`).join("");
      statSync(MAIN, { throwIfNoEntry: false }) ?? fail(output);
      return;
    } finally {
      rmdirSync(LOCK);
    }
  }
}

function fail(output: string): never {
  throw new Error(`the build (tsc, then scripts/bundle-commands.mjs) made no ${MAIN}: ${output}`);
}

let built: Promise<void> | null = null;

/** dist/ as fresh as the sources, built at most once per test worker. */
export function ensureBuilt(): Promise<void> {
  built ??= build();
  return built;
}

/**
 * A compiled module of the package (`path` under dist/), as a quoted URL for a script's `import`:
 * a child process runs it with plain node, not tsx (a third of the CPU), built first if stale.
 */
export async function builtModule(path: string): Promise<string> {
  await ensureBuilt();
  return JSON.stringify(pathToFileURL(join(ROOT, "dist", path)).href);
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `musicsync <args>` from the repository root (or `cwd`) and collects its output and exit code. */
export async function musicsync(
  args: readonly string[],
  env: Record<string, string> = {},
  cwd = ROOT,
): Promise<CliResult> {
  await ensureBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** An in-memory stream that says it is a terminal (or not), for `main` run in the test's process. */
export function screen(isTTY: boolean) {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      chunks.push(chunk.toString());
      done();
    },
  }) as Writable & { isTTY?: boolean; columns?: number };
  stream.isTTY = isTTY;
  stream.columns = 100;
  return { stream, text: () => chunks.join("") };
}
