/**
 * What the ListenBrainz fake holds, generated from the seed and the emulator's clock: its users and
 * their tokens, the playlists ListenBrainz's recommender makes for a user (Weekly Jams, Weekly
 * Exploration, Daily Jams, several periods of each kept), the user's own playlists (one private),
 * and the user's top recordings per statistics range.
 */
import type { EmulatorState } from "../../context.js";
import { hash32, Rng } from "../../random.js";
import { catalogueSongs } from "../catalogue-songs.js";
import { drawSongs } from "../draw.js";
import { uuidOf } from "../ids.js";
import { describeForListenBrainz, type LbTrack } from "./describe.js";
import { lbState } from "./state.js";

export type Series = "weekly-jams" | "weekly-exploration" | "daily-jams";

/** Each series as ListenBrainz names it (its `source_patch`), its period, its length, how many are kept. */
export const SERIES: Readonly<Record<Series, { name: string; days: number; tracks: number; kept: number }>> =
  {
    "weekly-jams": { name: "Weekly Jams", days: 7, tracks: 50, kept: 4 },
    "weekly-exploration": { name: "Weekly Exploration", days: 7, tracks: 50, kept: 4 },
    "daily-jams": { name: "Daily Jams", days: 1, tracks: 30, kept: 7 },
  };

export const SERIES_NAMES = Object.keys(SERIES) as Series[];

export interface LbPlaylist {
  mbid: string;
  title: string;
  annotation: string | null;
  creator: string;
  createdFor: string | null;
  /** ISO 8601 with the offset, as ListenBrainz writes dates. */
  date: string;
  lastModified: string;
  public: boolean;
  series: Series | null;
  /** Older JSPF wrote a track's identifier as a string; ListenBrainz now writes a list. */
  identifierAsString: boolean;
  /** What its tracks are drawn by, and how many. */
  listKey: string;
  length: number;
}

interface OwnPlaylist {
  title: string;
  public: boolean;
  length: number;
  annotation: string | null;
}

/** The fake's users: one with everything, one just signed up (no playlists, no statistics yet). */
export const LB_USERS: Readonly<
  Record<string, { own: OwnPlaylist[]; stats: boolean; recommended: boolean }>
> = {
  listener: {
    own: [
      { title: "Road Trip", public: true, length: 120, annotation: "Songs for the long drive." },
      { title: "Late Night", public: false, length: 40, annotation: null },
      { title: "Imported favourites", public: true, length: 12, annotation: null },
    ],
    stats: true,
    recommended: true,
  },
  newcomer: { own: [], stats: false, recommended: false },
};

export function userExists(user: string): boolean {
  return Object.hasOwn(LB_USERS, user);
}

/** The user's API token (what ListenBrainz shows on the settings page), derived from the seed. */
export function userToken(seed: number, user: string): string {
  return uuidOf(`lb-token:${seed}:${user}`);
}

/** The user whose token this is, or null. */
export function tokenOwner(seed: number, token: string): string | null {
  return Object.keys(LB_USERS).find((u) => userToken(seed, u) === token) ?? null;
}

const DAY_MS = 86_400_000;
const DOW = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Midnight UTC of the Monday of the week holding `ms`. */
function mondayOf(ms: number): number {
  const midnight = Math.floor(ms / DAY_MS) * DAY_MS;
  const dow = new Date(midnight).getUTCDay();
  return midnight - ((dow + 6) % 7) * DAY_MS;
}

/** A timestamp in the morning of `startMs` (the recommender runs early), microseconds and all. */
function isoAt(startMs: number, key: string): string {
  const r = new Rng(hash32(key));
  const ms = startMs + r.int(3, 9) * 3_600_000 + r.int(0, 3_599_999);
  return new Date(ms)
    .toISOString()
    .replace(/\.(\d{3})Z$/, `.$1${String(r.int(0, 999)).padStart(3, "0")}+00:00`);
}

const ANNOTATIONS: Record<Series, string> = {
  "weekly-jams":
    "<p>Your Weekly Jams: songs you already love, picked again from what you listened to lately.</p>",
  "weekly-exploration":
    "<p>Your Weekly Exploration: songs you have not heard yet, from listeners whose taste is close to yours.</p>",
  "daily-jams": "<p>Your Daily Jams: something familiar to start the day with.</p>",
};

/** The series' playlists for `user`, newest first: the kept periods, and any it moved on by. */
export function seriesPlaylists(state: EmulatorState, user: string, series: Series): LbPlaylist[] {
  if (!LB_USERS[user]?.recommended) return [];
  const { seed } = catalogueSongs(state);
  const spec = SERIES[series];
  const moved = lbState(state).movedOn.get(`${user}:${series}`) ?? 0;
  const anchor = spec.days === 7 ? mondayOf(state.now()) : Math.floor(state.now() / DAY_MS) * DAY_MS;
  const out: LbPlaylist[] = [];
  for (let k = -moved; k < spec.kept; k++) {
    const start = anchor - k * spec.days * DAY_MS;
    const when = `${day(start)} ${DOW[new Date(start).getUTCDay()]}`;
    const title =
      spec.days === 7 ? `${spec.name} for ${user}, week of ${when}` : `${spec.name} for ${user}, ${when}`;
    const key = `lb:${seed}:${user}:${series}:${day(start)}`;
    const date = isoAt(start, key);
    out.push({
      mbid: uuidOf(`lb-playlist:${key}`),
      title,
      annotation: ANNOTATIONS[series],
      creator: "listenbrainz",
      createdFor: user,
      date,
      lastModified: date,
      public: true,
      series,
      // The oldest weekly one kept is from before ListenBrainz wrote identifiers as lists.
      identifierAsString: spec.days === 7 && k === spec.kept - 1,
      listKey: key,
      length: spec.tracks,
    });
  }
  return out;
}

/** Every playlist made for `user`, newest first, as `createdfor` lists them. */
export function createdFor(state: EmulatorState, user: string): LbPlaylist[] {
  return SERIES_NAMES.flatMap((s) => seriesPlaylists(state, user, s)).sort((a, b) =>
    b.date.localeCompare(a.date),
  );
}

/** The user's own playlists, newest first. */
export function ownPlaylists(state: EmulatorState, user: string): LbPlaylist[] {
  const { seed } = catalogueSongs(state);
  const base = Date.UTC(2026, 0, 5);
  return (LB_USERS[user]?.own ?? [])
    .map((p, i) => {
      const key = `lb:${seed}:${user}:own:${i}`;
      const date = isoAt(base + i * 17 * DAY_MS, key);
      return {
        mbid: uuidOf(`lb-playlist:${key}`),
        title: p.title,
        annotation: p.annotation,
        creator: user,
        createdFor: null,
        date,
        lastModified: isoAt(base + (i * 17 + 40) * DAY_MS, `${key}:modified`),
        public: p.public,
        series: null,
        identifierAsString: false,
        listKey: key,
        length: p.length,
      };
    })
    .reverse();
}

/** The playlist with this MBID among every user's, or null. */
export function findPlaylist(state: EmulatorState, mbid: string): LbPlaylist | null {
  for (const user of Object.keys(LB_USERS)) {
    const hit = [...createdFor(state, user), ...ownPlaylists(state, user)].find((p) => p.mbid === mbid);
    if (hit) return hit;
  }
  return null;
}

/** A playlist's tracks: as edited, or as drawn. */
export function playlistTracks(state: EmulatorState, p: LbPlaylist): LbTrack[] {
  const edited = lbState(state).edited.get(p.mbid);
  if (edited) return edited;
  const { songs, seed } = catalogueSongs(state);
  return drawSongs(songs, seed, p.listKey, p.length).map((d) => describeForListenBrainz(d, seed));
}

/** Ranges the statistics API knows, and how many recordings the user has in each. */
export const STAT_RANGES: Readonly<Record<string, number>> = {
  this_week: 30,
  week: 40,
  this_month: 90,
  month: 120,
  quarter: 180,
  half_yearly: 220,
  this_year: 240,
  year: 250,
  all_time: 400,
};

export interface LbStat {
  track: LbTrack;
  listenCount: number;
  /** A listen ListenBrainz could not map to a recording: no MBIDs at all, names only. */
  unmapped: boolean;
}

/** The user's top recordings over `range`, most listened first. */
export function topRecordings(state: EmulatorState, user: string, range: string): LbStat[] {
  const { songs, seed } = catalogueSongs(state);
  const key = `lb:${seed}:${user}:stats:${range}`;
  // No recording twice: a small catalogue gives a shorter list.
  const size = Math.min(STAT_RANGES[range] ?? 0, Math.floor(songs.length * 0.9));
  return drawSongs(songs, seed, key, size).map((d, i) => {
    const r = new Rng(hash32(`${key}:${i}:mapped`));
    return {
      track: describeForListenBrainz(d, seed),
      listenCount: Math.floor((size * 3) / (1 + i * 0.15)) + 1,
      unmapped: r.chance(0.05),
    };
  });
}
