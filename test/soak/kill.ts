/**
 * The real `musicsync` process, killed with SIGKILL at a random point: after its `killAt`-th debug
 * log line (a run start, an action sent, a confirmation…) and a further random delay, so a kill can
 * land before the first journal entry, in the middle of a request, or after the last confirmation.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** How to start `musicsync`: the compiled build when asked for (faster), else the sources through tsx. */
export function musicsyncCommand(useBuild: boolean): string[] {
  const built = join(ROOT, "dist/bin/musicsync.js");
  if (useBuild && existsSync(built)) return [process.execPath, built];
  return [process.execPath, "--import", "tsx", join(ROOT, "engine/cli/main.ts")];
}

export interface ProcessRun {
  /** Whether the SIGKILL was sent before the process ended by itself. */
  killed: boolean;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Debug log lines seen before the kill (or in all). */
  lines: number;
}

const LIMIT_MS = 60_000;

export function runKilled(
  command: readonly string[],
  args: readonly string[],
  killAt: number | null,
  delayMs: number,
): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, [...command.slice(1), ...args], {
      cwd: ROOT,
      env: { ...process.env, MUSICSYNC_LOG_LEVEL: "debug", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let lines = 0;
    let killed = false;
    // A bound on the whole run: a hung process is killed and shows as a violation, never a hung soak.
    const guard = setTimeout(() => child.kill("SIGKILL"), LIMIT_MS);
    child.stdout.on("data", (c: Buffer) => {
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
    child.on("exit", (code) => {
      clearTimeout(guard);
      resolve({ killed: killed && code === null, exitCode: code, stdout, stderr, lines });
    });
  });
}
