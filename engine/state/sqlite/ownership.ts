/** Owned playlists and rows, tombstones and target snapshots on SQLite. */
import { and, asc, desc, eq, gte, inArray } from "drizzle-orm";
import { snapshotOf } from "../rows.js";
import * as schema from "../schema.js";
import type { OwnedPlaylist, OwnedRow, OwnershipStore, Snapshot } from "../types.js";
import { type Db, json } from "./common.js";

export class SqliteOwnershipStore implements OwnershipStore {
  constructor(private readonly db: Db) {}

  async ownedPlaylist(account: string, recipeId: string): Promise<OwnedPlaylist | null> {
    return (
      this.db
        .select()
        .from(schema.ownedPlaylists)
        .where(and(eq(schema.ownedPlaylists.account, account), eq(schema.ownedPlaylists.recipeId, recipeId)))
        .get() ?? null
    );
  }

  async recordOwnedPlaylist(p: OwnedPlaylist): Promise<void> {
    this.db
      .insert(schema.ownedPlaylists)
      .values(p)
      .onConflictDoUpdate({
        target: [schema.ownedPlaylists.account, schema.ownedPlaylists.recipeId],
        set: { playlistId: p.playlistId, target: p.target, createdAt: p.createdAt },
      })
      .run();
  }

  async forgetOwnedPlaylist(account: string, playlistId: string): Promise<void> {
    this.db
      .delete(schema.ownedPlaylists)
      .where(
        and(eq(schema.ownedPlaylists.account, account), eq(schema.ownedPlaylists.playlistId, playlistId)),
      )
      .run();
  }

  async ownedRows(account: string, target: string): Promise<OwnedRow[]> {
    return this.db
      .select({
        itemKey: schema.ownedRows.itemKey,
        setVideoId: schema.ownedRows.setVideoId,
        addedAt: schema.ownedRows.addedAt,
      })
      .from(schema.ownedRows)
      .where(and(eq(schema.ownedRows.account, account), eq(schema.ownedRows.target, target)))
      .orderBy(asc(schema.ownedRows.id))
      .all();
  }

  async addOwnedRows(account: string, target: string, rows: readonly OwnedRow[]): Promise<void> {
    if (rows.length === 0) return;
    this.db.transaction((tx) => {
      for (const r of rows) {
        tx.insert(schema.ownedRows)
          .values({ account, target, itemKey: r.itemKey, setVideoId: r.setVideoId, addedAt: r.addedAt })
          .run();
      }
    });
  }

  async removeOwnedRows(
    account: string,
    target: string,
    rows: readonly { itemKey: string; setVideoId?: string | null }[],
  ): Promise<void> {
    const scope = and(eq(schema.ownedRows.account, account), eq(schema.ownedRows.target, target));
    this.db.transaction((tx) => {
      for (const r of rows) {
        const which = r.setVideoId
          ? and(scope, eq(schema.ownedRows.itemKey, r.itemKey), eq(schema.ownedRows.setVideoId, r.setVideoId))
          : and(scope, eq(schema.ownedRows.itemKey, r.itemKey));
        tx.delete(schema.ownedRows).where(which).run();
      }
    });
  }

  async tombstones(account: string, target: string): Promise<Set<string>> {
    const rows = this.db
      .select({ key: schema.tombstones.itemKey })
      .from(schema.tombstones)
      .where(and(eq(schema.tombstones.account, account), eq(schema.tombstones.target, target)))
      .all();
    return new Set(rows.map((r) => r.key));
  }

  async tombstonesSince(account: string, target: string, since: number): Promise<Set<string>> {
    const rows = this.db
      .select({ key: schema.tombstones.itemKey })
      .from(schema.tombstones)
      .where(
        and(
          eq(schema.tombstones.account, account),
          eq(schema.tombstones.target, target),
          gte(schema.tombstones.createdAt, since),
        ),
      )
      .all();
    return new Set(rows.map((r) => r.key));
  }

  async addTombstones(
    account: string,
    target: string,
    recipeId: string,
    keys: readonly string[],
    at: number,
  ): Promise<void> {
    if (keys.length === 0) return;
    this.db.transaction((tx) => {
      for (const itemKey of keys) {
        tx.insert(schema.tombstones)
          .values({ account, target, itemKey, recipeId, createdAt: at })
          .onConflictDoNothing()
          .run();
      }
    });
  }

  async removeTombstones(account: string, target: string, keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    this.db
      .delete(schema.tombstones)
      .where(
        and(
          eq(schema.tombstones.account, account),
          eq(schema.tombstones.target, target),
          inArray(schema.tombstones.itemKey, [...keys]),
        ),
      )
      .run();
  }

  async snapshot(account: string, target: string): Promise<Snapshot | null> {
    const r = this.db
      .select()
      .from(schema.targetSnapshots)
      .where(and(eq(schema.targetSnapshots.account, account), eq(schema.targetSnapshots.target, target)))
      .get();
    return r ? snapshotOf(r) : null;
  }

  async saveSnapshot(s: Snapshot): Promise<void> {
    const values = { ...s, rows: json(s.rows), meta: s.meta ? json(s.meta) : null };
    this.db
      .insert(schema.targetSnapshots)
      .values(values)
      .onConflictDoUpdate({
        target: [schema.targetSnapshots.account, schema.targetSnapshots.target],
        set: values,
      })
      .run();
  }

  async snapshotOf(account: string, recipeId: string): Promise<Snapshot | null> {
    const r = this.db
      .select()
      .from(schema.targetSnapshots)
      .where(and(eq(schema.targetSnapshots.account, account), eq(schema.targetSnapshots.recipeId, recipeId)))
      .orderBy(desc(schema.targetSnapshots.takenAt))
      .limit(1)
      .get();
    return r ? snapshotOf(r) : null;
  }
}
