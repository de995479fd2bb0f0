/**
 * The order of one playlist's rows while an edit request runs: a doubly linked list by setVideoId,
 * read once, so that each move, add and removal costs O(1) and the request writes only the rows
 * whose place changed at its end — O(moves + rows) per request, where re-reading the list for
 * each move cost O(moves × rows) (a sync's batch of 100 moves on a 5,000-row playlist).
 */

interface Node {
  prev: string | null;
  next: string | null;
  /** The position stored in the database when the list was read (null: added since). */
  stored: number | null;
}

export class PlaylistOrder {
  private readonly nodes = new Map<string, Node>();
  private head: string | null = null;
  private tail: string | null = null;

  /** From the rows in order (by position). */
  constructor(rows: readonly { setVideoId: string; position: number }[]) {
    for (const r of rows) this.insertBefore(r.setVideoId, null, r.position);
  }

  has(setVideoId: string): boolean {
    return this.nodes.has(setVideoId);
  }

  get size(): number {
    return this.nodes.size;
  }

  /** Puts a row (new or present) before `successor`, or last when it is null. */
  insertBefore(setVideoId: string, successor: string | null, stored: number | null = null): void {
    const known = this.nodes.get(setVideoId);
    if (known) this.remove(setVideoId);
    const node: Node = { prev: null, next: successor, stored: known ? known.stored : stored };
    if (successor === null) {
      node.prev = this.tail;
      this.tail = setVideoId;
    } else {
      const after = this.nodes.get(successor)!;
      node.prev = after.prev;
      after.prev = setVideoId;
    }
    if (node.prev === null) this.head = setVideoId;
    else this.nodes.get(node.prev)!.next = setVideoId;
    this.nodes.set(setVideoId, node);
  }

  /** The row after `setVideoId` (null: it is last). */
  next(setVideoId: string): string | null {
    return this.nodes.get(setVideoId)?.next ?? null;
  }

  first(): string | null {
    return this.head;
  }

  remove(setVideoId: string): void {
    const node = this.nodes.get(setVideoId);
    if (!node) return;
    if (node.prev === null) this.head = node.next;
    else this.nodes.get(node.prev)!.next = node.next;
    if (node.next === null) this.tail = node.prev;
    else this.nodes.get(node.next)!.prev = node.prev;
    this.nodes.delete(setVideoId);
  }

  /** Rows whose place (1, 2, … in list order) differs from their stored position, with that place. */
  changed(): { setVideoId: string; position: number }[] {
    const out: { setVideoId: string; position: number }[] = [];
    let position = 1;
    for (let at = this.head; at !== null; position++) {
      const node = this.nodes.get(at)!;
      if (node.stored !== position) out.push({ setVideoId: at, position });
      at = node.next;
    }
    return out;
  }
}
