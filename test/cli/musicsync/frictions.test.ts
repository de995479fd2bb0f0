/**
 * Command-line frictions a newcomer hit, against the compiled `musicsync` and an emulator: skipped
 * items said once per reason, `sync --quiet` and `-v`, `sync --lock-wait`, the next step after
 * refused credentials, settings whose `${VAR}` is not set where a command runs, and typos. A test
 * whose point is what is said, not the process, runs the command's `main` in this process.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ApplyResult } from "../../../engine/apply/context.js";
import { resultLine } from "../../../engine/render/text.js";
import type { RecipeRun } from "../../../engine/run/runner.js";
import { openSqliteState } from "../../../engine/state/sqlite.js";
import { ensureBuilt, MAIN, musicsync } from "../../support/cli-process.js";
import { recipeYaml, waitUntil } from "../../support/daemon-harness.js";
import { musicsyncInProc, musicsyncMain } from "../../support/musicsync-inproc.js";
import { catalogueSongs, type Harness, startHarness } from "../../support/sync-harness.js";
import { withTempDir } from "../../support/temp-dir.js";

beforeAll(() => ensureBuilt(), 180_000);

let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

/** A mirror of `ids` into a playlist titled as its id, keeping the first `limit` of them. */
function limitedRecipe(id: string, ids: readonly string[], limit: number): string {
  return recipeYaml({ id, ids }).replace("target:", `pipeline:\n  - limit: ${limit}\ntarget:`);
}

// In this process (the command's `main`): what is said is the point, not the process.
describe("skipped items and --quiet", () => {
  it("says a limit's dropped items in one line (-v lists each); sync --quiet leaves out what has nothing to do", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 12);
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    await writeFile(join(h.dir, "recipes", "top.yaml"), limitedRecipe("top", songs, 4));
    const p = ["-p", h.projectFile];
    const dry = await musicsyncMain(["sync", "--dry-run", ...p]);
    expect(dry.code).toBe(2);
    const skips = dry.stdout.split("\n").filter((l) => l.includes("! skip"));
    expect(skips).toHaveLength(1);
    expect(skips[0]).toMatch(
      /^ {2}! skip 8 items \(over the limit of 4\): [^;]+; [^;]+; [^;]+; … \(-v lists each\)$/,
    );
    const verbose = await musicsyncMain(["sync", "--dry-run", "-v", ...p]);
    expect(verbose.stdout.split("\n").filter((l) => l.endsWith("(over the limit of 4)"))).toHaveLength(8);

    expect((await musicsyncMain(["sync", ...p])).code).toBe(0);
    const again = await musicsyncMain(["sync", "--quiet", ...p]);
    expect(again).toMatchObject({ code: 0, stdout: "No changes.\n" });
    // A recipe with something to do is shown whole; the settled one is left out.
    await writeFile(join(h.dir, "recipes", "more.yaml"), limitedRecipe("more", songs.slice(0, 2), 5));
    const one = await musicsyncMain(["sync", "--quiet", ...p]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^more: playlist "more" \(new\) \[mirror\]$/m);
    expect(one.stdout).toMatch(/^more: Applied: /m);
    expect(one.stdout).not.toMatch(/^top/m);
  });
});

/** `musicsync <args>` started, its stderr watched as it comes; `done` resolves at its exit. */
function started(args: readonly string[]) {
  const child = spawn(process.execPath, [MAIN, ...args], {
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out = { stdout: "", stderr: "" };
  child.stdout.on("data", (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out.stderr += d.toString()));
  // Bounded: a command that hangs is killed and fails the test.
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, ...out });
    }),
  );
  return { child, out, done };
}

describe("sync --lock-wait", () => {
  it("waits for an account another process holds, says who holds it, and syncs once it is free", async () => {
    h = await startHarness();
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    await writeFile(join(h.dir, "recipes", "top.yaml"), limitedRecipe("top", catalogueSongs(h, 3), 3));
    const p = ["-p", h.projectFile];
    expect(await musicsyncMain(["sync", "--lock-wait", "soon", ...p])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--lock-wait: "soon" is not a duration'),
    });
    // Another live process of this machine (this test's) holds the account.
    const state = openSqliteState(h.stateFile);
    try {
      const held = await state.acquireLock("default", `${hostname()}:${process.pid}`, Date.now(), 300_000);
      if (!held.acquired) throw new Error("the test could not take the lock");
      const short = await musicsync(["sync", "--lock-wait", "1s", ...p]);
      expect(short.code).toBe(4);
      expect(short.stderr).toContain(
        `waiting up to 1 s for account "default": locked by ${hostname()}:${process.pid}`,
      );
      expect(short.stdout).toMatch(
        /^top: Not applied: still locked after waiting 1 s: account "default" is locked by /m,
      );

      // Ctrl-C ends a wait at once: nothing run, exit 130.
      const stopped = started(["sync", "--lock-wait", "50s", ...p]);
      await waitUntil(() => stopped.out.stderr.includes("waiting up to 50 s"), "the sync to wait", 30_000);
      stopped.child.kill("SIGINT");
      const cut = await stopped.done;
      expect(cut.code).toBe(130);
      expect(cut.stdout).toMatch(
        /^top: Not applied: stopped while waiting: account "default" is locked by /m,
      );

      const waiting = started(["sync", "--lock-wait", "50s", ...p]);
      await waitUntil(() => waiting.out.stderr.includes("waiting up to 50 s"), "the sync to wait", 30_000);
      await state.releaseLock(held.lock.lockId);
      const synced = await waiting.done;
      expect(synced.code).toBe(0);
      expect(synced.stdout).toMatch(/^top: Applied: /m);
    } finally {
      await state.close();
    }
  });
});

describe("refused credentials", () => {
  it("sync says the next step, as doctor and status do: renew them, then resume the account", async () => {
    h = await startHarness();
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    await writeFile(join(h.dir, "recipes", "top.yaml"), limitedRecipe("top", catalogueSongs(h, 3), 3));
    // Every signature now looks too old: the service refuses the cookie (HTTP 401).
    await fetch(`${h.emulator.url}/_emulator/config`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ auth: { maxHashAgeSeconds: -100_000 } }),
    });
    const r = await musicsync(["sync", "-p", h.projectFile]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(
      "account default: the service refused its credentials: renew them with `musicapi browser` " +
        "(or `musicapi oauth`), then `musicsync resume default` (it is suspended until then)",
    );
    const status = await musicsyncMain(["status", "-p", h.projectFile]);
    expect(status.stdout).toContain("lift with: musicsync resume default");
  });
});

// In this process (`main`, with `env` as the command's environment): what is said is the point.
describe("settings read when used, their environment variable not set here", () => {
  const notify = [
    "notify:",
    "  - type: webhook",
    "    url: https://hooks.example.org/musicsync",
    `    headers: { Authorization: "Bearer \${HOOK_TOKEN}" }`,
    "",
  ].join("\n");

  it("validate passes with a warning naming the variable; sync refuses before any write; --dry-run plans", async () => {
    h = await startHarness();
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    await writeFile(join(h.dir, "recipes", "top.yaml"), limitedRecipe("top", catalogueSongs(h, 3), 3));
    const text = await readFile(h.projectFile, "utf8");
    const line = text.split("\n").length + 3;
    await writeFile(h.projectFile, text + notify);
    const p = ["-p", h.projectFile];
    const env = { HOOK_TOKEN: "" };
    const valid = await musicsyncMain(["validate", ...p], env);
    expect(valid).toMatchObject({ code: 0, stdout: "1 recipe valid.\n" });
    expect(valid.stderr).toBe(
      `${h.projectFile}:${line}:31 warning: notify[0].headers.Authorization: HOOK_TOKEN is not set here; the setting is checked when a command uses it\n`,
    );
    const sync = await musicsyncMain(["sync", ...p], env);
    expect(sync.code).toBe(1);
    expect(sync.stderr).toBe(
      `error: sync sends the notifications of notify:, but ${h.projectFile}:${line}:31: ` +
        "notify[0].headers.Authorization needs the environment variable HOOK_TOKEN, which is not set\n",
    );
    expect(existsSync(join(h.dir, "state.db"))).toBe(false);
    expect((await musicsyncMain(["sync", "--dry-run", ...p], env)).code).toBe(2);
    const doctor = await musicsyncMain(["doctor", ...p], env);
    expect(doctor.stdout).toContain(
      `warning notify: ${h.projectFile}:${line}:31: notify[0].headers.Authorization needs the environment ` +
        "variable HOOK_TOKEN, which is not set: sync and the daemon refuse to run here",
    );
    // The daemon, whose notifications nobody would otherwise miss, does not start without it.
    const daemon = await musicsyncMain(["daemon", ...p], env);
    expect(daemon.code).toBe(1);
    expect(daemon.stderr).toContain(
      "error: the daemon sends the notifications of notify:, but " +
        `${h.projectFile}:${line}:31: notify[0].headers.Authorization needs the environment variable HOOK_TOKEN`,
    );
  });

  it("an account's unset credentials fail its recipes only, by name; an unset state fails what opens it", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 4);
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    await writeFile(join(h.dir, "recipes", "mine.yaml"), limitedRecipe("mine", songs.slice(0, 2), 2));
    await writeFile(
      join(h.dir, "recipes", "theirs.yaml"),
      limitedRecipe("theirs", songs.slice(2), 2).replace("id: theirs", "id: theirs\naccount: other"),
    );
    const text = await readFile(h.projectFile, "utf8");
    await writeFile(
      h.projectFile,
      text.replace(
        "accounts:\n",
        `accounts:\n  other: { auth: "\${OTHER_AUTH}", base_url: "http://127.0.0.1:9" }\n`,
      ),
    );
    const p = ["-p", h.projectFile];
    const sync = await musicsyncMain(["sync", ...p], { OTHER_AUTH: "" });
    expect(sync.stdout).toMatch(/^mine: Applied: /m);
    expect(sync.stdout).toContain(
      `theirs: Not applied: account other is used, but ${h.projectFile}:4:18: accounts.other.auth needs the environment variable OTHER_AUTH, which is not set`,
    );
    expect(sync.code).not.toBe(0);

    await rm(join(h.dir, "recipes", "theirs.yaml"));
    await writeFile(h.projectFile, text.replace("state: state.db", `state: "\${DATABASE_URL}"`));
    const env = { DATABASE_URL: "" };
    const valid = await musicsyncMain(["validate", ...p], env);
    expect(valid.code, valid.stderr).toBe(0);
    const plan = await musicsyncMain(["plan", ...p], env);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain("this command opens the state, but");
    expect(plan.stderr).toContain("state needs the environment variable DATABASE_URL, which is not set");
    const doctor = await musicsyncMain(["doctor", ...p], env);
    expect(doctor.stdout).toMatch(/^error +state: .*state needs the environment variable DATABASE_URL/m);
  });
});

describe("typos and small wording", () => {
  it("an unknown command or option is one line with commander's suggestion and which --help to read, exit 1", async () => {
    const aply = await musicsyncInProc(["aply"]);
    expect(aply).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: unknown command 'aply' (Did you mean apply?); see `musicsync --help`\n",
    });
    const option = await musicsyncInProc(["sync", "--dry-runn"]);
    expect(option).toEqual({
      code: 1,
      stdout: "",
      stderr: "error: unknown option '--dry-runn' (Did you mean --dry-run?); see `musicsync sync --help`\n",
    });
    // The value of a mistyped --option=value is not echoed: it may be a credential.
    const value = await musicsyncInProc(["sync", "--authh=SAPISIDabcdefghijklmnop"]);
    expect(value.stderr).toBe("error: unknown option '--authh=…'; see `musicsync sync --help`\n");
    // Nor a credential pasted where the command goes: only a word that looks like a name is shown.
    for (const pasted of [
      "SAPISID=Zq8HcR2vLm5TnB4x/AkYpWd3",
      "ya29.a0AfH6SMBx3kQ9wL2nV8cR",
      "Zq8HcR2vLm5TnB4xAkYpWd3Kq",
    ]) {
      const r = await musicsyncInProc([pasted]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe("error: unknown command '…'; see `musicsync --help`\n");
    }
    const missing = await musicsyncInProc(["apply"]);
    expect(missing.stderr).toBe("error: missing required argument 'plan'; see `musicsync apply --help`\n");
  });

  it("a mistyped recipe id names the near one", async () => {
    await withTempDir("musicsync-typo-", async (dir) => {
      expect((await musicsyncInProc(["init", dir, "--emulator"])).code).toBe(0);
      const r = await musicsyncInProc(["plan", "-p", dir, "-r", "startr", "elsewhere"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe('error: no recipe with id startr, did you mean "starter"?; elsewhere\n');
    });
  });

  it("a recipe's failure is said once on a terminal, and also on stderr where the streams part", async () => {
    await withTempDir("musicsync-once-", async (dir) => {
      expect((await musicsyncInProc(["init", dir, "--emulator"])).code).toBe(0);
      const recipe = join(dir, "recipes", "starter.yaml");
      const text = await readFile(recipe, "utf8");
      await writeFile(
        recipe,
        text.replace(/type: chart[^}]*/, "type: playlist, playlistId: PLgoneGone0000 "),
      );
      const gone = /playlist PLgoneGone0000 was not found/g;
      for (const command of ["sync", "plan"]) {
        const screen = await musicsyncInProc([command, "-p", dir], { terminal: true });
        expect(screen.code).toBe(1);
        expect(`${screen.stdout}${screen.stderr}`.match(gone)).toHaveLength(1);
        const parted = await musicsyncInProc([command, "-p", dir]);
        expect(parted.stdout.match(gone)).toHaveLength(1);
        expect(parted.stderr.match(gone)).toHaveLength(1);
      }
    });
  });

  it("counts one action and one request in the singular", () => {
    const run = (n: number): RecipeRun => ({
      recipeId: "r",
      plan: null,
      outcome: "converged",
      error: null,
      apply: { outcomes: Array.from({ length: n }, () => ({})), requests: n } as unknown as ApplyResult,
    });
    expect(resultLine(run(1))).toBe("Applied: 1 action in 1 write request; converged.");
    expect(resultLine(run(2))).toBe("Applied: 2 actions in 2 write requests; converged.");
  });
});
