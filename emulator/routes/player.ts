/**
 * `player` (docs/PROTOCOL.md#player) and the playback-tracking address it hands out (docs/PROTOCOL.md#player): the GET on that
 * address records a history entry for the signed-in account and answers 204.
 */
import type { IncomingHttpHeaders } from "node:http";
import { resolveViewer } from "../auth.js";
import type { ApiContext, EmulatorState } from "../context.js";
import { invalidArgument } from "../errors.js";
import { playerResponse } from "../render/player.js";
import { accountId } from "./viewer.js";

export function player(ctx: ApiContext): unknown {
  const id = ctx.body.videoId ?? ctx.body.video_id;
  if (typeof id !== "string" || id === "") throw invalidArgument("'videoId' is required.");
  const song = ctx.state.store.catalogue.song(id);
  const episode = song ? null : ctx.state.store.catalogue.episode(id);
  return playerResponse(ctx.state, id, song, episode, accountId(ctx));
}

export function recordPlayback(
  state: EmulatorState,
  headers: IncomingHttpHeaders,
  query: URLSearchParams,
): void {
  const docid = query.get("docid");
  if (!docid) return;
  let viewer = null;
  try {
    viewer = resolveViewer(state, headers, undefined);
  } catch {
    return;
  }
  if (!viewer) return;
  // A single insert, outside the route table's transactions: mark the state changed.
  if (state.store.libraryEdits.recordPlay(viewer.account.id, docid, state.now())) state.store.touch();
}
