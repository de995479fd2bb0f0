/**
 * A command run on a pseudo-terminal, as a person runs it: util-linux's `script` gives it a
 * terminal for stdin and stdout (isTTY, raw mode, Ctrl-C as a keystroke), and the test types into
 * it as the output asks. Bounded: the child is killed after `timeoutMs`.
 */
import { spawn, spawnSync } from "node:child_process";

/** Whether `script` (util-linux) is there to make a terminal. */
export const HAS_SCRIPT = spawnSync("script", ["--version"], { encoding: "utf8" }).status === 0;

export interface TerminalRun {
  code: number | null;
  /** Everything the terminal showed, escape sequences and echoed keys included. */
  output: string;
}

/** Single quotes for `sh -c`. */
const sh = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;

/**
 * Runs `argv` on a terminal; `type(output)` is called after each chunk of output with all shown
 * so far, and returns the keys to type then (or null for none).
 */
export function runOnTerminal(
  argv: readonly string[],
  type: (output: string) => string | null,
  options: { env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {},
): Promise<TerminalRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("script", ["-q", "-e", "-c", argv.map(sh).join(" "), "/dev/null"], {
      cwd: options.cwd,
      env: { ...process.env, TERM: "xterm", ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 60_000);
    child.stdout.on("data", (d: Buffer) => {
      output += d.toString();
      const keys = type(output);
      if (keys !== null) child.stdin.write(keys);
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
