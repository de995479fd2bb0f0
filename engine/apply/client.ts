/**
 * The writes the engine sends, as a small interface `MusicClient` satisfies (names, positional
 * parameters and results as the client has them). The applier is the only caller.
 */
import type { SourceClient } from "../sources/reader.js";

export type ServiceAnswer = Record<string, unknown>;

export interface AddedRow {
  videoId: string;
  setVideoId: string;
}

export interface WriteClient {
  createPlaylist(
    title: string,
    description: string,
    options?: { privacyStatus?: "PUBLIC" | "PRIVATE" | "UNLISTED"; videoIds?: string[] },
  ): Promise<string | ServiceAnswer>;
  editPlaylist(
    playlistId: string,
    options?: {
      title?: string;
      description?: string;
      privacyStatus?: "PUBLIC" | "PRIVATE" | "UNLISTED";
      moveItem?: string | [string, string];
      moveItems?: Array<string | [string, string]>;
    },
  ): Promise<unknown>;
  addPlaylistItems(
    playlistId: string,
    videoIds?: string[] | null,
  ): Promise<{ status: "STATUS_SUCCEEDED"; playlistEditResults: AddedRow[] } | ServiceAnswer>;
  removePlaylistItems(
    playlistId: string,
    videos: { videoId: string; setVideoId?: string | null }[],
  ): Promise<unknown>;
  rateSong(videoId: string, rating?: "LIKE" | "DISLIKE" | "INDIFFERENT"): Promise<unknown>;
  ratePlaylist(playlistId: string, rating?: "LIKE" | "DISLIKE" | "INDIFFERENT"): Promise<unknown>;
  editSongLibraryStatus(feedbackTokens: string[]): Promise<unknown>;
  subscribeArtists(channelIds: string[]): Promise<unknown>;
  unsubscribeArtists(channelIds: string[]): Promise<unknown>;
  deletePlaylist(playlistId: string): Promise<unknown>;
}

/** Everything the engine calls on one account's client. */
export type EngineClient = SourceClient & WriteClient;

const SUCCEEDED = "STATUS_SUCCEEDED";

/**
 * Whether a playlist write's answer says it was done: the success status, and nothing else. The
 * client returns the whole body when `status` is not STATUS_SUCCEEDED, and a body with no status
 * at all is not a yes: the service's "gated" answer (HTTP 200 with only a panel asking to enable a
 * feature) has none and changes nothing. Such a write is verified by reading the target back.
 */
export function succeeded(answer: unknown): boolean {
  if (answer === SUCCEEDED) return true;
  return isRecord(answer) && answer.status === SUCCEEDED;
}

/** A body saying the write was refused (a failed status), as opposed to one saying nothing. */
export function failedStatus(answer: unknown): boolean {
  return isRecord(answer) && typeof answer.status === "string" && answer.status !== SUCCEEDED;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The writes whose answer the applier judges (the plan's action kinds). */
export type WriteKind =
  | "create_playlist"
  | "edit_playlist"
  | "add_playlist_items"
  | "remove_playlist_items"
  | "move_playlist_items"
  | "rate_song"
  | "rate_playlist"
  | "edit_song_library_status"
  | "subscribe_artists"
  | "unsubscribe_artists"
  | "delete_playlist";

/**
 * Rating and subscription answers carry no status (docs/PROTOCOL.md#writes: an `actions` array); their yes is the
 * service's confirmation toast ("Saved to your Liked songs", "Subscribed to …"). A feature-gate
 * panel, a failed status or an empty body is no confirmation.
 */
function toastConfirmed(answer: unknown): boolean {
  if (!isRecord(answer) || failedStatus(answer) || !Array.isArray(answer.actions)) return false;
  const actions = answer.actions.filter(isRecord);
  if (actions.some((a) => "showEngagementPanelEndpoint" in a)) return false;
  return actions.some((a) => "addToToastAction" in a || "updateSubscribeButtonAction" in a);
}

/** Library status (feedback) answers: done only when the service processed every token. */
function feedbackProcessed(answer: unknown): boolean {
  if (!isRecord(answer) || !Array.isArray(answer.feedbackResponses)) return false;
  const responses = answer.feedbackResponses;
  return responses.length > 0 && responses.every((r) => isRecord(r) && r.isProcessed === true);
}

/**
 * Whether the service's answer positively confirms a write of this kind. Anything short of a yes is
 * verified by reading back (or fails): a write is never taken as done on an answer that says nothing.
 */
export function writeConfirmed(kind: WriteKind, answer: unknown): boolean {
  switch (kind) {
    case "rate_song":
    case "rate_playlist":
    case "subscribe_artists":
    case "unsubscribe_artists":
      return toastConfirmed(answer);
    case "edit_song_library_status":
      return feedbackProcessed(answer);
    default:
      return succeeded(answer);
  }
}

/**
 * The client's methods that change something on the service: the metrics count them as writes,
 * and a stopping daemon lets none of them start.
 */
export const WRITE_METHODS: ReadonlySet<keyof WriteClient> = new Set<keyof WriteClient>([
  "createPlaylist",
  "deletePlaylist",
  "editPlaylist",
  "addPlaylistItems",
  "removePlaylistItems",
  "rateSong",
  "ratePlaylist",
  "editSongLibraryStatus",
  "subscribeArtists",
  "unsubscribeArtists",
]);
