/**
 * What the Last.fm fake holds, from the seed and the emulator's clock: its users, each one's loved
 * tracks, top tracks per period and recent scrobbles (with what is playing now), and the API keys
 * it accepts. Changes made through the control routes (songs loved, the now-playing song) live in
 * memory per emulator instance, like the ListenBrainz fake's, for the same reasons.
 */
import type { EmulatorState } from "../../context.js";
import { catalogueSongs } from "../catalogue-songs.js";
import { drawSongs } from "../draw.js";
import { hexOf } from "../ids.js";
import { keepChange, replayChanges } from "../kept-changes.js";
import { describeForLastfm, type LfmTrack } from "./describe.js";

/** Periods `user.getTopTracks` knows, and how many tracks the user has in each. */
export const PERIODS: Readonly<Record<string, number>> = {
  "7day": 35,
  "1month": 90,
  "3month": 150,
  "6month": 200,
  "12month": 260,
  overall: 380,
};

/** The fake's users: one with a public history, one who hides recent listening. */
export const LFM_USERS: Readonly<Record<string, { loved: number; recent: number; hidesRecent: boolean }>> = {
  scrobbler: { loved: 130, recent: 260, hidesRecent: false },
  "private-scrobbler": { loved: 20, recent: 40, hidesRecent: true },
};

export interface LfmState {
  /** Loved tracks once edited, by user. */
  loved: Map<string, LfmTrack[]>;
  added: Map<string, number>;
  /** Whether each user is playing something now (default: yes for the first user). */
  playing: Map<string, boolean>;
  /** Keys accepted besides the seed's own. */
  keys: Set<string>;
}

const states = new WeakMap<EmulatorState, LfmState>();

export function lfmState(state: EmulatorState): LfmState {
  let s = states.get(state);
  if (!s) {
    const made: LfmState = { loved: new Map(), added: new Map(), playing: new Map(), keys: new Set() };
    states.set(state, made);
    // The loves edited and keys added through the controls before a restart (../kept-changes.ts).
    replayChanges(state, "lastfm", (c) => {
      if (c.op === "key") made.keys.add(String(c.key));
      else if (c.op === "loved") lovedEdited(state, String(c.user), Number(c.add), c.remove as number[]);
    });
    s = made;
  }
  return s;
}

/** Accepts one more API key (kept). */
export function acceptKey(state: EmulatorState, key: string): void {
  lfmState(state).keys.add(key);
  keepChange(state, "lastfm", { op: "key", key });
}

/** The API key the fake gives out (Last.fm's are 32 hex digits). */
export function lastfmApiKey(seed: number): string {
  return hexOf(`lastfm-key:${seed}`);
}

export function keyAccepted(state: EmulatorState, key: string): boolean {
  return key === lastfmApiKey(catalogueSongs(state).seed) || lfmState(state).keys.has(key);
}

function drawn(state: EmulatorState, key: string, count: number, from = 0): LfmTrack[] {
  const { songs, seed } = catalogueSongs(state);
  return drawSongs(songs, seed, `lastfm:${seed}:${key}`, count, from).map((d) => describeForLastfm(d, seed));
}

export interface Dated {
  track: LfmTrack;
  /** Unix seconds. */
  at: number;
}

/** Loved tracks, most recently loved first. */
export function lovedTracks(state: EmulatorState, user: string): Dated[] {
  const spec = LFM_USERS[user]!;
  const edited = lfmState(state).loved.get(user);
  const tracks = edited ?? drawn(state, `${user}:loved`, spec.loved);
  const now = Math.floor(state.now() / 1000);
  // Loves spread over the past years, a day or so apart, newest first.
  return tracks.map((track, i) => ({ track, at: now - 3_600 - i * 97_200 }));
}

/** Adds `count` loved songs (newest first) and takes out the ones at `remove` positions (kept). */
export function editLoved(
  state: EmulatorState,
  user: string,
  count: number,
  remove: readonly number[],
): number {
  const length = lovedEdited(state, user, count, remove);
  keepChange(state, "lastfm", { op: "loved", user, add: count, remove: [...remove] });
  return length;
}

function lovedEdited(state: EmulatorState, user: string, count: number, remove: readonly number[]): number {
  const s = lfmState(state);
  const current = lovedTracks(state, user).map((d) => d.track);
  const before = s.added.get(user) ?? 0;
  s.added.set(user, before + count);
  const gone = new Set(remove);
  const fresh = drawn(state, `${user}:loved:added`, count, before);
  const next = [...fresh.reverse(), ...current.filter((_, i) => !gone.has(i))];
  s.loved.set(user, next);
  return next.length;
}

export interface Ranked {
  track: LfmTrack;
  playcount: number;
}

export function topTracks(state: EmulatorState, user: string, period: string): Ranked[] {
  const size = PERIODS[period] ?? 0;
  return drawn(state, `${user}:top:${period}`, size).map((track, i) => ({
    track,
    playcount: Math.floor((size * 4) / (1 + i * 0.2)) + 1,
  }));
}

export function isPlaying(state: EmulatorState, user: string): boolean {
  return lfmState(state).playing.get(user) ?? user === "scrobbler";
}

/**
 * Scrobbles, newest first (those from `from` to `to`, Unix seconds, when given), and what is
 * playing now (not a scrobble yet), if anything.
 */
export function recentTracks(
  state: EmulatorState,
  user: string,
  range: { from?: number; to?: number } = {},
): { nowPlaying: LfmTrack | null; scrobbles: Dated[] } {
  const spec = LFM_USERS[user]!;
  const tracks = drawn(state, `${user}:recent`, spec.recent + 1);
  const now = Math.floor(state.now() / 1000);
  return {
    nowPlaying: isPlaying(state, user) ? tracks[0]! : null,
    scrobbles: tracks
      .slice(1)
      .map((track, i) => ({ track, at: now - 240 - i * 215 }))
      .filter((d) => d.at >= (range.from ?? 0) && d.at <= (range.to ?? Number.POSITIVE_INFINITY)),
  };
}
