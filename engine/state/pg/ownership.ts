/**
 * Owned playlists and rows, tombstones and target snapshots on PostgreSQL: the same rows and answers
 * as ../sqlite/ownership.ts. Upserts are single `INSERT … ON CONFLICT` statements, atomic against a
 * concurrent insert of the same key; the one place where order across calls matters (owned rows)
 * takes an advisory lock.
 */
import { and, asc, desc, eq, gte, inArray, type SQL, sql } from "drizzle-orm";
import { snapshotOf } from "../rows.js";
import type { OwnedPlaylist, OwnedRow, OwnershipStore, Snapshot } from "../types.js";
import { json, type PgDb } from "./common.js";
import { bytewise, serialised, slices } from "./query.js";
import * as schema from "./schema.js";

/** Rows or keys per statement, far below PostgreSQL's 65,535 bound parameters. */
const SLICE = 500;

export class PgOwnershipStore implements OwnershipStore {
  constructor(private readonly db: PgDb) {}

  async ownedPlaylist(account: string, recipeId: string): Promise<OwnedPlaylist | null> {
    const [p] = await this.db
      .select()
      .from(schema.ownedPlaylists)
      .where(and(eq(schema.ownedPlaylists.account, account), eq(schema.ownedPlaylists.recipeId, recipeId)));
    return p ?? null;
  }

  async recordOwnedPlaylist(p: OwnedPlaylist): Promise<void> {
    await this.db
      .insert(schema.ownedPlaylists)
      .values(p)
      .onConflictDoUpdate({
        target: [schema.ownedPlaylists.account, schema.ownedPlaylists.recipeId],
        set: { playlistId: p.playlistId, target: p.target, createdAt: p.createdAt },
      });
  }

  async forgetOwnedPlaylist(account: string, playlistId: string): Promise<void> {
    await this.db
      .delete(schema.ownedPlaylists)
      .where(
        and(eq(schema.ownedPlaylists.account, account), eq(schema.ownedPlaylists.playlistId, playlistId)),
      );
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
      .orderBy(asc(schema.ownedRows.id));
  }

  /**
   * Rows are listed by id, so one call's rows must get consecutive ids, in order. Sequence values
   * of two transactions inserting at once would interleave; a transaction-scoped advisory lock on
   * the (account, target) makes a second caller for the same target wait until the first commits,
   * as SQLite's single writer does. Other targets are not held up.
   */
  async addOwnedRows(account: string, target: string, rows: readonly OwnedRow[]): Promise<void> {
    if (rows.length === 0) return;
    const values = rows.map((r) => ({
      account,
      target,
      itemKey: r.itemKey,
      setVideoId: r.setVideoId,
      addedAt: r.addedAt,
    }));
    await serialised(this.db, "owned_rows", JSON.stringify([account, target]), async (tx) => {
      for (const slice of slices(values, SLICE)) await tx.insert(schema.ownedRows).values(slice);
    });
  }

  /** Deletes only (no read): one transaction, so the rows go all together or not at all. */
  async removeOwnedRows(
    account: string,
    target: string,
    rows: readonly { itemKey: string; setVideoId?: string | null }[],
  ): Promise<void> {
    if (rows.length === 0) return;
    const scope = and(eq(schema.ownedRows.account, account), eq(schema.ownedRows.target, target));
    const everyCopy = rows.filter((r) => !r.setVideoId).map((r) => r.itemKey);
    const oneCopy = rows.filter((r) => r.setVideoId).map((r) => sql`(${r.itemKey}, ${r.setVideoId})`);
    const pair = sql`(${schema.ownedRows.itemKey}, ${schema.ownedRows.setVideoId})`;
    await this.db.transaction(async (tx) => {
      for (const keys of slices(everyCopy, SLICE)) {
        await tx.delete(schema.ownedRows).where(and(scope, inArray(schema.ownedRows.itemKey, keys)));
      }
      for (const pairs of slices(oneCopy, SLICE)) {
        await tx.delete(schema.ownedRows).where(and(scope, sql`${pair} in (${sql.join(pairs, sql`, `)})`));
      }
    });
  }

  async tombstones(account: string, target: string): Promise<Set<string>> {
    return this.tombstoneKeys(
      and(eq(schema.tombstones.account, account), eq(schema.tombstones.target, target)),
    );
  }

  async tombstonesSince(account: string, target: string, since: number): Promise<Set<string>> {
    return this.tombstoneKeys(
      and(
        eq(schema.tombstones.account, account),
        eq(schema.tombstones.target, target),
        gte(schema.tombstones.createdAt, since),
      ),
    );
  }

  /** The keys in SQLite's order (its primary-key index: by item key, bytewise), which a Set keeps. */
  private async tombstoneKeys(where: SQL | undefined): Promise<Set<string>> {
    const rows = await this.db
      .select({ key: schema.tombstones.itemKey })
      .from(schema.tombstones)
      .where(where)
      .orderBy(bytewise(schema.tombstones.itemKey));
    return new Set(rows.map((r) => r.key));
  }

  /**
   * ON CONFLICT DO NOTHING: a key already tombstoned keeps its first time (it is not renewed), a key
   * given twice is kept once, and a process inserting the same key at once waits and then skips it.
   */
  async addTombstones(
    account: string,
    target: string,
    recipeId: string,
    keys: readonly string[],
    at: number,
  ): Promise<void> {
    if (keys.length === 0) return;
    const values = keys.map((itemKey) => ({ account, target, itemKey, recipeId, createdAt: at }));
    await this.db.transaction(async (tx) => {
      for (const slice of slices(values, SLICE)) {
        await tx.insert(schema.tombstones).values(slice).onConflictDoNothing();
      }
    });
  }

  async removeTombstones(account: string, target: string, keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    const scope = and(eq(schema.tombstones.account, account), eq(schema.tombstones.target, target));
    await this.db.transaction(async (tx) => {
      for (const slice of slices(keys, SLICE)) {
        await tx.delete(schema.tombstones).where(and(scope, inArray(schema.tombstones.itemKey, slice)));
      }
    });
  }

  async snapshot(account: string, target: string): Promise<Snapshot | null> {
    const [r] = await this.db
      .select()
      .from(schema.targetSnapshots)
      .where(and(eq(schema.targetSnapshots.account, account), eq(schema.targetSnapshots.target, target)));
    return r ? snapshotOf(r) : null;
  }

  /** INSERT … ON CONFLICT DO UPDATE: two saves of one target at once leave one row, the later one. */
  async saveSnapshot(s: Snapshot): Promise<void> {
    const values = { ...s, rows: json(s.rows), meta: s.meta ? json(s.meta) : null };
    await this.db
      .insert(schema.targetSnapshots)
      .values(values)
      .onConflictDoUpdate({
        target: [schema.targetSnapshots.account, schema.targetSnapshots.target],
        set: values,
      });
  }

  /**
   * The newest by takenAt. On a tie SQLite answers the target saved first (its rowid order), which
   * this table keeps no trace of here; the target's key decides instead, so the answer is at least
   * the same every time.
   */
  async snapshotOf(account: string, recipeId: string): Promise<Snapshot | null> {
    const [r] = await this.db
      .select()
      .from(schema.targetSnapshots)
      .where(and(eq(schema.targetSnapshots.account, account), eq(schema.targetSnapshots.recipeId, recipeId)))
      .orderBy(desc(schema.targetSnapshots.takenAt), bytewise(schema.targetSnapshots.target))
      .limit(1);
    return r ? snapshotOf(r) : null;
  }
}
