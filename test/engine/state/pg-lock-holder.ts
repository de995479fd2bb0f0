/**
 * A process that takes an account's lock through the real state (`openState`), prints the attempt
 * as one JSON line, then idles until killed: "a lock left by a killed process" for the lock and
 * `unlock` tests. It imports the compiled state (dist/, rebuilt first when a source is newer), so
 * node runs it alone: no tsx to load, and no grandchild (as tsx's own command would start) that a
 * SIGKILL of the child would leave holding the lock.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LockAttempt } from "../../../engine/state/types.js";
import { builtModule } from "../../support/cli-process.js";
import { stretched } from "../../support/load.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const WAIT_MS = 30_000;

const script = async (staleMs: number) => `
import { openState } from ${await builtModule("engine/state/open.js")};
import { currentHolder } from ${await builtModule("engine/state/holder.js")};
const [url, account] = process.argv.slice(2);
const state = openState(url);
const attempt = await state.acquireLock(account, currentHolder(), Date.now(), ${staleMs});
process.stdout.write(JSON.stringify(attempt) + "\\n");
setInterval(() => {}, 60_000);
`;

export interface LockHolder {
  child: ChildProcess;
  attempt: LockAttempt;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
}

export async function spawnLockHolder(url: string, account: string, staleMs = 60_000): Promise<LockHolder> {
  const folder = mkdtempSync(join(tmpdir(), "musicsync-lock-holder-"));
  const file = join(folder, "holder.mjs");
  writeFileSync(file, await script(staleMs));
  const child = spawn(process.execPath, [file, url, account], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  void exited.then(() => rmSync(folder, { recursive: true, force: true }));
  let out = "";
  let err = "";
  child.stderr?.on("data", (c: Buffer) => {
    err += c.toString();
  });
  const line = await new Promise<string>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`the lock holder printed nothing: ${err}`)),
      stretched(WAIT_MS),
    );
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
      if (!out.includes("\n")) return;
      clearTimeout(timer);
      done(out.split("\n")[0]!);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`the lock holder exited (${code}): ${err}`));
    });
  });
  return {
    child,
    attempt: JSON.parse(line) as LockAttempt,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
