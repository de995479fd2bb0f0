/** `musicsync unlock <lock-id>`: removes a stale account lock, refused while its holder lives. */
import { DEFAULT_LOCK_STALE_MS, unlockRefusal } from "../../engine/state/holder.js";
import { openState } from "../../engine/state/open.js";
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
