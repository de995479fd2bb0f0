import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { MUSICAPI } from "../../support/cli-process.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
let child: ChildProcess | null = null;

afterEach(() => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
  child = null;
});

function run(args: string[]): {
  child: ChildProcess;
  firstLine: Promise<string>;
  exit: Promise<number | null>;
  stderr: () => string;
} {
  const c = spawn(process.execPath, [MUSICAPI, ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  c.stderr?.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const firstLine = new Promise<string>((resolve, reject) => {
    let out = "";
    c.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const i = out.indexOf("\n");
      if (i >= 0) resolve(out.slice(0, i));
    });
    c.once("exit", () => reject(new Error(`exited before printing its URL: ${err}`)));
  });
  // A run that is expected to fail never prints a URL: keep that rejection from going unhandled.
  firstLine.catch(() => undefined);
  const exit = new Promise<number | null>((resolve) => c.once("close", (code) => resolve(code)));
  return { child: c, firstLine, exit, stderr: () => err };
}

describe("musicapi emulator", () => {
  it("serves on the printed URL with the asked catalogue size and stops on SIGTERM", async () => {
    const r = run(["emulator", "--port", "0", "--catalogue", "120", "--seed", "3"]);
    child = r.child;
    const url = await r.firstLine;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await request(`${url}/_emulator/health`);
    const body = (await health.body.json()) as { catalogue: { songs: number } };
    expect(body.catalogue.songs).toBeGreaterThanOrEqual(120);
    r.child.kill("SIGTERM");
    expect(await r.exit).toBe(0);
  });

  it("refuses a bad option with exit code 2", async () => {
    const r = run(["emulator", "--port", "http"]);
    child = r.child;
    expect(await r.exit).toBe(2);
    expect(r.stderr()).toContain("--port");
  });
});
