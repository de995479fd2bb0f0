/**
 * create_playlist: the create (with its first ids), its ownership recorded at once, then its rows'
 * ids read back and whatever the create did not take added with splitting. A refused or unanswered
 * create is verified by looking for the playlist by its marker.
 */
import { readTarget } from "../../targets/read.js";
import type { AddedRow } from "../client.js";
import { ActionFailed, describeAnswer, lost, refused, Unverified } from "../errors.js";
import { type ApplySession, own, reread, sendWrite, targetKeyOf, verifying } from "../session.js";
import { addIds } from "./add-items.js";
import type { ActionHandler, ActionOf } from "./handler.js";
import { addedSince } from "./playlist-items.js";

type Create = ActionOf<"create_playlist">;

/** Sends the create; the new playlist's id, or the error / answer that was no id. */
async function sendCreate(s: ApplySession, action: Create): Promise<unknown> {
  const opts = { privacyStatus: action.privacy, videoIds: action.videoIds };
  try {
    return await sendWrite(s, () => s.ctx.client.createPlaylist(action.title, action.description, opts));
  } catch (e) {
    if (!refused(e) && !lost(e)) throw e;
    return e;
  }
}

/** Refused or unanswered: the marker tells whether it exists after all; else one bad id may be why. */
async function verifyCreate(s: ApplySession, action: Create, answer: unknown): Promise<string> {
  const { client } = s.ctx;
  const read = await verifying(() =>
    readTarget(s.spec, client, { recipeId: s.recipeId, ownedPlaylistId: null }),
  );
  if (read.actual.exists && read.actual.playlistId) return read.actual.playlistId;
  if (refused(answer) && action.videoIds.length > 0) {
    // One bad id refuses the whole create: create it empty, then add with splitting.
    const options = { privacyStatus: action.privacy };
    const empty = await sendWrite(s, () => client.createPlaylist(action.title, action.description, options));
    if (typeof empty !== "string" || empty === "") throw new ActionFailed("create refused");
    return empty;
  }
  throw new ActionFailed(`create refused: ${describeAnswer(answer)}`);
}

/**
 * The create answer names only the playlist: its rows' ids come from reading it. If that read fails
 * the action is `unknown`, and the next run owns the rows the journal says it created.
 */
async function fillCreated(s: ApplySession, pid: string, action: Create): Promise<void> {
  const rows = await reread(s);
  const have = new Set<string>();
  const first: AddedRow[] = [];
  for (const r of rows) {
    if (r.videoId && r.setVideoId && action.videoIds.includes(r.videoId) && !have.has(r.videoId)) {
      have.add(r.videoId);
      first.push({ videoId: r.videoId, setVideoId: r.setVideoId });
    }
  }
  own(s, first);
  await addIds(
    s,
    pid,
    action.videoIds.filter((id) => !have.has(id)),
  );
}

export const createPlaylist: ActionHandler<Create> = {
  async send(s, action) {
    const answer = await sendCreate(s, action);
    s.playlistId =
      typeof answer === "string" && answer !== "" ? answer : await verifyCreate(s, action, answer);
    const pid = s.playlistId;
    await s.ctx.state.recordOwnedPlaylist({
      account: s.account,
      recipeId: s.recipeId,
      target: targetKeyOf(s),
      playlistId: pid,
      createdAt: s.ctx.clock.now(),
    });
    await fillCreated(s, pid, action);
  },
  journal: addedSince,
  journalFailure: (s) => (s.playlistId ? { playlistId: s.playlistId } : {}),
  // Without its playlist nothing else of the plan can be sent (a create whose rows could not be
  // read back did make it: the rest goes on).
  stopsPlan: (s, error) => !(error instanceof Unverified && s.playlistId),
};
