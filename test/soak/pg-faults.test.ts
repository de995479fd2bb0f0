/**
 * The fleet's database faults (pg-faults.ts) hit the seed's database and nothing else: seeds share
 * one server, and a fault that reached another seed's sessions would break its promises, not the
 * engine's.
 */
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { usePostgres } from "../support/postgres-server.js";
import {
  advisoryLocks,
  blinkDatabase,
  cutAllSessions,
  cutLockSessions,
  faultTarget,
  setIdleTimeout,
} from "./pg-faults.js";
import { ReusedSession } from "./pg-session.js";

const server = usePostgres();
const open: pg.Client[] = [];

afterEach(async () => {
  for (const c of open.splice(0)) await c.end().catch(() => undefined);
});

/** A session of `url`, noting whether the server ended it. */
async function session(url: string): Promise<{ client: pg.Client; ended: () => boolean }> {
  const client = new pg.Client({ connectionString: url });
  let ended = false;
  client.on("error", () => {
    ended = true;
  });
  client.on("end", () => {
    ended = true;
  });
  await client.connect();
  open.push(client);
  return { client, ended: () => ended };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  return check();
};

describe("the fleet's database faults", () => {
  it("end the lock holders, then every session, of the seed's database only", async () => {
    const [mine, theirs] = [await server().createDatabase("mine"), await server().createDatabase("theirs")];
    const target = faultTarget(server(), mine);
    const holder = await session(mine);
    const idle = await session(mine);
    const otherHolder = await session(theirs);
    await holder.client.query("SELECT pg_advisory_lock(42)");
    await otherHolder.client.query("SELECT pg_advisory_lock(42)");
    expect(await advisoryLocks(target)).toBe(1);

    expect(await cutLockSessions(target)).toBe(1);
    expect(await until(holder.ended)).toBe(true);
    expect(idle.ended()).toBe(false);
    expect(await cutAllSessions(target)).toBe(1);
    expect(await until(idle.ended)).toBe(true);
    expect(otherHolder.ended()).toBe(false);
    expect((await otherHolder.client.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });

  it("a blink refuses the seed's database a while, then lets it in again; others never notice", async () => {
    const [mine, theirs] = [await server().createDatabase("mine"), await server().createDatabase("theirs")];
    const target = faultTarget(server(), mine);
    const before = await session(mine);
    const blink = blinkDatabase(target, 1500);
    expect(await until(before.ended)).toBe(true);
    await expect(session(mine)).rejects.toThrow(/not currently accepting connections/);
    await session(theirs);
    expect(await blink).toBe(1);
    await session(mine);
  });

  it("an idle-session timeout ends the seed's idle sessions started after it, until reset", async () => {
    const mine = await server().createDatabase("mine");
    const target = faultTarget(server(), mine);
    await setIdleTimeout(target, 300);
    const idle = await session(mine);
    expect(await until(idle.ended)).toBe(true);
    await setIdleTimeout(target, null);
    const later = await session(mine);
    await new Promise((r) => setTimeout(r, 800));
    expect(later.ended()).toBe(false);
  });

  it("a polling loop's session: one backend for many reads; a cut fails one read, the next reconnects", async () => {
    const mine = await server().createDatabase("mine");
    const target = faultTarget(server(), mine);
    const polls = new ReusedSession(mine);
    try {
      const backend = async () =>
        (await polls.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
      const first = await backend();
      expect(await backend()).toBe(first);
      expect(await cutAllSessions(target)).toBe(1);
      await expect(backend()).rejects.toThrow();
      const after = await backend();
      expect(after).not.toBe(first);
      expect(await backend()).toBe(after);
    } finally {
      await polls.close();
    }
  });
});
