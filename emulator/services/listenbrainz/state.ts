/**
 * The ListenBrainz fake's changes since start, in memory per emulator instance: playlists edited
 * (tracks added or removed), series moved on by a period, the rate limit's window. Kept out of the
 * emulator's SQLite on purpose: they are a test's or a demo's scenario, not the catalogue, and a
 * restarted emulator starting again from what the seed makes is what both want.
 */
import type { EmulatorState } from "../../context.js";
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
    s = {
      edited: new Map(),
      added: new Map(),
      movedOn: new Map(),
      rate: { ...DEFAULT_RATE, startedAt: state.now(), used: 0 },
    };
    states.set(state, s);
  }
  return s;
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
