import { ArgumentError, ErrorCodes, ServiceError } from "../errors.js";
import { classicToken } from "../parsers/continuation-tokens.js";
import type { JsonObject } from "../parsers/nav.js";
import { parseQueueContinuation, parseWatchPage } from "../parsers/watch.js";
import type { OperationContext } from "../transport/operation-context.js";
import type { WatchPlaylist } from "../types/watch.js";
import { parseFor } from "./context.js";
import { followClassic } from "./continuations.js";

/** `get_watch_playlist` (docs/PROTOCOL.md#watch): the `next` endpoint and its queue continuations. */

export interface GetWatchPlaylistOptions {
  /** The song or video played; alone, its radio (`RDAMVM…`) is the queue. */
  videoId?: string;
  /** The playlist played (a leading `VL` is removed). One of `videoId`/`playlistId` is required. */
  playlistId?: string;
  /** The least number of tracks wanted; `null` for all (finite playlists only). Default 25. */
  limit?: number | null;
  /** Play a radio of the song or playlist instead. Default `false`. */
  radio?: boolean;
  /** Shuffle the playlist (ignored with `radio`). Default `false`. */
  shuffle?: boolean;
}

/** Radio params (`wAEB`) and shuffle params, sent exactly as the web client does (`%3D` included). */
export const RADIO_PARAMS = "wAEB";
export const SHUFFLE_PARAMS = "wAEB8gECKAE%3D";

/**
 * Whether a queue of this playlist is a finite list (user playlists `PL…`, album playlists `OLA…`)
 * rather than an endless radio: the two continue with different tokens.
 */
export function isFinitePlaylist(playlistId: string | undefined): boolean {
  return playlistId !== undefined && (playlistId.startsWith("PL") || playlistId.startsWith("OLA"));
}

/** The `next` request body (pure). Arguments are assumed checked. */
export function watchRequestBody(options: GetWatchPlaylistOptions): JsonObject {
  const body: JsonObject = {
    enablePersistentPlaylistPanel: true,
    isAudioOnly: true,
    tunerSettingValue: "AUTOMIX_SETTING_NORMAL",
  };
  const { videoId, radio = false, shuffle = false } = options;
  let playlistId = options.playlistId;
  if (videoId !== undefined) {
    body.videoId = videoId;
    // A lone song plays its radio.
    playlistId ??= `RDAMVM${videoId}`;
    if (!radio && !shuffle) {
      body.watchEndpointMusicSupportedConfigs = {
        watchEndpointMusicConfig: {
          hasPersistentPlaylistPanel: true,
          musicVideoType: "MUSIC_VIDEO_TYPE_ATV",
        },
      };
    }
  }
  if (playlistId !== undefined) body.playlistId = stripVL(playlistId);
  if (shuffle && playlistId !== undefined) body.params = SHUFFLE_PARAMS;
  if (radio) body.params = RADIO_PARAMS;
  return body;
}

/** A browse id (`VLPL…`) given as playlist id: the queue wants the bare id. */
function stripVL(playlistId: string): string {
  return playlistId.startsWith("VL") ? playlistId.slice(2) : playlistId;
}

function checkOptions(options: GetWatchPlaylistOptions, operation: string): void {
  const { videoId, playlistId, limit } = options;
  for (const [name, value] of [
    ["videoId", videoId],
    ["playlistId", playlistId],
  ] as const) {
    if (value !== undefined && (typeof value !== "string" || value === "")) {
      throw new ArgumentError(name, "must be a non-empty string", { operation });
    }
  }
  if (videoId === undefined && playlistId === undefined) {
    throw new ArgumentError("videoId", "give a videoId, a playlistId, or both", { operation });
  }
  if (limit !== undefined && limit !== null && (!Number.isInteger(limit) || limit < 1)) {
    throw new ArgumentError("limit", "must be a positive integer, or null for the whole playlist", {
      operation,
    });
  }
  if (limit === null && (options.radio || !isFinitePlaylist(stripVL(playlistId ?? "")))) {
    throw new ArgumentError("limit", "a radio queue never ends: give a number instead of null", {
      operation,
    });
  }
}

export async function getWatchPlaylist(
  ctx: OperationContext,
  options: GetWatchPlaylistOptions = {},
): Promise<WatchPlaylist> {
  const operation = "get_watch_playlist";
  checkOptions(options, operation);
  const limit = options.limit === undefined ? 25 : options.limit;
  const body = watchRequestBody(options);
  const response = await ctx.send({ operation, endpoint: "next", body });
  const notes = ctx.notes(operation);
  const page = parseFor(operation, () => parseWatchPage(response, notes));
  if (page.queue === null) {
    throw new ServiceError(
      ErrorCodes.NO_CONTENT,
      "no content returned by the service: the playlist may be private, deleted or unavailable here",
      { operation },
    );
  }
  const { tracks } = page;
  // Playlists continue with "next" tokens, radios with "radio" ones (docs/PROTOCOL.md#continuations); a playlist
  // played as a radio carries the radio kind, so the kind present on the page wins.
  const expected = isFinitePlaylist(body.playlistId as string | undefined) ? "next" : "radio";
  const other = expected === "next" ? "radio" : "next";
  const kind =
    classicToken(page.queue, expected) === null && classicToken(page.queue, other) !== null
      ? other
      : expected;
  const more = await followClassic(ctx, {
    operation,
    endpoint: "next",
    body,
    token: classicToken(page.queue, kind),
    type: "playlistPanelContinuation",
    limit: limit === null ? null : limit - tracks.length,
    kind,
    parse: (panel) => parseFor(operation, () => parseQueueContinuation(panel, notes)),
  });
  for (const track of more) tracks.push(track);
  return { tracks, playlistId: page.playlistId, lyrics: page.lyrics, related: page.related };
}
