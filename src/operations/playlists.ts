import { ArgumentError, ErrorCodes, ParseError, ServiceError } from "../errors.js";
import { classicToken } from "../parsers/continuation-tokens.js";
import { get, isObject, type JsonObject, list, type Path, str } from "../parsers/nav.js";
import {
  parsePlaylistPage,
  parsePlaylistRows,
  parseRelatedPlaylists,
  totalSeconds,
} from "../parsers/playlist.js";
import { parsePlaylistItems } from "../parsers/song-row.js";
import type { OperationContext } from "../transport/operation-context.js";
import { engagementPanel } from "../transport/refusals.js";
import type {
  AddedPlaylistItem,
  AddPlaylistItemsOptions,
  AddPlaylistItemsResponse,
  CreatePlaylistOptions,
  EditPlaylistOptions,
  EditPlaylistResponse,
  GetPlaylistOptions,
  Playlist,
  PlaylistItemRef,
  ServiceResponse,
  WriteFailure,
  WriteStatus,
} from "../types/playlists.js";
import type { Episode } from "../types/podcasts.js";
import { parseFor } from "./context.js";
import { ctokenParams, followClassic, followItems } from "./continuations.js";
import {
  checkBoolean,
  checkId,
  checkIdList,
  checkLimit,
  checkOptions,
  checkPlaylistText,
  checkPrivacy,
  editablePlaylistId,
} from "./library-arguments.js";

/** The one status word the service uses for a write that took effect. */
export const SUCCEEDED = "STATUS_SUCCEEDED";

/** A write's response as an object; anything else is a response we cannot read. */
export function responseObject(operation: string, response: unknown): ServiceResponse {
  if (!isObject(response)) throw new ParseError("(body)", "expected a JSON object", { operation });
  return response;
}

/** Posts a write (no retries, docs/PROTOCOL.md#requests) and returns the service's answer as an object. */
export async function sendWrite(
  ctx: OperationContext,
  operation: string,
  endpoint: string,
  body: JsonObject,
): Promise<ServiceResponse> {
  return responseObject(operation, await ctx.send({ operation, endpoint, body, write: true }));
}

/** Posts `browse/edit_playlist` with the given actions. */
function sendPlaylistEdit(
  ctx: OperationContext,
  operation: string,
  playlistId: string,
  actions: JsonObject[],
): Promise<ServiceResponse> {
  return sendWrite(ctx, operation, "browse/edit_playlist", { playlistId, actions });
}

/**
 * `STATUS_SUCCEEDED` when the body says so, otherwise the whole response. A 200 whose `status` is
 * anything else (`STATUS_FAILED`) is a failure and is never reported as the success string.
 */
export function statusOrResponse(operation: string, response: unknown): WriteStatus {
  const body = responseObject(operation, response);
  return body["status"] === SUCCEEDED ? SUCCEEDED : failure(body);
}

/** A response whose status is not the success word, typed so that callers can tell it apart. */
function failure(body: ServiceResponse): WriteFailure {
  return body as WriteFailure;
}

// ── create ──────────────────────────────────────────────────────────────────────────────────────

/**
 * `create_playlist` (docs/PROTOCOL.md#playlists): the new playlist's id, or the whole response when the service
 * did not create one. A response that only opens a "feature enablement" panel is a GATED error.
 */
export async function createPlaylist(
  ctx: OperationContext,
  title: string,
  description: string,
  options?: CreatePlaylistOptions,
): Promise<string | WriteFailure> {
  const operation = "create_playlist";
  const opts = checkOptions<CreatePlaylistOptions>(operation, options);
  const body: JsonObject = {
    title: checkPlaylistText(operation, "title", title),
    description: checkPlaylistText(operation, "description", description),
    privacyStatus: checkPrivacy(operation, opts.privacyStatus ?? "PRIVATE"),
  };
  // An empty list asks for nothing: the playlist is created empty, as without the option.
  if (opts.videoIds !== undefined && !(Array.isArray(opts.videoIds) && opts.videoIds.length === 0)) {
    body.videoIds = checkIdList(operation, "videoIds", opts.videoIds);
  }
  if (opts.sourcePlaylist !== undefined) {
    body.sourcePlaylistId = editablePlaylistId(operation, opts.sourcePlaylist);
  }
  ctx.requireAuth(operation);
  const response = await sendWrite(ctx, operation, "playlist/create", body);
  const id = response["playlistId"];
  if (typeof id === "string" && id !== "") return id;
  throwIfGated(operation, response);
  return failure(response);
}

/**
 * The service answers some accounts' writes with only a panel asking them to enable a feature.
 * (Reads answered so are refused in the transport, which sees every read.)
 */
export function throwIfGated(operation: string, response: ServiceResponse): void {
  const panel = engagementPanel(response);
  if (panel === undefined) return;
  const tag = panel.tag;
  throw new ServiceError(
    ErrorCodes.GATED,
    `the service asks the account to enable a feature first${tag ? ` (${tag})` : ""}; nothing was changed`,
    { operation, status: 200 },
  );
}

// ── edit ────────────────────────────────────────────────────────────────────────────────────────

const SORT_ORDERS = { MANUAL: 0, NEWEST_FIRST: 1, NEWEST_LAST: 2, TOP_VOTED: 6 } as const;
const VOTE_OPTIONS = { EVERYONE_CAN_VOTE: 1, COLLABORATORS_ONLY: 2, OFF: 3 } as const;

function enumValue<T extends Record<string, number>>(
  operation: string,
  argument: string,
  table: T,
  value: unknown,
): number {
  if (typeof value === "string" && Object.hasOwn(table, value)) return table[value] as number;
  throw new ArgumentError(
    argument,
    `${JSON.stringify(value)} is not one of ${Object.keys(table).join(", ")}`,
    {
      operation,
    },
  );
}

/** One ACTION_MOVE_VIDEO_BEFORE: a `setVideoId` to the end, or `[setVideoId, successor]` before another. */
function moveAction(operation: string, argument: string, move: unknown): JsonObject {
  if (typeof move === "string") {
    return { action: "ACTION_MOVE_VIDEO_BEFORE", setVideoId: checkId(operation, argument, move) };
  }
  if (Array.isArray(move) && move.length === 2) {
    return {
      action: "ACTION_MOVE_VIDEO_BEFORE",
      setVideoId: checkId(operation, argument, move[0]),
      movedSetVideoIdSuccessor: checkId(operation, argument, move[1]),
    };
  }
  throw new ArgumentError(argument, "must be a setVideoId or [setVideoId, successorSetVideoId]", {
    operation,
  });
}

/** The `actions` of an `edit_playlist` call, in the order the web client sends them (docs/PROTOCOL.md#writes). */
export function editActions(operation: string, opts: EditPlaylistOptions): JsonObject[] {
  const actions: JsonObject[] = [];
  if (opts.title !== undefined) {
    actions.push({
      action: "ACTION_SET_PLAYLIST_NAME",
      playlistName: checkPlaylistText(operation, "title", opts.title),
    });
  }
  if (opts.description !== undefined) {
    actions.push({
      action: "ACTION_SET_PLAYLIST_DESCRIPTION",
      playlistDescription: checkPlaylistText(operation, "description", opts.description),
    });
  }
  if (opts.privacyStatus !== undefined) {
    actions.push({
      action: "ACTION_SET_PLAYLIST_PRIVACY",
      playlistPrivacy: checkPrivacy(operation, opts.privacyStatus),
    });
  }
  const collaboration = checkBoolean(operation, "collaboration", opts.collaboration);
  if (collaboration === true) actions.push({ action: "ACTION_CREATE_COLLABORATION_INVITE_LINK" });
  if (collaboration === false) {
    actions.push({ action: "ACTION_SET_CLOSED_TO_CONTRIBUTIONS", closedToContributions: true });
  }
  if (opts.moveItem !== undefined) actions.push(moveAction(operation, "moveItem", opts.moveItem));
  if (opts.moveItems !== undefined) {
    if (!Array.isArray(opts.moveItems)) {
      throw new ArgumentError("moveItems", "must be an array of moves", { operation });
    }
    // The service applies the actions of one edit in order, so later moves see earlier ones.
    opts.moveItems.forEach((move, i) => {
      actions.push(moveAction(operation, `moveItems[${i}]`, move));
    });
  }
  if (opts.addPlaylistId !== undefined) {
    actions.push({
      action: "ACTION_ADD_PLAYLIST",
      addedFullListId: editablePlaylistId(operation, opts.addPlaylistId),
    });
  }
  if (opts.sortOrder !== undefined) {
    actions.push({
      action: "ACTION_SET_PLAYLIST_VIDEO_ORDER",
      playlistVideoOrder: enumValue(operation, "sortOrder", SORT_ORDERS, opts.sortOrder),
    });
  }
  const addToTop = checkBoolean(operation, "addToTop", opts.addToTop);
  if (addToTop !== undefined) {
    // The service wants the flag as a lower-case string, not a JSON boolean.
    actions.push({ action: "ACTION_SET_ADD_TO_TOP", addToTop: addToTop ? "true" : "false" });
  }
  if (opts.voteOption !== undefined) {
    actions.push({
      action: "ACTION_SET_ALLOW_ITEM_VOTE",
      itemVotePermission: enumValue(operation, "voteOption", VOTE_OPTIONS, opts.voteOption),
    });
  }
  return actions;
}

/**
 * `edit_playlist`: `STATUS_SUCCEEDED`, or with `collaboration: true` the status and the join token
 * (the `jct` parameter of the invite link); the whole response when the edit did not succeed.
 */
export async function editPlaylist(
  ctx: OperationContext,
  playlistId: string,
  options?: EditPlaylistOptions,
): Promise<EditPlaylistResponse> {
  const operation = "edit_playlist";
  const id = editablePlaylistId(operation, playlistId);
  const opts = checkOptions<EditPlaylistOptions>(operation, options);
  const actions = editActions(operation, opts);
  if (actions.length === 0) {
    throw new ArgumentError("options", "give at least one change (title, description, privacyStatus, …)", {
      operation,
    });
  }
  ctx.requireAuth(operation);
  const response = await sendPlaylistEdit(ctx, operation, id, actions);
  const result = statusOrResponse(operation, response);
  if (result !== SUCCEEDED || opts.collaboration !== true) return result;
  return { status: SUCCEEDED, joinCollaborationToken: joinToken(response) };
}

function joinToken(response: unknown): string {
  const link = str(response, ["collaborationInviteLink"]);
  const token = link === null ? null : safeUrl(link)?.searchParams.get("jct");
  if (!token) {
    throw new ParseError("collaborationInviteLink", "expected an invite link with a `jct` parameter", {
      operation: "edit_playlist",
    });
  }
  return token;
}

function safeUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

// ── delete ──────────────────────────────────────────────────────────────────────────────────────

/** `delete_playlist`: `STATUS_SUCCEEDED`, or the whole response. */
export async function deletePlaylist(ctx: OperationContext, playlistId: string): Promise<WriteStatus> {
  const operation = "delete_playlist";
  const id = editablePlaylistId(operation, playlistId);
  ctx.requireAuth(operation);
  return statusOrResponse(operation, await sendWrite(ctx, operation, "playlist/delete", { playlistId: id }));
}

// ── add items ───────────────────────────────────────────────────────────────────────────────────

/**
 * `add_playlist_items`: on success the status and, for each added video, its new `setVideoId`; the
 * whole response otherwise. Without `duplicates`, a video already in the playlist makes the service
 * add nothing and answer with a failure, which is returned as it came.
 */
export async function addPlaylistItems(
  ctx: OperationContext,
  playlistId: string,
  videoIds?: string[] | null,
  options?: AddPlaylistItemsOptions,
): Promise<AddPlaylistItemsResponse> {
  const operation = "add_playlist_items";
  const id = editablePlaylistId(operation, playlistId);
  const opts = checkOptions<AddPlaylistItemsOptions>(operation, options);
  const videos =
    videoIds === undefined || videoIds === null || (Array.isArray(videoIds) && videoIds.length === 0)
      ? []
      : checkIdList(operation, "videoIds", videoIds);
  const source =
    opts.sourcePlaylist === undefined ? undefined : editablePlaylistId(operation, opts.sourcePlaylist);
  const duplicates = checkBoolean(operation, "duplicates", opts.duplicates) ?? false;
  if (videos.length === 0 && source === undefined) {
    throw new ArgumentError("videoIds", "give at least one video id, or `sourcePlaylist`", { operation });
  }
  const actions: JsonObject[] = videos.map((videoId) =>
    // Naming is the service's: DEDUPE_OPTION_SKIP skips the duplicate CHECK, so duplicates get added.
    duplicates
      ? { action: "ACTION_ADD_VIDEO", addedVideoId: videoId, dedupeOption: "DEDUPE_OPTION_SKIP" }
      : { action: "ACTION_ADD_VIDEO", addedVideoId: videoId },
  );
  if (source !== undefined) {
    actions.push({ action: "ACTION_ADD_PLAYLIST", addedFullListId: source });
    // Without a video action the service leaves out the per-item results; this empty one asks for them.
    if (videos.length === 0) actions.push({ action: "ACTION_ADD_VIDEO", addedVideoId: null });
  }
  ctx.requireAuth(operation);
  const response = await sendPlaylistEdit(ctx, operation, id, actions);
  if (response["status"] !== SUCCEEDED) return failure(response);
  const added: AddedPlaylistItem[] = [];
  for (const entry of list(response, ["playlistEditResults"])) {
    const data = get(entry, ["playlistEditVideoAddedResultData"]);
    if (isObject(data)) added.push(data as AddedPlaylistItem);
  }
  return { status: SUCCEEDED, playlistEditResults: added };
}

// ── remove items ────────────────────────────────────────────────────────────────────────────────

/**
 * `remove_playlist_items`: every item needs the `setVideoId` that `getPlaylist` returns for an owned
 * playlist (it says which copy of the video to remove). `STATUS_SUCCEEDED`, or the whole response.
 */
export async function removePlaylistItems(
  ctx: OperationContext,
  playlistId: string,
  videos: readonly PlaylistItemRef[],
): Promise<WriteStatus> {
  const operation = "remove_playlist_items";
  const id = editablePlaylistId(operation, playlistId);
  if (!Array.isArray(videos) || videos.length === 0) {
    throw new ArgumentError("videos", "must be a non-empty array of playlist items", { operation });
  }
  const actions = videos.map((video, index) => removeAction(operation, video, index));
  ctx.requireAuth(operation);
  return statusOrResponse(operation, await sendPlaylistEdit(ctx, operation, id, actions));
}

/**
 * One ACTION_REMOVE_VIDEO, or an ArgumentError naming the row (its index, and its video id or title)
 * when it lacks an id: rows of other lists than an owned playlist's have no `setVideoId`.
 */
function removeAction(operation: string, video: unknown, index: number): JsonObject {
  const row = isObject(video) ? video : {};
  const { videoId, setVideoId, title } = row;
  const named = typeof videoId === "string" && videoId !== "" ? `videoId ${videoId}` : undefined;
  const titled = typeof title === "string" && title !== "" ? JSON.stringify(title) : undefined;
  const what = [named, titled].filter(Boolean).join(", ");
  const label = what === "" ? `item ${index}` : `item ${index} (${what})`;
  if (named === undefined) {
    throw new ArgumentError("videos", `${label} has no videoId`, { operation });
  }
  if (typeof setVideoId !== "string" || setVideoId === "") {
    throw new ArgumentError(
      "videos",
      `${label} has no setVideoId; take the items from getPlaylist of a playlist you own`,
      { operation },
    );
  }
  return { setVideoId, removedVideoId: videoId as string, action: "ACTION_REMOVE_VIDEO" };
}

// ── get ─────────────────────────────────────────────────────────────────────────────────────────

const SECTION_CONTINUATION: Path = ["continuationContents", "sectionListContinuation"];
const SUGGESTIONS_SHELF: Path = ["contents", 0, "musicShelfRenderer"];
const RELATED_CAROUSEL: Path = [...SECTION_CONTINUATION, "contents", 0, "musicCarouselShelfRenderer"];

/**
 * `get_playlist` (docs/PROTOCOL.md#playlists): header, tracks (continuations followed until `limit`, whole pages;
 * `null` = all), and on request the suggestions of an owned playlist and the related playlists.
 */
export async function getPlaylist(
  ctx: OperationContext,
  playlistId: string,
  options?: GetPlaylistOptions,
  operation = "get_playlist",
): Promise<Playlist> {
  const id = checkId(operation, "playlistId", playlistId);
  const opts = checkOptions<GetPlaylistOptions>(operation, options);
  const limit = checkLimit(operation, "limit", opts.limit === undefined ? 100 : opts.limit);
  const related = checkBoolean(operation, "related", opts.related) ?? false;
  const suggestionsLimit = checkLimit(
    operation,
    "suggestionsLimit",
    opts.suggestionsLimit === undefined ? 0 : opts.suggestionsLimit,
    false,
  ) as number;
  const browseId = id.startsWith("VL") ? id : `VL${id}`;
  const body = { browseId };
  const notes = ctx.notes(operation);

  const response = await ctx.send({ operation, endpoint: "browse", body });
  const page = parseFor(operation, () => parsePlaylistPage(response, id, notes));
  const playlist: Playlist = { ...page.header, related: [], tracks: [], duration_seconds: 0 };
  /** The next page of the section list: suggestions (owned playlists), then related playlists. */
  const nextSection = (token: string) =>
    ctx.send({ operation, endpoint: "browse", body, additionalParams: ctokenParams(token) });

  let sectionToken = page.sectionToken;
  if (sectionToken !== null && playlist.owned && (suggestionsLimit > 0 || related)) {
    const section = get(await nextSection(sectionToken), SECTION_CONTINUATION);
    const shelf = get(section, SUGGESTIONS_SHELF);
    sectionToken = classicToken(section);
    if (suggestionsLimit > 0 && isObject(shelf)) {
      const parse = (rows: readonly unknown[]) =>
        parseFor(operation, () => parsePlaylistItems(rows, {}, notes, "playlist suggestions"));
      const suggestions = parse(list(shelf, ["contents"]));
      // Each reload of the suggestions shelf yields a fresh batch (about 7) until the limit.
      const more = await followClassic(ctx, {
        operation,
        endpoint: "browse",
        body,
        token: classicToken(shelf, "reload"),
        type: "musicShelfContinuation",
        kind: "reload",
        limit: suggestionsLimit - suggestions.length,
        parse: (next) => parse(list(next, ["contents"])),
      });
      playlist.suggestions = [...suggestions, ...more];
    }
  }
  if (related && sectionToken !== null) {
    const carousel = get(await nextSection(sectionToken), RELATED_CAROUSEL);
    playlist.related = parseFor(operation, () => parseRelatedPlaylists(carousel, notes));
  }

  const rows = page.rows;
  const next = page.trackContinuation;
  const remaining = limit === null ? null : limit - rows.length;
  const parseRows = (contents: readonly unknown[]) =>
    parseFor(operation, () => parsePlaylistRows(contents, page.collaborative, notes));
  if (next?.shape === "items") {
    const more = await followItems(ctx, {
      operation,
      endpoint: "browse",
      token: next.token,
      limit: remaining,
      parse: parseRows,
    });
    for (const row of more) rows.push(row);
  } else if (next?.shape === "classic") {
    // Playlists before 2025 paged with a classic token on the shelf (shape A).
    const more = await followClassic(ctx, {
      operation,
      endpoint: "browse",
      body,
      token: next.token,
      type: next.type,
      limit: remaining,
      parse: (shelf) => parseRows(list(shelf, ["contents"])),
    });
    for (const row of more) rows.push(row);
  }
  const episodes: Episode[] = [];
  for (const row of rows) {
    if (row.episode) episodes.push(row.track);
    else playlist.tracks.push(row.track);
  }
  if (episodes.length > 0) playlist.episodes = episodes;
  playlist.duration_seconds = totalSeconds(playlist.tracks);
  return playlist;
}

/** One of the account's own auto playlists, read as `get_playlist` reads it. Needs credentials. */
async function getOwnPlaylist(
  ctx: OperationContext,
  operation: string,
  playlistId: string,
  options: { limit?: number | null } | undefined,
): Promise<Playlist> {
  const opts = checkOptions<{ limit?: number | null }>(operation, options);
  const limit = checkLimit(operation, "limit", opts.limit === undefined ? 100 : opts.limit);
  ctx.requireAuth(operation);
  return getPlaylist(ctx, playlistId, { limit }, operation);
}

/** `get_liked_songs`: the "Liked Music" playlist (`LM`). Needs credentials. */
export function getLikedSongs(ctx: OperationContext, options?: { limit?: number | null }): Promise<Playlist> {
  return getOwnPlaylist(ctx, "get_liked_songs", "LM", options);
}

/** `get_saved_episodes`: the "Episodes for Later" playlist (`SE`). Needs credentials. */
export function getSavedEpisodes(
  ctx: OperationContext,
  options?: { limit?: number | null },
): Promise<Playlist> {
  return getOwnPlaylist(ctx, "get_saved_episodes", "SE", options);
}
