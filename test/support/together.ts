/**
 * Node processes that start their work at one moment, for tests of several processes on one file.
 * Each script imports what it needs, prints `ready`, and waits for a line on stdin: the moment to
 * begin (a `Date.now()` value). The moment is sent once every process has said `ready`, so how
 * long a process takes to load (seconds on a loaded machine) never decides whether they overlap.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { ROOT } from "./cli-process.js";

/** A process given this long in all is stuck, not slow: it is killed and its run fails. */
const LIMIT_MS = 60_000;

/** What a script puts before its work: prints `ready`, then waits for the start (one stdin line). */
export const AWAIT_START = `process.stdout.write("ready\\n");
const start = await new Promise((resolve) => process.stdin.once("data", (d) => resolve(Number(String(d)))));
process.stdin.destroy();
`;

interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
  done: Promise<string>;
}

function startWorker(script: string, args: readonly string[]): Worker {
  const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  let sawReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (sawReady = resolve));
  child.stdout?.on("data", (c: Buffer) => {
    out += c.toString();
    if (out.startsWith("ready\n")) sawReady();
  });
  child.stderr?.on("data", (c: Buffer) => (err += c.toString()));
  // A start sent to a process that has already died: its exit says why, not the write's EPIPE.
  child.stdin?.on("error", () => {});
  const timer = setTimeout(() => child.kill("SIGKILL"), LIMIT_MS);
  const done = new Promise<string>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`worker exited ${code ?? signal}: ${err}`));
      else resolve(out.replace(/^ready\n/, "").trim());
    });
  });
  // Handled here too: when one fails, the others are killed and their failures are no news.
  done.catch(() => {});
  return { child, ready: Promise.race([ready, done.then(() => {})]), done };
}

/**
 * Runs `node script <args>` once per entry of `argsEach`; once all are ready, tells them to start
 * `delayMs` from now. Resolves with each one's stdout (after `ready`), in order; rejects if one fails.
 */
export async function runTogether(
  script: string,
  argsEach: readonly (readonly string[])[],
  delayMs = 20,
): Promise<string[]> {
  const workers = argsEach.map((args) => startWorker(script, args));
  try {
    await Promise.all(workers.map((w) => w.ready));
    const start = `${Date.now() + delayMs}\n`;
    for (const w of workers) w.child.stdin?.end(start);
    return await Promise.all(workers.map((w) => w.done));
  } finally {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGKILL");
  }
}
