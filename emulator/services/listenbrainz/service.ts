/**
 * The ListenBrainz fake: its API (routes.ts), its control routes (control.ts), and what tests and
 * benchmarks may know that the API does not tell: which catalogue video each recording stands for.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { EmulatorState } from "../../context.js";
import { catalogueSongs } from "../catalogue-songs.js";
import { handleListenBrainzControl } from "./control.js";
import {
  createdFor,
  LB_USERS,
  ownPlaylists,
  playlistTracks,
  STAT_RANGES,
  topRecordings,
  userToken,
} from "./data.js";
import { handleListenBrainzApi } from "./routes.js";

/** Answers the request when it is the fake's (API or control); false otherwise. */
export async function handleListenBrainz(
  state: EmulatorState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  return (
    (await handleListenBrainzApi(state, req, res, url)) ||
    (await handleListenBrainzControl(state, req, res, url))
  );
}

/** The fake's users and their tokens. */
export function listenbrainzUsers(state: EmulatorState): { name: string; token: string }[] {
  const { seed } = catalogueSongs(state);
  return Object.keys(LB_USERS).map((name) => ({ name, token: userToken(seed, name) }));
}

/**
 * Ground truth, keyed as the engine's reader keys entries: `musicbrainz:recording:<mbid>`, and for
 * a listen not mapped to MusicBrainz `listenbrainz:listen:<artist credit>/<title>`. The value is the
 * catalogue video the entry stands for, or null for a song the catalogue does not have.
 */
export function listenbrainzTruth(state: EmulatorState): Map<string, string | null> {
  const truth = new Map<string, string | null>();
  for (const user of Object.keys(LB_USERS)) {
    for (const p of [...createdFor(state, user), ...ownPlaylists(state, user)]) {
      for (const t of playlistTracks(state, p)) truth.set(`musicbrainz:recording:${t.mbid}`, t.videoId);
    }
    if (!LB_USERS[user]!.stats) continue;
    for (const range of Object.keys(STAT_RANGES)) {
      for (const s of topRecordings(state, user, range)) {
        const key = s.unmapped
          ? `listenbrainz:listen:${s.track.creator}/${s.track.title}`
          : `musicbrainz:recording:${s.track.mbid}`;
        truth.set(key, s.track.videoId);
      }
    }
  }
  return truth;
}
