/**
 * Helpers for the daemon tests: recipes on second-schedules, a daemon in this process, the real
 * `musicsync daemon` as a child process with its JSON log lines, and a recording proxy in front of
 * the emulator that logs every request with its start and end (to see who wrote when).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../../cli/musicsync/main.js";
import type { EngineClient } from "../../engine/apply/client.js";
import { type AttemptEvent, Daemon, type DaemonOptions } from "../../engine/daemon/daemon.js";
import { loadRecipePaths } from "../../engine/recipe/load.js";
import { SECOND_SCHEDULES_ENV } from "../../engine/recipe/schedule.js";
import { createLogger } from "../../engine/run/logger.js";
import { MAIN } from "./cli-process.js";
import { waitUntil } from "./load.js";
import { type RecipeSpec, recipeYaml } from "./recipe-yaml.js";
import type { Harness } from "./sync-harness.js";
import { WRITE_ENDPOINTS } from "./sync-harness.js";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));

// The daemons of these tests run on schedules of seconds, which musicsync refuses to anyone else
// (docs/ENGINE.md#bad-input); this lifts it for this process and the `musicsync` processes it starts.
process.env[SECOND_SCHEDULES_ENV] = "1";

export { waitUntil } from "./load.js";
export { type RecipeSpec, recipeYaml } from "./recipe-yaml.js";
/** The compiled command, as `npx musicsync` runs it (test/global-setup.ts builds dist/ first). */
export { MAIN };

/** The `musicsync` command run in this process (its `main`), output captured. */
export async function musicsync(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: "", stderr: "" };
  const sink = (which: "stdout" | "stderr") =>
    ({
      write(text: string) {
        out[which] += text;
        return true;
      },
    }) as unknown as NodeJS.WritableStream;
  const code = await main(args, {
    stdout: sink("stdout"),
    stderr: sink("stderr"),
    env: { ...process.env, MUSICSYNC_LOG_LEVEL: "silent", ...env },
  });
  return { code, ...out };
}

export async function writeRecipes(dir: string, recipes: readonly RecipeSpec[] | Record<string, string>) {
  const folder = join(dir, "recipes");
  await mkdir(folder, { recursive: true });
  if (Array.isArray(recipes)) {
    for (const r of recipes) await writeFile(join(folder, `${r.id}.yaml`), recipeYaml(r));
  } else {
    for (const [name, text] of Object.entries(recipes)) await writeFile(join(folder, name), text);
  }
}

export interface InProcessDaemon {
  daemon: Daemon;
  events: AttemptEvent[];
  stop(): Promise<void>;
}

/** A daemon in this process over the harness's project, recipes from `<dir>/recipes`. */
export async function startDaemon(
  h: Harness,
  options: Partial<DaemonOptions> = {},
  wrapClient?: (client: EngineClient, account: string) => EngineClient,
): Promise<InProcessDaemon> {
  const events: AttemptEvent[] = [];
  const logger = createLogger(process.env.MUSICSYNC_TEST_LOG ?? "silent");
  const daemon = new Daemon({
    envOptions: {
      project: h.project,
      projectFile: h.projectFile,
      logger,
      stateFile: h.stateFile,
      pacing: { minIntervalMs: 0, maxPerMinute: 0, baseDelayMs: 50 },
    },
    logger,
    options: { retryDelayMs: 200, lockWaitMs: 100, ...options },
    load: () => loadRecipePaths([join(h.dir, "recipes")], { project: h.project }),
    onAttempt: (e) => events.push(e),
    ...(wrapClient ? { wrapClient } : {}),
  });
  await daemon.start();
  return {
    daemon,
    events,
    async stop() {
      await daemon.stop("test");
      await daemon.close();
    },
  };
}

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface ChildDaemon {
  child: ChildProcess;
  logs: LogLine[];
  /** Everything the process wrote on stderr, as is. */
  stderr(): string;
  waitForLog(match: (l: LogLine) => boolean, what: string, timeoutMs?: number): Promise<LogLine>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The real, compiled `musicsync daemon` (or `command`, e.g. `worker`), logging JSON lines at `level`. */
export function spawnDaemon(
  projectFile: string,
  args: readonly string[] = [],
  level = "info",
  command = "daemon",
): ChildDaemon {
  const child = spawn(process.execPath, [MAIN, command, "-p", projectFile, "--log-format", "json", ...args], {
    cwd: ROOT,
    env: { ...process.env, MUSICSYNC_LOG_LEVEL: level, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: LogLine[] = [];
  let raw = "";
  let buffer = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    raw += chunk.toString();
    buffer += chunk.toString();
    let nl = buffer.indexOf("\n");
    while (nl >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      nl = buffer.indexOf("\n");
      if (line.startsWith("{")) logs.push(JSON.parse(line) as LogLine);
    }
  });
  child.stdout!.resume();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    logs,
    stderr: () => raw,
    waitForLog: (match, what, timeoutMs = 20_000) =>
      waitUntil(
        () => logs.find(match),
        () => `${what}; stderr so far:\n${raw.slice(-3000)}`,
        timeoutMs,
      ),
    exited,
  };
}

export interface RecordedRequest {
  via: string;
  endpoint: string;
  write: boolean;
  start: number;
  end: number;
}

export interface Recorder {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A proxy to the emulator that logs each request (who sent it through which door, when). */
export async function startRecorder(target: string, via: string, log: RecordedRequest[]): Promise<Recorder> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const start = performance.timeOrigin + performance.now();
    const path = req.url ?? "/";
    const endpoint = (/\/youtubei\/v1\/([^?]+)/.exec(path)?.[1] ?? path).replace(/\/$/, "");
    const out = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on("end", () =>
          log.push({
            via,
            endpoint,
            write: WRITE_ENDPOINTS.includes(endpoint),
            start,
            end: performance.timeOrigin + performance.now(),
          }),
        );
      },
    );
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
