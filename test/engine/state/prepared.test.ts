import Database from "better-sqlite3";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { describe, expect, it } from "vitest";
import { type Db, oneRow, placeholders, prepared } from "../../../engine/state/dialect.js";
import { engineTables as t } from "../../../engine/state/schema.js";
import { engineMigrationsFolder } from "../../../engine/state/sqlite.js";

/** A builder over a fresh in-memory database with the engine's tables. */
function freshDb(): Db {
  const db = drizzle(new Database(":memory:"));
  migrate(db, { migrationsFolder: engineMigrationsFolder() });
  return db as unknown as Db;
}

const LOCK = placeholders("account", "lockId", "holder", "at");
const lock = (account: string, holder: string) => ({ account, lockId: `id-${account}`, holder, at: 7 });

/** An upsert of a lock row, counting how often it is built. */
function counted() {
  const counter = { builds: 0 };
  const build = (q: Db) => {
    counter.builds++;
    const row = { ...LOCK, acquiredAt: LOCK.at, heartbeatAt: LOCK.at };
    return q
      .insert(t.locks)
      .values(row)
      .onConflictDoUpdate({ target: t.locks.account, set: { holder: sql`excluded.holder` } });
  };
  return { counter, build };
}

describe("prepared queries", () => {
  it("are built once per builder, each call running with its own values", async () => {
    const db = freshDb();
    const { counter, build } = counted();
    await prepared(db, "test.lock", build, lock("a", "first"));
    await prepared(db, "test.lock", build, lock("b", "second"));
    await prepared(db, "test.lock", build, lock("a", "third"));
    expect(counter.builds).toBe(1);
    expect(await oneRow(db, t.locks, { account: "a" })).toMatchObject({ holder: "third", acquiredAt: 7 });
    expect(await oneRow(db, t.locks, { account: "b" })).toMatchObject({ holder: "second", lockId: "id-b" });
  });

  it("are built again for another builder (a PostgreSQL transaction is one), which runs its own", async () => {
    const [one, other] = [freshDb(), freshDb()];
    const { counter, build } = counted();
    await prepared(one, "test.lock", build, lock("a", "one"));
    await prepared(other, "test.lock", build, lock("a", "other"));
    expect(counter.builds).toBe(2);
    expect((await oneRow(one, t.locks, { account: "a" }))?.holder).toBe("one");
    expect((await oneRow(other, t.locks, { account: "a" }))?.holder).toBe("other");
  });

  it("keep queries of different keys apart", async () => {
    const db = freshDb();
    await prepared(db, "test.lock", counted().build, lock("a", "h"));
    const holderOf = (q: Db) =>
      q.select({ holder: t.locks.holder }).from(t.locks).where(eq(t.locks.lockId, LOCK.lockId));
    expect(await prepared(db, "test.holder", holderOf, { lockId: "id-a" })).toEqual([{ holder: "h" }]);
    expect(await prepared(db, "test.holder", holderOf, { lockId: "id-none" })).toEqual([]);
  });
});

describe("oneRow", () => {
  it("finds the row whose columns all match, or null", async () => {
    const db = freshDb();
    const p = t.ownedPlaylists;
    const row = { account: "a", recipeId: "r", target: "playlist", playlistId: "PL1", createdAt: 1 };
    await db.insert(p).values([row, { ...row, recipeId: "s", playlistId: "PL2" }]);
    expect(await oneRow(db, p, { account: "a", recipeId: "s" })).toMatchObject({ playlistId: "PL2" });
    expect(await oneRow(db, p, { account: "a", recipeId: "r" })).toMatchObject({ playlistId: "PL1" });
    expect(await oneRow(db, p, { account: "b", recipeId: "r" })).toBeNull();
  });
});
