/**
 * Changes made to a stand-in through its controls outlive the emulator: each is kept in the
 * emulator's database when made (emulator/store/stand-in-changes.ts) and made again, in order,
 * when the stand-in's state is next made from the seed: after a restart, as each musicsync
 * command starts the embedded emulator anew, or in another emulator on the same file.
 */
import type { EmulatorState } from "../context.js";

export type StandIn = "spotify" | "listenbrainz" | "lastfm";

/** Keeps a change once made (only a change that was made: the replay trusts what it reads). */
export function keepChange(state: EmulatorState, service: StandIn, change: Record<string, unknown>): void {
  state.store.standInChanges.add(service, change);
}

/**
 * Makes each kept change again, oldest first. One that no longer applies (kept by another
 * version of the stand-in, whose generated data differed) is passed over: the emulator starts.
 */
export function replayChanges(
  state: EmulatorState,
  service: StandIn,
  apply: (change: Record<string, unknown>) => void,
): void {
  for (const change of state.store.standInChanges.list(service)) {
    try {
      apply(change as Record<string, unknown>);
    } catch {
      // passed over, as said above
    }
  }
}
