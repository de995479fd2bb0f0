import { execFile } from "node:child_process";
import { MUSICAPI, ROOT } from "../../support/cli-process.js";

/**
 * The `musicapi` command run as a real process, compiled as `npx musicapi` runs it (dist/ is built
 * from the sources before the tests: test/global-setup.ts); node is called directly, as npx would
 * only add its own start-up.
 */
const COMMAND = [process.execPath, MUSICAPI] as const;

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export function musicapi(args: string[], options: { timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const [program, script] = COMMAND;
    const child = execFile(
      program,
      [script, ...args],
      { cwd: ROOT, timeout: options.timeoutMs ?? 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}
