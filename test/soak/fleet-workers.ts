/**
 * The fleet's `musicsync worker` processes: started with JSON logs, their output kept whole (for the
 * credential scan) and parsed (for the soak's timing), killed or stopped by the soak, and each one
 * watched by a small shell that SIGKILLs it should the soak itself die first, so that no worker
 * outlives its seed on this shared machine.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { ROOT } from "./kill.js";

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface FleetWorker {
  /** 1-based, in the order the fleet started them. */
  n: number;
  /** Whether it runs the scheduler (a replacement does not: see fleet.ts). */
  scheduling: boolean;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  logs: LogLine[];
  /** What the soak did to end it; null when it ended (or has yet to end) by itself. */
  endedBy: "kill" | "stop" | null;
  /** Set once it exited. */
  exit: Exit | null;
  exited: Promise<Exit>;
}

/** Starts `command worker <args>` with JSON logs at info level. */
export function startWorker(
  command: readonly string[],
  args: readonly string[],
  n: number,
  scheduling: boolean,
): FleetWorker {
  const child = spawn(
    command[0]!,
    [
      ...command.slice(1),
      "worker",
      "--log-format",
      "json",
      ...(scheduling ? [] : ["--no-schedule"]),
      ...args,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, MUSICSYNC_LOG_LEVEL: "info", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const guard = watchdog(child.pid ?? 0);
  let out = "";
  let err = "";
  let partial = "";
  const logs: LogLine[] = [];
  child.stdout!.on("data", (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on("data", (c: Buffer) => {
    err += c.toString();
    partial += c.toString();
    const lines = partial.split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      const parsed = parseLine(line);
      if (parsed) logs.push(parsed);
    }
  });
  const worker: FleetWorker = {
    n,
    scheduling,
    child,
    stdout: () => out,
    stderr: () => err,
    logs,
    endedBy: null,
    exit: null,
    exited: new Promise<Exit>((resolve) =>
      child.once("exit", (code, signal) => {
        guard.kill("SIGKILL");
        worker.exit = { code, signal };
        resolve(worker.exit);
      }),
    ),
  };
  return worker;
}

function parseLine(line: string): LogLine | null {
  if (!line.startsWith("{")) return null;
  try {
    return JSON.parse(line) as LogLine;
  } catch {
    return null;
  }
}

/** A shell that SIGKILLs `pid` once its stdin closes, which happens when this process ends, however. */
function watchdog(pid: number): ChildProcess {
  const child = spawn("sh", ["-c", 'read _; kill -KILL "$1" 2>/dev/null', "sh", String(pid)], {
    stdio: ["pipe", "ignore", "ignore"],
    detached: true,
  });
  child.unref();
  (child.stdin as { unref?: () => void } | null)?.unref?.();
  return child;
}

export const alive = (w: FleetWorker) => w.exit === null;

/** SIGKILL, as a machine lost: resolves once it is gone. */
export async function killWorker(w: FleetWorker): Promise<void> {
  if (!alive(w)) return;
  w.endedBy = "kill";
  w.child.kill("SIGKILL");
  await w.exited;
}

/**
 * SIGTERM (the write in flight finishes), then SIGKILL after `graceMs`: whether it stopped by
 * itself, and how it exited.
 */
export async function stopWorker(w: FleetWorker, graceMs: number): Promise<{ forced: boolean; exit: Exit }> {
  if (!alive(w)) return { forced: false, exit: w.exit! };
  w.endedBy = "stop";
  w.child.kill("SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), graceMs);
  });
  const exit = await Promise.race([w.exited, late]);
  clearTimeout(timer);
  if (exit) return { forced: false, exit };
  w.child.kill("SIGKILL");
  return { forced: true, exit: await w.exited };
}
