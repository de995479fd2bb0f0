/**
 * Domain operations on playlists: create and delete, who may edit one, collaboration invites, and
 * one request's edits (playlist-edit-batch.ts, its rows in playlist-items.ts). None opens a
 * transaction: the route that calls them runs inside one (docs/PROTOCOL.md#playlists: a refused edit changes nothing).
 */
import { and, eq } from "drizzle-orm";
import { ApiError, invalidArgument, notFound, permissionDenied } from "../errors.js";
import { type IdSource, ids } from "../random.js";
import type { CatalogueStore } from "./catalogue.js";
import type { Db } from "./db.js";
import type { LibraryStore } from "./library.js";
import { PlaylistEditBatch } from "./playlist-edit-batch.js";
import { type ItemQueries, prepareItemQueries } from "./playlist-items.js";
import type { PlaylistStore } from "./playlists.js";
import type { AccountRow, PlaylistRow } from "./rows.js";
import { libraryItems, meta, playlistItems, playlists, ratings } from "./schema.js";

/** The service's limit on a playlist's rows. */
export const MAX_PLAYLIST_ITEMS = 5000;

export interface PlaylistFields {
  title: string;
  description: string;
  privacy: string;
}

/** The key in `meta` under which a playlist's collaboration invite token is kept. */
const inviteKey = (playlistId: string) => `jct:${playlistId}`;

export class PlaylistEdits {
  private readonly items: ItemQueries;

  constructor(
    private readonly db: Db,
    private readonly playlists: PlaylistStore,
    private readonly catalogue: CatalogueStore,
    private readonly library: LibraryStore,
  ) {
    this.items = prepareItemQueries(db);
  }

  /** The playlist an account may edit: its own, or (for row edits only) one it collaborates on. */
  editable(accountId: number, playlistId: string, asCollaborator: boolean): PlaylistRow {
    const playlist = this.playlists.playlist(playlistId);
    if (!playlist) throw notFound();
    const collaborator = asCollaborator && this.library.inLibrary(accountId, "collaboration", playlistId);
    if (playlist.ownerAccountId !== accountId && !collaborator) throw permissionDenied();
    return playlist;
  }

  /** One request's edits of `playlist`, applied by its methods and completed by `finish()`. */
  batch(playlist: PlaylistRow, fresh: IdSource): PlaylistEditBatch {
    return new PlaylistEditBatch(
      this.db,
      this,
      this.catalogue,
      this.items,
      playlist,
      MAX_PLAYLIST_ITEMS,
      fresh,
    );
  }

  /**
   * Creates `owner`'s playlist holding `videoIds` and then the tracks of `source` (an album's
   * audio playlist or a playlist id); answers its id.
   */
  create(
    owner: AccountRow,
    fields: PlaylistFields,
    videoIds: readonly string[],
    source: string | null,
    now: number,
    fresh: IdSource,
  ): string {
    const sources = source ? [...videoIds, ...this.sourceVideos(source)] : videoIds;
    if (sources.length > MAX_PLAYLIST_ITEMS) throw invalidArgument("Too many videos.");
    for (const v of sources) if (!this.catalogue.holds(v)) throw invalidArgument("Invalid video id.");
    const r = fresh();
    const playlistId = "PL" + r.chars(32);
    this.db
      .insert(playlists)
      .values({
        playlistId,
        ...fields,
        ownerAccountId: owner.id,
        authorName: owner.name,
        authorChannelId: owner.channelId,
        kind: "user",
        addToTop: false,
        views: 0,
        createdAt: now,
        searchText: fields.title.toLowerCase(),
      })
      .run();
    sources.forEach((videoId, i) => {
      this.items.insert.run({ playlistId, videoId, setVideoId: ids.setVideo(r), position: i + 1 });
    });
    return playlistId;
  }

  /** Deletes a playlist with its rows, and the likes and library entries that pointed at it. */
  delete(playlistId: string): void {
    this.db.delete(playlistItems).where(eq(playlistItems.playlistId, playlistId)).run();
    this.db.delete(playlists).where(eq(playlists.playlistId, playlistId)).run();
    this.db.delete(ratings).where(eq(ratings.targetId, playlistId)).run();
    this.db
      .delete(libraryItems)
      .where(and(eq(libraryItems.kind, "playlist"), eq(libraryItems.targetId, playlistId)))
      .run();
  }

  /**
   * The video ids an album's audio playlist or a playlist holds, in order. With `reader`, a
   * private playlist of another account is not found (adding a list to a playlist); creating
   * from a source has never checked it.
   */
  sourceVideos(source: string, reader?: number | null): string[] {
    const album = this.catalogue.albumByAudioPlaylist(source);
    if (album) return this.catalogue.albumTracks(album.id).map((t) => t.videoId);
    const p = this.playlists.playlist(source.replace(/^VL/, ""));
    if (!p) throw notFound();
    if (reader !== undefined && p.privacy === "PRIVATE" && p.ownerAccountId !== reader) throw notFound();
    return this.items.rows.all({ playlistId: p.playlistId }).map((r) => r.videoId);
  }

  /** The playlist's invite token, while it is open to contributions. */
  inviteToken(playlistId: string): string | null {
    const row = this.db
      .select({ value: meta.value })
      .from(meta)
      .where(eq(meta.key, inviteKey(playlistId)))
      .get();
    return row?.value ?? null;
  }

  setInviteToken(playlistId: string, token: string): void {
    this.db
      .insert(meta)
      .values({ key: inviteKey(playlistId), value: token })
      .onConflictDoUpdate({ target: meta.key, set: { value: token } })
      .run();
  }

  /** Closes a playlist to contributions: its invite link stops working. */
  dropInviteToken(playlistId: string): void {
    this.db
      .delete(meta)
      .where(eq(meta.key, inviteKey(playlistId)))
      .run();
  }

  /** `ACTION_JOIN_COLLABORATION`: the invite link's token makes the account a collaborator. */
  join(accountId: number, playlistId: string, token: unknown, now: number): void {
    const playlist = this.playlists.playlist(playlistId);
    if (!playlist) throw notFound();
    const expected = this.inviteToken(playlistId);
    if (!expected || token !== expected) throw permissionDenied("The invitation is not valid.");
    // Joining twice (or the owner joining) is refused as unauthorized (docs/PROTOCOL.md#playlists).
    if (
      playlist.ownerAccountId === accountId ||
      this.library.inLibrary(accountId, "collaboration", playlistId)
    ) {
      throw new ApiError(401, "The caller is already a collaborator.", "unauthorized");
    }
    this.db
      .insert(libraryItems)
      .values({ accountId, kind: "collaboration", targetId: playlistId, addedAt: now })
      .run();
  }
}
