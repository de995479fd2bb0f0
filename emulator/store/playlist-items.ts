/**
 * The rows of one playlist while an edit request changes them (adds, moves, removals), in
 * O(actions + rows) per request: the list is read at most once (its bounds for appends, its video
 * ids for the duplicate check, its order at the first move), kept current in memory as actions
 * run, and the places that moves and top-inserts changed are written once at the end.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { failedStatus, invalidArgument } from "../errors.js";
import { PlaylistOrder } from "../playlist-order.js";
import type { Db } from "./db.js";
import { playlistItems as t } from "./schema.js";

interface Row {
  setVideoId: string;
  videoId: string;
  position: number;
}

/**
 * The statements an edit runs per row (an add, a removal, a changed place): prepared once per
 * store, since a sync's batch runs hundreds of them in one request.
 */
export function prepareItemQueries(db: Db) {
  const playlistId = sql.placeholder("playlistId");
  const videoId = sql.placeholder("videoId");
  const setVideoId = sql.placeholder("setVideoId");
  const position = sql.placeholder("position");
  const removed = { setVideoId: t.setVideoId, videoId: t.videoId };
  return {
    rows: db
      .select({ setVideoId: t.setVideoId, videoId: t.videoId, position: t.position })
      .from(t)
      .where(eq(t.playlistId, playlistId))
      .orderBy(asc(t.position))
      .prepare(),
    insert: db.insert(t).values({ playlistId, videoId, setVideoId, position }).prepare(),
    setPosition: db
      .update(t)
      .set({ position: sql`${position}` })
      .where(and(eq(t.playlistId, playlistId), eq(t.setVideoId, setVideoId)))
      .prepare(),
    removeBySetVideoId: db
      .delete(t)
      .where(and(eq(t.playlistId, playlistId), eq(t.setVideoId, setVideoId)))
      .returning(removed)
      .prepare(),
    removeByVideoId: db
      .delete(t)
      .where(and(eq(t.playlistId, playlistId), eq(t.videoId, videoId)))
      .returning(removed)
      .prepare(),
  };
}

export type ItemQueries = ReturnType<typeof prepareItemQueries>;

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
    private readonly q: ItemQueries,
    private readonly playlistId: string,
    private readonly maxItems: number,
  ) {}

  /** The playlist's rows in order, read once (with what follows from them). */
  private read(): Row[] {
    if (this.rows) return this.rows;
    this.rows = this.q.rows.all({ playlistId: this.playlistId });
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
    this.q.insert.run({ playlistId: this.playlistId, videoId, setVideoId, position });
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
    const gone =
      by === "setVideoId"
        ? this.q.removeBySetVideoId.all({ playlistId: this.playlistId, setVideoId: id })
        : this.q.removeByVideoId.all({ playlistId: this.playlistId, videoId: id });
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
    for (const c of this.order.changed()) {
      this.q.setPosition.run({ position: c.position, playlistId: this.playlistId, setVideoId: c.setVideoId });
    }
  }
}
