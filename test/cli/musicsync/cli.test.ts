/**
 * The real `musicsync` command (compiled, as `npx musicsync` and `npm run demo` run it): exit codes,
 * one-line errors, `--json`, saved plans, logs without credentials, and the demo. The many broken
 * inputs and the valid recipes are checked through the command's `main` in this process, where
 * each costs no process start.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../cli/musicsync/main.js";
import { withLock } from "../../../engine/run/runner.js";
import { ensureBuilt, musicsync, type CliResult as Result, ROOT, screen } from "../../support/cli-process.js";
import { stretched } from "../../support/load.js";
import { musicsyncMain } from "../../support/musicsync-inproc.js";
import { catalogueSongs, type Harness, startHarness } from "../../support/sync-harness.js";

// After a source edit the first command builds dist/ (tens of seconds on a busy machine).
beforeAll(() => ensureBuilt(), 180_000);

let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

async function writeRecipe(harness: Harness, ids: readonly string[], mode = "mirror") {
  await writeFile(
    join(harness.dir, "recipes", "mine.yaml"),
    `apiVersion: musicsync/v1
kind: Recipe
id: mine
sources:
  - { id: list, type: static, videoIds: [${ids.join(", ")}] }
target:
  type: playlist
  playlist: { title: "CLI", privacy: PRIVATE }
mode: ${mode}
policy: { batch_size: 4 }
`,
  );
}

describe("musicsync validate", () => {
  // In this process (the command's `main`); the exit codes below are the compiled command's.
  it("accepts the shipped recipes", async () => {
    const r = await musicsyncMain(["validate", join(ROOT, "recipes")]);
    expect(r).toMatchObject({ code: 0, stdout: "8 recipes valid.\n" });
  });

  it("reads the recipes a project file names, relative to it", async () => {
    const r = await musicsyncMain(["validate", "-p", join(ROOT, "examples/musicsync.yaml")]);
    expect(r).toMatchObject({ code: 0, stdout: "8 recipes valid.\n" });
  });

  it("reports every problem as file:line:col message, one line each, exit 1", async () => {
    const file = join(ROOT, "test/engine/recipe/broken-recipes/schema-several-errors.yaml");
    const r = await musicsync(["validate", file]);
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(l).toMatch(/^(error: )?\S+schema-several-errors\.yaml:\d+:\d+ \S/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("says in one line that the project file is missing, with the stack only under --debug", async () => {
    const r = await musicsync(["plan", "-p", "/nonexistent/musicsync.yaml"]);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    // Where it looked, and how to make one: the first thing a newcomer meets outside a project.
    expect(r.stderr).toMatch(/no project file \/nonexistent\/musicsync\.yaml: run `musicsync init`/);
    const debug = await musicsync(["plan", "-p", "/nonexistent/musicsync.yaml", "--debug"]);
    expect(debug.stderr).toMatch(/\n\s+at /);
    // The stack is for reading: its first frame names the function and a line of the shipped
    // chunk that holds the throw (a minified chunk would put everything on line 1).
    const frame = /\n\s+at loadProject \((.+\.cjs):(\d+):\d+\)/.exec(debug.stderr);
    expect(frame, debug.stderr).not.toBeNull();
    const line = readFileSync(frame![1]!, "utf8").split("\n")[Number(frame![2]) - 1]!;
    expect(line).toMatch(/throw .*noProject\(/);
    expect(line.length).toBeLessThan(240);
  });
});

describe("commands outside a project", () => {
  it("validate, plan and doctor say alike that there is no project file and how to make one", async () => {
    const dir = await mkdtemp(join(tmpdir(), "musicsync-no-project-"));
    try {
      const said = `no project file ${join(dir, "musicsync.yaml")}: run \`musicsync init\` here to make one`;
      const validate = await musicsync(["validate"], {}, dir);
      expect(validate.code).toBe(1);
      expect(validate.stderr).toBe(
        `error: ${said} (\`--emulator\` to try it without an account), or name one with -p <file or folder>\n`,
      );
      expect((await musicsync(["plan"], {}, dir)).stderr).toBe(validate.stderr);
      expect((await musicsync(["doctor"], {}, dir)).stdout).toContain(said);
      // Recipe files named on the command line need no project file.
      const recipes = await musicsync(["validate", join(ROOT, "recipes")], {}, dir);
      expect(recipes).toMatchObject({ code: 0, stdout: "8 recipes valid.\n" });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("musicsync plan / apply / sync against the emulator", () => {
  it("plan exits 2 and writes nothing; apply of the saved plan converges; plan then exits 0", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 10);
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    await writeRecipe(h, songs);
    const planFile = join(h.dir, "plan.json");
    const before = await h.writes();
    const planned = await musicsync(["plan", "-p", h.projectFile, "-o", planFile]);
    expect(planned.code, planned.stderr).toBe(2);
    expect(planned.stdout).toMatch(
      /Plan: 10 to add, 0 to remove, 0 to move, 0 to rate, 1 playlist to create;/,
    );
    const dry = await musicsync(["sync", "--dry-run", "-p", h.projectFile]);
    expect(dry.code).toBe(2);
    expect(await h.writes()).toBe(before);
    // Not even the state database is created by planning.
    expect(existsSync(h.stateFile)).toBe(false);

    const doc = JSON.parse(await readFile(planFile, "utf8"));
    expect(doc.format).toBe("musicsync-plan");
    const applied = await musicsync(["apply", planFile, "-p", h.projectFile, "--json"]);
    expect(applied.code, applied.stderr).toBe(0);
    const out = JSON.parse(applied.stdout);
    expect(out.runs[0]).toMatchObject({ recipe: "mine", outcome: "converged", requests: 3 });
    expect(await h.writes()).toBe(before + doc.plans[0].actions.length);

    const again = await musicsync(["plan", "-p", h.projectFile]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/No changes\./);

    // The same saved plan again: refused before any write, said once, naming the run that applied it.
    const writes = await h.writes();
    const twice = await musicsync(["apply", planFile, "-p", h.projectFile]);
    expect(twice.code).toBe(1);
    expect(twice.stdout).toBe(
      "mine: Not applied: recipe mine: this plan was already applied (run 1)\nFailed: 1 of 1 recipe (mine).\n",
    );
    // Not a terminal here: stderr says it too, for a script that keeps only stderr.
    expect(twice.stderr).toBe("error: mine: recipe mine: this plan was already applied (run 1)\n");
    expect(await h.writes()).toBe(writes);

    // A plan whose target another run changed since: refused as out of date, said once.
    await writeRecipe(h, songs.slice(0, 8));
    expect((await musicsync(["plan", "-p", h.projectFile, "-o", planFile])).code).toBe(2);
    await writeRecipe(h, catalogueSongs(h, 12));
    expect((await musicsync(["sync", "-p", h.projectFile])).code).toBe(0);
    const stale = await musicsync(["apply", planFile, "-p", h.projectFile]);
    expect(stale).toMatchObject({
      code: 1,
      stdout:
        "mine: Not applied: recipe mine: the target changed since the plan was made; plan again\n" +
        "Failed: 1 of 1 recipe (mine).\n",
      stderr: "error: mine: recipe mine: the target changed since the plan was made; plan again\n",
    });
  });

  it("sync exits 3 on partial success and 4 while the account is locked", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 6);
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    await writeRecipe(h, [...songs.slice(0, 3), "zzzzzzzzzzz", ...songs.slice(3)]);
    const partial = await musicsync(["sync", "-p", h.projectFile, "--json"]);
    expect(partial.code, partial.stderr).toBe(3);
    expect(JSON.parse(partial.stdout).runs[0]).toMatchObject({
      outcome: "partial",
      quarantined: ["zzzzzzzzzzz"],
    });
    // The next run skips the id, and its report says which and why.
    const settled = await musicsync(["sync", "-p", h.projectFile, "--json"]);
    expect(settled.code).toBe(0);
    expect(JSON.parse(settled.stdout).runs[0]).toMatchObject({
      outcome: "no_changes",
      quarantined: [],
      skipped: [{ op: "skip", videoId: "zzzzzzzzzzz", reason: "quarantined: the service refused to add it" }],
    });

    const env = h.env({ stateFile: h.stateFile });
    await withLock(env, "default", async () => {
      const locked = await musicsync(["sync", "-p", h!.projectFile]);
      expect(locked.code).toBe(4);
      expect(locked.stdout).toMatch(
        /^mine: Not applied: account "default" is locked by .+ \(lock [0-9a-f-]+\)/m,
      );
      expect(locked.stderr).toMatch(/^error: mine: account "default" is locked by .+ \(lock [0-9a-f-]+\)/);
    });
  });

  it("exits 4 when the service refuses the credentials, naming no credential", async () => {
    h = await startHarness();
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    await writeRecipe(h, catalogueSongs(h, 3));
    const sapisid = /SAPISID=([^;]+)/.exec(h.headers.cookie ?? "")![1]!;
    const wrong = { ...h.headers, cookie: h.headers.cookie!.replaceAll(sapisid, "notTheRightOne0000") };
    await writeFile(join(h.dir, "headers.json"), JSON.stringify(wrong));
    const r = await musicsync(["sync", "-p", h.projectFile]);
    expect(r.code).toBe(4);
    expect(r.stdout).toMatch(/^mine: Not applied: .*refused the credentials/m);
    expect(r.stderr).toMatch(/^error: mine: .*refused the credentials/);
    expect(r.stderr).not.toContain("notTheRightOne0000");
    expect(await h.writes()).toBe(0);
  });

  it("logs as pino JSON without any credential, even for throttled writes", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 8);
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    await writeRecipe(h, songs);
    await h.faults({ queue: [{ kind: "rate-limit", endpoint: "playlist/create", retryAfter: 1 }] });
    const r = await musicsync(["sync", "-p", h.projectFile], { MUSICSYNC_LOG_LEVEL: "debug" });
    expect(r.code, r.stderr).toBe(0);
    const logs = r.stderr
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { msg: string });
    expect(logs.some((l) => l.msg === "write throttled; retrying")).toBe(true);
    const sapisid = /SAPISID=([^;]+)/.exec(h.headers.cookie ?? "")![1]!;
    expect(r.stderr).not.toContain(sapisid);
    expect(r.stderr).not.toContain(h.headers.authorization!.split(" ")[1]!);
  });
});

/** The demo's bound: it needs about 13 CPU-s, and at a load of 12 on two cores took over a minute. */
const DEMO_MS = stretched(60_000);

describe("musicsync demo", () => {
  it(
    "syncs the shipped recipes against the embedded emulator, then plans no changes",
    async () => {
      const r = await musicsync(["demo", "--catalogue-size", "300"]);
      expect(r.code, r.stderr).toBe(0);
      const [first, second] = r.stdout.split("── planning again\n");
      expect(first!.match(/^Applied: .*converged\.$/gm)).toHaveLength(8);
      expect(second!.match(/No changes\./g)).toHaveLength(8);
    },
    DEMO_MS,
  );
});

describe("every command with broken inputs: one line per error, no stack without --debug", () => {
  const noStack = (r: Result, label: string) => {
    expect(r.stderr, label).not.toMatch(/\n\s+at /);
    expect(r.stderr, label).not.toMatch(/^\s+at /m);
    const lines = r.stderr.trimEnd().split("\n");
    expect(lines.length, `${label}: ${r.stderr}`).toBeGreaterThan(0);
    for (const l of lines) expect(l, label).toMatch(/^error: \S/);
  };

  // The commands run in this process (their `main`, as the compiled command runs it): what is said
  // and the exit codes are main's; the compiled command's own are checked above and by --debug below.
  it("missing project file, unknown recipe, unreadable plan, service down, bad option values", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 4);
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    await writeRecipe(h, songs);
    const planFile = join(h.dir, "plan.json");
    expect((await musicsyncMain(["plan", "-p", h.projectFile, "-o", planFile])).code).toBe(2);
    const garbage = join(h.dir, "garbage.json");
    await writeFile(garbage, "{ not json");
    const wrongFormat = join(h.dir, "wrong.json");
    await writeFile(wrongFormat, JSON.stringify({ format: "something-else", version: 9 }));
    const missing = join(h.dir, "nowhere", "musicsync.yaml");
    const p = ["-p", h.projectFile];
    const before: [string, string[]][] = [
      ["validate, missing project", ["validate", "-p", missing]],
      ["plan, missing project", ["plan", "-p", missing]],
      ["sync, missing project", ["sync", "-p", missing]],
      ["apply, missing project", ["apply", planFile, "-p", missing]],
      ["unlock, missing project", ["unlock", "some-lock", "-p", missing]],
      ["plan, unknown recipe", ["plan", ...p, "-r", "no-such-recipe"]],
      ["sync, unknown recipe", ["sync", ...p, "-r", "no-such-recipe"]],
      ["sync --dry-run, unknown recipe", ["sync", "--dry-run", ...p, "-r", "no-such-recipe"]],
      ["apply, missing plan file", ["apply", join(h.dir, "none.json"), ...p]],
      ["apply, plan file not JSON", ["apply", garbage, ...p]],
      ["apply, plan file of another format", ["apply", wrongFormat, ...p]],
      ["validate, missing recipe path", ["validate", join(h.dir, "no-recipes-here")]],
      ["demo, catalogue size not a number", ["demo", "--catalogue-size", "lots"]],
    ];
    // One at a time: commands on one state file at once could meet the account lock (exit 4) or a
    // busy database, which is not what this test is about.
    for (const [label, args] of before) {
      const r = await musicsyncMain(args);
      expect(r.code, `${label}: ${r.stderr}`).toBe(1);
      noStack(r, label);
    }
    // The service is down: every command that talks to it says so in one line.
    await h.emulator.stop();
    const down: [string, string[]][] = [
      ["plan, service down", ["plan", ...p]],
      ["sync, service down", ["sync", ...p]],
      ["sync --dry-run, service down", ["sync", "--dry-run", ...p]],
      ["apply, service down", ["apply", planFile, ...p]],
    ];
    for (const [label, args] of down) {
      const r = await musicsyncMain(args);
      expect(r.code, `${label}: ${r.stderr}`).toBe(1);
      // Said with its recipe in the text of the runs, and on stderr (not a terminal), without a stack.
      noStack(r, label);
      expect(r.stderr, label).toMatch(/connect|connection|refused|ECONNREFUSED/i);
    }
    // --debug adds the stack (in the debug log line of the failed recipe).
    const debug = await musicsync(["plan", ...p, "--debug"]);
    expect(debug.stderr).toMatch(/"stack":"TransportError: [^"]*\\n\s+at /);
  });
});

describe("progress on a terminal", () => {
  it("draws a bar of writes on a terminal, and none into a pipe or with --json", async () => {
    h = await startHarness();
    await mkdir(join(h.dir, "recipes"), { recursive: true });
    await writeRecipe(h, catalogueSongs(h, 10));
    const tty = screen(true);
    const err = screen(false);
    const code = await main(["sync", "-p", h.projectFile], {
      stdout: tty.stream,
      stderr: err.stream,
      env: {},
    });
    expect(code, err.text()).toBe(0);
    expect(tty.text()).toMatch(/mine \[[^\]]*\] \d+\/3 writes/);
    await writeRecipe(h, catalogueSongs(h, 14));
    const pipe = screen(false);
    expect(
      await main(["sync", "-p", h.projectFile], { stdout: pipe.stream, stderr: err.stream, env: {} }),
    ).toBe(0);
    expect(pipe.text()).not.toMatch(/writes/);
    expect(pipe.text()).toMatch(/^mine: Applied: /m);
    await writeRecipe(h, catalogueSongs(h, 18));
    const json = screen(true);
    const jsonCode = await main(["sync", "-p", h.projectFile, "--json"], {
      stdout: json.stream,
      stderr: err.stream,
      env: {},
    });
    expect(jsonCode).toBe(0);
    expect(JSON.parse(json.text()).runs[0]).toMatchObject({ recipe: "mine", outcome: "converged" });
  });
});
