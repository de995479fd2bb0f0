/**
 * The shell session the guides run in: a `cd` and an `export` hold for the next lines, each line's
 * exit code and output come back, a line past its time-out is ended, and a server started "in a
 * second terminal" is stopped at the end.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePorts } from "./code-runner.js";
import { listening, ShellSession } from "./shell-session.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "shell-session-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("ShellSession", () => {
  it("keeps the folder and the variables between lines, and gives each line's code and output", async () => {
    const session = await ShellSession.open(dir, { PATH: process.env.PATH });
    try {
      await session.write("a file.txt", "first\nsecond\n", 10_000);
      expect(await session.run("mkdir inner && cd inner", 10_000)).toEqual({ code: 0, output: "" });
      expect(await session.run('export GREETING="hello there"', 10_000)).toEqual({ code: 0, output: "" });
      expect(await session.run('echo "$GREETING from $(basename "$PWD")"', 10_000)).toEqual({
        code: 0,
        output: "hello there from inner\n",
      });
      expect(
        await session.run("wc -l < '../a file.txt'; exit_code() { return 3; }; exit_code", 10_000),
      ).toEqual({
        code: 3,
        output: "2\n",
      });
      // A line reading stdin gets /dev/null, not the session's own script.
      expect(await session.run("cat", 10_000)).toEqual({ code: 0, output: "" });
    } finally {
      await session.close();
    }
  });

  it("ends a line that outlives its time-out, with what it printed", async () => {
    const session = await ShellSession.open(dir, { PATH: process.env.PATH });
    try {
      await expect(session.run("echo started; sleep 30", 1_000)).rejects.toThrow(
        /sleep 30`: no answer within 1000 ms[\s\S]*started/,
      );
    } finally {
      await session.close();
    }
  });

  it("says at once when a background server ends instead of listening", async () => {
    const [port] = await freePorts(1);
    const session = await ShellSession.open(dir, { PATH: process.env.PATH });
    const started = Date.now();
    try {
      const failing = `node -e "console.log('cannot start'); process.exit(3)"`;
      await expect(session.startBackground(failing, port!)).rejects.toThrow(
        /exit\(3\)"` ended:\ncannot start/,
      );
      await expect(session.startBackground("sleep 1; sleep 2", port!)).rejects.toThrow("must be one command");
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      await session.close();
    }
  });

  it("waits for a background server to listen, and stops it at the end", async () => {
    const [port] = await freePorts(1);
    const session = await ShellSession.open(dir, { PATH: process.env.PATH });
    const server = `node -e "require('node:net').createServer().listen(${port}, '127.0.0.1')"`;
    try {
      await session.startBackground(server, port!);
      expect(await listening(port!)).toBe(true);
    } finally {
      await session.close();
    }
    expect(await listening(port!)).toBe(false);
  });
});
