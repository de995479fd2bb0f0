/**
 * The test PostgreSQL server itself: it starts on 127.0.0.1 in a temp folder, as the `postgres` user
 * under root, hands out fresh databases, and `stop()` leaves no process and no folder behind.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import {
  makeTemplatesFolder,
  type PostgresServer,
  postgresBinaries,
  startPostgres,
  withoutPostgres,
} from "./postgres-server.js";

/** Whether a process of that pid exists (a zombie would count: the server's must be reaped too). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === "EPERM";
  }
}

async function query<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

// Outside CI a machine without PostgreSQL skips this; in CI startPostgres fails saying what to install.
describe.skipIf(withoutPostgres(postgresBinaries(), { CI: process.env.CI }) === "skip")(
  "startPostgres",
  () => {
    it("runs a server in a temp folder that stop() removes with every process of it", async () => {
      const server = await startPostgres();
      expect(server.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
      // A connection left open: its backend process must go too.
      const client = new pg.Client({ connectionString: server.url });
      client.on("error", () => undefined);
      await client.connect();
      const [{ data }] = (await client.query("SELECT current_setting('data_directory') AS data")).rows;
      const [{ listen }] = (await client.query("SELECT current_setting('listen_addresses') AS listen")).rows;
      const [{ sockets }] = (
        await client.query("SELECT current_setting('unix_socket_directories') AS sockets")
      ).rows;
      const pids = (await client.query("SELECT pid FROM pg_stat_activity")).rows.map(
        (r: { pid: number }) => r.pid,
      );
      const postmaster = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
      const folder = dirname(data);
      expect(listen).toBe("127.0.0.1");
      expect(sockets).toBe(folder);
      // PostgreSQL refuses root: under root the files belong to the postgres user.
      if (process.getuid?.() === 0) expect(statSync(data).uid).not.toBe(0);
      expect([postmaster, ...pids].every(alive)).toBe(true);

      await server.stop();
      expect([postmaster, ...pids].filter(alive)).toEqual([]);
      expect(existsSync(folder)).toBe(false);
      await server.stop(); // a second stop is harmless
    });

    it("goes down and comes back on the same port with its data (outage)", async () => {
      const server = await startPostgres();
      try {
        const url = await server.createDatabase("outage");
        await query(url, "CREATE TABLE kept (id integer)");
        const client = new pg.Client({ connectionString: url });
        const errors: string[] = [];
        client.on("error", (e: Error & { code?: string }) => errors.push(e.code ?? e.message));
        await client.connect();
        await server.outage!.down("fast");
        await expect(query(url, "SELECT 1")).rejects.toThrow(/ECONNREFUSED/);
        // A fast shutdown tells each session why it ends.
        expect(errors[0]).toBe("57P01");
        await server.outage!.up();
        expect(await query(url, "SELECT count(*)::int AS n FROM kept")).toEqual([{ n: 0 }]);
      } finally {
        await server.stop();
      }
    });

    it("hands out fresh, empty, separate databases", async () => {
      const server = await startPostgres();
      try {
        const [a, b] = await Promise.all([server.createDatabase("one"), server.createDatabase("one")]);
        expect(a).not.toBe(b);
        expect(new URL(a).pathname).toMatch(/^\/one_/);
        await query(a, "CREATE TABLE only_in_a (id integer)");
        const tables = "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'";
        expect(await query(a, tables)).toEqual([{ table_name: "only_in_a" }]);
        expect(await query(b, tables)).toEqual([]);
        // A copy of a database (no session on it) holds its tables, and is a database of its own.
        const copy = await server.createDatabase("copy", a);
        expect(await query(copy, tables)).toEqual([{ table_name: "only_in_a" }]);
        await query(copy, "CREATE TABLE only_in_copy (id integer)");
        expect(await query(a, tables)).toEqual([{ table_name: "only_in_a" }]);
        await expect(
          server.createDatabase("copy", `${server.url.replace(/postgres$/, "")}x";DROP`),
        ).rejects.toThrow(/is not a database made by createDatabase/);
      } finally {
        await server.stop();
      }
    });

    it("copies the run's template: the first server initdbs and leaves one, the next copy it, each its own cluster", async () => {
      const run = makeTemplatesFolder()!;
      const templates = run.folder;
      const servers: PostgresServer[] = [];
      try {
        servers.push(await startPostgres({ templates }));
        expect(servers[0]!.made).toBe("initdb");
        expect(readdirSync(templates)).toHaveLength(1);
        servers.push(await startPostgres({ templates }), await startPostgres({ templates }));
        expect(servers.map((s) => s.made)).toEqual(["initdb", "copy", "copy"]);
        const [a, b] = servers;
        await query(a!.url, "CREATE TABLE only_in_a (id integer)");
        const tables = "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'";
        expect(await query(b!.url, tables)).toEqual([]);
        const dataOf = async (s: PostgresServer) =>
          (await query<{ d: string }>(s.url, "SELECT current_setting('data_directory') AS d"))[0]!.d;
        const [da, db] = [await dataOf(a!), await dataOf(b!)];
        expect(da).not.toBe(db);
        // The copy is the server's user's, as initdb's output is (under root: not root's).
        expect(statSync(db).uid).toBe(statSync(da).uid);
        expect(await query(b!.url, "SELECT current_setting('listen_addresses') AS l")).toEqual([
          { l: "127.0.0.1" },
        ]);
      } finally {
        for (const s of servers) await s.stop();
        run.remove();
        expect(existsSync(templates)).toBe(false);
      }
    });

    it("a missing, damaged or stale template costs an initdb, never the server", async () => {
      const run = makeTemplatesFolder()!;
      const templates = run.folder;
      const servers: PostgresServer[] = [];
      const works = async (s: PostgresServer) =>
        expect(await query(s.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
      try {
        // A folder that is not there (removed under the run): initdb, and nothing left behind.
        servers.push(await startPostgres({ templates: join(templates, "gone") }));
        expect(servers[0]!.made).toBe("initdb");
        await works(servers[0]!);
        servers.push(await startPostgres({ templates }));
        const [template] = readdirSync(templates);
        // Damaged: its control file gone, so the copy cannot start.
        rmSync(join(templates, template!, "global", "pg_control"));
        servers.push(await startPostgres({ templates }));
        expect(servers[2]!.made).toBe("initdb");
        await works(servers[2]!);
        // ...and its initdb left a good template in its place.
        expect(existsSync(join(templates, template!, "global", "pg_control"))).toBe(true);
        // Stale: a cluster of another major version, which these binaries refuse.
        writeFileSync(join(templates, template!, "PG_VERSION"), "9\n");
        servers.push(await startPostgres({ templates }));
        expect(servers[3]!.made).toBe("initdb");
        await works(servers[3]!);
        servers.push(await startPostgres({ templates }));
        expect(servers[4]!.made).toBe("copy");
        await works(servers[4]!);
        expect(readdirSync(templates)).toEqual([template]);
      } finally {
        for (const s of servers) await s.stop();
        run.remove();
        expect(existsSync(templates)).toBe(false);
      }
    });

    it("restart(): sessions end, the server comes back on the same port with its data; stop() after it leaves nothing", async () => {
      const server = await startPostgres();
      const url = await server.createDatabase("kept");
      await query(url, "CREATE TABLE kept (id integer); INSERT INTO kept VALUES (7)");
      const client = new pg.Client({ connectionString: url });
      const lost: Error[] = [];
      client.on("error", (e) => lost.push(e));
      await client.connect();
      const [{ data }] = (await client.query("SELECT current_setting('data_directory') AS data")).rows;
      const folder = dirname(data);
      for (const mode of ["fast", "immediate"] as const) {
        const before = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
        await server.restart!(200, mode);
        const after = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
        expect(alive(before), mode).toBe(false);
        expect(after, mode).not.toBe(before);
        expect(await query(url, "SELECT id FROM kept"), mode).toEqual([{ id: 7 }]);
      }
      // The session open across the first restart was ended, and said so.
      await expect(client.query("SELECT 1")).rejects.toThrow();
      expect(lost.length).toBeGreaterThan(0);
      await client.end().catch(() => undefined);
      const postmaster = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
      await server.stop();
      expect(alive(postmaster)).toBe(false);
      expect(existsSync(folder)).toBe(false);
      await expect(server.restart!(0, "fast")).rejects.toThrow("stopped");
    });
  },
);

describe("without PostgreSQL", () => {
  it("skips outside CI, fails in CI, runs against MUSICSYNC_TEST_PG_URL", () => {
    expect(withoutPostgres(null, {})).toBe("skip");
    expect(withoutPostgres(null, { CI: "true" })).toBe("fail");
    expect(withoutPostgres(null, { CI: "true", MUSICSYNC_TEST_PG_URL: "postgres://h/db" })).toBe("run");
    expect(withoutPostgres("/usr/lib/postgresql/15/bin", { CI: "true" })).toBe("run");
  });
});
