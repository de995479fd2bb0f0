/** `musicsync unlock <lock-id>`: removes a stale account lock, refused while its holder lives. */
import { hostname } from "node:os";
import { DEFAULT_LOCK_STALE_MS, lockHolderAlive, parseHolder } from "../../engine/state/holder.js";
import { openState } from "../../engine/state/open.js";
import type { LockInfo } from "../../engine/state/types.js";
import { loadProjectFor } from "./accounts.js";
import { CliError, type CommandRun, Exit } from "./io.js";
import { existingStateFolder, stateFileOf } from "./project.js";

export async function unlock(run: CommandRun, lockId: string, force: boolean): Promise<void> {
  const { io, g, setExit } = run;
  const project = await loadProjectFor(run);
  const state = openState(existingStateFolder(stateFileOf(g, project)));
  try {
    const lock = (await state.locks()).find((l) => l.lockId === lockId);
    const refusal = lock && !force ? unlockRefusal(lock, Date.now(), DEFAULT_LOCK_STALE_MS) : null;
    if (refusal !== null) throw new CliError(refusal, Exit.LOCKED);
    const removed = await state.forceUnlock(lockId);
    io.stdout.write(removed ? `Lock ${lockId} removed.\n` : `No lock ${lockId}.\n`);
    setExit(removed ? Exit.OK : Exit.ERROR);
  } finally {
    await state.close();
  }
}

/**
 * Why `musicsync unlock` must not remove this lock (its holder may still be writing), or null when it
 * may: which process holds it, since when, and its last heartbeat.
 */
export function unlockRefusal(
  lock: LockInfo,
  now: number,
  staleMs: number,
  here: string = hostname(),
): string | null {
  if (!lockHolderAlive(lock, now, staleMs, here)) return null;
  const h = parseHolder(lock.holder);
  const who = h ? `process ${h.pid} on ${h.host}` : `"${lock.holder}"`;
  const why =
    h !== null && h.host === here
      ? "that process is still running"
      : `its heartbeat is ${Math.round((now - lock.heartbeatAt) / 1000)} s old, fresher than ${Math.round(staleMs / 1000)} s`;
  const at = (ms: number) => new Date(ms).toISOString();
  return (
    `lock ${lock.lockId} of account "${lock.account}" is held by ${who} since ${at(lock.acquiredAt)}, ` +
    `last heartbeat ${at(lock.heartbeatAt)}; ${why}. Stop it first, or remove the lock anyway with: ` +
    `musicsync unlock --force ${lock.lockId}`
  );
}
