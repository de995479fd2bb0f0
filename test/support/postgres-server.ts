/**
 * A throwaway PostgreSQL server for tests: Debian's binaries, a data folder in a temp folder, a
 * random port on 127.0.0.1, stopped (and the folder removed) by `stop()`, by the process's exit, or
 * — if the process is killed — by a small watchdog that notices its parent is gone. PostgreSQL
 * refuses to run as root, so under root (a CI machine) the server runs as the `postgres` system user
 * that Debian's package creates, in a folder given to that user.
 *
 * `MUSICSYNC_TEST_PG_URL` points the tests at an existing server instead (usePostgres): each test
 * still gets fresh databases from it, dropped again at the end.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  accessSync,
  chownSync,
  constants,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, delimiter, dirname, join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, inject } from "vitest";
import { stretched } from "./load.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The folder where this run of the tests keeps its initdb'd data folder (StartOptions.templates). */
    postgresTemplates?: string;
  }
}

export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (or MUSICSYNC_TEST_PG_URL). */
  url: string;
  /**
   * A fresh empty database; its URL. `prefix` starts its name (letters, digits, `_`). `from`: the
   * URL of a database of this server to copy instead (one made here that no session is connected to:
   * e.g. one migrated once, then closed, for each test to get a migrated database of its own).
   */
  createDatabase(prefix?: string, from?: string): Promise<string>;
  stop(): Promise<void>;
  /** A server of its own (not MUSICSYNC_TEST_PG_URL's) can be taken down and brought back. */
  outage?: Outage;
  /**
   * A server of its own only: down as `mode` says, kept down `downMs`, then up again on the same
   * port and data, resolving once it answers (the outage's two steps in one).
   */
  restart?(downMs: number, mode: "fast" | "immediate"): Promise<void>;
  /** A server of its own only: whether its data folder was a copy of the run's template or initdb's. */
  made?: "copy" | "initdb";
}

/**
 * The server down and up again on the same port with the same data, as a restart or a failover
 * does to its clients: `fast` ends each session with 57P01 "terminating connection due to
 * administrator command"; `immediate` cuts them off.
 */
export interface Outage {
  down(mode?: "fast" | "immediate"): Promise<void>;
  up(): Promise<void>;
}

const TOOLS = ["initdb", "pg_ctl", "postgres"];
/** Bounds on every wait, so that a broken machine fails a test instead of hanging it. */
const INITDB_MS = 60_000;
const READY_MS = 30_000;
const STOP_MS = 30_000;
const PORT_ATTEMPTS = 5;
export const INSTALL_HINT =
  "PostgreSQL's initdb, pg_ctl and postgres were not found in PATH or /usr/lib/postgresql/<N>/bin: " +
  "install Debian's postgresql package (apt-get install postgresql), as .ci/run does";

/**
 * The folder holding initdb, pg_ctl and postgres: the one of `initdb` in PATH (symlinks followed,
 * so that the three come from one installation), else Debian's /usr/lib/postgresql/<N>/bin with the
 * highest N; null when there is none.
 */
export function postgresBinaries(): string | null {
  const complete = (dir: string) => TOOLS.every((tool) => isExecutable(join(dir, tool)));
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir === "" || !isExecutable(join(dir, "initdb"))) continue;
    const real = dirname(realpathSync(join(dir, "initdb")));
    if (complete(real)) return real;
  }
  const debian = "/usr/lib/postgresql";
  const versions = existsSync(debian) ? readdirSync(debian).filter((v) => /^\d+$/.test(v)) : [];
  for (const version of versions.sort((a, b) => Number(b) - Number(a))) {
    const dir = join(debian, version, "bin");
    if (complete(dir)) return dir;
  }
  return null;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Under root, the uid and gid of the `postgres` user, which the server must run as; else null. */
function runAs(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("postgres:"));
  const [, , uid, gid] = line?.split(":") ?? [];
  if (uid === undefined || gid === undefined)
    throw new Error("running as root, and there is no postgres user to run PostgreSQL as: " + INSTALL_HINT);
  return { uid: Number(uid), gid: Number(gid) };
}

/** A port nobody listens on now (another process may take it before the server does: retried). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** The environment for PostgreSQL's tools: English messages, none of the caller's PG* settings. */
function toolEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: "C" };
  for (const name of Object.keys(env)) if (name.startsWith("PG")) delete env[name];
  return env;
}

/** Runs one of the tools to its end, as the server's user; its output is in the error if it fails. */
function runTool(bin: string, tool: string, args: string[], cwd: string, timeout: number): void {
  runAsServer(join(bin, tool), args, cwd, timeout);
}

function runAsServer(file: string, args: string[], cwd: string, timeout: number): void {
  const result = spawnSync(file, args, {
    cwd,
    env: toolEnv(),
    timeout,
    encoding: "utf8",
    ...runAs(),
  });
  if (result.status !== 0)
    throw new Error(
      `${basename(file)} failed (${result.error?.message ?? `exit ${result.status ?? result.signal}`}): ${result.stderr}`,
    );
}

export interface StartOptions {
  /**
   * A folder this run of the tests keeps an initdb'd data folder in (test/global-setup.ts makes it):
   * the first server of the run initdbs and leaves a copy there, the next ones copy it, which costs
   * a fraction of an initdb. Each server still has a data folder, a port and a postmaster of its
   * own. Anything amiss with the folder or the copy falls back to initdb.
   */
  templates?: string;
}

/** Starts a server of its own: a fresh data folder, then the postmaster on a free port, waiting until it answers. */
export async function startPostgres(options: StartOptions = {}): Promise<PostgresServer> {
  const bin = postgresBinaries();
  if (bin === null) throw new Error(INSTALL_HINT);
  const user = runAs();
  const folder = mkdtempSync(join(tmpdir(), "musicsync-pg-"));
  try {
    if (user) chownSync(folder, user.uid, user.gid);
    const data = join(folder, "data");
    const started = Date.now();
    let made = freshData(bin, folder, data, options.templates);
    let running: Running;
    try {
      running = await launchOnFreePort(bin, folder, data);
    } catch (e) {
      // A copy that does not start (a template damaged or of other binaries) costs an initdb, never
      // the run; the template goes, so that the initdb leaves a good one for the next servers.
      if (made !== "copy" || options.templates === undefined) throw e;
      log(`a copy of the template did not start; initdb instead (${e instanceof Error ? e.message : e})`);
      rmSync(data, { recursive: true, force: true });
      discard(templatePath(options.templates, bin));
      made = freshData(bin, folder, data, options.templates);
      running = await launchOnFreePort(bin, folder, data);
    }
    log(`PostgreSQL on port ${running.port} ready in ${Date.now() - started} ms (${made}, ${folder})`);
    return { ...ownServer(bin, folder, data, running), made };
  } catch (e) {
    rmSync(folder, { recursive: true, force: true });
    throw e;
  }
}

function initdb(bin: string, folder: string, data: string): void {
  runTool(
    bin,
    "initdb",
    ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"],
    folder,
    INITDB_MS,
  );
}

/**
 * Fills `data` with a new cluster: a copy of the run's template when there is one, else initdb —
 * and then, with a templates folder, a copy of the result left there for the next servers. Copies
 * are made by `cp -a` as the server's user, so they belong to it as initdb's output does.
 */
function freshData(bin: string, folder: string, data: string, templates?: string): "copy" | "initdb" {
  if (templates === undefined) {
    initdb(bin, folder, data);
    return "initdb";
  }
  const template = templatePath(templates, bin);
  if (existsSync(join(template, "PG_VERSION"))) {
    try {
      runAsServer("cp", ["-a", template, data], folder, INITDB_MS);
      if (existsSync(join(data, "PG_VERSION"))) return "copy";
    } catch {
      // Fall through to initdb: the template is only a shortcut.
    }
    rmSync(data, { recursive: true, force: true });
  }
  initdb(bin, folder, data);
  // Copied under a name of its own, then renamed: a template is complete once it has its name, and
  // when two workers race only the first rename wins (the other finds the name taken and moves on).
  const staged = `${template}.${process.pid}.${randomBytes(4).toString("hex")}`;
  try {
    runAsServer("cp", ["-a", data, staged], folder, INITDB_MS);
    renameSync(staged, template);
  } catch {
    rmSync(staged, { recursive: true, force: true });
  }
  return "initdb";
}

/** Named for the binaries: a run whose workers found different ones never mixes their clusters. */
function templatePath(templates: string, bin: string): string {
  return join(templates, `data-${createHash("sha256").update(bin).digest("hex").slice(0, 12)}`);
}

/** Removes a template: renamed away first, so that no server copies it half removed. */
function discard(template: string): void {
  const trash = `${template}.discarded.${randomBytes(4).toString("hex")}`;
  try {
    renameSync(template, trash);
  } catch {
    return; // gone already (another server discarded it)
  }
  rmSync(trash, { recursive: true, force: true });
}

/**
 * The templates folder for one run of the tests (global setup makes it and removes it after the
 * run): in the temp folder, writable by the server's user.
 */
export function makeTemplatesFolder(): { folder: string; remove(): void } | null {
  let folder: string | null = null;
  try {
    const user = postgresBinaries() === null ? null : runAs();
    folder = mkdtempSync(join(tmpdir(), "musicsync-pg-templates-"));
    if (user) chownSync(folder, user.uid, user.gid);
    const made = folder;
    return { folder, remove: () => rmSync(made, { recursive: true, force: true }) };
  } catch {
    // Without it every server initdbs, as before; a machine that cannot run one says so per file.
    if (folder) rmSync(folder, { recursive: true, force: true });
    return null;
  }
}

interface Running {
  port: number;
  postmaster: ChildProcess;
  watchdog: ChildProcess;
  /** The postmaster's last output, for error messages. */
  output: () => string;
}

/** The postmaster on a random port; another port when that one was taken in between. */
async function launchOnFreePort(bin: string, folder: string, data: string): Promise<Running> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const running = launch(bin, folder, data, port);
    const failure = await waitReady(running);
    if (failure === null) return running;
    running.watchdog.kill("SIGKILL");
    running.postmaster.kill("SIGKILL");
    const taken = /already in use|could not bind|could not create any TCP\/IP sockets/i.test(
      running.output(),
    );
    if (!taken || attempt >= PORT_ATTEMPTS)
      throw new Error(`PostgreSQL did not start: ${failure}\n${running.output()}`);
  }
}

function launch(bin: string, folder: string, data: string, port: number): Running {
  const settings = [
    "listen_addresses=127.0.0.1",
    `unix_socket_directories=${folder}`,
    // Speed over durability against a crash of the machine, which no test makes: the data is thrown
    // away after the test. Not synchronous_commit=off: a commit would be acknowledged before its WAL
    // is written, so an immediate stop (the outage tests) would lose transactions the engine was
    // told were committed, a loss no real server with default settings has (a journal entry written
    // before the stop was gone after it: "journal: no entry 3 in run 1" in CI).
    "fsync=off",
    "full_page_writes=off",
    // Parallel queries need dynamic shared memory, scarce in containers (/dev/shm of 64 MB).
    "max_parallel_workers_per_gather=0",
  ];
  const args = ["-D", data, "-p", String(port), ...settings.flatMap((s) => ["-c", s])];
  const postmaster = spawn(join(bin, "postgres"), args, {
    cwd: folder,
    env: toolEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    ...runAs(),
  });
  let output = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-8_000);
  };
  postmaster.stdout?.on("data", keep);
  postmaster.stderr?.on("data", keep);
  postmaster.unref();
  (postmaster.stdout as { unref?: () => void } | null)?.unref?.();
  (postmaster.stderr as { unref?: () => void } | null)?.unref?.();
  return { port, postmaster, watchdog: watchdog(postmaster.pid ?? 0, folder), output: () => output };
}

/**
 * A shell that waits for its stdin to close — which happens when this process ends, however it
 * ends — then stops the server immediately and removes its folder. `stop()` kills it first.
 */
function watchdog(pid: number, folder: string): ChildProcess {
  const script = 'read _; kill -QUIT "$1" 2>/dev/null; sleep 1; rm -rf "$2"';
  const child = spawn("sh", ["-c", script, "sh", String(pid), folder], {
    stdio: ["pipe", "ignore", "ignore"],
    detached: true,
  });
  child.unref();
  (child.stdin as { unref?: () => void } | null)?.unref?.();
  return child;
}

/** Null once the server accepts a connection; else why not (it exited, or the time ran out). */
async function waitReady(running: Running): Promise<string | null> {
  const start = Date.now();
  let exited: string | null = null;
  running.postmaster.once("exit", (code, signal) => {
    exited = `the server exited (${code ?? signal})`;
  });
  let last = "";
  // Stretched as it waits: a server starved of CPU by other work is slow, not broken.
  while (Date.now() - start < stretched(READY_MS)) {
    if (exited !== null) return exited;
    const client = new pg.Client({
      host: "127.0.0.1",
      port: running.port,
      user: "postgres",
      database: "postgres",
      connectionTimeoutMillis: 2_000,
    });
    client.on("error", () => undefined);
    try {
      await client.connect();
      await client.query("SELECT 1");
      return null;
    } catch (e) {
      last = e instanceof Error ? e.message : String(e);
    } finally {
      await client.end().catch(() => undefined);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return `no connection within ${READY_MS} ms (${last})`;
}

/** Servers still running, stopped synchronously if the process exits first. */
const live = new Set<() => void>();
let exitHooked = false;

function ownServer(bin: string, folder: string, data: string, first: Running): PostgresServer {
  const url = `postgres://postgres@127.0.0.1:${first.port}/postgres`;
  // Replaced when an outage brings the server back.
  let running = first;
  const stopSync = () => {
    live.delete(stopSync);
    running.watchdog.kill("SIGKILL");
    try {
      runTool(
        bin,
        "pg_ctl",
        ["stop", "-D", data, "-m", "immediate", "-w", "-t", String(STOP_MS / 1000)],
        folder,
        STOP_MS + 5_000,
      );
    } catch {
      running.postmaster.kill("SIGKILL");
    }
    rmSync(folder, { recursive: true, force: true });
  };
  live.add(stopSync);
  if (!exitHooked) {
    exitHooked = true;
    process.once("exit", () => {
      for (const stop of [...live]) stop();
    });
  }
  let stopped: Promise<void> | null = null;
  const outage: Outage = {
    async down(mode = "fast") {
      // The watchdog would remove the folder (the data) when it ends: a new one comes with `up`.
      running.watchdog.kill("SIGKILL");
      const gone = exitOf(running.postmaster);
      await runToolAsync(bin, "pg_ctl", ["stop", "-D", data, "-m", mode, "-w"], folder, STOP_MS);
      await Promise.race([gone, new Promise((r) => setTimeout(r, STOP_MS))]);
      log(`PostgreSQL on port ${running.port} down (${mode})`);
    },
    async up() {
      const next = launch(bin, folder, data, running.port);
      const failure = await waitReady(next);
      if (failure !== null) throw new Error(`PostgreSQL did not come back: ${failure}\n${next.output()}`);
      running = next;
      log(`PostgreSQL on port ${running.port} up again`);
    },
  };
  return {
    url,
    createDatabase: (prefix, from) => createDatabase(url, prefix, from),
    stop: () => {
      stopped ??= stopAsync(running, stopSync);
      return stopped;
    },
    outage,
    restart: async (downMs, mode) => {
      if (stopped) throw new Error("restart: the server is stopped");
      await outage.down(mode);
      await new Promise((r) => setTimeout(r, downMs));
      await outage.up();
    },
  };
}

/** Settles when the process has exited (at once if it has). */
function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** runTool without blocking this process: its clients (the code under test) go on meanwhile. */
function runToolAsync(
  bin: string,
  tool: string,
  args: string[],
  cwd: string,
  timeout: number,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(bin, tool), args, { cwd, env: toolEnv(), timeout, ...runAs() });
    let err = "";
    child.stderr?.on("data", (c: Buffer) => {
      err += c.toString("utf8");
    });
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${tool} failed (exit ${code ?? signal}): ${err}`)),
    );
  });
}

/** pg_ctl's immediate stop, then waits (bounded) for the postmaster to be gone before the folder goes. */
async function stopAsync(running: Running, stopSync: () => void): Promise<void> {
  const started = Date.now();
  const gone = exitOf(running.postmaster);
  stopSync();
  await Promise.race([gone, new Promise((r) => setTimeout(r, STOP_MS))]);
  log(`PostgreSQL on port ${running.port} stopped in ${Date.now() - started} ms`);
}

/** `CREATE DATABASE` on the server of `url`, empty or a copy of `from`'s; the new database's URL. */
async function createDatabase(url: string, prefix = "test", from?: string): Promise<string> {
  const name = `${databaseName(prefix)}_${randomBytes(6).toString("hex")}`;
  // template0 when empty: nobody is ever connected to it, so databases can be made at the same time.
  const template = from === undefined ? "template0" : decodeURIComponent(new URL(from).pathname.slice(1));
  if (!/^[a-z0-9_]+$/.test(template))
    throw new Error(`createDatabase: ${JSON.stringify(template)} is not a database made by createDatabase`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  } finally {
    await client.end();
  }
  const target = new URL(url);
  target.pathname = `/${name}`;
  return target.href;
}

/** A prefix as the start of a database name: lower-case letters, digits and `_`, 40 at most. */
function databaseName(prefix: string): string {
  return prefix
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, "_")
    .slice(0, 40);
}

/** An existing server (MUSICSYNC_TEST_PG_URL): databases made through it are dropped by stop(). */
export function externalPostgres(url: string): PostgresServer {
  const made: string[] = [];
  return {
    url,
    createDatabase: async (prefix, from) => {
      const created = await createDatabase(url, prefix, from);
      made.push(decodeURIComponent(new URL(created).pathname.slice(1)));
      return created;
    },
    stop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        for (const name of made.splice(0))
          await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * What a test file does without PostgreSQL: nothing when it is there (or MUSICSYNC_TEST_PG_URL is
 * set); skip outside CI; fail in CI, where .ci/run should have installed it.
 */
export function withoutPostgres(binaries: string | null, env: NodeJS.ProcessEnv): "run" | "skip" | "fail" {
  if (binaries !== null || env.MUSICSYNC_TEST_PG_URL) return "run";
  return env.CI ? "fail" : "skip";
}

/**
 * One server for the test file: started before its tests, stopped after them. Returns a getter,
 * to be called inside tests and hooks.
 */
export function usePostgres(): () => PostgresServer {
  let server: PostgresServer | undefined;
  const external = process.env.MUSICSYNC_TEST_PG_URL;
  const mode = withoutPostgres(external ? null : postgresBinaries(), process.env);
  if (mode === "skip") beforeEach((context) => context.skip(`no PostgreSQL here: ${INSTALL_HINT}`));
  if (mode === "fail")
    beforeAll(() => {
      throw new Error(`CI needs PostgreSQL: ${INSTALL_HINT}`);
    });
  if (mode === "run") {
    beforeAll(
      async () => {
        // The run's templates folder, when the run has one (test/global-setup.ts).
        const templates = inject("postgresTemplates");
        server = external ? externalPostgres(external) : await startPostgres(templates ? { templates } : {});
      },
      2 * (INITDB_MS + READY_MS),
    );
    afterAll(async () => {
      await server?.stop();
    }, STOP_MS + 5_000);
  }
  return () => {
    if (server === undefined)
      throw new Error("usePostgres: the server is not started (call the getter inside a test)");
    return server;
  };
}

/** Timings, when asked for (MUSICSYNC_TEST_PG_LOG=1): the tests themselves never depend on them. */
function log(message: string): void {
  if (process.env.MUSICSYNC_TEST_PG_LOG) process.stderr.write(`[postgres-server] ${message}\n`);
}
