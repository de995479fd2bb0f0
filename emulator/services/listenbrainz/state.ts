/**
 * The ListenBrainz fake's changes: playlists edited (tracks added or removed), series moved on by
 * a period, the rate limit's window. The first two are made through the controls and kept in the
 * emulator's database (../kept-changes.ts), an edited playlist as its tracks after the edit (what
 * the edit drew is then read back, not drawn again), so that they outlive a restart; the rate
 * limit's window is this process's alone.
 */
import type { EmulatorState } from "../../context.js";
import { keepChange, replayChanges } from "../kept-changes.js";
import type { LbTrack } from "./describe.js";

export interface RateWindow {
  /** Requests allowed per window (ListenBrainz's default is generous; tests lower it). */
  limit: number;
  windowMs: number;
  startedAt: number;
  used: number;
}

export interface LbState {
  /** A playlist's tracks once edited, by playlist MBID. */
  edited: Map<string, LbTrack[]>;
  /** Songs added to a playlist so far, by playlist MBID: where the next ones are drawn from. */
  added: Map<string, number>;
  /** Periods a series has moved on by, by `user:series`. */
  movedOn: Map<string, number>;
  rate: RateWindow;
}

const states = new WeakMap<EmulatorState, LbState>();

export const DEFAULT_RATE = { limit: 1000, windowMs: 10_000 };

export function lbState(state: EmulatorState): LbState {
  let s = states.get(state);
  if (!s) {
    const made: LbState = {
      edited: new Map(),
      added: new Map(),
      movedOn: new Map(),
      rate: { ...DEFAULT_RATE, startedAt: state.now(), used: 0 },
    };
    replayChanges(state, "listenbrainz", (c) => {
      if (c.op === "next") made.movedOn.set(String(c.key), Number(c.periods));
      else if (c.op === "edit") {
        made.edited.set(String(c.mbid), c.tracks as LbTrack[]);
        made.added.set(String(c.mbid), Number(c.added));
      }
    });
    states.set(state, made);
    s = made;
  }
  return s;
}

/** Moves a series on by one period (kept). */
export function moveOn(state: EmulatorState, key: string): void {
  const lb = lbState(state);
  const periods = (lb.movedOn.get(key) ?? 0) + 1;
  lb.movedOn.set(key, periods);
  keepChange(state, "listenbrainz", { op: "next", key, periods });
}

/** A playlist's tracks after an edit, and how many songs were added to it so far (kept). */
export function keepEdit(state: EmulatorState, mbid: string, tracks: LbTrack[], added: number): void {
  const lb = lbState(state);
  lb.edited.set(mbid, tracks);
  lb.added.set(mbid, added);
  keepChange(state, "listenbrainz", { op: "edit", mbid, tracks, added });
}

/** Counts a request against the window: what is left of it, and when it starts again. */
export function takeRequest(
  rate: RateWindow,
  now: number,
): { allowed: boolean; remaining: number; resetInMs: number } {
  if (now - rate.startedAt >= rate.windowMs) {
    rate.startedAt = now;
    rate.used = 0;
  }
  rate.used++;
  const resetInMs = Math.max(0, rate.startedAt + rate.windowMs - now);
  return { allowed: rate.used <= rate.limit, remaining: Math.max(0, rate.limit - rate.used), resetInMs };
}
