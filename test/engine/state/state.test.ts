import { readdirSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ownedFor, stateTargetKey } from "../../../engine/plan/owned.js";
import { engineMigrationsFolder, openSqliteState } from "../../../engine/state/sqlite.js";
import type { EngineState } from "../../../engine/state/types.js";

let state: EngineState;

beforeEach(() => {
  state = openSqliteState(":memory:");
});
afterEach(async () => {
  await state.close();
});

describe("opening the state", () => {
  it("finds migrations/engine by walking up to package.json", () => {
    const folder = engineMigrationsFolder();
    expect(folder.endsWith("/migrations/engine")).toBe(true);
    expect(readdirSync(folder).some((f) => f.endsWith(".sql"))).toBe(true);
    expect(readdirSync(`${folder}/meta`)).toContain("_journal.json");
  });

  it("applies migrations again on an existing file without harm", async () => {
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(`${tmpdir()}/engine-state-`);
    try {
      const first = openSqliteState(`${dir}/state.db`);
      const id = await first.startRun({ recipeId: "r", account: "a", kind: "plan", recipeHash: "h", at: 1 });
      await first.close();
      const second = openSqliteState(`${dir}/state.db`);
      expect((await second.runs("r")).map((r) => r.id)).toEqual([id]);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("runs and the journal", () => {
  it("records a run from start to finish, newest first", async () => {
    const a = await state.startRun({
      recipeId: "r",
      account: "acc",
      kind: "plan",
      recipeHash: "h1",
      at: 100,
    });
    const b = await state.startRun({
      recipeId: "r",
      account: "acc",
      kind: "apply",
      recipeHash: "h1",
      at: 200,
    });
    await state.finishRun(b, { at: 250, result: "converged", counts: { add: 3 } });
    const runs = await state.runs("r");
    expect(runs.map((r) => r.id)).toEqual([b, a]);
    expect(runs[0]).toMatchObject({
      kind: "apply",
      result: "converged",
      finishedAt: 250,
      counts: { add: 3 },
      error: null,
    });
    expect(runs[1]).toMatchObject({ result: "running", finishedAt: null });
  });

  it("journals writes before sending and lists the unfinished ones for a re-run", async () => {
    const run = await state.startRun({
      recipeId: "r",
      account: "acc",
      kind: "apply",
      recipeHash: "h",
      at: 1,
    });
    await state.journalPlanned(
      run,
      [
        { seq: 1, kind: "add_playlist_items", target: "playlist/PL1", payload: { videoIds: ["a"] } },
        { seq: 2, kind: "remove_playlist_items", target: "playlist/PL1", payload: { videos: [] } },
        { seq: 3, kind: "move_playlist_items", target: "playlist/PL1", payload: { moves: [] } },
      ],
      10,
    );
    await state.journalMark(run, 1, "sent", 11);
    await state.journalMark(run, 1, "confirmed", 12, { setVideoIds: ["S1"] });
    await state.journalMark(run, 2, "sent", 13);
    const entries = await state.journal(run);
    expect(entries.map((e) => [e.seq, e.status, e.attempt])).toEqual([
      [1, "confirmed", 1],
      [2, "sent", 1],
      [3, "pending", 0],
    ]);
    expect(entries[0]!.result).toEqual({ setVideoIds: ["S1"] });
    expect(entries[0]!.payload).toEqual({ videoIds: ["a"] });
    expect((await state.unfinishedWrites()).map((e) => e.seq)).toEqual([2, 3]);
    await expect(state.journalMark(run, 9, "sent", 14)).rejects.toThrow("journal: no entry 9");
  });

  it("refuses the same sequence number twice in a run", async () => {
    const run = await state.startRun({
      recipeId: "r",
      account: "acc",
      kind: "apply",
      recipeHash: "h",
      at: 1,
    });
    const entry = { seq: 1, kind: "rate_song", target: "likes", payload: {} };
    await state.journalPlanned(run, [entry], 1);
    await expect(state.journalPlanned(run, [entry], 2)).rejects.toThrow();
  });
});

describe("ownership and tombstones", () => {
  it("remembers owned playlists per recipe and rows per target", async () => {
    await state.recordOwnedPlaylist({
      account: "a",
      recipeId: "r",
      target: "playlist/PL1",
      playlistId: "PL1",
      createdAt: 5,
    });
    expect(await state.ownedPlaylist("a", "r")).toMatchObject({ playlistId: "PL1" });
    expect(await state.ownedPlaylist("b", "r")).toBeNull();
    await state.addOwnedRows("a", "playlist/PL1", [
      { itemKey: "v1", setVideoId: "S1", addedAt: 1 },
      { itemKey: "v1", setVideoId: "S2", addedAt: 2 },
      { itemKey: "v2", setVideoId: "S3", addedAt: 3 },
    ]);
    await state.removeOwnedRows("a", "playlist/PL1", [{ itemKey: "v1", setVideoId: "S1" }]);
    expect((await state.ownedRows("a", "playlist/PL1")).map((r) => r.setVideoId)).toEqual(["S2", "S3"]);
    await state.removeOwnedRows("a", "playlist/PL1", [{ itemKey: "v1" }]);
    expect((await state.ownedRows("a", "playlist/PL1")).map((r) => r.itemKey)).toEqual(["v2"]);
    await state.forgetOwnedPlaylist("a", "PL1");
    expect(await state.ownedPlaylist("a", "r")).toBeNull();
  });

  it("keeps tombstones once per key and forgets them on request", async () => {
    await state.addTombstones("a", "likes", "r", ["v1", "v2", "v1"], 1);
    expect(await state.tombstones("a", "likes")).toEqual(new Set(["v1", "v2"]));
    await state.removeTombstones("a", "likes", ["v1"]);
    expect(await state.tombstones("a", "likes")).toEqual(new Set(["v2"]));
    expect(await state.tombstones("a", "library/songs")).toEqual(new Set());
  });

  it("gives the planner what it needs", async () => {
    const target = {
      type: "playlist" as const,
      playlist: { id: null, title: "Mix", description: null, privacy: null },
      allow_delete: false,
    };
    await state.recordOwnedPlaylist({
      account: "a",
      recipeId: "r",
      target: "playlist/PL9",
      playlistId: "PL9",
      createdAt: 1,
    });
    await state.addOwnedRows("a", stateTargetKey(target, "PL9"), [
      { itemKey: "v1", setVideoId: "S1", addedAt: 1 },
    ]);
    await state.addTombstones("a", stateTargetKey(target, "PL9"), "r", ["v2"], 1);
    const owned = await ownedFor(state, "a", "r", target, "PL9");
    expect(owned).toEqual({ playlist: true, rows: new Set(["v1"]), tombstones: new Set(["v2"]) });
    expect((await ownedFor(state, "a", "r", target, "PLother")).playlist).toBe(false);
    expect(stateTargetKey({ type: "library", kind: "albums" }, null)).toBe("library/albums");
  });
});

describe("snapshots, generations and conditions", () => {
  it("keeps the last snapshot of each target", async () => {
    const snap = {
      account: "a",
      target: "likes",
      recipeId: "r",
      runId: 1,
      takenAt: 1,
      fingerprint: "f1",
      rows: [{ key: "v1", setVideoId: null }],
    };
    await state.saveSnapshot(snap);
    await state.saveSnapshot({ ...snap, takenAt: 2, fingerprint: "f2" });
    expect(await state.snapshot("a", "likes")).toEqual({ ...snap, takenAt: 2, fingerprint: "f2" });
    expect(await state.snapshot("a", "other")).toBeNull();
  });

  it("numbers a recipe's versions, only when its hash changes", async () => {
    expect(await state.recordGeneration("r", "h1", 1)).toBe(1);
    expect(await state.recordGeneration("r", "h1", 2)).toBe(1);
    expect(await state.recordGeneration("r", "h2", 3)).toBe(2);
    expect(await state.recordGeneration("r", "h1", 4)).toBe(3);
    expect(await state.recordGeneration("other", "h1", 5)).toBe(1);
  });

  it("moves a condition's time only when its status changes", async () => {
    await state.setCondition(
      "r",
      { type: "Ready", status: "False", reason: "AuthExpired", message: "sign in again" },
      10,
    );
    await state.setCondition(
      "r",
      { type: "Ready", status: "False", reason: "AuthExpired", message: "still" },
      20,
    );
    await state.setCondition("r", { type: "AuthValid", status: "False", reason: "Expired", message: "" }, 20);
    let c = await state.conditions("r");
    expect(c.map((x) => [x.type, x.status, x.changedAt, x.message])).toEqual([
      ["AuthValid", "False", 20, ""],
      ["Ready", "False", 10, "still"],
    ]);
    await state.setCondition("r", { type: "Ready", status: "True", reason: "Converged", message: "" }, 30);
    c = await state.conditions("r");
    expect(c.find((x) => x.type === "Ready")).toMatchObject({ status: "True", changedAt: 30 });
  });
});

describe("locks", () => {
  it("lets one holder in per account until released", async () => {
    const first = await state.acquireLock("acc", "daemon-1", 1000, 60_000);
    expect(first.acquired).toBe(true);
    const second = await state.acquireLock("acc", "cli", 2000, 60_000);
    expect(second).toMatchObject({ acquired: false, heldBy: { holder: "daemon-1" } });
    expect((await state.acquireLock("other", "cli", 2000, 60_000)).acquired).toBe(true);
    if (first.acquired) await state.releaseLock(first.lock.lockId);
    expect((await state.acquireLock("acc", "cli", 3000, 60_000)).acquired).toBe(true);
  });

  it("takes over a lock whose heartbeat stopped, and keeps one that beats", async () => {
    const first = await state.acquireLock("acc", "daemon-1", 0, 1000);
    if (!first.acquired) throw new Error("expected the lock");
    expect(await state.heartbeat(first.lock.lockId, 900)).toBe(true);
    expect((await state.acquireLock("acc", "daemon-2", 1800, 1000)).acquired).toBe(false);
    const taken = await state.acquireLock("acc", "daemon-2", 2000, 1000);
    expect(taken).toMatchObject({ acquired: true, lock: { holder: "daemon-2" } });
    // The old holder's heartbeat now finds nothing: it must stop writing.
    expect(await state.heartbeat(first.lock.lockId, 2100)).toBe(false);
  });

  it("force-unlocks by lock id", async () => {
    const got = await state.acquireLock("acc", "crashed", 0, 60_000);
    if (!got.acquired) throw new Error("expected the lock");
    expect((await state.lock("acc"))?.lockId).toBe(got.lock.lockId);
    expect(await state.forceUnlock(got.lock.lockId)).toBe(true);
    expect(await state.forceUnlock(got.lock.lockId)).toBe(false);
    expect(await state.lock("acc")).toBeNull();
  });
});

describe("account health", () => {
  it("suspends after N consecutive failures, and a success resets the count", async () => {
    await state.recordFailure("acc", 1, "HTTP 500", { suspendAfter: 3 });
    await state.recordSuccess("acc");
    await state.recordFailure("acc", 2, "HTTP 500", { suspendAfter: 3 });
    await state.recordFailure("acc", 3, "HTTP 500", { suspendAfter: 3 });
    expect((await state.health("acc")).suspendedAt).toBeNull();
    const h = await state.recordFailure("acc", 4, "HTTP 503", { suspendAfter: 3 });
    expect(h).toEqual({
      account: "acc",
      consecutiveFailures: 3,
      suspendedAt: 4,
      suspendedReason: "HTTP 503",
    });
    await state.resume("acc");
    expect(await state.health("acc")).toMatchObject({ consecutiveFailures: 0, suspendedAt: null });
  });

  it("suspends at once when the credentials expired", async () => {
    const h = await state.recordFailure("acc", 7, "credentials expired", {
      suspendAfter: 5,
      authExpired: true,
    });
    expect(h).toMatchObject({
      consecutiveFailures: 1,
      suspendedAt: 7,
      suspendedReason: "credentials expired",
    });
  });
});
