/**
 * One `edit_playlist` request's changes to one playlist, action by action: its settings, its
 * invite link, and its rows (through PlaylistItemsEdit, read at most once per request).
 * `finish()` writes the places that moves and top-inserts changed.
 */
import { eq } from "drizzle-orm";
import { failedStatus, invalidArgument } from "../errors.js";
import { type IdSource, ids } from "../random.js";
import type { CatalogueStore } from "./catalogue.js";
import type { Db } from "./db.js";
import { type ItemQueries, PlaylistItemsEdit } from "./playlist-items.js";
import type { PlaylistRow } from "./rows.js";
import { playlists } from "./schema.js";

/**
 * What a batch asks of the playlist edits that opened it (PlaylistEdits): written here as an
 * interface so that the two files do not import each other.
 */
export interface BatchHost {
  sourceVideos(source: string, reader?: number | null): string[];
  inviteToken(playlistId: string): string | null;
  setInviteToken(playlistId: string, token: string): void;
  dropInviteToken(playlistId: string): void;
}

/** A row an add created. */
export interface AddedRow {
  videoId: string;
  setVideoId: string;
}

export class PlaylistEditBatch {
  private addToTop: boolean;
  private readonly rows: PlaylistItemsEdit;
  private readonly playlistId: string;

  constructor(
    private readonly db: Db,
    private readonly edits: BatchHost,
    private readonly catalogue: CatalogueStore,
    items: ItemQueries,
    private readonly playlist: PlaylistRow,
    maxItems: number,
    private readonly fresh: IdSource,
  ) {
    this.playlistId = playlist.playlistId;
    this.addToTop = playlist.addToTop;
    this.rows = new PlaylistItemsEdit(items, this.playlistId, maxItems);
  }

  private set(values: Partial<typeof playlists.$inferInsert>): void {
    this.db.update(playlists).set(values).where(eq(playlists.playlistId, this.playlistId)).run();
  }

  setTitle(title: string): void {
    this.set({ title, searchText: title.toLowerCase() });
  }

  setDescription(description: string): void {
    this.set({ description });
  }

  setPrivacy(privacy: string): void {
    this.set({ privacy });
  }

  /** Where later adds of this request (and of later ones) go: first or last. */
  setAddToTop(addToTop: boolean): void {
    this.addToTop = addToTop;
    this.set({ addToTop });
  }

  /** The invite link, with the playlist's token (made on first use, then kept until closed). */
  inviteLink(): string {
    const jct = this.edits.inviteToken(this.playlistId) ?? ids.setVideo(this.fresh()).toLowerCase();
    this.edits.setInviteToken(this.playlistId, jct);
    return `https://music.youtube.com/playlist?list=${this.playlistId}&jct=${jct}`;
  }

  closeToContributions(): void {
    this.edits.dropInviteToken(this.playlistId);
  }

  /** Adds a song, video or episode; a duplicate fails the request unless the caller allows it. */
  addVideo(videoId: string, allowDuplicate: boolean): AddedRow {
    if (!this.catalogue.holds(videoId)) throw invalidArgument("Invalid video id.");
    if (this.rows.has(videoId) && !allowDuplicate) throw failedStatus("This song is already in the playlist");
    return this.add(videoId);
  }

  /** Adds every track of an album's audio playlist or of a playlist the owner may read. */
  addList(source: string): AddedRow[] {
    return this.edits.sourceVideos(source, this.playlist.ownerAccountId).map((v) => this.add(v));
  }

  /** ACTION_MOVE_VIDEO_BEFORE: `moved` before `successor`, or last without one. */
  move(moved: unknown, successor: unknown): void {
    this.rows.move(moved, successor);
  }

  /** Removes one row (by setVideoId) or every row of a video; answers how many went. */
  remove(by: "setVideoId" | "videoId", id: string): number {
    return this.rows.remove(by, id);
  }

  finish(): void {
    this.rows.finish();
  }

  private add(videoId: string): AddedRow {
    const setVideoId = ids.setVideo(this.fresh());
    // Items added to the top keep their request order: the k-th added goes before the (k+1)-th.
    this.rows.add(videoId, setVideoId, this.addToTop);
    return { videoId, setVideoId };
  }
}
