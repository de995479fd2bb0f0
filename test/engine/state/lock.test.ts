/**
 * The account lock between a daemon and a one-shot `musicsync sync` on the same database: the
 * one-shot exits 4 without a single request while the daemon holds it; `unlock` removes a lock by id;
 * `status` shows who holds it.
 */
import { writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { EngineClient } from "../../../engine/apply/client.js";
import { openSqliteState } from "../../../engine/state/sqlite.js";
import type { StatusReport } from "../../../engine/status/status.js";
import {
  type InProcessDaemon,
  musicsync,
  type RecordedRequest,
  type Recorder,
  startDaemon,
  startRecorder,
  waitUntil,
  writeRecipes,
} from "../../support/daemon-harness.js";
import { catalogueSongs, type Harness, startHarness } from "../../support/sync-harness.js";

let h: Harness | null = null;
let d: InProcessDaemon | null = null;
let recorder: Recorder | null = null;
afterEach(async () => {
  await d?.stop();
  d = null;
  await recorder?.close();
  recorder = null;
  await h?.stop();
  h = null;
});

/** Slows every write of the daemon, so that its run (and its hold on the lock) lasts. */
const slowWrites = (client: EngineClient): EngineClient =>
  new Proxy(client, {
    get(target, p, r) {
      const v = Reflect.get(target, p, r);
      if (typeof v !== "function") return v;
      if (!["createPlaylist", "addPlaylistItems", "editPlaylist"].includes(String(p))) return v.bind(target);
      return async (...args: unknown[]) => {
        await new Promise((res) => setTimeout(res, 150));
        return v.apply(target, args);
      };
    },
  });

describe("the account lock", () => {
  it("a one-shot sync exits 4 and sends nothing while a daemon holds the account's lock", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 24);
    await writeRecipes(h.dir, [{ id: "held", cron: "* * * * * *", ids: songs, batch: 2 }]);
    d = await startDaemon(h, {}, slowWrites);
    const lock = await waitUntil(() => d!.daemon.state.lock("default"), "the daemon's lock");
    expect(lock.holder).toBe(`${hostname()}:${process.pid}`);

    // The one-shot goes to the service through a recorder: not one request may leave it.
    const log: RecordedRequest[] = [];
    recorder = await startRecorder(h.emulator.url, "one-shot", log);
    const projectFile = join(h.dir, "one-shot.yaml");
    await writeFile(
      projectFile,
      [
        "apiVersion: musicsync/v1",
        "kind: Project",
        "accounts:",
        `  default: { auth: headers.json, base_url: "${recorder.url}" }`,
        "recipes: [recipes]",
        "state: state.db",
        "",
      ].join("\n"),
    );
    const r = await musicsync(["sync", "-p", projectFile]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(
      `error: held: account "default" is locked by ${lock.holder} (lock ${lock.lockId})`,
    );
    expect(r.stderr).toContain(`musicsync unlock ${lock.lockId}`);
    expect(log).toEqual([]);

    const report = JSON.parse(
      (await musicsync(["status", "--json", "-p", h.projectFile])).stdout,
    ) as StatusReport;
    expect(report.locks).toEqual([
      expect.objectContaining({
        account: "default",
        lockId: lock.lockId,
        host: hostname(),
        pid: process.pid,
      }),
    ]);
    expect((await musicsync(["status", "-p", h.projectFile])).stdout).toMatch(
      new RegExp(`Locks\\n  default: ${lock.lockId} held by ${hostname()} pid ${process.pid}, heartbeat `),
    );
  });

  it("unlock removes a stale lock by its id, and says when there is none", async () => {
    h = await startHarness();
    await writeRecipes(h.dir, [{ id: "r", ids: catalogueSongs(h, 1) }]);
    const state = openSqliteState(h.stateFile);
    const taken = await state.acquireLock("default", "elsewhere:4242", Date.now(), 60_000);
    await state.close();
    expect(taken.acquired).toBe(true);
    const id = taken.acquired ? taken.lock.lockId : "";
    const locked = await musicsync(["sync", "-p", h.projectFile]);
    expect(locked.code).toBe(4);
    // Its heartbeat is fresh (another machine, so only the heartbeat can tell): refused without --force.
    const refused = await musicsync(["unlock", id, "-p", h.projectFile]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain(`is held by process 4242 on elsewhere since `);
    expect(await musicsync(["unlock", "--force", id, "-p", h.projectFile])).toMatchObject({
      code: 0,
      stdout: `Lock ${id} removed.\n`,
    });
    expect(await musicsync(["unlock", id, "-p", h.projectFile])).toMatchObject({
      code: 1,
      stdout: `No lock ${id}.\n`,
    });
    expect((await musicsync(["sync", "-p", h.projectFile])).code).toBe(0);
  });
});
