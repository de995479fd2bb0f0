/**
 * The real `musicsync` process, killed with SIGKILL at a random point: after its `killAt`-th debug
 * log line (a run start, an action sent, a confirmation…) and a further random delay, so a kill can
 * land before the first journal entry, in the middle of a request, or after the last confirmation.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** How to start `musicsync`: the compiled build when asked for (faster), else the sources through tsx. */
export function musicsyncCommand(useBuild: boolean): string[] {
  const built = join(ROOT, "dist/bin/musicsync.js");
  if (useBuild && existsSync(built)) return [process.execPath, built];
  return [process.execPath, "--import", "tsx", join(ROOT, "cli/musicsync/main.ts")];
}

export interface ProcessRun {
  /** Whether the SIGKILL was sent before the process ended by itself. */
  killed: boolean;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Debug log lines seen before the kill (or in all). */
  lines: number;
  /** Killed because it outlived `limitMs` (hung). */
  hung: boolean;
  /** The resident memory it had reached when killed for passing `maxRssBytes`; null if it never did. */
  overMemory: number | null;
  /** From start to exit, and to its first byte on stdout (null if it printed nothing there). */
  ms: number;
  stdoutAtMs: number | null;
}

export interface RunLimits {
  /** Variables added to the process's environment. */
  env?: Record<string, string>;
  /** Killed after this long (default 240 s). */
  limitMs?: number;
  /** Killed once its resident memory passes this (checked every 50 ms; default: not watched). */
  maxRssBytes?: number;
}

/**
 * A run of the real process is not hung before this: at the default 30 writes a minute a likes
 * recipe of a dozen songs, with the retries of a faulted run, takes a minute or two.
 */
const LIMIT_MS = 240_000;

/** The resident memory of a process, from /proc (0 when it is gone or there is no /proc). */
function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

export function runKilled(
  command: readonly string[],
  args: readonly string[],
  killAt: number | null,
  delayMs: number,
  limits: RunLimits = {},
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(command[0]!, [...command.slice(1), ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        MUSICSYNC_LOG_LEVEL: "debug",
        NO_COLOR: "1",
        NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --report-on-signal --report-signal=SIGUSR2 --report-filename=stderr`,
        ...limits.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let lines = 0;
    let killed = false;
    let hung = false;
    let overMemory: number | null = null;
    let stdoutAtMs: number | null = null;
    // A bound on the whole run: a hung process is killed and shows as a violation, never a hung soak.
    // First SIGUSR2, on which Node writes a diagnostic report (the JavaScript stack) to stderr, so
    // the violation can say where the process was waiting.
    const guard = setTimeout(() => {
      hung = true;
      child.kill("SIGUSR2");
      setTimeout(() => child.kill("SIGKILL"), 2000).unref();
    }, limits.limitMs ?? LIMIT_MS);
    // A process reading an endless file grows by gigabytes a second: it is stopped well before that.
    const max = limits.maxRssBytes;
    const watch =
      max === undefined
        ? null
        : setInterval(() => {
            const rss = child.pid === undefined ? 0 : rssOf(child.pid);
            if (rss > max && overMemory === null) {
              overMemory = rss;
              child.kill("SIGKILL");
            }
          }, 50);
    child.stdout.on("data", (c: Buffer) => {
      stdoutAtMs ??= Date.now() - started;
      stdout += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      const text = c.toString();
      stderr += text;
      for (const ch of text) if (ch === "\n") lines++;
      if (!killed && killAt !== null && lines >= killAt) {
        killed = true;
        setTimeout(() => child.kill("SIGKILL"), delayMs);
      }
    });
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(guard);
      if (watch) clearInterval(watch);
      resolve({
        killed: killed && code === null && !hung && overMemory === null,
        exitCode: code,
        stdout,
        stderr,
        lines,
        hung,
        overMemory,
        ms: Date.now() - started,
        stdoutAtMs,
      });
    });
  });
}

/**
 * The JavaScript stack of the diagnostic report a process killed as hung wrote to stderr (see
 * runKilled), one frame a line; "no report" when it wrote none (killed before it could).
 */
export function javascriptStack(stderr: string): string {
  const at = stderr.indexOf('{\n  "header"');
  if (at < 0) return "no report";
  const end = stderr.indexOf("\n}\n", at);
  try {
    const report = JSON.parse(stderr.slice(at, end < 0 ? undefined : end + 2)) as {
      javascriptStack?: { message?: string; stack?: string[] };
    };
    const stack = report.javascriptStack;
    return [stack?.message ?? "", ...(stack?.stack ?? []).slice(0, 12)].join("\n      ");
  } catch {
    return "an unreadable report";
  }
}
