/**
 * The README's commands run as written. Every line of its ```sh quick-start blocks is run, in
 * order, through `sh`, from a fresh folder inside the clone (where `npx` finds this package's own
 * commands), `cd` honoured, and must exit as its `# exit N` comment says (0 without one). Every
 * other `musicsync` command in a code block would escape this, so there must be none.
 *
 * The commands are the compiled ones (`npx musicsync`, built by `npm ci`). To try source edits
 * without building, set README_MUSICSYNC (and README_MUSICAPI) to the command to use in their
 * place, e.g. README_MUSICSYNC="npx tsx $PWD/engine/cli/main.ts".
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../engine/cli-process.js";
import { codeLines, runsMusicsync, type ShellLine } from "./readme-commands.js";

const README = await readFile(join(ROOT, "README.md"), "utf8");
const LINES = codeLines(README);
const RUN = LINES.filter((l) => l.info === "sh quick-start");

/** The command as it will run: as written, unless the environment names a stand-in. */
function asRun(command: string): string {
  const swaps: [string, string | undefined][] = [
    ["npx musicsync", process.env.README_MUSICSYNC],
    ["npx musicapi", process.env.README_MUSICAPI],
  ];
  for (const [written, instead] of swaps)
    if (instead && command.startsWith(`${written} `)) return instead + command.slice(written.length);
  return command;
}

interface Ran {
  code: number | null;
  output: string;
}

function sh(command: string, cwd: string, npmCache: string): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn("sh", ["-c", command], {
      cwd,
      // npm_config_yes=false: npx must find the package's own command, never fetch one.
      // A cache of its own: npx links the package's commands into its cache once and keeps the
      // links, so a cache that ran an earlier version of this clone (whose `bin` named other
      // files) would run those files instead of the build under test.
      env: {
        ...process.env,
        NO_COLOR: "1",
        npm_config_yes: "false",
        npm_config_offline: "true",
        npm_config_cache: npmCache,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", fail);
    child.on("exit", (code) => done({ code, output }));
  });
}

describe("README.md", () => {
  it("has a quick start that begins with init, and runs every musicsync command it shows", () => {
    expect(RUN[0]?.command).toBe("npx musicsync init --emulator my-music");
    const escaped = LINES.filter((l) => runsMusicsync(l.command) && l.info !== "sh quick-start");
    expect(escaped.map((l) => `README.md:${l.line}: ${l.command}`)).toEqual([]);
  });

  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it("runs the quick-start lines in order, each exiting as the README says", {
    timeout: 300_000,
  }, async () => {
    // Inside the clone (its tmp/ is git-ignored), as a newcomer runs them from the clone's folder.
    await mkdir(join(ROOT, "tmp"), { recursive: true });
    let cwd = await mkdtemp(join(ROOT, "tmp", "readme-"));
    dirs.push(cwd);
    const npmCache = await mkdtemp(join(ROOT, "tmp", "readme-npm-cache-"));
    dirs.push(npmCache);
    const seen: { line: ShellLine; code: number | null; output: string }[] = [];
    for (const line of RUN) {
      const cd = /^cd (\S+)$/.exec(line.command);
      if (cd) {
        cwd = resolve(cwd, cd[1]!);
        continue;
      }
      const { code, output } = await sh(asRun(line.command), cwd, npmCache);
      seen.push({ line, code, output });
      if (code !== line.exit) break;
    }
    const failed = seen.find((s) => s.code !== s.line.exit);
    const report = failed
      ? `README.md:${failed.line.line}: \`${failed.line.command}\` exited ${failed.code}, not ${failed.line.exit}:\n${failed.output}`
      : "";
    expect(report).toBe("");
    expect(seen.length).toBe(RUN.filter((l) => !l.command.startsWith("cd ")).length);
  });
});
