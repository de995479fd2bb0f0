/**
 * A lock beside a file, for the few milliseconds of a read-compare-write on it: made with O_EXCL
 * (only one process can create it), holding `pid@host` so that a lock left by a process killed
 * while holding it is recognised and taken over on the same machine. Readers never take it: a
 * write is a rename, so a reader sees the old file or the new one whole.
 */

import { randomBytes } from "node:crypto";
import { link, rename, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { describeFsError, readRegularFileIfAny } from "./read-regular.js";

export class LockFileError extends Error {
  override name = "LockFileError";
}

export interface LockFileOptions {
  /** Tries before giving up (default 200: about 4 s at the default wait). */
  attempts?: number;
  waitMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const sleepFor = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** What a lock holds: `pid@host`. */
const OWNER = /^([0-9]{1,10})@(\S{1,255})$/;

/**
 * The lock's holder as written, or "" when the lock is not a small regular file holding one. It is
 * read without waiting (a named pipe in its place would hold a plain read for ever) and within a
 * bound, and anything else it holds is never quoted: a link in its place may lead to a token.
 */
async function ownerOf(lock: string): Promise<string> {
  try {
    const bytes = await readRegularFileIfAny(lock, { maxBytes: 512, tooBig: () => "too big for a lock" });
    const owner = bytes?.toString("utf8").trim() ?? "";
    return OWNER.test(owner) ? owner : "";
  } catch {
    return "";
  }
}

/** Whether the lock's holder is a process of this machine that has ended. */
function leftByEnded(owner: string): boolean {
  const m = OWNER.exec(owner);
  if (!m || m[2] !== hostname()) return false;
  try {
    process.kill(Number(m[1]), 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Creates the lock; false when it exists already. */
async function created(lock: string, me: string): Promise<boolean> {
  try {
    await writeFile(lock, `${me}\n`, { flag: "wx", mode: 0o600 });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw new LockFileError(`cannot make the lock ${lock}: ${describeFsError(e)}`);
  }
}

/**
 * Removes the lock `ended` (a holder that has ended) left, and only that one. Two processes can
 * meet one abandoned lock at once: the first removes it and makes its own, which the second,
 * acting on what it read before, must not remove (both would then write). So the lock is moved
 * aside first (a rename: one process moves it, the other finds nothing there) and read where it
 * went: the abandoned one is removed; a live holder's is put back with a link, which never
 * replaces a lock made meanwhile. That leaves a race only for a third process making a lock in the
 * instant between the move and the link.
 */
export async function removeAbandoned(lock: string, ended: string): Promise<void> {
  const aside = `${lock}.${randomBytes(6).toString("hex")}.taken`;
  try {
    await rename(lock, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
    throw new LockFileError(`cannot take over the lock ${lock}: ${describeFsError(e)}`);
  }
  try {
    if ((await ownerOf(aside)) !== ended) await link(aside, lock).catch(() => {});
  } finally {
    await rm(aside, { force: true }).catch(() => {});
  }
}

/** Runs `body` holding `<path>.lock`; refuses (LockFileError) when another keeps holding it. */
export async function withLockFile<T>(
  path: string,
  body: () => Promise<T>,
  o: LockFileOptions = {},
): Promise<T> {
  const lock = `${path}.lock`;
  const me = `${process.pid}@${hostname()}`;
  const sleep = o.sleep ?? sleepFor;
  const attempts = o.attempts ?? 200;
  let owner = "";
  for (let i = 0; i < attempts; i++) {
    if (await created(lock, me)) {
      try {
        return await body();
      } finally {
        await rm(lock, { force: true });
      }
    }
    owner = await ownerOf(lock);
    if (leftByEnded(owner)) await removeAbandoned(lock, owner);
    else await sleep(o.waitMs ?? 20);
  }
  throw new LockFileError(
    `${lock} is held by process ${owner || "(unknown)"}: another musicsync is writing ${path}; ` +
      `if no musicsync is running, remove ${lock}`,
  );
}
