import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { musicapi, type Run } from "./run-musicapi.js";

/** What stops `musicapi emulator` from starting is one line on stderr and exit code 1. */
function oneLine(run: Run): string {
  expect(run.code).toBe(1);
  expect(run.stdout).toBe("");
  const lines = run.stderr.split("\n").filter((line) => line !== "");
  expect(lines).toHaveLength(1);
  expect(run.stderr).not.toMatch(/^\s+at /m);
  return lines[0] ?? "";
}

let dir: string;
let holder: Server;
let port: number;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "musicapi-emulator-cli-"));
  holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
  port = (holder.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => holder.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

describe("musicapi emulator, when it cannot start", () => {
  it("names the range of a negative catalogue size", async () => {
    const line = oneLine(await musicapi(["emulator", "--catalogue", "-5"]));
    expect(line).toBe("error: --catalogue must be between 20 and 1000000 (got -5)");
  });

  it("says which port is in use", async () => {
    const line = oneLine(await musicapi(["emulator", "--port", String(port)]));
    expect(line).toBe(
      `error: port ${port} on 127.0.0.1 is in use; choose another --port (0 = any free port)`,
    );
  });

  it("says which database it cannot open when its folder cannot be made", async () => {
    const file = join(dir, "a-file");
    await writeFile(file, "not a folder");
    const db = join(file, "state", "emulator.db");
    const line = oneLine(await musicapi(["emulator", "--db", db]));
    expect(line).toContain(`error: cannot open the emulator database ${db}`);
    expect(line).toContain("ENOTDIR");
  });

  it("keeps a value that is not a number a usage error (exit 2)", async () => {
    const run = await musicapi(["emulator", "--seed", "many"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--seed must be a whole number");
  });
});
