/**
 * The rows of one playlist while an edit request changes them (adds, moves, removals), in
 * O(actions + rows) per request: the list is read at most once (its bounds for appends, its video
 * ids for the duplicate check, its order at the first move), kept current in memory as actions
 * run, and the places that moves and top-inserts changed are written once at the end.
 */
import { failedStatus, invalidArgument } from "../errors.js";
import { PlaylistOrder } from "../playlist-order.js";
import type { Store } from "./store.js";

interface Row {
  setVideoId: string;
  videoId: string;
  position: number;
}

export class PlaylistItemsEdit {
  private rows: Row[] | null = null;
  /** How many rows hold each video id (duplicates are allowed with DEDUPE_OPTION_SKIP). */
  private videoIds: Map<string, number> | null = null;
  private count = 0;
  private lo = 0;
  private hi = 0;
  private order: PlaylistOrder | null = null;
  /** Positions below every row given to this request's top-inserts, in request order. */
  private topCursor: number | null = null;
  private lastTopAdded: string | null = null;

  constructor(
    private readonly store: Store,
    private readonly playlistId: string,
    private readonly maxItems: number,
  ) {}

  /** The playlist's rows in order, read once (with what follows from them). */
  private read(): Row[] {
    if (this.rows) return this.rows;
    this.rows = this.store
      .st(
        "SELECT set_video_id AS setVideoId, video_id AS videoId, position FROM playlist_items WHERE playlist_id = ? ORDER BY position",
      )
      .all(this.playlistId) as Row[];
    this.videoIds = new Map();
    for (const r of this.rows) this.videoIds.set(r.videoId, (this.videoIds.get(r.videoId) ?? 0) + 1);
    this.count = this.rows.length;
    this.lo = this.rows[0]?.position ?? 1;
    this.hi = this.rows.at(-1)?.position ?? 0;
    return this.rows;
  }

  /** The order as the database holds it now (read again: adds may have come since the first read). */
  private freshOrder(): PlaylistOrder {
    this.rows = null;
    return new PlaylistOrder(this.read());
  }

  has(videoId: string): boolean {
    this.read();
    return (this.videoIds!.get(videoId) ?? 0) > 0;
  }

  /** Adds a row last, or at the top (after this request's earlier top-inserts); refuses a full list. */
  add(videoId: string, setVideoId: string, toTop: boolean): void {
    this.read();
    if (this.count >= this.maxItems) throw failedStatus("This playlist is full");
    let position: number;
    if (toTop) {
      this.topCursor ??= this.lo - 1000;
      position = this.topCursor;
      this.topCursor += 1e-3;
      if (this.order) {
        const last = this.lastTopAdded;
        this.order.insertBefore(
          setVideoId,
          last && this.order.has(last) ? this.order.next(last) : this.order.first(),
          position,
        );
      }
      this.lastTopAdded = setVideoId;
    } else {
      position = ++this.hi;
      this.order?.insertBefore(setVideoId, null, position);
    }
    this.store
      .st("INSERT INTO playlist_items (playlist_id, video_id, set_video_id, position) VALUES (?,?,?,?)")
      .run(this.playlistId, videoId, setVideoId, position);
    this.videoIds!.set(videoId, (this.videoIds!.get(videoId) ?? 0) + 1);
    this.count++;
  }

  /** ACTION_MOVE_VIDEO_BEFORE: `moved` before `successor`, or last without one. */
  move(moved: unknown, successor: unknown): void {
    // Rows added before the first move are in the database already: read the order now.
    this.order ??= this.freshOrder();
    if (typeof moved !== "string" || !this.order.has(moved))
      throw invalidArgument("Invalid value at 'setVideoId'.");
    if (successor === undefined || successor === null) {
      this.order.insertBefore(moved, null);
      return;
    }
    if (typeof successor !== "string" || !this.order.has(successor) || successor === moved)
      throw invalidArgument("Invalid value at 'movedSetVideoIdSuccessor'.");
    this.order.insertBefore(moved, successor);
  }

  /** ACTION_REMOVE_VIDEO (by setVideoId) or ACTION_REMOVE_VIDEO_BY_VIDEO_ID (every row of the video). */
  remove(by: "setVideoId" | "videoId", id: string): number {
    const gone = this.store
      .st(
        `DELETE FROM playlist_items WHERE playlist_id = ? AND ${by === "setVideoId" ? "set_video_id" : "video_id"} = ?
         RETURNING set_video_id AS setVideoId, video_id AS videoId`,
      )
      .all(this.playlistId, id) as { setVideoId: string; videoId: string }[];
    if (this.rows) {
      for (const g of gone) {
        this.order?.remove(g.setVideoId);
        this.videoIds!.set(g.videoId, (this.videoIds!.get(g.videoId) ?? 1) - 1);
      }
      this.count -= gone.length;
    }
    return gone.length;
  }

  /**
   * Moves and top-inserts put rows between others: give the list whole positions again, writing
   * only the rows whose place changed (appends keep positions whole already).
   */
  finish(): void {
    if (!this.order && this.topCursor === null) return;
    this.order ??= this.freshOrder();
    const update = this.store.st(
      "UPDATE playlist_items SET position = ? WHERE playlist_id = ? AND set_video_id = ?",
    );
    for (const c of this.order.changed()) update.run(c.position, this.playlistId, c.setVideoId);
  }
}
