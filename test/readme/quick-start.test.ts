/**
 * The README's commands run as written. Every line of its ```sh quick-start blocks is run, in
 * order, through `sh`, from a fresh folder inside the clone, `cd` and `export PATH="$PWD/…:$PATH"`
 * honoured (`$PWD` being the clone's folder, where a newcomer types it), and must exit as its
 * `# exit N` comment says (0 without one). Every other `musicsync` command in a code block would
 * escape this, so there must be none.
 *
 * The commands are the compiled ones (bin/ links to what `npm ci` builds). To try source edits
 * without building, set README_MUSICSYNC (and README_MUSICAPI) to the command to use in their
 * place, e.g. README_MUSICSYNC="npx tsx $PWD/cli/musicsync/main.ts".
 */
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { delimiter, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/cli-process.js";
import { codeLines, runsMusicsync, type ShellLine } from "./readme-commands.js";

const README = await readFile(join(ROOT, "README.md"), "utf8");
const LINES = codeLines(README);
const RUN = LINES.filter((l) => l.info === "sh quick-start");

/** The command as it will run: as written, unless the environment names a stand-in. */
function asRun(command: string): string {
  const swaps: [string, string | undefined][] = [
    ["musicsync", process.env.README_MUSICSYNC],
    ["musicapi", process.env.README_MUSICAPI],
  ];
  for (const [written, instead] of swaps)
    if (instead && command.startsWith(`${written} `)) return instead + command.slice(written.length);
  return command;
}

interface Ran {
  code: number | null;
  output: string;
}

function sh(command: string, cwd: string, path: string): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn("sh", ["-c", command], {
      cwd,
      env: { ...process.env, NO_COLOR: "1", PATH: path },
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
    expect(RUN.map((l) => l.command).slice(0, 2)).toEqual([
      'export PATH="$PWD/bin:$PATH"',
      "musicsync init --emulator my-music",
    ]);
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
    // The runner's PATH without the clone's bin/: the README's own export must put it there.
    let path = (process.env.PATH ?? "")
      .split(delimiter)
      .filter((d) => d !== join(ROOT, "bin"))
      .join(delimiter);
    const seen: { line: ShellLine; code: number | null; output: string }[] = [];
    for (const line of RUN) {
      const cd = /^cd (\S+)$/.exec(line.command);
      if (cd) {
        cwd = resolve(cwd, cd[1]!);
        continue;
      }
      const exported = /^export PATH="\$PWD\/([\w/]+):\$PATH"$/.exec(line.command);
      if (exported) {
        path = `${join(ROOT, exported[1]!)}${delimiter}${path}`;
        continue;
      }
      const { code, output } = await sh(asRun(line.command), cwd, path);
      seen.push({ line, code, output });
      if (code !== line.exit) break;
    }
    const failed = seen.find((s) => s.code !== s.line.exit);
    const report = failed
      ? `README.md:${failed.line.line}: \`${failed.line.command}\` exited ${failed.code}, not ${failed.line.exit}:\n${failed.output}`
      : "";
    expect(report).toBe("");
    expect(seen.length).toBe(RUN.filter((l) => !/^(cd|export) /.test(l.command)).length);
  });
});
