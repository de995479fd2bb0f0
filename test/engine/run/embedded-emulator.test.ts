/**
 * An `emulator:` account: `init --emulator`, `doctor`, `sync` twice in an empty folder (the second
 * finds nothing to do: the emulator's database keeps the library between commands), and the
 * emulator started only when the account's client is used and stopped when the env closes.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadProjectText } from "../../../engine/recipe/load.js";
import { AccountError, createEnv } from "../../../engine/run/env.js";
import { createLogger } from "../../../engine/run/logger.js";
import { musicsyncInProc as run } from "../../support/musicsync-inproc.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "musicsync-embedded-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function emulatorProject(settings: string) {
  const file = join(dir, "musicsync.yaml");
  const text = `apiVersion: musicsync/v1\nkind: Project\naccounts:\n  default: { emulator: ${settings} }\n`;
  const { project, issues } = loadProjectText(file, text);
  expect(issues).toEqual([]);
  return { project: project!, file };
}

/** What a command makes of the project: the state in memory, the emulator's database in `dir`. */
function emulatorEnv(settings: string) {
  const { project, file } = emulatorProject(settings);
  return createEnv({ project, projectFile: file, logger: createLogger("silent"), stateFile: ":memory:" });
}

/**
 * Whether the emulator still has its database open: SQLite removes the WAL file when the last
 * connection closes, which the emulator's stop does after closing its server.
 */
const open = (db: string) => existsSync(`${db}-wal`);

describe("the embedded emulator as an account", () => {
  it("init --emulator, doctor, sync, sync: converges and then has nothing to do", async () => {
    const project = join(dir, "fresh");
    expect((await run(["init", project, "--emulator"])).code).toBe(0);
    const doctor = await run(["-p", join(project, "musicsync.yaml"), "doctor"]);
    expect(doctor.stdout).toContain("0 errors, 0 warnings.");
    expect(doctor.code).toBe(0);
    const first = await run(["-p", join(project, "musicsync.yaml"), "sync"]);
    expect(first.stdout).toMatch(/starter: Applied: \d+ actions? in \d+ write requests?; converged\./);
    expect(first.code).toBe(0);
    expect(existsSync(join(project, "emulator.db"))).toBe(true);
    const second = await run(["-p", join(project, "musicsync.yaml"), "sync"]);
    expect(second.stdout).toContain("No changes.");
    expect(second.stdout).toContain("starter: Applied: nothing to do.");
    expect(second.code).toBe(0);
  });

  it("starts only when the client is used, and stops when the env closes", async () => {
    const env = emulatorEnv("{ db: data/emu.db, catalogue: 60, seed: 3 }");
    const db = join(dir, "data", "emu.db");
    const client = env.clientFor("default");
    expect(env.clientFor("default")).toBe(client);
    expect(existsSync(join(dir, "data", "emu.db"))).toBe(false);
    const playlists = await client.getLibraryPlaylists({ limit: null });
    expect(playlists.length).toBeGreaterThan(0);
    expect(open(db)).toBe(true);
    await env.close();
    expect(existsSync(db)).toBe(true);
    expect(open(db)).toBe(false);
  });

  it("names the setting when the emulator has no such account", async () => {
    const env = emulatorEnv("{ db: emu.db, catalogue: 60, account: 999 }");
    try {
      const failed = env.clientFor("default").getLibraryPlaylists({ limit: 1 });
      await expect(failed).rejects.toThrow(AccountError);
      await expect(failed).rejects.toThrow("accounts.default.emulator.account");
    } finally {
      await env.close();
    }
    expect(open(join(dir, "emu.db"))).toBe(false);
  });

  it("is refused together with credentials or a base_url", async () => {
    const text = `apiVersion: musicsync/v1\nkind: Project\naccounts:\n  default: { emulator: {}, auth: b.json }\n`;
    const { project, issues } = loadProjectText(join(dir, "musicsync.yaml"), text);
    expect(project).toBeNull();
    expect(issues[0]!.message).toContain("an emulator account takes no auth");
  });

  it("fills the settings it leaves out", () => {
    const { project } = emulatorProject("{}");
    expect(project.accounts.default!.emulator).toEqual({
      db: "emulator.db",
      seed: 1,
      catalogue: 2000,
      account: 1,
    });
  });

  it("is not paced (nothing to spare), while an account at a base_url is, writes and searches alike", async () => {
    const text =
      "apiVersion: musicsync/v1\nkind: Project\naccounts:\n  default: { emulator: {} }\n" +
      "  remote: { base_url: 'http://127.0.0.1:9' }\n";
    const file = join(dir, "musicsync.yaml");
    const { project } = loadProjectText(file, text);
    const slept: number[] = [];
    let t = 0;
    const clock = { now: () => t, sleep: async (ms: number) => void slept.push(ms) };
    const env = createEnv({
      project: project!,
      projectFile: file,
      logger: createLogger("silent"),
      stateFile: ":memory:",
      clock,
    });
    try {
      const twice = async (account: string, purpose: "writes" | "searches") => {
        slept.length = 0;
        const pacer = env.pacerFor(account, purpose);
        await pacer.send(async () => null);
        t += 1;
        await pacer.send(async () => null);
        return [...slept];
      };
      expect(await twice("default", "writes")).toEqual([]);
      expect(await twice("default", "searches")).toEqual([]);
      expect((await twice("remote", "writes")).length).toBe(1);
      expect((await twice("remote", "searches")).length).toBe(1);
    } finally {
      await env.close();
    }
  });
});
