/**
 * Where a seed's engine state lives: SQLite, `state.db` in the seed's folder (the
 * default), or a fresh database on a PostgreSQL server that the whole run shares. The soak reads the
 * state through openState only, so that one set of invariants judges both; the two things that
 * need the storage itself — losing it, and scanning all of it for credentials — are here, one way
 * per kind.
 */
import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import pg from "pg";
import { QUARANTINE_TARGET } from "../../engine/apply/quarantine.js";
import { openState } from "../../engine/state/open.js";
import { parseStateUrl } from "../../engine/state/url.js";
import type { PostgresServer } from "../support/postgres-server.js";

export type StateKind = "sqlite" | "postgres";

export interface SeedState {
  /** The project's `state` setting: the file's absolute path, or the database's URL. */
  setting: string;
  /** The server the database is on (to drop and make it again); null on SQLite. */
  server: PostgresServer | null;
}

export const STATE_NAMES: Record<StateKind, string> = { sqlite: "SQLite", postgres: "PostgreSQL" };

/** Every run the state holds, read through the engine's own state API. */
export async function stateRuns(state: SeedState): Promise<{ id: number; recipe: string; result: string }[]> {
  const target = parseStateUrl(state.setting);
  // Not made yet (no run got so far) or just lost: no runs, and no empty file made by looking.
  if (target.kind === "sqlite" && !existsSync(target.file)) return [];
  const opened = openState(state.setting);
  try {
    // A seed makes a few dozen runs at most: the limit only has to be above that.
    const runs = await opened.recentRuns({ limit: 100_000 });
    return runs.map((r) => ({ id: r.id, recipe: r.recipeId, result: r.result }));
  } finally {
    await opened.close();
  }
}

/** The ids the state holds quarantined for an account (any age), read through the engine's state API. */
export async function stateQuarantine(state: SeedState, account: string): Promise<Set<string>> {
  const target = parseStateUrl(state.setting);
  if (target.kind === "sqlite" && !existsSync(target.file)) return new Set();
  const opened = openState(state.setting);
  try {
    return await opened.tombstonesSince(account, QUARANTINE_TARGET, 0);
  } finally {
    await opened.close();
  }
}

/**
 * The state lost: on SQLite the file and its companions removed; on PostgreSQL the database dropped
 * and made again, empty, under the same name — what a restore of a blank database leaves, and the
 * project's `state` URL still points at it.
 */
export async function loseState(state: SeedState): Promise<void> {
  const target = parseStateUrl(state.setting);
  if (target.kind === "sqlite") {
    for (const suffix of ["", "-wal", "-shm", "-journal"]) await rm(target.file + suffix, { force: true });
    return;
  }
  if (!state.server) throw new Error("a PostgreSQL state without its server: cannot drop it");
  const name = databaseName(target.url);
  await onServer(state.server.url, async (client) => {
    // FORCE: a pool the engine left open (a killed process's connections) must not keep it alive.
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}" TEMPLATE template0`);
  });
}

/**
 * All the state holds, as text, for the credential scan: the SQLite file and its WAL byte for
 * byte; on PostgreSQL every row of every table of the database (the nearest thing to its bytes
 * that the server gives out), one text per table.
 */
export async function stateTexts(state: SeedState): Promise<{ where: string; text: string }[]> {
  const target = parseStateUrl(state.setting);
  if (target.kind === "postgres") return tableTexts(target.url);
  const out: { where: string; text: string }[] = [];
  for (const suffix of ["", "-wal"])
    if (existsSync(target.file + suffix))
      out.push({
        where: `state database${suffix}`,
        text: (await readFile(target.file + suffix)).toString("latin1"),
      });
  return out;
}

async function tableTexts(url: string): Promise<{ where: string; text: string }[]> {
  return onServer(url, async (client) => {
    const tables = await client.query<{ schema: string; name: string }>(
      `SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
       WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    const out: { where: string; text: string }[] = [];
    for (const { schema, name } of tables.rows) {
      const rows = await client.query<{ row: string }>(`SELECT t::text AS row FROM "${schema}"."${name}" t`);
      out.push({ where: `state table ${schema}.${name}`, text: rows.rows.map((r) => r.row).join("\n") });
    }
    return out;
  });
}

export function databaseName(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  // Names come from createDatabase (letters, digits, `_`): anything else is not the soak's database.
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`not a soak database: ${JSON.stringify(name)}`);
  return name;
}

async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
