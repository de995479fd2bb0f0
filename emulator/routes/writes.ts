/**
 * Every state-changing endpoint (docs/PROTOCOL.md#library, docs/PROTOCOL.md#playlists, docs/PROTOCOL.md#uploads): each handler reads the wire request,
 * calls a domain operation of the store (store/playlist-edits.ts, store/library-edits.ts) and
 * renders the answer (render/edits.ts). The server runs each inside one SQLite transaction (the
 * route table marks them as writes): a refused or failed request changes nothing.
 */
import type { ApiContext } from "../context.js";
import { ApiError, invalidArgument } from "../errors.js";
import { Rng } from "../random.js";
import { addedResult, rateAnswer, savedToPlaylistToast, subscribeAnswer } from "../render/edits.js";
import { uploadAlbumId } from "../render/library.js";
import { playlistHeader } from "../render/playlist.js";
import type { Rating, TargetKind } from "../store/library-edits.js";
import type { AddedRow, PlaylistEditBatch } from "../store/playlist-edit-batch.js";
import type { PlaylistFields } from "../store/playlist-edits.js";
import type { AccountRow, PlaylistRow } from "../store/rows.js";
import { readFeedback } from "../tokens.js";
import { playlistHead } from "./catalogue-pages.js";
import { requireAccount, str } from "./viewer.js";

/** The service's limits on a playlist's title and description. */
export const MAX_TITLE = 150;
export const MAX_DESCRIPTION = 5000;
const PRIVACY = ["PUBLIC", "PRIVATE", "UNLISTED"];

let idCounter = 0;
/** Fresh ids for created things: random, but never repeated within the process. */
function freshRng(ctx: ApiContext): Rng {
  idCounter++;
  return new Rng((ctx.state.now() ^ (idCounter * 2654435761)) >>> 0);
}

function checkTitle(title: unknown): string {
  if (typeof title !== "string") throw invalidArgument("Invalid value at 'title'.");
  const t = title.trim();
  if (t === "" || t.length > MAX_TITLE || /[<>]/.test(t)) throw invalidArgument("Invalid playlist title.");
  return t;
}

function checkDescription(d: unknown): string {
  if (d === undefined || d === null) return "";
  if (typeof d !== "string" || d.length > MAX_DESCRIPTION || /[<>]/.test(d)) {
    throw invalidArgument("Invalid playlist description.");
  }
  return d;
}

function checkPrivacy(p: unknown, fallback: string): string {
  if (p === undefined) return fallback;
  if (typeof p !== "string" || !PRIVACY.includes(p))
    throw invalidArgument("Invalid value at 'privacy_status'.");
  return p;
}

/** A playlist id as requests send it: required, with or without the `VL` of its browse id. */
function playlistIdOf(raw: unknown): string {
  if (typeof raw !== "string" || raw === "") throw invalidArgument("'playlistId' is required.");
  return raw.replace(/^VL/, "");
}

function ownedPlaylist(ctx: ApiContext, raw: unknown, allowCollaborator = false): PlaylistRow {
  const id = playlistIdOf(raw);
  const account = requireAccount(ctx);
  return ctx.state.store.playlistEdits.editable(account.id, id, allowCollaborator);
}

/** Edits a collaborator may make; the rest (title, privacy, settings) are the owner's. */
const COLLABORATOR_ACTIONS = new Set([
  "ACTION_ADD_VIDEO",
  "ACTION_ADD_PLAYLIST",
  "ACTION_REMOVE_VIDEO",
  "ACTION_REMOVE_VIDEO_BY_VIDEO_ID",
  "ACTION_MOVE_VIDEO_BEFORE",
]);

type Action = Record<string, unknown>;

/** `ACTION_JOIN_COLLABORATION`: the invite link's `jct` makes the caller a collaborator. */
function joinCollaboration(ctx: ApiContext, raw: unknown, token: unknown): unknown {
  const account = requireAccount(ctx);
  ctx.state.store.playlistEdits.join(account.id, playlistIdOf(raw), token, ctx.state.now());
  return { status: "STATUS_SUCCEEDED" };
}

/** The saved-episodes list (`SE`) takes only adds and removals, by episode. */
function savedEpisodesEdit(ctx: ApiContext, actions: Action[]): unknown {
  const account = requireAccount(ctx);
  const edits = ctx.state.store.libraryEdits;
  const results: unknown[] = [];
  for (const a of actions) {
    if (a.action === "ACTION_ADD_VIDEO") {
      if (a.addedVideoId === null) continue;
      const videoId = a.addedVideoId;
      if (typeof videoId !== "string") throw invalidArgument("Invalid episode id.");
      const skip = a.dedupeOption === "DEDUPE_OPTION_SKIP";
      const setVideoId = edits.saveEpisode(account.id, videoId, skip, ctx.state.now(), () => freshRng(ctx));
      if (setVideoId !== null) results.push(addedResult(videoId, setVideoId));
    } else if (a.action === "ACTION_REMOVE_VIDEO_BY_VIDEO_ID" || a.action === "ACTION_REMOVE_VIDEO") {
      const removed =
        a.action === "ACTION_REMOVE_VIDEO"
          ? edits.unsaveEpisode(account.id, "setVideoId", String(a.setVideoId))
          : edits.unsaveEpisode(account.id, "videoId", String(a.removedVideoId));
      if (!removed) throw invalidArgument("No such item in the playlist.");
    } else {
      throw invalidArgument(`Unsupported action for this playlist: ${String(a.action)}`);
    }
  }
  return { status: "STATUS_SUCCEEDED", playlistEditResults: results };
}

/** `ACTION_SET_ADD_TO_TOP`: sent as the strings "true"/"false" (1.12.2); booleans are accepted too. */
function addToTopOf(v: unknown): boolean {
  if (v !== "true" && v !== "false" && v !== true && v !== false)
    throw invalidArgument("Invalid value at 'addToTop'.");
  return v === "true" || v === true;
}

/**
 * Applies one action of an edit request: its rows added go to `results`, an invite link to
 * `response`.
 */
function applyAction(
  batch: PlaylistEditBatch,
  a: Action,
  results: unknown[],
  response: Record<string, unknown>,
) {
  const added = (rows: AddedRow[]) => {
    for (const r of rows) results.push(addedResult(r.videoId, r.setVideoId));
  };
  switch (a.action) {
    case "ACTION_SET_PLAYLIST_NAME":
      return batch.setTitle(checkTitle(a.playlistName));
    case "ACTION_SET_PLAYLIST_DESCRIPTION":
      return batch.setDescription(checkDescription(a.playlistDescription));
    case "ACTION_SET_PLAYLIST_PRIVACY":
      if (typeof a.playlistPrivacy !== "string" || !PRIVACY.includes(a.playlistPrivacy))
        throw invalidArgument("Invalid privacy.");
      return batch.setPrivacy(a.playlistPrivacy);
    case "ACTION_SET_ADD_TO_TOP":
      return batch.setAddToTop(addToTopOf(a.addToTop));
    case "ACTION_CREATE_COLLABORATION_INVITE_LINK":
      response.collaborationInviteLink = batch.inviteLink();
      return;
    case "ACTION_SET_CLOSED_TO_CONTRIBUTIONS":
      return batch.closeToContributions();
    case "ACTION_SET_ALLOW_ITEM_VOTE":
      return;
    case "ACTION_SET_PLAYLIST_VIDEO_ORDER":
      if (![0, 1, 2, 6].includes(Number(a.playlistVideoOrder)))
        throw invalidArgument("Invalid playlist order.");
      return;
    case "ACTION_ADD_VIDEO": {
      if (a.addedVideoId === null || a.addedVideoId === undefined) return;
      if (typeof a.addedVideoId !== "string") throw invalidArgument("Invalid video id.");
      // DEDUPE_OPTION_SKIP is what ALLOWS a duplicate (docs/PROTOCOL.md#playlists); without it a duplicate fails the request.
      return added([batch.addVideo(a.addedVideoId, a.dedupeOption === "DEDUPE_OPTION_SKIP")]);
    }
    case "ACTION_ADD_PLAYLIST": {
      const source = typeof a.addedFullListId === "string" ? a.addedFullListId.replace(/^VL/, "") : null;
      if (!source) throw invalidArgument("Invalid value at 'addedFullListId'.");
      return added(batch.addList(source));
    }
    case "ACTION_MOVE_VIDEO_BEFORE":
      return batch.move(a.setVideoId, a.movedSetVideoIdSuccessor);
    case "ACTION_REMOVE_VIDEO":
      if (typeof a.setVideoId !== "string" || batch.remove("setVideoId", a.setVideoId) === 0)
        throw invalidArgument("Invalid value at 'setVideoId'.");
      return;
    case "ACTION_REMOVE_VIDEO_BY_VIDEO_ID":
      if (batch.remove("videoId", String(a.removedVideoId)) === 0)
        throw invalidArgument("Invalid value at 'removedVideoId'.");
      return;
    default:
      throw invalidArgument(`Invalid value at 'actions' (${String(a.action)}).`);
  }
}

export function editPlaylist(ctx: ApiContext): unknown {
  const actions = ctx.body.actions;
  if (!Array.isArray(actions) || actions.length === 0 || !actions.every((a) => a && typeof a === "object")) {
    throw invalidArgument("'actions' must be a non-empty list.");
  }
  const acts = actions as Action[];
  if (ctx.body.playlistId === "SE") return savedEpisodesEdit(ctx, acts);
  if (acts.length === 1 && acts[0]!.action === "ACTION_JOIN_COLLABORATION") {
    return joinCollaboration(ctx, ctx.body.playlistId, acts[0]!.joinCollaborationToken);
  }
  const onlyItems = acts.every((a) => COLLABORATOR_ACTIONS.has(String(a.action)));
  const playlist = ownedPlaylist(ctx, ctx.body.playlistId, onlyItems);
  if (ctx.state.now() - playlist.createdAt < ctx.state.recentPlaylistConflictMs) {
    throw new ApiError(409, "The playlist is still being created; try again shortly.", "conflict");
  }
  const store = ctx.state.store;
  const pid = playlist.playlistId;
  const batch = store.playlistEdits.batch(playlist, () => freshRng(ctx));
  const results: unknown[] = [];
  const response: Record<string, unknown> = {};
  for (const a of acts) applyAction(batch, a, results, response);
  batch.finish();
  if (results.length) {
    // After adds the service sends the refreshed header and a toast (capture yt_add_playlist_items_20240626).
    response.newHeader = playlistHeader(playlistHead(ctx, pid, 1));
    response.actions = [savedToPlaylistToast(pid, store.playlists.playlist(pid)?.title ?? "playlist")];
  }
  return { status: "STATUS_SUCCEEDED", ...response, playlistEditResults: results };
}

export function createPlaylist(ctx: ApiContext): unknown {
  const account = requireAccount(ctx);
  const fields: PlaylistFields = {
    title: checkTitle(ctx.body.title),
    description: checkDescription(ctx.body.description),
    privacy: checkPrivacy(ctx.body.privacyStatus, "PRIVATE"),
  };
  const videoIds = ctx.body.videoIds ?? [];
  if (!Array.isArray(videoIds) || !videoIds.every((v) => typeof v === "string"))
    throw invalidArgument("Invalid value at 'videoIds'.");
  const source = str(ctx, "sourcePlaylistId");
  const playlistId = ctx.state.store.playlistEdits.create(
    account,
    fields,
    videoIds,
    source,
    ctx.state.now(),
    () => freshRng(ctx),
  );
  return { playlistId };
}

export function deletePlaylist(ctx: ApiContext): unknown {
  const playlist = ownedPlaylist(ctx, ctx.body.playlistId);
  ctx.state.store.playlistEdits.delete(playlist.playlistId);
  return { status: "STATUS_SUCCEEDED" };
}

/** What a like endpoint rates: a song or episode by video id, or a collection by playlist id. */
function rateTarget(ctx: ApiContext): { kind: TargetKind; id: string } {
  const target = ctx.body.target as { videoId?: unknown; playlistId?: unknown } | undefined;
  if (!target || typeof target !== "object") throw invalidArgument("'target' is required.");
  if (typeof target.videoId === "string") return { kind: "song", id: target.videoId };
  if (typeof target.playlistId === "string")
    return { kind: "playlist", id: target.playlistId.replace(/^VL/, "") };
  throw invalidArgument("'target' needs a videoId or a playlistId.");
}

export function rate(rating: Rating) {
  return (ctx: ApiContext): unknown => {
    const account = requireAccount(ctx);
    const store = ctx.state.store;
    const { kind, id } = rateTarget(ctx);
    store.libraryEdits.rate(account.id, kind, id, rating, ctx.state.now());
    const saved = kind === "playlist" && rating === "LIKE" ? store.playlists.playlist(id) : null;
    return rateAnswer(kind, id, rating, saved);
  };
}

/** One feedback token's library or history action; false when it cannot be processed. */
function applyFeedback(ctx: ApiContext, account: AccountRow, token: unknown): boolean {
  const edits = ctx.state.store.libraryEdits;
  const now = ctx.state.now();
  const f = readFeedback(token);
  switch (f?.a) {
    case "add":
      return edits.addEntry(account.id, f.kind, f.id, now);
    case "remove":
      edits.removeEntry(account.id, f.kind, f.id);
      return true;
    case "history":
      return edits.removePlay(account, Number(f.id));
    case "pin":
    case "unpin":
      // Episodes marked (un)played keep no state here; songs are pinned to Listen again.
      return f.kind !== "song" || edits.pin(account.id, f.id, f.a === "pin", now);
    case "suggestion":
      return true;
    default:
      return false;
  }
}

export function feedback(ctx: ApiContext): unknown {
  const account = requireAccount(ctx);
  const tokens = ctx.body.feedbackTokens;
  if (!Array.isArray(tokens) || tokens.length === 0)
    throw invalidArgument("'feedbackTokens' must be a non-empty list.");
  return { feedbackResponses: tokens.map((t) => ({ isProcessed: applyFeedback(ctx, account, t) })) };
}

export function subscribe(on: boolean) {
  return (ctx: ApiContext): unknown => {
    const account = requireAccount(ctx);
    const store = ctx.state.store;
    const channelIds = ctx.body.channelIds;
    if (
      !Array.isArray(channelIds) ||
      channelIds.length === 0 ||
      !channelIds.every((c) => typeof c === "string")
    ) {
      throw invalidArgument("'channelIds' must be a non-empty list.");
    }
    // The service accepts a single channel per subscribe call (ytmusicapi 1.12.2, #943).
    if (on && channelIds.length > 1)
      throw invalidArgument("Only one channel can be subscribed to per request.");
    store.libraryEdits.subscribe(account.id, channelIds, on, ctx.state.now());
    const name = store.catalogue.artist(channelIds[0] as string)?.name ?? "";
    return subscribeAnswer(channelIds, name, on);
  };
}

export function deleteUpload(ctx: ApiContext): unknown {
  const account = requireAccount(ctx);
  const edits = ctx.state.store.libraryEdits;
  const raw = ctx.body.entityId;
  if (typeof raw !== "string" || raw === "") throw invalidArgument("'entityId' is required.");
  const id = raw.replace("FEmusic_library_privately_owned_release_detail", "");
  if (id.startsWith("t_po_")) {
    edits.deleteUpload(account.id, id);
    return {};
  }
  if (id.startsWith("b_po_")) {
    // An uploaded album is every upload whose artist and album make its id.
    const albumId = `FEmusic_library_privately_owned_release_detail${id}`;
    edits.deleteUploads(account.id, (u) => uploadAlbumId(u.artistName, u.albumTitle) === albumId);
    return {};
  }
  throw invalidArgument("Invalid entity id.");
}

export function accountMenu(ctx: ApiContext): unknown {
  const account = requireAccount(ctx);
  const header: Record<string, unknown> = {
    accountName: { runs: [{ text: account.name }] },
    email: { runs: [{ text: account.email }] },
    accountPhoto: {
      thumbnails: [
        {
          url: `https://yt3.ggpht.com/emu/${account.channelId}=s108-c-k-c0x00ffffff-no-rj`,
          width: 108,
          height: 108,
        },
      ],
    },
    settingsEndpoint: { applicationSettingsEndpoint: {} },
    manageAccountTitle: { runs: [{ text: "Manage your Google Account" }] },
  };
  if (account.handle) header.channelHandle = { runs: [{ text: account.handle }] };
  return {
    actions: [
      {
        openPopupAction: {
          popup: {
            multiPageMenuRenderer: {
              header: { activeAccountHeaderRenderer: header },
              sections: [],
              style: "MULTI_PAGE_MENU_STYLE_TYPE_ACCOUNT",
            },
          },
          popupType: "DROPDOWN",
        },
      },
    ],
  };
}
