/**
 * The guides in docs/ run as written. Each guide's shell lines run in order in one shell session
 * (a `cd` or `export` holds for the lines after it), in a copy of the project the README's quick
 * start leaves (`musicsync init --emulator my-music`, then two syncs: runs 1 and 2), and each must
 * exit as its `# exit N` comment says (0 without one). `musicsync` and `musicapi` are the built
 * commands (dist/bin), on the PATH as an installed package puts them. A block whose info string
 * names a file after its language (```yaml recipes/road-trip.yaml) is saved as that file at that
 * point. A line `# in a second terminal` runs in the background until the guide ends (it must not
 * end before); when it names a port, the session goes on once something listens there. The ports a
 * guide shows (127.0.0.1:8080, --port 8080) are swapped for free ones, and a `postgres://` state URL
 * for a fresh database of a throwaway server, in lines and saved files alike.
 *
 * Every ```ts block runs with `node` (as docs/client.md tells a reader) to the end (exit 0, within
 * a time-out) and must print what the ```text output block after it shows (`…` stands for any text
 * within a line); each is also kept in examples/, where the type check covers it.
 *
 * A block that cannot run here (it needs a real account, a person, or hours) is marked with
 * `<!-- not run: why -->` just before it; NOT_RUN lists every such mark, so none hides silently.
 */
import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { ROOT } from "../support/cli-process.js";
import { credentialSecrets, describePieces, findCredentialPieces } from "../support/credential-leaks.js";
import {
  externalPostgres,
  type PostgresServer,
  postgresBinaries,
  startPostgres,
  withoutPostgres,
} from "../support/postgres-server.js";
import {
  commandsFolder,
  freePorts,
  portsIn,
  printsAsShown,
  readerEnv,
  runTypeScript,
  scratch,
  swapPorts,
} from "./code-runner.js";
import { type CodeBlock, codeBlocks, type Step, sessionSteps } from "./markdown.js";
import { codeLines } from "./readme-commands.js";
import { type Ran, ShellSession } from "./shell-session.js";

const GUIDES = ["client", "recipes", "daemon", "accounts", "services", "operations", "spotify-sign-in"].map(
  (g) => `docs/${g}.md`,
);
const TEXT = new Map<string, string>();
for (const file of ["README.md", ...GUIDES]) TEXT.set(file, await readFile(join(ROOT, file), "utf8"));
const BLOCKS = new Map([...TEXT].map(([file, text]) => [file, codeBlocks(text)]));

/** Every block shown but not run, as `file — reason`. */
const NOT_RUN = [
  "README.md — installs the clone and runs the whole suite: what this suite is",
  "README.md — downloads a release from GitHub; CI installs the packed tarball the same way (.ci/after-tests)",
  "README.md — downloads a Node build from the registry; CI gets its two Nodes this way (.ci/run)",
  "docs/client.md — talks to music.youtube.com, and needs a signed-in account's browser.json",
  "docs/client.md — needs the request headers of a browser signed in to music.youtube.com",
  "docs/client.md — needs a Google Cloud OAuth client and a person to grant access",
  "docs/accounts.md — needs the request headers of a browser signed in to music.youtube.com",
  "docs/services.md — needs a Spotify developer app and its secret",
  "docs/operations.md — hours of work; npm test runs seeds 1-5, 53 and every seed that ever failed",
  "docs/spotify-sign-in.md — needs a Spotify app and a person to approve in a browser",
  "docs/spotify-sign-in.md — needs a Spotify app and a person to approve in a browser",
  "docs/spotify-sign-in.md — needs a second machine and a person at a browser",
  "docs/spotify-sign-in.md — needs a kept sign-in",
];

/** The languages a block may have: `sh` and `ts` run, the others are read (yaml must parse). */
const LANGS = new Set(["sh", "ts", "yaml", "text", "json", "ini"]);

const LINE_MS = 120_000;
const EXAMPLE_MS = 90_000;

const dirs: string[] = [];
let template = "";
let env: NodeJS.ProcessEnv = {};

beforeAll(async () => {
  const bin = await commandsFolder();
  dirs.push(bin);
  env = readerEnv(bin);
  template = await scratch("docs-quick-start-");
  dirs.push(template);
  // What the README's quick start leaves behind, made the short way.
  const session = await ShellSession.open(template, env);
  try {
    for (const line of [
      "musicsync init --emulator my-music",
      "cd my-music",
      "musicsync sync",
      "musicsync sync",
    ]) {
      const ran = await session.run(line, LINE_MS);
      if (ran.code !== 0) throw new Error(`${line} exited ${ran.code}:\n${ran.output}`);
    }
  } finally {
    await session.close();
  }
}, 300_000);

afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

function where(file: string, block: CodeBlock): string {
  return `${file}:${block.line}`;
}

describe("README.md and docs/: which blocks run", () => {
  it("runs every shell and TypeScript block but the marked ones, and these are the marked ones", () => {
    const marked: string[] = [];
    const escaped: string[] = [];
    for (const [file, blocks] of BLOCKS) {
      for (const b of blocks) {
        if (!LANGS.has(b.lang)) escaped.push(`${where(file, b)}: a \`${b.lang}\` block, which nothing runs`);
        if (b.notRun !== null) marked.push(`${file} — ${b.notRun}`);
        // The README's shell blocks are its quick start, which quick-start.test.ts runs.
        else if (file === "README.md" && b.lang === "sh" && b.attrs[0] !== "quick-start")
          escaped.push(`${where(file, b)}: a shell block outside the quick start`);
      }
    }
    expect(escaped).toEqual([]);
    expect(marked.sort()).toEqual([...NOT_RUN].sort());
  });

  it("starts the README with the two commands: install and run the main job, and run the tests", async () => {
    const first = BLOCKS.get("README.md")![0]!;
    expect(first.line).toBeLessThan(10);
    expect(first.lines.map((l) => l.replace(/\s+#.*$/, ""))).toEqual(["npm ci && npm run demo", "npm test"]);
    const { scripts } = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    expect(scripts.demo).toMatch(/musicsync\.js demo$/);
    expect(scripts.test).toBeDefined();
  });

  it("runs every guide of docs/", async () => {
    // The design docs (names in capitals) hold no command to run; design-docs.test.ts holds them.
    const docs = (await readdir(join(ROOT, "docs")))
      .filter((f) => f.endsWith(".md") && !/^[A-Z]+\.md$/.test(f))
      .map((f) => `docs/${f}`);
    expect(docs.sort()).toEqual([...GUIDES].sort());
  });

  it("leaves the guides where the README's quick start leaves a reader: my-music, after two syncs", () => {
    const quickStart = codeLines(TEXT.get("README.md")!).filter((l) => l.info === "sh quick-start");
    const commands = quickStart.map((l) => l.command).filter((c) => !c.startsWith("export PATH="));
    expect(commands[0]).toBe("musicsync init --emulator my-music");
    expect(commands).toContain("cd my-music");
    expect(commands.filter((c) => c === "musicsync sync")).toHaveLength(2);
  });

  it("shows YAML that parses", () => {
    const bad: string[] = [];
    for (const [file, blocks] of BLOCKS) {
      for (const b of blocks.filter((b) => b.lang === "yaml")) {
        // A recipe file may hold several recipes, separated by `---`: each document must parse.
        for (const doc of parseAllDocuments(b.lines.join("\n"))) {
          const first = doc.errors[0];
          if (first) bad.push(`${where(file, b)}: ${first.message}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});

/** A state URL a guide shows; the test's own database takes its place. */
const POSTGRES_URL = /postgres:\/\/[^\s"'`]+/g;

/** The PostgreSQL server of the guides that name one, started by the first that does. */
let postgres: PostgresServer | undefined;
afterAll(() => postgres?.stop(), 60_000);

/** A fresh database for a guide that names one; null when this machine has no PostgreSQL (not CI). */
async function guideDatabase(): Promise<string | null> {
  const external = process.env.MUSICSYNC_TEST_PG_URL;
  const mode = withoutPostgres(external ? null : postgresBinaries(), process.env);
  if (mode === "skip") return null;
  if (mode === "fail") throw new Error("CI needs PostgreSQL for the guides that use it");
  // From the run's template when it has one (test/global-setup.ts), as usePostgres starts its servers.
  const templates = inject("postgresTemplates");
  postgres ??= external ? externalPostgres(external) : await startPostgres(templates ? { templates } : {});
  return postgres.createDatabase("docs");
}

/** Runs a guide's steps in `session`; "" when each exited as shown, else what went wrong. */
async function play(
  file: string,
  steps: readonly Step[],
  localise: (text: string) => string,
  session: ShellSession,
  ran: Map<number, Ran>,
): Promise<string> {
  for (const step of steps) {
    const at = `${file}:${step.line}`;
    if (step.kind === "write") {
      await session.write(step.path, localise(step.text), LINE_MS);
      continue;
    }
    // A line is run alone: a here-document's text would be run as lines of its own.
    if (/<<-?\s*['"]?\w/.test(step.command))
      return `${at}: a here-document; show the text as a block saved as a file instead`;
    const command = localise(step.command);
    if (step.background) {
      await session.startBackground(command, portsIn(command)[0] ?? null);
      continue;
    }
    const result = await session.run(command, LINE_MS);
    ran.set(step.line, result);
    if (result.code !== step.exit)
      return `${at}: \`${step.command}\` exited ${result.code}, not ${step.exit}:\n${result.output}`;
  }
  const ended = session.endedEarly();
  return ended.length === 0 ? "" : `${file}: ended before the guide did: ${ended.join("; ")}`;
}

/** Checks of what a guide's lines left behind, beyond their exit codes. */
const AFTERWARDS: Record<string, (project: string, ran: Map<number, Ran>, steps: Step[]) => Promise<void>> = {
  // The drafted matches.yaml sits among the recipes, and the commands that load them pass over it.
  "docs/recipes.md": async (project, ran, steps) => {
    const drafted = await readFile(join(project, "recipes", "matches.yaml"), "utf8");
    expect(drafted).toMatch(/^"[^"]+": [\w-]{11} {2}# /m);
    const draft = steps.findIndex((s) => s.kind === "run" && s.command.includes("--write-overrides"));
    const after = steps
      .slice(draft + 1)
      .filter((s) => s.kind === "run" && /^musicsync (validate|plan)/.test(s.command));
    expect(after.length).toBeGreaterThan(0);
    for (const s of after) expect(ran.get(s.line)?.output).not.toContain("matches.yaml");
  },
};

describe.each(GUIDES)("%s", (file) => {
  const steps = sessionSteps(BLOCKS.get(file)!);

  it("runs every command as written, each exiting as the guide says", { timeout: 900_000 }, async (ctx) => {
    const texts = steps.map((s) => (s.kind === "run" ? s.command : s.text));
    const ports = [...new Set(texts.flatMap(portsIn))];
    const free = await freePorts(ports.length);
    const swaps = new Map(ports.map((p, i) => [p, free[i]!]));
    const database = texts.some((t) => t.match(POSTGRES_URL)) ? await guideDatabase() : "";
    if (database === null) return ctx.skip("no PostgreSQL here, which this guide uses");
    const localise = (text: string) => swapPorts(text, swaps).replace(POSTGRES_URL, database);
    const dir = await scratch("docs-guide-");
    dirs.push(dir);
    await cp(template, dir, { recursive: true });
    const project = join(dir, "my-music");
    const session = await ShellSession.open(project, env);
    const ran = new Map<number, Ran>();
    let report: string;
    try {
      report = await play(file, steps, localise, session, ran);
    } finally {
      await session.close();
    }
    expect(report).toBe("");
    await AFTERWARDS[file]?.(project, ran, steps);
    await expectNoCredentials(
      dir,
      [...ran.values()].map((r) => r.output),
    );
  });

  const examples = BLOCKS.get(file)!.filter((b) => b.lang === "ts" && b.notRun === null);
  if (examples.length === 0) return;
  it("runs every TypeScript example to the end, printing what the guide shows", {
    timeout: 300_000,
  }, async () => {
    const dir = await scratch("docs-examples-");
    dirs.push(dir);
    const kept = await keptExamples();
    for (const block of examples) await checkExample(file, block, kept, dir);
  });
});

/** One example: kept in examples/, followed by the output it prints, and run to the end printing it. */
async function checkExample(
  file: string,
  block: CodeBlock,
  kept: readonly string[],
  dir: string,
): Promise<void> {
  const blocks = BLOCKS.get(file)!;
  const code = `${block.lines.join("\n")}\n`;
  expect(
    kept.some((k) => k.includes(code)),
    `${where(file, block)} is not kept in examples/`,
  ).toBe(true);
  const shown = blocks[blocks.indexOf(block) + 1];
  const hasOutput = shown?.lang === "text" && shown.attrs[0] === "output";
  expect(hasOutput, `${where(file, block)}: no \`\`\`text output block after it`).toBe(true);
  const path = join(dir, `example-${block.line}.ts`);
  await writeFile(path, code);
  const printed = await runTypeScript(path, dir, EXAMPLE_MS);
  const ended = printed.timedOut ? "still running after the time-out" : `exit ${printed.code}`;
  const at = `${where(file, block)} (${ended})`;
  expect({ at, code: printed.code, stderr: printed.stderr }).toEqual({ at, code: 0, stderr: "" });
  expect(printsAsShown(printed.stdout, shown!.lines), `${at} printed:\n${printed.stdout}`).toBe(true);
}

/**
 * No line of a guide printed a credential of the headers files it fetched, nor a piece of one, and
 * no state database of musicsync holds one (stored accounts are sealed).
 */
async function expectNoCredentials(dir: string, outputs: readonly string[]): Promise<void> {
  const files = await readdir(dir, { recursive: true });
  const secrets: string[] = [];
  for (const f of files.filter((f) => f.endsWith(".json"))) {
    const parsed = JSON.parse(await readFile(join(dir, f), "utf8")) as unknown;
    const isHeaders =
      typeof parsed === "object" && parsed !== null && Object.keys(parsed).some((k) => /^cookie$/i.test(k));
    if (isHeaders) secrets.push(...credentialSecrets(parsed as Record<string, string>));
  }
  if (secrets.length === 0) return;
  for (const [i, output] of outputs.entries())
    expect(describePieces(findCredentialPieces(output, secrets)), `output ${i + 1}`).toBe("");
  for (const f of files.filter((f) => /(^|\/)musicsync\.db(-wal)?$/.test(f)))
    expect(describePieces(findCredentialPieces(await readFile(join(dir, f)), secrets)), f).toBe("");
}

/** The TypeScript files of examples/, which the project's type check covers. */
async function keptExamples(): Promise<string[]> {
  const dir = join(ROOT, "examples");
  const files = (await readdir(dir)).filter((f) => f.endsWith(".ts"));
  return Promise.all(files.map((f) => readFile(join(dir, f), "utf8")));
}
