/**
 * `sync --lock-wait <duration>`: a recipe whose account another process holds (a daemon's run, a
 * second sync) is tried again every second until the wait is over, instead of failing at once.
 * A wait that ends without the lock is the locked run it would have been, its message saying how
 * long it waited and who holds the lock. Ctrl-C ends the wait at once.
 */

import type { Clock } from "../../engine/apply/pacer.js";
import { LockedError, type RecipeRun } from "../../engine/run/runner.js";
import type { LockInfo } from "../../engine/state/types.js";
import { duration } from "../../engine/status/format.js";
import { parseDuration } from "../../shared/duration.js";
import { CliError, type CliIo } from "./io.js";

/** How often a waiting recipe tries the lock again. */
const RETRY_MS = 1_000;

/** The option as the daemon's `--lock-wait` reads a duration; refused before anything is read. */
export function lockWaitArg(text: string | undefined): number {
  if (text === undefined) return 0;
  try {
    return parseDuration(text, "--lock-wait");
  } catch (e) {
    throw new CliError((e as Error).message);
  }
}

export interface LockWait {
  ms: number;
  clock: Clock;
  /** Told once, when a recipe starts waiting. */
  waiting(heldBy: LockInfo, ms: number): void;
  /** Ctrl-C: give up now. */
  stopped(): boolean;
}

/** The wait as a command runs it: its start said on stderr, ended by `stopped` (Ctrl-C). */
export function saidOn(io: CliIo, ms: number, clock: Clock, stopped: () => boolean): LockWait {
  return {
    ms,
    clock,
    waiting: (by, wait) =>
      io.stderr.write(
        `waiting up to ${duration(wait)} for account "${by.account}": locked by ${by.holder} (lock ${by.lockId})\n`,
      ),
    stopped,
  };
}

export async function waitingForLock(attempt: () => Promise<RecipeRun>, wait: LockWait): Promise<RecipeRun> {
  const until = wait.clock.now() + wait.ms;
  let told = false;
  for (;;) {
    try {
      return await attempt();
    } catch (e) {
      if (!(e instanceof LockedError) || wait.ms <= 0) throw e;
      const left = until - wait.clock.now();
      if (left <= 0 || wait.stopped()) {
        const why = left <= 0 ? `still locked after waiting ${duration(wait.ms)}` : "stopped while waiting";
        e.message = `${why}: ${e.message}`;
        throw e;
      }
      if (!told) wait.waiting(e.heldBy, wait.ms);
      told = true;
      await wait.clock.sleep(Math.min(RETRY_MS, left));
    }
  }
}
