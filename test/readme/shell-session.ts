/**
 * One shell session, as a reader's terminal is: lines run one after another in the same `sh`, so a
 * `cd` or an `export` holds for the lines after it. Each line's output goes to a file of its own and
 * its exit code comes back on the shell's stdout; its stdin is /dev/null (the shell reads the
 * session from its own). A line "in a second terminal" runs in the background until `close()`.
 *
 * The shell leads a process group of its own, so that a line past its time-out is ended with
 * everything it started; the group is also ended if the test process exits first.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export interface Ran {
  code: number;
  output: string;
}

/** How long a background server may take to listen, and how often it is looked for. */
const LISTEN_MS = 90_000;
const LISTEN_POLL_MS = 25;
/** How long a background process may take to stop on SIGTERM before it is killed. */
const STOP_MS = 20_000;

export class ShellSession {
  private stdout = "";
  private stderr = "";
  private count = 0;
  private readonly background: { pid: number; command: string }[] = [];
  private readonly endGroup = () => this.kill();

  private constructor(
    private readonly shell: ChildProcess,
    private readonly logs: string,
  ) {
    shell.stdout!.on("data", (d: Buffer) => (this.stdout += d.toString()));
    shell.stderr!.on("data", (d: Buffer) => (this.stderr += d.toString()));
    process.once("exit", this.endGroup);
  }

  static async open(cwd: string, env: NodeJS.ProcessEnv): Promise<ShellSession> {
    const logs = await mkdtemp(join(tmpdir(), "docs-session-"));
    const shell = spawn("sh", [], { cwd, env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
    return new ShellSession(shell, logs);
  }

  /** Runs one line; resolves to its exit code and output. */
  async run(command: string, timeoutMs: number): Promise<Ran> {
    const n = ++this.count;
    const log = join(this.logs, String(n));
    const script = `{ ${command}\n} >'${log}' 2>&1 </dev/null; echo "@@${n} $?"`;
    const code = await this.send(n, script, timeoutMs).catch(async (e: Error) => {
      const output = await readFile(log, "utf8").catch(() => "");
      throw new Error(`\`${command}\`: ${e.message}\n${output}`);
    });
    return { code, output: await readFile(log, "utf8") };
  }

  /** Saves `text` as `path` (relative to the session's folder). */
  async write(path: string, text: string, timeoutMs: number): Promise<void> {
    if (/['\n]/.test(path)) throw new Error(`a file name the session cannot quote: ${path}`);
    const n = ++this.count;
    const eof = "@@END_OF_FILE@@";
    const code = await this.send(n, `cat >'${path}' <<'${eof}'\n${text}${eof}\necho "@@${n} $?"`, timeoutMs);
    if (code !== 0) throw new Error(`could not write ${path}: ${this.stderr}`);
  }

  /**
   * Starts a line in the background and, given its server's `port`, waits until something listens
   * there, bounded in time; its output so far if it never does or ends first.
   */
  async startBackground(command: string, port: number | null): Promise<void> {
    // One command, so that its output goes to the log and `$!` is its own pid, which close() stops.
    if (/[;&|<>()]/.test(command.replace(/'[^']*'|"[^"]*"/g, "")))
      throw new Error(`\`${command}\`: a line in a second terminal must be one command`);
    const n = ++this.count;
    const log = join(this.logs, String(n));
    const pid = await this.send(n, `${command} >'${log}' 2>&1 </dev/null &\necho "@@${n} $!"`, 10_000);
    this.background.push({ pid, command });
    if (port === null) return;
    for (let i = 0; i < LISTEN_MS / LISTEN_POLL_MS && !ended(pid); i++) {
      if (await listening(port)) return;
      await sleep(LISTEN_POLL_MS);
    }
    const why = ended(pid) ? "ended" : `did not listen on ${port}`;
    throw new Error(`\`${command}\` ${why}:\n${await readFile(log, "utf8")}`);
  }

  /** The background lines that have ended by themselves: each should run until close(). */
  endedEarly(): string[] {
    return this.background.filter((b) => ended(b.pid)).map((b) => b.command);
  }

  /** Stops the background lines (SIGTERM, then SIGKILL past a bound), then the shell. */
  async close(): Promise<void> {
    try {
      for (const { pid } of this.background) {
        const n = ++this.count;
        await this.send(n, `kill -TERM ${pid}; wait ${pid}; echo "@@${n} $?"`, STOP_MS).catch(() => {});
      }
      this.shell.stdin!.end();
      await this.exited(5_000);
    } finally {
      this.kill();
      process.off("exit", this.endGroup);
    }
  }

  private kill(): void {
    try {
      process.kill(-this.shell.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }

  private async exited(ms: number): Promise<void> {
    if (this.shell.exitCode !== null || this.shell.signalCode !== null) return;
    await Promise.race([new Promise((done) => this.shell.once("exit", done)), sleep(ms)]);
  }

  /**
   * Writes `script` to the shell and waits for its `@@n value` line: looked for each time the shell
   * writes (a poll would add its period to every line of every guide), bounded by `timeoutMs`.
   */
  private async send(n: number, script: string, timeoutMs: number): Promise<number> {
    const marker = new RegExp(`^@@${n} (\\d+)$`, "m");
    const shell = this.shell;
    let check: () => void = () => {};
    const answered = new Promise<number | Error>((done) => {
      check = () => {
        const seen = marker.exec(this.stdout)?.[1];
        if (seen !== undefined) done(Number(seen));
        else if (shell.exitCode !== null || shell.signalCode !== null)
          done(new Error(`the shell ended: ${this.stderr}`));
      };
    });
    // After this class's own listener, so that `this.stdout` already holds the new output.
    shell.stdout!.on("data", check);
    shell.once("exit", check);
    const timer = setTimeout(check, 0);
    let limit: NodeJS.Timeout | undefined;
    const late = new Promise<null>((done) => (limit = setTimeout(() => done(null), timeoutMs)));
    try {
      shell.stdin!.write(`${script}\n`);
      const got = await Promise.race([answered, late]);
      if (typeof got === "number") return got;
      if (got instanceof Error) throw got;
    } finally {
      clearTimeout(timer);
      clearTimeout(limit);
      shell.stdout!.off("data", check);
      shell.off("exit", check);
    }
    this.kill();
    throw new Error(`no answer within ${timeoutMs} ms (the session was ended): ${script}\n${this.stderr}`);
  }
}

/**
 * Whether a background process has ended: gone, or (on Linux) a zombie the shell has not yet
 * reaped, which still answers signals.
 */
function ended(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** Whether something listens on `port` of 127.0.0.1. */
export function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      done(true);
    });
    socket.once("error", () => done(false));
  });
}
