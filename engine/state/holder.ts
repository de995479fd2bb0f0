/**
 * Who holds a lock or runs a run: `host:pid`, whose liveness decides if a lock may be removed and if
 * a run left `running` was interrupted. On this machine the pid says; elsewhere only the heartbeat.
 */
import { hostname } from "node:os";
import type { LockInfo } from "./types.js";

/** The default staleness of a lock heartbeat (the daemon's `--lock-stale`). */
export const DEFAULT_LOCK_STALE_MS = 5 * 60_000;

export interface Holder {
  host: string;
  pid: number;
}

/** This process, as it signs locks and runs. */
export function currentHolder(): string {
  return `${hostname()}:${process.pid}`;
}

export function parseHolder(holder: string | null): Holder | null {
  const m = holder === null ? null : /^(.*):(\d+)$/.exec(holder);
  return m ? { host: m[1]!, pid: Number(m[2]) } : null;
}

/** Whether a process of this machine exists (EPERM: it exists but belongs to another user). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** A holder of this machine whose process no longer exists. */
export function holderGone(holder: string | null, here: string = hostname()): boolean {
  const h = parseHolder(holder);
  return h !== null && h.host === here && !pidAlive(h.pid);
}

/** Whether a lock's holder may still work: its pid alive here, elsewhere its heartbeat fresh. */
export function lockHolderAlive(
  lock: LockInfo,
  now: number,
  staleMs: number,
  here: string = hostname(),
): boolean {
  const h = parseHolder(lock.holder);
  if (h !== null && h.host === here) return pidAlive(h.pid);
  return now - lock.heartbeatAt <= staleMs;
}

/** A run left `running`, as the open-time check sees it. */
export interface RunningRun {
  id: number;
  account: string;
  holder: string | null;
  startedAt: number;
}

/**
 * Why a run left `running` was interrupted, or null while it may still go. Here: its pid is dead.
 * Elsewhere (or no holder kept): it started over the staleness ago and its holder keeps no fresh
 * heartbeat on the account's lock (a live run always beats it).
 */
export function abandonedRunReason(
  run: RunningRun,
  lock: LockInfo | undefined,
  now: number,
  staleMs: number,
  here: string = hostname(),
): string | null {
  const h = parseHolder(run.holder);
  if (h !== null && h.host === here) {
    return pidAlive(h.pid) ? null : `interrupted: its process ${run.holder} is gone`;
  }
  const beating = lock !== undefined && lock.holder === run.holder && now - lock.heartbeatAt <= staleMs;
  if (beating || now - run.startedAt <= staleMs) return null;
  const who = run.holder === null ? "its process" : `its process ${run.holder}`;
  return `interrupted: ${who} has kept no lock heartbeat for over ${Math.round(staleMs / 1000)} s`;
}
