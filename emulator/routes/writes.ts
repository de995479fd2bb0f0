/**
 * Every state-changing endpoint (PROTOCOL §4.5, §4.6, §5.2). Each runs inside one SQLite
 * transaction (the route table marks them as writes): a refused or failed request changes nothing.
 */
import type { ApiContext } from "../context.js";
import { ApiError, failedStatus, invalidArgument, notFound, permissionDenied } from "../errors.js";
import { ids, Rng } from "../random.js";
import { uploadAlbumId } from "../render/library.js";
import { playlistHeader } from "../render/playlist.js";
import { PlaylistItemsEdit } from "../store/playlist-items.js";
import type { PlaylistRow } from "../store/rows.js";
import { readFeedback } from "../tokens.js";
import { playlistView } from "./catalogue-pages.js";
import { requireAccount, str } from "./viewer.js";

/** The service's limits on playlists. */
export const MAX_PLAYLIST_ITEMS = 5000;
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

function ownedPlaylist(ctx: ApiContext, raw: unknown, allowCollaborator = false): PlaylistRow {
  if (typeof raw !== "string" || raw === "") throw invalidArgument("'playlistId' is required.");
  const id = raw.startsWith("VL") ? raw.slice(2) : raw;
  const account = requireAccount(ctx);
  const playlist = ctx.state.store.playlist(id);
  if (!playlist) throw notFound();
  const collaborator = allowCollaborator && ctx.state.store.inLibrary(account.id, "collaboration", id);
  if (playlist.ownerAccountId !== account.id && !collaborator) throw permissionDenied();
  return playlist;
}

/** Edits a collaborator may make; the rest (title, privacy, settings) are the owner's. */
const COLLABORATOR_ACTIONS = new Set([
  "ACTION_ADD_VIDEO",
  "ACTION_ADD_PLAYLIST",
  "ACTION_REMOVE_VIDEO",
  "ACTION_REMOVE_VIDEO_BY_VIDEO_ID",
  "ACTION_MOVE_VIDEO_BEFORE",
]);

/** The invite token of a playlist, kept in `meta` under `jct:<playlistId>`. */
function inviteToken(ctx: ApiContext, playlistId: string): string | null {
  const row = ctx.state.store.st("SELECT value FROM meta WHERE key = ?").get(`jct:${playlistId}`) as
    | { value: string }
    | undefined;
  return row?.value ?? null;
}

/** `ACTION_JOIN_COLLABORATION`: the invite link's `jct` makes the caller a collaborator. */
function joinCollaboration(ctx: ApiContext, raw: unknown, token: unknown): unknown {
  const account = requireAccount(ctx);
  if (typeof raw !== "string" || raw === "") throw invalidArgument("'playlistId' is required.");
  const id = raw.replace(/^VL/, "");
  const playlist = ctx.state.store.playlist(id);
  if (!playlist) throw notFound();
  const expected = inviteToken(ctx, id);
  if (!expected || token !== expected) throw permissionDenied("The invitation is not valid.");
  // Joining twice (or the owner joining) is refused as unauthorized (PROTOCOL §4.6).
  if (playlist.ownerAccountId === account.id || ctx.state.store.inLibrary(account.id, "collaboration", id)) {
    throw new ApiError(401, "The caller is already a collaborator.", "unauthorized");
  }
  ctx.state.store
    .st("INSERT INTO library_items (account_id, kind, target_id, added_at) VALUES (?, 'collaboration', ?, ?)")
    .run(account.id, id, ctx.state.now());
  return { status: "STATUS_SUCCEEDED" };
}

interface ItemRow {
  setVideoId: string;
  videoId: string;
  position: number;
}

function items(ctx: ApiContext, playlistId: string): ItemRow[] {
  return ctx.state.store
    .st(
      "SELECT set_video_id AS setVideoId, video_id AS videoId, position FROM playlist_items WHERE playlist_id = ? ORDER BY position",
    )
    .all(playlistId) as ItemRow[];
}

function addedResult(videoId: string, setVideoId: string) {
  return {
    playlistEditVideoAddedResultData: {
      videoId,
      setVideoId,
      multiSelectData: {
        multiSelectParams: "CAM%3D",
        multiSelectItem: Buffer.from(videoId).toString("base64"),
      },
    },
  };
}

function savedEpisodesEdit(ctx: ApiContext, actions: Record<string, unknown>[]): unknown {
  const account = requireAccount(ctx);
  const store = ctx.state.store;
  const results: unknown[] = [];
  for (const a of actions) {
    if (a.action === "ACTION_ADD_VIDEO") {
      if (a.addedVideoId === null) continue;
      const videoId = a.addedVideoId;
      if (typeof videoId !== "string" || !store.episode(videoId))
        throw invalidArgument("Invalid episode id.");
      const present = store
        .st("SELECT 1 FROM saved_episodes WHERE account_id = ? AND video_id = ?")
        .get(account.id, videoId);
      if (present) {
        if (a.dedupeOption === "DEDUPE_OPTION_SKIP") continue;
        throw failedStatus("This episode is already saved");
      }
      const setVideoId = ids.setVideo(freshRng(ctx));
      store
        .st("INSERT INTO saved_episodes (account_id, video_id, set_video_id, added_at) VALUES (?,?,?,?)")
        .run(account.id, videoId, setVideoId, ctx.state.now());
      results.push(addedResult(videoId, setVideoId));
    } else if (a.action === "ACTION_REMOVE_VIDEO_BY_VIDEO_ID" || a.action === "ACTION_REMOVE_VIDEO") {
      const r =
        a.action === "ACTION_REMOVE_VIDEO"
          ? store
              .st("DELETE FROM saved_episodes WHERE account_id = ? AND set_video_id = ?")
              .run(account.id, String(a.setVideoId))
          : store
              .st("DELETE FROM saved_episodes WHERE account_id = ? AND video_id = ?")
              .run(account.id, String(a.removedVideoId));
      if (r.changes === 0) throw invalidArgument("No such item in the playlist.");
    } else {
      throw invalidArgument(`Unsupported action for this playlist: ${String(a.action)}`);
    }
  }
  return { status: "STATUS_SUCCEEDED", playlistEditResults: results };
}

export function editPlaylist(ctx: ApiContext): unknown {
  const actions = ctx.body.actions;
  if (!Array.isArray(actions) || actions.length === 0 || !actions.every((a) => a && typeof a === "object")) {
    throw invalidArgument("'actions' must be a non-empty list.");
  }
  const acts = actions as Record<string, unknown>[];
  if (ctx.body.playlistId === "SE") return savedEpisodesEdit(ctx, acts);
  const store = ctx.state.store;
  if (acts.length === 1 && acts[0]!.action === "ACTION_JOIN_COLLABORATION") {
    return joinCollaboration(ctx, ctx.body.playlistId, acts[0]!.joinCollaborationToken);
  }
  const onlyItems = acts.every((a) => COLLABORATOR_ACTIONS.has(String(a.action)));
  const playlist = ownedPlaylist(ctx, ctx.body.playlistId, onlyItems);
  const pid = playlist.playlistId;
  if (ctx.state.now() - playlist.createdAt < ctx.state.recentPlaylistConflictMs) {
    throw new ApiError(409, "The playlist is still being created; try again shortly.", "conflict");
  }
  const results: unknown[] = [];
  const response: Record<string, unknown> = {};
  let addToTop = playlist.addToTop;
  // The rows, read at most once for the whole request however many actions it holds.
  const rows = new PlaylistItemsEdit(store, pid, MAX_PLAYLIST_ITEMS);
  const add = (videoId: string) => {
    const setVideoId = ids.setVideo(freshRng(ctx));
    // Items added to the top keep their request order: the k-th added goes before the (k+1)-th.
    rows.add(videoId, setVideoId, addToTop);
    return setVideoId;
  };
  for (const a of acts) {
    switch (a.action) {
      case "ACTION_SET_PLAYLIST_NAME": {
        const title = checkTitle(a.playlistName);
        store
          .st("UPDATE playlists SET title = ?, search_text = ? WHERE playlist_id = ?")
          .run(title, title.toLowerCase(), pid);
        break;
      }
      case "ACTION_SET_PLAYLIST_DESCRIPTION":
        store
          .st("UPDATE playlists SET description = ? WHERE playlist_id = ?")
          .run(checkDescription(a.playlistDescription), pid);
        break;
      case "ACTION_SET_PLAYLIST_PRIVACY":
        if (typeof a.playlistPrivacy !== "string" || !PRIVACY.includes(a.playlistPrivacy))
          throw invalidArgument("Invalid privacy.");
        store.st("UPDATE playlists SET privacy = ? WHERE playlist_id = ?").run(a.playlistPrivacy, pid);
        break;
      case "ACTION_SET_ADD_TO_TOP": {
        // Sent as the strings "true"/"false" (1.12.2); booleans are accepted too.
        const v = a.addToTop;
        if (v !== "true" && v !== "false" && v !== true && v !== false)
          throw invalidArgument("Invalid value at 'addToTop'.");
        addToTop = v === "true" || v === true;
        store.st("UPDATE playlists SET add_to_top = ? WHERE playlist_id = ?").run(addToTop ? 1 : 0, pid);
        break;
      }
      case "ACTION_CREATE_COLLABORATION_INVITE_LINK": {
        const jct = inviteToken(ctx, pid) ?? ids.setVideo(freshRng(ctx)).toLowerCase();
        store.st("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(`jct:${pid}`, jct);
        response.collaborationInviteLink = `https://music.youtube.com/playlist?list=${pid}&jct=${jct}`;
        break;
      }
      case "ACTION_SET_CLOSED_TO_CONTRIBUTIONS":
        store.st("DELETE FROM meta WHERE key = ?").run(`jct:${pid}`);
        break;
      case "ACTION_SET_ALLOW_ITEM_VOTE":
        break;
      case "ACTION_SET_PLAYLIST_VIDEO_ORDER":
        if (![0, 1, 2, 6].includes(Number(a.playlistVideoOrder)))
          throw invalidArgument("Invalid playlist order.");
        break;
      case "ACTION_ADD_VIDEO": {
        if (a.addedVideoId === null || a.addedVideoId === undefined) break;
        const videoId = a.addedVideoId;
        if (typeof videoId !== "string" || !store.song(videoId)) throw invalidArgument("Invalid video id.");
        // DEDUPE_OPTION_SKIP is what ALLOWS a duplicate (PROTOCOL §4.6); without it a duplicate fails the request.
        if (rows.has(videoId) && a.dedupeOption !== "DEDUPE_OPTION_SKIP")
          throw failedStatus("This song is already in the playlist");
        results.push(addedResult(videoId, add(videoId)));
        break;
      }
      case "ACTION_ADD_PLAYLIST": {
        const source = typeof a.addedFullListId === "string" ? a.addedFullListId.replace(/^VL/, "") : null;
        if (!source) throw invalidArgument("Invalid value at 'addedFullListId'.");
        const album = store.albumByAudioPlaylist(source);
        const videoIds = album
          ? store.albumTracks(album.id).map((t) => t.videoId)
          : (() => {
              const p = store.playlist(source);
              if (!p || (p.privacy === "PRIVATE" && p.ownerAccountId !== playlist.ownerAccountId))
                throw notFound();
              return items(ctx, source).map((r) => r.videoId);
            })();
        for (const v of videoIds) results.push(addedResult(v, add(v)));
        break;
      }
      case "ACTION_MOVE_VIDEO_BEFORE":
        rows.move(a.setVideoId, a.movedSetVideoIdSuccessor);
        break;
      case "ACTION_REMOVE_VIDEO": {
        if (typeof a.setVideoId !== "string") throw invalidArgument("Invalid value at 'setVideoId'.");
        if (rows.remove("setVideoId", a.setVideoId) === 0)
          throw invalidArgument("Invalid value at 'setVideoId'.");
        break;
      }
      case "ACTION_REMOVE_VIDEO_BY_VIDEO_ID": {
        if (rows.remove("videoId", String(a.removedVideoId)) === 0)
          throw invalidArgument("Invalid value at 'removedVideoId'.");
        break;
      }
      default:
        throw invalidArgument(`Invalid value at 'actions' (${String(a.action)}).`);
    }
  }
  rows.finish();
  if (results.length) {
    // After adds the service sends the refreshed header and a toast (capture yt_add_playlist_items_20240626).
    response.newHeader = playlistHeader(playlistView(ctx, pid, 0, 1));
    response.actions = [
      {
        addToToastAction: {
          item: {
            notificationActionRenderer: {
              responseText: { runs: [{ text: `Saved to ${store.playlist(pid)?.title ?? "playlist"}` }] },
              actionButton: {
                buttonRenderer: {
                  text: { runs: [{ text: "View" }] },
                  navigationEndpoint: { browseEndpoint: { browseId: `VL${pid}` } },
                },
              },
            },
          },
        },
      },
    ];
  }
  return { status: "STATUS_SUCCEEDED", ...response, playlistEditResults: results };
}

export function createPlaylist(ctx: ApiContext): unknown {
  const account = requireAccount(ctx);
  const store = ctx.state.store;
  const title = checkTitle(ctx.body.title);
  const description = checkDescription(ctx.body.description);
  const privacy = checkPrivacy(ctx.body.privacyStatus, "PRIVATE");
  const videoIds = ctx.body.videoIds ?? [];
  if (!Array.isArray(videoIds) || !videoIds.every((v) => typeof v === "string"))
    throw invalidArgument("Invalid value at 'videoIds'.");
  let sources: string[] = videoIds as string[];
  const source = str(ctx, "sourcePlaylistId");
  if (source) {
    const album = store.albumByAudioPlaylist(source);
    if (album) sources = [...sources, ...store.albumTracks(album.id).map((t) => t.videoId)];
    else {
      const p = store.playlist(source.replace(/^VL/, ""));
      if (!p) throw notFound();
      sources = [...sources, ...items(ctx, p.playlistId).map((r) => r.videoId)];
    }
  }
  if (sources.length > MAX_PLAYLIST_ITEMS) throw invalidArgument("Too many videos.");
  for (const v of sources) if (!store.song(v)) throw invalidArgument("Invalid video id.");
  const r = freshRng(ctx);
  const playlistId = "PL" + r.chars(32);
  store
    .st(
      `INSERT INTO playlists (playlist_id, title, description, owner_account_id, author_name, author_channel_id, privacy, kind, add_to_top, views, created_at, search_text)
       VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
    )
    .run(
      playlistId,
      title,
      description,
      account.id,
      account.name,
      account.channelId,
      privacy,
      "user",
      0,
      0,
      ctx.state.now(),
      title.toLowerCase(),
    );
  const insert = store.st(
    "INSERT INTO playlist_items (playlist_id, video_id, set_video_id, position) VALUES (?,?,?,?)",
  );
  sources.forEach((v, i) => {
    insert.run(playlistId, v, ids.setVideo(r), i + 1);
  });
  return { playlistId };
}

export function deletePlaylist(ctx: ApiContext): unknown {
  const playlist = ownedPlaylist(ctx, ctx.body.playlistId);
  const store = ctx.state.store;
  store.st("DELETE FROM playlist_items WHERE playlist_id = ?").run(playlist.playlistId);
  store.st("DELETE FROM playlists WHERE playlist_id = ?").run(playlist.playlistId);
  store.st("DELETE FROM ratings WHERE target_id = ?").run(playlist.playlistId);
  store.st("DELETE FROM library_items WHERE kind = 'playlist' AND target_id = ?").run(playlist.playlistId);
  return { status: "STATUS_SUCCEEDED" };
}

/** A toast; with `view`, a View button that opens that page (Liked music, the library). */
function toast(message: string, view: string | null = null): unknown {
  const renderer: Record<string, unknown> = { responseText: { runs: [{ text: message }] } };
  if (view) {
    renderer.actionButton = {
      buttonRenderer: {
        style: "STYLE_DEFAULT",
        isDisabled: false,
        text: { runs: [{ text: "View" }] },
        navigationEndpoint: { browseEndpoint: { browseId: view } },
      },
    };
  }
  return { addToToastAction: { item: { notificationActionRenderer: renderer } } };
}

export function rate(rating: "LIKE" | "DISLIKE" | "INDIFFERENT") {
  return (ctx: ApiContext): unknown => {
    const account = requireAccount(ctx);
    const store = ctx.state.store;
    const target = ctx.body.target as { videoId?: unknown; playlistId?: unknown } | undefined;
    if (!target || typeof target !== "object") throw invalidArgument("'target' is required.");
    let kind: "song" | "playlist";
    let id: string;
    if (typeof target.videoId === "string") {
      kind = "song";
      id = target.videoId;
      if (!store.song(id) && !store.episode(id)) throw notFound();
    } else if (typeof target.playlistId === "string") {
      kind = "playlist";
      id = target.playlistId.replace(/^VL/, "");
      if (!store.playlist(id) && !store.albumByAudioPlaylist(id) && !store.podcast(id)) throw notFound();
    } else {
      throw invalidArgument("'target' needs a videoId or a playlistId.");
    }
    if (rating === "INDIFFERENT") {
      store.st("DELETE FROM ratings WHERE account_id = ? AND target_id = ?").run(account.id, id);
    } else {
      store
        .st(
          `INSERT INTO ratings (account_id, kind, target_id, rating, updated_at) VALUES (?,?,?,?,?)
           ON CONFLICT (account_id, target_id) DO UPDATE SET rating = excluded.rating, updated_at = excluded.updated_at`,
        )
        .run(account.id, kind, id, rating, ctx.state.now());
    }
    const noun = kind === "song" ? "Liked songs" : "library";
    const message =
      rating === "LIKE"
        ? kind === "song"
          ? "Saved to your Liked songs"
          : "Saved to library"
        : rating === "DISLIKE"
          ? "Got it"
          : `Removed from ${noun}`;
    const actions: unknown[] = [
      toast(message, rating === "LIKE" ? (kind === "song" ? "VLLM" : "FEmusic_library_landing") : null),
    ];
    if (rating !== "INDIFFERENT" && kind === "song") {
      actions.push({
        runAttestationCommand: {
          ids: [{ encryptedVideoId: id }],
          engagementType: rating === "LIKE" ? "ENGAGEMENT_TYPE_VIDEO_LIKE" : "ENGAGEMENT_TYPE_VIDEO_DISLIKE",
        },
      });
    }
    const saved = kind === "playlist" && rating === "LIKE" ? store.playlist(id) : null;
    if (saved) {
      // Saving a playlist also adds it to the side guide (capture yt_rate_playlist_like_20240710).
      actions.push({
        addToGuideSectionAction: {
          handlerData: "GUIDE_ACTION_ADD_TO_PLAYLISTS",
          items: [
            {
              guideEntryRenderer: {
                navigationEndpoint: {
                  browseEndpoint: {
                    browseId: `VL${id}`,
                    browseEndpointContextSupportedConfigs: {
                      browseEndpointContextMusicConfig: { pageType: "MUSIC_PAGE_TYPE_PLAYLIST" },
                    },
                  },
                },
                formattedTitle: { runs: [{ text: saved.title }] },
                formattedSubtitle: { runs: [{ text: saved.authorName }] },
                entryData: { guideEntryData: { guideEntryId: id } },
                mouseOverButton: {
                  musicPlayButtonRenderer: {
                    playNavigationEndpoint: {
                      watchPlaylistEndpoint: { playlistId: id, params: "wAEB8gECKAE%3D" },
                    },
                    playIcon: { iconType: "PLAY_ARROW" },
                    pauseIcon: { iconType: "PAUSE" },
                  },
                },
              },
            },
          ],
        },
      });
    }
    return { actions };
  };
}

export function feedback(ctx: ApiContext): unknown {
  const account = requireAccount(ctx);
  const store = ctx.state.store;
  const tokens = ctx.body.feedbackTokens;
  if (!Array.isArray(tokens) || tokens.length === 0)
    throw invalidArgument("'feedbackTokens' must be a non-empty list.");
  const responses = tokens.map((t) => {
    const f = readFeedback(t);
    if (!f) return { isProcessed: false };
    switch (f.a) {
      case "add":
        if (f.kind === "song" && !store.song(f.id)) return { isProcessed: false };
        store
          .st("INSERT OR IGNORE INTO library_items (account_id, kind, target_id, added_at) VALUES (?,?,?,?)")
          .run(account.id, f.kind, f.id, ctx.state.now());
        return { isProcessed: true };
      case "remove":
        store
          .st("DELETE FROM library_items WHERE account_id = ? AND kind = ? AND target_id = ?")
          .run(account.id, f.kind, f.id);
        return { isProcessed: true };
      case "history": {
        // Known limitation of the service: history removal does not work for brand accounts.
        if (account.parentId !== null) return { isProcessed: false };
        const r = store
          .st("DELETE FROM history WHERE account_id = ? AND id = ?")
          .run(account.id, Number(f.id));
        return { isProcessed: r.changes > 0 };
      }
      case "pin":
      case "unpin": {
        // Episodes marked (un)played keep no state here; songs are pinned to Listen again.
        if (f.kind !== "song") return { isProcessed: true };
        if (!store.song(f.id)) return { isProcessed: false };
        if (f.a === "pin") {
          store
            .st(
              "INSERT OR IGNORE INTO library_items (account_id, kind, target_id, added_at) VALUES (?, 'pin', ?, ?)",
            )
            .run(account.id, f.id, ctx.state.now());
        } else {
          store
            .st("DELETE FROM library_items WHERE account_id = ? AND kind = 'pin' AND target_id = ?")
            .run(account.id, f.id);
        }
        return { isProcessed: true };
      }
      case "suggestion":
        return { isProcessed: true };
      default:
        return { isProcessed: false };
    }
  });
  return { feedbackResponses: responses };
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
    for (const c of channelIds as string[]) {
      if (!store.artist(c)) throw notFound();
      if (on) {
        store
          .st("INSERT OR IGNORE INTO library_items (account_id, kind, target_id, added_at) VALUES (?,?,?,?)")
          .run(account.id, "subscription", c, ctx.state.now());
      } else {
        store
          .st("DELETE FROM library_items WHERE account_id = ? AND kind = 'subscription' AND target_id = ?")
          .run(account.id, c);
      }
    }
    const name = store.artist(channelIds[0] as string)?.name ?? "";
    // The subscribe answer: a text toast, an attestation request and the new button state
    // (capture yt_subscribe_artist_20250704).
    return {
      actions: [
        {
          addToToastAction: {
            item: {
              notificationTextRenderer: {
                successResponseText: {
                  runs: [{ text: on ? "Subscribed to " : "Unsubscribed from " }, { text: name }],
                },
              },
            },
          },
        },
        {
          runAttestationCommand: {
            ids: (channelIds as string[]).map((c) => ({ externalChannelId: c })),
            engagementType: on ? "ENGAGEMENT_TYPE_SUBSCRIBE" : "ENGAGEMENT_TYPE_UNSUBSCRIBE",
          },
        },
        ...(channelIds as string[]).map((c) => ({
          updateSubscribeButtonAction: { subscribed: on, channelId: c },
        })),
      ],
    };
  };
}

export function deleteUpload(ctx: ApiContext): unknown {
  const account = requireAccount(ctx);
  const store = ctx.state.store;
  const raw = ctx.body.entityId;
  if (typeof raw !== "string" || raw === "") throw invalidArgument("'entityId' is required.");
  const id = raw.replace("FEmusic_library_privately_owned_release_detail", "");
  if (id.startsWith("t_po_")) {
    const r = store.st("DELETE FROM uploads WHERE account_id = ? AND entity_id = ?").run(account.id, id);
    if (r.changes === 0) throw notFound();
    return {};
  }
  if (id.startsWith("b_po_")) {
    const albumId = `FEmusic_library_privately_owned_release_detail${id}`;
    const uploads = store.uploads(account.id);
    let n = 0;
    for (const u of uploads) {
      if (uploadAlbumId(u.artistName, u.albumTitle) === albumId) {
        store.st("DELETE FROM uploads WHERE entity_id = ?").run(u.entityId);
        n++;
      }
    }
    if (n === 0) throw notFound();
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
