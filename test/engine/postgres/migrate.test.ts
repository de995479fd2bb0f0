/**
 * The PostgreSQL state's migrations (docs/ARCHITECTURE.md#the-state). A fresh database gets every table of the schema;
 * processes starting together against one new database migrate it once, without failing; an
 * up-to-date database is only read; a failing migration is reported naming the database and the
 * migration, never the password, and leaves nothing half applied.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import { is } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { migratePostgres, PgMigrationError } from "../../../engine/postgres/migrate.js";
import * as schema from "../../../engine/state/pg/schema.js";
import { enginePgMigrationsFolder } from "../../../engine/state/pg.js";
import { usePostgres } from "../../support/postgres-server.js";

const server = usePostgres();
const WHAT = "state database";

const pools: pg.Pool[] = [];
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pg-migrate-"));
});
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.end()));
  rmSync(dir, { recursive: true, force: true });
});

function poolOf(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pools.push(pool);
  return pool;
}

async function publicTables(pool: pg.Pool): Promise<string[]> {
  const result = await pool.query(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
  );
  return result.rows.map((r: { table_name: string }) => r.table_name);
}

async function applied(pool: pg.Pool): Promise<{ hash: string; created_at: string }[]> {
  return (await pool.query('SELECT hash, created_at FROM "drizzle"."__drizzle_migrations" ORDER BY id')).rows;
}

/** A copy of the engine's migrations with one more after them (its SQL given), in a folder of its own. */
function withExtraMigration(sql: string, tag = "0001_extra"): string {
  const folder = join(dir, "migrations");
  cpSync(enginePgMigrationsFolder(), folder, { recursive: true });
  const journalFile = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { when: number }[] };
  const last = journal.entries[journal.entries.length - 1]!;
  journal.entries.push({ ...last, idx: journal.entries.length, when: last.when + 1000, tag } as never);
  writeFileSync(journalFile, JSON.stringify(journal));
  writeFileSync(join(folder, `${tag}.sql`), sql);
  return folder;
}

describe("migratePostgres", () => {
  it("gives a fresh database every table of the schema, recorded in drizzle's table", async () => {
    const pool = poolOf(await server().createDatabase("fresh"));
    await migratePostgres(pool, enginePgMigrationsFolder(), WHAT);
    const expected = Object.values(schema)
      .filter((value) => is(value, PgTable))
      .map((table) => getTableConfig(table as PgTable).name)
      .sort();
    expect(expected.length).toBeGreaterThan(10);
    expect(await publicTables(pool)).toEqual(expected);
    expect(await applied(pool)).toHaveLength(1);
  });

  // drizzle's own migrator (drizzle-orm/node-postgres/migrator) fails this: checked with 8 pools on a
  // fresh database, 5 rounds — 7 of the 8 failed every round ("duplicate key value violates unique
  // constraint pg_type_typname_nsp_index", "relation __drizzle_migrations already exists"), because it
  // creates its table and reads the applied list outside any lock.
  it("lets 8 processes starting at once migrate one new database, each migration applied once", async () => {
    const url = await server().createDatabase("concurrent");
    const folder = withExtraMigration('CREATE TABLE "extra" ("id" integer PRIMARY KEY);');
    const racers = Array.from({ length: 8 }, () => poolOf(url));
    const results = await Promise.allSettled(racers.map((pool) => migratePostgres(pool, folder, WHAT)));
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    const rows = await applied(racers[0]!);
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.hash)).size).toBe(2);
    expect(await publicTables(racers[0]!)).toContain("extra");
  });

  it("only reads an up-to-date database: one query, no transaction", async () => {
    const pool = poolOf(await server().createDatabase("again"));
    await migratePostgres(pool, enginePgMigrationsFolder(), WHAT);
    const before = await applied(pool);
    // Every statement, through the pool or a client taken from it, goes through Client#query.
    const query = vi.spyOn(pg.Client.prototype, "query");
    // Restored even when the migration throws: later files in this worker use pg too.
    let sent: string[];
    try {
      await migratePostgres(pool, enginePgMigrationsFolder(), WHAT);
      sent = query.mock.calls.map(([text]) => String(text));
    } finally {
      query.mockRestore();
    }
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^SELECT created_at FROM "drizzle"\."__drizzle_migrations"/);
    expect(await applied(pool)).toEqual(before);
  });

  it("applies only the migrations added since the last run", async () => {
    const pool = poolOf(await server().createDatabase("later"));
    await migratePostgres(pool, enginePgMigrationsFolder(), WHAT);
    await pool.query("INSERT INTO accounts VALUES ('kept', '{}', 'x', 1, 1)");
    await migratePostgres(pool, withExtraMigration('ALTER TABLE "accounts" ADD COLUMN "note" text;'), WHAT);
    expect(await applied(pool)).toHaveLength(2);
    expect((await pool.query("SELECT name, note FROM accounts")).rows).toEqual([
      { name: "kept", note: null },
    ]);
  });
});

describe("migratePostgres errors", () => {
  const PASSWORD = "hunter2-secret-pw";
  /** The database's URL with a password in it: the trust server ignores it, the messages must too. */
  async function urlWithPassword(prefix: string): Promise<{ url: string; database: string }> {
    const url = new URL(await server().createDatabase(prefix));
    url.password = PASSWORD;
    return { url: url.href, database: `${url.hostname}:${url.port}${url.pathname}` };
  }

  it("names the database and the failing migration, not the password, and applies nothing", async () => {
    const { url, database } = await urlWithPassword("broken");
    const pool = poolOf(url);
    // The server's own message would quote the password here (a missing table of that name): masked.
    const folder = withExtraMigration(
      `CREATE TABLE "broken" ("id" integer REFERENCES "${PASSWORD}" ("id"));`,
    );
    const error = await migratePostgres(pool, folder, WHAT).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PgMigrationError);
    const failure = error as PgMigrationError;
    expect(failure.database).toBe(database);
    expect(failure.migration).toBe("0001");
    expect(failure.message).toContain(`state database ${database} (migration 0001)`);
    expect(failure.code).toBe("42P01");
    // Nowhere in what an uncaught error prints either (its cause chain included).
    expect(inspect(failure, { depth: 10 })).not.toContain(PASSWORD);
    // Both migrations were pending: one transaction, so the good one is rolled back with the bad.
    expect(await publicTables(pool)).toEqual([]);
  });

  it("names the database when the folder has no migrations to read", async () => {
    const { url, database } = await urlWithPassword("nofolder");
    const error = await migratePostgres(poolOf(url), join(dir, "missing"), WHAT).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PgMigrationError);
    expect((error as PgMigrationError).migration).toBeNull();
    expect((error as PgMigrationError).message).toContain(database);
    expect((error as PgMigrationError).message).not.toContain(PASSWORD);
  });

  it("names the database, not the password, when it cannot be reached", async () => {
    const { url } = await urlWithPassword("gone");
    const missing = new URL(url);
    missing.pathname = "/no_such_database";
    const error = await migratePostgres(poolOf(missing.href), enginePgMigrationsFolder(), WHAT).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PgMigrationError);
    expect((error as PgMigrationError).message).toContain(
      `${missing.hostname}:${missing.port}/no_such_database`,
    );
    expect(String((error as PgMigrationError).message)).not.toContain(PASSWORD);
  });
});
