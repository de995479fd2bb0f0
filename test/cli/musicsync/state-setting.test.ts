/**
 * `state:` in musicsync.yaml as the commands read it: a `sqlite:` URL relative to the project's
 * folder works like a path; a PostgreSQL URL is refused in one line that does not repeat the URL
 * (it may carry a password).
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { musicsyncInProc as run } from "../../support/musicsync-inproc.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "musicsync-state-setting-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function projectWithState(state: string): Promise<string> {
  const project = join(dir, "p");
  expect((await run(["init", project, "--emulator"])).code).toBe(0);
  const file = join(project, "musicsync.yaml");
  const text = (await readFile(file, "utf8")).replace(/^state: .*$/m, `state: ${state}`);
  await writeFile(file, text);
  return file;
}

describe("the state setting", () => {
  it("a sqlite: URL is a file beside the project, whatever the working folder", async () => {
    const file = await projectWithState("sqlite:data.db");
    const synced = await run(["-p", file, "sync"]);
    expect(synced.code, synced.stderr).toBe(0);
    expect(existsSync(join(dir, "p", "data.db"))).toBe(true);
    const history = await run(["-p", file, "history", "-r", "starter"]);
    expect(history.stdout).toMatch(/#1 .* sync: converged/);
  });

  it("a PostgreSQL server that does not answer is named without the password", async () => {
    // Port 1 on loopback refuses at once: every command says which server, never the password.
    const file = await projectWithState("postgres://sync:hunter2secret@127.0.0.1:1/music");
    for (const args of [["history"], ["sync"], ["status"]]) {
      const r = await run(["-p", file, ...args]);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.stderr + r.stdout, args.join(" ")).toContain("127.0.0.1:1/music");
      expect(r.stderr + r.stdout).not.toContain("hunter2");
    }
  });
});
