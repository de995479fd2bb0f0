/**
 * `musicapi methods | head -0`, `musicsync --help | head -0`: a reader that goes away before the
 * command writes gets no stack trace on stderr, and the command keeps its exit code.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ensureBuilt, MAIN, MUSICAPI, ROOT } from "../support/cli-process.js";

function withClosedStdout(script: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    // Closed before the command writes a byte: its first write meets EPIPE.
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stderr }));
  });
}

describe("a closed stdout", () => {
  it("musicapi methods stops quietly", async () => {
    await ensureBuilt();
    const r = await withClosedStdout(MUSICAPI, ["methods"]);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled|at /);
    expect(r.code).toBe(0);
  });

  it("musicsync --help stops quietly", async () => {
    await ensureBuilt();
    const r = await withClosedStdout(MAIN, ["--help"]);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled|at /);
    expect(r.code).toBe(0);
  });
});
