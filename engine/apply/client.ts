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
}

/** Everything the engine calls on one account's client. */
export type EngineClient = SourceClient & WriteClient;

const SUCCEEDED = "STATUS_SUCCEEDED";

/**
 * Whether a write's answer says it was done. The client returns the whole body when `status` is not
 * STATUS_SUCCEEDED (a refusal can come back as HTTP 200); library writes return the body as it is.
 */
export function succeeded(answer: unknown): boolean {
  if (answer === SUCCEEDED) return true;
  if (typeof answer === "string") return answer !== "";
  if (answer && typeof answer === "object") {
    const status = (answer as Record<string, unknown>).status;
    return status === undefined || status === SUCCEEDED;
  }
  return answer === undefined;
}
