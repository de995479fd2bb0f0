/** Owned playlists and rows, tombstones and snapshots; upserts are one atomic `INSERT … ON CONFLICT`. */

import { and, asc, desc, eq, gte, inArray, or, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { chunk } from "../../../shared/chunk.js";
import {
  type Db,
  type Dialect,
  type GuardedWrite,
  inSlices,
  json,
  oneRow,
  parse,
  placeholders,
  prepared,
  type Read,
  readAll,
  type Stored,
  send,
} from "../dialect.js";
import type { Row, Tables } from "../tables.js";
import type { OwnedRow, OwnershipStore, Snapshot } from "../types.js";
import { generationOf, lastGenerationRead, sourceCounts, sourceReadsRead } from "./health.js";
import { journalEntries, unfinishedRead } from "./runs.js";

/** Rows or keys per statement. */
const SLICE = 500;
/** Rows named by (key, setVideoId) per DELETE: each an `or` term, under SQLite's expression depth of 1,000. */
const PAIRS = 100;
const AT = placeholders("account", "target", "since");
const WITH = placeholders("account", "target", "other", "since");
const SNAPSHOT = placeholders(
  "account",
  "target",
  "recipeId",
  "runId",
  "takenAt",
  "fingerprint",
  "rows",
  "meta",
);

type Other = { target: string; since: number };

function ownedRowsRead(d: Dialect, account: string, target: string): Read {
  const o = d.t.ownedRows;
  const build = (q: Db) =>
    q
      .select({ itemKey: o.itemKey, setVideoId: o.setVideoId, addedAt: o.addedAt })
      .from(o)
      .where(and(eq(o.account, AT.account), eq(o.target, AT.target)))
      .orderBy(asc(o.id));
  return { key: "owned_rows(account,target)", build, values: { account, target } };
}

function tombstonesWithRead(d: Dialect, account: string, target: string, other: Other): Read {
  const b = d.t.tombstones;
  const build = (q: Db) =>
    q
      .select({ target: b.target, itemKey: b.itemKey, createdAt: b.createdAt })
      .from(b)
      .where(
        and(
          eq(b.account, WITH.account),
          or(eq(b.target, WITH.target), and(eq(b.target, WITH.other), gte(b.createdAt, WITH.since))),
        ),
      )
      .orderBy(d.bytewise(b.itemKey));
  const values = { account, target, other: other.target, since: other.since };
  return { key: "tombstones(account,target|other,since)", build, values };
}

/** `tombstonesWithRead`'s rows: the target's own tombstones, and `other`'s recorded at `since` or later. */
function tombstonesApart(rows: readonly unknown[], target: string, other: Other): [Set<string>, Set<string>] {
  const own = new Set<string>();
  const others = new Set<string>();
  for (const r of rows as Pick<Row<"tombstones">, "target" | "itemKey" | "createdAt">[]) {
    if (r.target === target) own.add(r.itemKey);
    if (r.target === other.target && r.createdAt >= other.since) others.add(r.itemKey);
  }
  return [own, others];
}

export const ownershipStore: OwnershipStore & ThisType<Stored> = {
  async ownedPlaylist(account, recipeId) {
    const p = this.d.t.ownedPlaylists;
    return oneRow(this.d.db, p, { account, recipeId });
  },

  async recordOwnedPlaylist(p) {
    const { db, t } = this.d;
    await db
      .insert(t.ownedPlaylists)
      .values(p)
      .onConflictDoUpdate({
        target: [t.ownedPlaylists.account, t.ownedPlaylists.recipeId],
        set: { playlistId: p.playlistId, target: p.target, createdAt: p.createdAt },
      });
  },

  async forgetOwnedPlaylist(account, playlistId) {
    const { db, t } = this.d;
    await db
      .delete(t.ownedPlaylists)
      .where(and(eq(t.ownedPlaylists.account, account), eq(t.ownedPlaylists.playlistId, playlistId)));
  },

  async ownedRows(account, target) {
    const r = ownedRowsRead(this.d, account, target);
    return (await prepared(this.d.db, r.key, r.build, r.values)) as OwnedRow[];
  },

  /**
   * Rows are listed by id, so one call's must be consecutive: guarded per (account, target), where
   * two PostgreSQL transactions inserting at once would interleave their sequence values.
   */
  async addOwnedRows(account, target, rows) {
    if (rows.length === 0) return;
    const guard = { scope: "owned_rows", key: JSON.stringify([account, target]) };
    if (this.d.defer) return this.d.defer(rowsAfterGuard(this.d.t, guard, account, target, rows));
    const values = rows.map((r) => ({ ...r, account, target }));
    await this.d.guarded(guard.scope, guard.key, async (tx) => {
      for (const slice of chunk(values, SLICE)) await tx.insert(this.d.t.ownedRows).values(slice);
    });
  },

  /** Deletes only (no read): one transaction, so the rows go all together or not at all. */
  async removeOwnedRows(account, target, rows) {
    if (rows.length === 0) return;
    const o = this.d.t.ownedRows;
    const scope = and(eq(o.account, account), eq(o.target, target));
    const everyCopy = rows.filter((r) => !r.setVideoId).map((r) => r.itemKey);
    const oneCopy = rows
      .filter((r) => r.setVideoId)
      .map((r) => and(eq(o.itemKey, r.itemKey), eq(o.setVideoId, r.setVideoId!)));
    await this.d.transaction(async (tx) => {
      for (const keys of chunk(everyCopy, SLICE))
        await tx.delete(o).where(and(scope, inArray(o.itemKey, keys)));
      for (const pairs of chunk(oneCopy, PAIRS)) await tx.delete(o).where(and(scope, or(...pairs)));
    });
  },

  async tombstones(account, target) {
    return tombstoneKeys(this, { account, target, since: Number.MIN_SAFE_INTEGER });
  },

  async tombstonesSince(account, target, since) {
    return tombstoneKeys(this, { account, target, since });
  },

  async tombstonesWith(account, target, other) {
    const r = tombstonesWithRead(this.d, account, target, other);
    return tombstonesApart(await prepared(this.d.db, r.key, r.build, r.values), target, other);
  },

  async targetMemory(account, recipeId, target, other) {
    const reads = [
      ownedRowsRead(this.d, account, target),
      unfinishedRead(this.d),
      tombstonesWithRead(this.d, account, target, other),
      sourceReadsRead(this.d, recipeId),
      lastGenerationRead(this.d.t, recipeId),
    ];
    const [ownedRows, unfinished, tombstones, sourceReads, generation] = await readAll(this.d, reads);
    return {
      ownedRows: ownedRows as OwnedRow[],
      unfinished: journalEntries(unfinished!),
      tombstones: tombstonesApart(tombstones!, target, other),
      sourceReads: sourceCounts(sourceReads!),
      generation: generationOf(generation!),
    };
  },

  /**
   * ON CONFLICT DO NOTHING: a key already tombstoned keeps its first time (it is not renewed), a key
   * given twice is kept once, and a process inserting the same key at once waits and then skips it.
   */
  async addTombstones(account, target, recipeId, keys, at) {
    const b = this.d.t.tombstones;
    const values = keys.map((itemKey) => ({ account, target, itemKey, recipeId, createdAt: at }));
    await inSlices(this.d, values, SLICE, (q, slice) => q.insert(b).values(slice).onConflictDoNothing());
  },

  async removeTombstones(account, target, keys) {
    const b = this.d.t.tombstones;
    const scope = and(eq(b.account, account), eq(b.target, target));
    await inSlices(this.d, keys, SLICE, (q, slice) =>
      q.delete(b).where(and(scope, inArray(b.itemKey, slice))),
    );
  },

  async snapshot(account, target) {
    const s = this.d.t.targetSnapshots;
    const row = await oneRow(this.d.db, s, { account, target });
    return row && snapshotOf(row);
  },

  /** INSERT … ON CONFLICT DO UPDATE: two saves of one target at once leave one row, the later one. */
  async saveSnapshot(s) {
    const t = this.d.t.targetSnapshots;
    const build = (q: Db) =>
      q
        .insert(t)
        .values(SNAPSHOT)
        .onConflictDoUpdate({ target: [t.account, t.target], set: SNAPSHOT });
    const values = { ...s, runId: s.runId ?? null, rows: json(s.rows), meta: s.meta ? json(s.meta) : null };
    await send(this.d, { table: t, key: "target_snapshots.save", build, values });
  },

  /** The newest by takenAt; of two taken in the same millisecond, the target's key decides (bytewise). */
  async snapshotOf(account, recipeId) {
    const { db, t } = this.d;
    const s = t.targetSnapshots;
    const [r] = await db
      .select()
      .from(s)
      .where(and(eq(s.account, account), eq(s.recipeId, recipeId)))
      .orderBy(desc(s.takenAt), this.d.bytewise(s.target))
      .limit(1);
    return r ? snapshotOf(r) : null;
  },
};

const ADD = placeholders("account", "target", "keys", "setVideoIds", "addedAts");

/**
 * `addOwnedRows` as a part of PostgreSQL's one statement of a batch (`Dialect.defer`, which only
 * PostgreSQL has): the rows as arrays, unnested in their order, read after the guard's part. One
 * text for any number of rows, and three parameters, where a row's values were five parameters.
 */
function rowsAfterGuard(
  t: Tables,
  guard: GuardedWrite["guard"],
  account: string,
  target: string,
  rows: readonly OwnedRow[],
): GuardedWrite {
  const o = t.ownedRows;
  const column = (c: PgColumn) => sql.identifier(c.name);
  const columns = [o.account, o.target, o.itemKey, o.setVideoId, o.addedAt].map(column);
  const after = (held: SQL) =>
    sql`insert into ${o} (${sql.join(columns, sql`, `)}) select ${ADD.account}::text, ${ADD.target}::text, r.k, r.s, r.a from ${held}, unnest(${ADD.keys}::text[], ${ADD.setVideoIds}::text[], ${ADD.addedAts}::bigint[]) with ordinality as r(k, s, a, n) order by r.n`;
  const values = {
    account,
    target,
    keys: rows.map((r) => r.itemKey),
    setVideoIds: rows.map((r) => r.setVideoId),
    addedAts: rows.map((r) => r.addedAt),
  };
  return { table: o, key: "owned_rows.add", guard, after, values };
}

function snapshotOf({ meta, ...r }: Row<"targetSnapshots">): Snapshot {
  return {
    ...r,
    rows: parse(r.rows) as Snapshot["rows"],
    // Only playlists have metadata; other snapshots (and those from before it was kept) have none.
    ...(meta !== null ? { meta: parse(meta) as Snapshot["meta"] } : {}),
  };
}

/**
 * The keys tombstoned since `since` in item key order (bytewise, as SQLite's primary-key index gives
 * them), which a Set keeps.
 */
async function tombstoneKeys(s: Stored, at: { account: string; target: string; since: number }) {
  const b = s.d.t.tombstones;
  const build = (q: Db) =>
    q
      .select({ itemKey: b.itemKey })
      .from(b)
      .where(and(eq(b.account, AT.account), eq(b.target, AT.target), gte(b.createdAt, AT.since)))
      .orderBy(s.d.bytewise(b.itemKey));
  const rows = await prepared(s.d.db, "tombstones(account,target,since)", build, at);
  return new Set(rows.map((r) => r.itemKey));
}
