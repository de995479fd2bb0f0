/**
 * Connections of their own, outside the pool, kept open between uses: an account lock's session
 * (engine/state/pg/leases.ts) serves one lock, then waits for the next, so that a worker's runs do
 * not each pay a connection (its start-up, its authentication, its set-up). A session is given back
 * only once nothing of its last use is left (its lock let go); one that ends while it waits is
 * dropped, one that fails its next first use or does not answer it in time (it may have died
 * unseen: a network cut) is ended and a new one used instead, and beyond `keep` waiting ones a
 * session given back is ended.
 */
import type pg from "pg";

export class KeptSessions {
  /** The sessions waiting for a use, the most recently given back last. */
  private readonly idle: pg.Client[] = [];
  /** Each waiting session's listener that drops it when it ends. */
  private readonly drops = new Map<pg.Client, () => void>();

  constructor(
    /** A new connection, connected. */
    private readonly connect: () => Promise<pg.Client>,
    /** What a new session does once, before its first use. */
    private readonly prepare: (client: pg.Client) => Promise<void>,
    /** How long a waiting session may take to answer its next first use. */
    private readonly answerWithinMs: number,
    private readonly keep = 4,
  ) {}

  /** A session, after `first` ran on it: a waiting one if it answers, else a new one. */
  async take<T>(first: (client: pg.Client) => Promise<T>): Promise<[client: pg.Client, result: T]> {
    const waiting = this.idle.pop();
    if (waiting !== undefined) {
      this.stopWatching(waiting);
      try {
        return [waiting, await answered(first(waiting), this.answerWithinMs)];
      } catch {
        // Not awaited: on a cut network the goodbye may never be answered.
        waiting.end().catch(() => undefined);
      }
    }
    const client = await this.connect();
    try {
      await this.prepare(client);
      return [client, await first(client)];
    } catch (e) {
      await client.end().catch(() => undefined);
      throw e;
    }
  }

  /** Back to wait for its next use; ended if enough already wait. */
  giveBack(client: pg.Client): void {
    if (this.idle.length >= this.keep) {
      client.end().catch(() => undefined);
      return;
    }
    const drop = () => {
      this.stopWatching(client);
      const at = this.idle.indexOf(client);
      if (at >= 0) this.idle.splice(at, 1);
    };
    this.drops.set(client, drop);
    client.once("end", drop);
    this.idle.push(client);
  }

  private stopWatching(client: pg.Client): void {
    const drop = this.drops.get(client);
    if (drop) client.removeListener("end", drop);
    this.drops.delete(client);
  }

  /** Ends the waiting sessions. */
  async close(): Promise<void> {
    const waiting = this.idle.splice(0);
    for (const client of waiting) this.stopWatching(client);
    await Promise.all(waiting.map((c) => c.end().catch(() => undefined)));
  }
}

/** `work`'s answer, or a failure once `ms` have passed without it. */
function answered<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
