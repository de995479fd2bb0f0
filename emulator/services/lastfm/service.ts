/**
 * The Last.fm fake: its API (routes.ts), its control routes (control.ts), and what tests and
 * benchmarks may know that the API does not tell: which catalogue video each track stands for.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { EmulatorState } from "../../context.js";
import { catalogueSongs } from "../catalogue-songs.js";
import { handleLastfmControl } from "./control.js";
import { LFM_USERS, lastfmApiKey, lovedTracks, PERIODS, recentTracks, topTracks } from "./data.js";
import type { LfmTrack } from "./describe.js";
import { handleLastfmApi } from "./routes.js";

export async function handleLastfm(
  state: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  return (await handleLastfmApi(state, req, res, url)) || (await handleLastfmControl(state, req, res, url));
}

/** The key the fake accepts (tests pass it to the reader; it is not a secret of anyone's). */
export function lastfmKey(state: EmulatorState): string {
  return lastfmApiKey(catalogueSongs(state).seed);
}

/**
 * Ground truth, keyed as the engine's reader keys entries: `lastfm:track:<artist>/<title>` with
 * both parts as the track's last.fm URL writes them. The value is the catalogue video the entry
 * stands for, or null for a song the catalogue does not have.
 */
export function lastfmTruth(state: EmulatorState): Map<string, string | null> {
  const truth = new Map<string, string | null>();
  const add = (t: LfmTrack) => {
    const [artist, title] = t.url.slice("https://www.last.fm/music/".length).split("/_/");
    truth.set(`lastfm:track:${artist}/${title}`, t.videoId);
  };
  for (const user of Object.keys(LFM_USERS)) {
    for (const d of lovedTracks(state, user)) add(d.track);
    for (const period of Object.keys(PERIODS)) for (const r of topTracks(state, user, period)) add(r.track);
    const recent = recentTracks(state, user);
    if (recent.nowPlaying) add(recent.nowPlaying);
    for (const d of recent.scrobbles) add(d.track);
  }
  return truth;
}
