/**
 * The contract of EngineState, run against every implementation (contract.ts lists them).
 * Grouped by the store each method belongs to; every test asserts values, orders or refusals a
 * caller relies on, so an implementation that differs fails here rather than in a sync.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { CachedMatch } from "../../../engine/match/cached-match.js";
import { openPgState } from "../../../engine/state/pg.js";
import type { EngineState } from "../../../engine/state/types.js";
import { usePostgres } from "../../support/postgres-server.js";
import {
  implementations,
  pendingApproval,
  type StateImplementation,
  snapshotFor,
  startRun,
} from "./contract.js";

type Get = () => EngineState;

describe.each(implementations)("EngineState contract: $name", (impl) => contract(impl));

// PostgreSQL needs a server: this test file starts one (a fresh database per test). Each test's
// database is a copy of one migrated once (then closed: a database being copied may have no
// session), not migrated again: the migrations are test/engine/postgres/migrate.test.ts's subject, and ran for
// every one of some 80 tests here, they were most of this file's time.
describe("EngineState contract: postgres", () => {
  const server = usePostgres();
  let migrated: Promise<string> | undefined;
  const migratedOnce = async () => {
    const url = await server().createDatabase("contract_migrated");
    const state = openPgState(url);
    await state.locks(); // its first call migrates it
    await state.close();
    return url;
  };
  contract({
    name: "postgres",
    open: async () => {
      migrated ??= migratedOnce();
      return openPgState(await server().createDatabase("contract", await migrated));
    },
  });
});

function contract(impl: StateImplementation): void {
  let state: EngineState;
  let scratch: string;
  beforeEach(async () => {
    scratch = mkdtempSync(join(tmpdir(), "state-contract-"));
    state = await impl.open(scratch);
  });
  afterEach(async () => {
    await state.close();
    rmSync(scratch, { recursive: true, force: true });
  });
  const get: Get = () => state;

  describe("runs", () => runStore(get));
  describe("journal", () => journalStore(get));
  describe("run_before", () => runBeforeStore(get));
  describe("owned playlists and rows", () => ownershipStore(get));
  describe("tombstones", () => tombstoneStore(get));
  describe("snapshots", () => snapshotStore(get));
  describe("locks", () => lockStore(get));
  describe("account health", () => accountHealthStore(get));
  describe("recipe health", () => recipeHealthStore(get));
  describe("conditions and generations", () => conditionStore(get));
  describe("source reads", () => sourceReadStore(get));
  describe("match cache", () => matchStore(get));
  describe("approvals", () => approvalStore(get));
  describe("accounts", () => accountStore(get));
  describe("calls at once, in one process", () => callsAtOnce(get));
  describe("batches", () => batches(get));
}

function runStore(get: Get): void {
  it("starts a run as running and finishes it with its result, counts and error", async () => {
    const s = get();
    const id = await s.startRun({
      recipeId: "r",
      account: "a",
      kind: "sync",
      recipeHash: "h",
      at: 10,
      holder: "box:1",
    });
    expect(await s.run(id)).toEqual({
      id,
      recipeId: "r",
      account: "a",
      kind: "sync",
      recipeHash: "h",
      startedAt: 10,
      finishedAt: null,
      result: "running",
      counts: null,
      error: null,
      holder: "box:1",
    });
    await s.finishRun(id, {
      at: 20,
      result: "partial",
      counts: { add: 2, failed: 1 },
      error: "one add refused",
    });
    expect(await s.run(id)).toMatchObject({
      finishedAt: 20,
      result: "partial",
      counts: { add: 2, failed: 1 },
      error: "one add refused",
    });
  });

  it("gives each run its own id, keeps no holder when none is given, and has no run for an unknown id", async () => {
    const s = get();
    const a = await startRun(s, "r", 1);
    const b = await startRun(s, "r", 1);
    expect(a).not.toBe(b);
    expect((await s.run(a))?.holder).toBeNull();
    expect(await s.run(Math.max(a, b) + 100)).toBeNull();
  });

  it("lists one recipe's runs newest first (the later start first on a tie), up to the limit", async () => {
    const s = get();
    const old = await startRun(s, "r", 100);
    const newest = await startRun(s, "r", 300);
    const tieFirst = await startRun(s, "r", 200);
    const tieSecond = await startRun(s, "r", 200);
    await startRun(s, "other", 400);
    expect((await s.runs("r")).map((r) => r.id)).toEqual([newest, tieSecond, tieFirst, old]);
    expect((await s.runs("r", 2)).map((r) => r.id)).toEqual([newest, tieSecond]);
    expect(await s.runs("nobody")).toEqual([]);
  });

  it("lists every recipe's runs newest first, or one recipe's, up to the limit", async () => {
    const s = get();
    const a = await startRun(s, "a", 100);
    const b = await startRun(s, "b", 200);
    const c = await startRun(s, "a", 300);
    expect((await s.recentRuns()).map((r) => r.id)).toEqual([c, b, a]);
    expect((await s.recentRuns({ recipeId: "a" })).map((r) => r.id)).toEqual([c, a]);
    expect((await s.recentRuns({ limit: 2 })).map((r) => r.id)).toEqual([c, b]);
  });

  it("marks a run interrupted with why, keeping its counts", async () => {
    const s = get();
    const id = await startRun(s, "r", 1);
    await s.finishRun(id, { at: 5, result: "converged", counts: { add: 3 } });
    await s.markInterrupted(id, 9, "SIGTERM after the write in flight");
    expect(await s.run(id)).toMatchObject({
      result: "interrupted",
      finishedAt: 9,
      error: "SIGTERM after the write in flight",
      counts: { add: 3 },
    });
  });
}

function journalStore(get: Get): void {
  const planned = [
    { seq: 2, kind: "remove", target: "pl:1", payload: { setVideoIds: ["s9"] } },
    { seq: 1, kind: "add", target: "pl:1", payload: { videoIds: ["v1", "v2"] } },
  ];

  it("journals planned writes as pending, in seq order, with their payloads", async () => {
    const s = get();
    const run = await startRun(s, "r", 1);
    await s.journalPlanned(run, planned, 50);
    const entries = await s.journal(run);
    expect(entries.map((e) => e.seq)).toEqual([1, 2]);
    expect(entries[0]).toEqual({
      runId: run,
      seq: 1,
      kind: "add",
      target: "pl:1",
      payload: { videoIds: ["v1", "v2"] },
      status: "pending",
      attempt: 0,
      result: null,
      updatedAt: 50,
    });
    await s.journalPlanned(run, [], 60);
    expect(await s.journal(run)).toHaveLength(2);
  });

  it("counts an attempt per send, not per outcome, and keeps the last result given", async () => {
    const s = get();
    const run = await startRun(s, "r", 1);
    await s.journalPlanned(run, planned, 50);
    await s.journalMark(run, 1, "sent", 51);
    await s.journalMark(run, 1, "unknown", 52, { error: "timeout" });
    await s.journalMark(run, 1, "sent", 53);
    expect((await s.journal(run))[0]).toMatchObject({
      status: "sent",
      attempt: 2,
      result: { error: "timeout" },
    });
    await s.journalMark(run, 1, "confirmed", 54, { added: 2 });
    expect((await s.journal(run))[0]).toMatchObject({
      status: "confirmed",
      attempt: 2,
      result: { added: 2 },
      updatedAt: 54,
    });
    expect((await s.journal(run))[1]).toMatchObject({ status: "pending", attempt: 0, updatedAt: 50 });
  });

  it("journals an entry sent with its plan, and marks an outcome with the next entry sent, both or neither", async () => {
    const s = get();
    const run = await startRun(s, "r", 1);
    const third = { seq: 3, kind: "add", target: "pl:1", payload: null };
    await s.journalPlanned(run, [{ ...planned[1]!, sent: true }, planned[0]!, third], 50);
    expect((await s.journal(run)).map((e) => [e.status, e.attempt])).toEqual([
      ["sent", 1],
      ["pending", 0],
      ["pending", 0],
    ]);
    await expect(s.journalMarkAndSend(run, 1, "confirmed", 51, { added: 2 }, 9)).rejects.toThrow();
    await expect(s.journalMarkAndSend(run, 9, "confirmed", 51, { added: 2 }, 2)).rejects.toThrow();
    await s.journalMarkAndSend(run, 1, "confirmed", 52, { added: 2 }, 2);
    expect((await s.journal(run)).map((e) => [e.status, e.attempt, e.result, e.updatedAt])).toEqual([
      ["confirmed", 1, { added: 2 }, 52],
      ["sent", 1, null, 52],
      ["pending", 0, null, 50],
    ]);
  });

  it("refuses to mark a write that was never journalled", async () => {
    const s = get();
    const run = await startRun(s, "r", 1);
    await s.journalPlanned(run, planned, 50);
    await expect(s.journalMark(run, 7, "sent", 51)).rejects.toThrow();
  });

  it("lists unfinished writes (pending, sent, unknown) of every run, oldest first", async () => {
    const s = get();
    const first = await startRun(s, "r", 1);
    const second = await startRun(s, "q", 2);
    const entry = (seq: number) => ({ seq, kind: "add", target: "t", payload: { seq } });
    await s.journalPlanned(second, [entry(1), entry(2)], 10);
    await s.journalPlanned(first, [entry(1), entry(2), entry(3), entry(4), entry(5)], 10);
    await s.journalMark(first, 1, "confirmed", 11);
    await s.journalMark(first, 2, "failed", 11);
    await s.journalMark(first, 3, "sent", 11);
    await s.journalMark(first, 4, "unknown", 11);
    await s.journalMark(second, 2, "confirmed", 11);
    const left = await s.unfinishedWrites();
    expect(left.map((e) => [e.runId, e.seq, e.status])).toEqual([
      [first, 3, "sent"],
      [first, 4, "unknown"],
      [first, 5, "pending"],
      [second, 1, "pending"],
    ]);
  });
}

function runBeforeStore(get: Get): void {
  it("keeps what a run recorded before its first write, and nothing for other runs", async () => {
    const s = get();
    const run = await startRun(s, "r", 1);
    const record = {
      runId: run,
      recipeId: "r",
      account: "acc",
      target: "pl:1",
      takenAt: 5,
      plan: { actions: [{ kind: "add", key: "k1" }] },
      before: { rows: [{ key: "k0", setVideoId: null }], meta: { title: "Old" } },
    };
    await s.recordRunBefore(record);
    expect(await s.runBefore(run)).toEqual(record);
    expect(await s.runBefore(run + 1)).toBeNull();
  });

  it("replaces a run's record when it is recorded again", async () => {
    const s = get();
    const run = await startRun(s, "r", 1);
    const base = {
      runId: run,
      recipeId: "r",
      account: "acc",
      target: "pl:1",
      takenAt: 5,
      plan: 1,
      before: 1,
    };
    await s.recordRunBefore(base);
    await s.recordRunBefore({ ...base, takenAt: 6, before: { rows: [] } });
    expect(await s.runBefore(run)).toMatchObject({ takenAt: 6, before: { rows: [] } });
  });
}

function ownershipStore(get: Get): void {
  const owned = { account: "acc", recipeId: "r", target: "playlist:new", playlistId: "PL1", createdAt: 10 };

  it("records the playlist a recipe created, replaces it per recipe, and forgets it by id", async () => {
    const s = get();
    expect(await s.ownedPlaylist("acc", "r")).toBeNull();
    await s.recordOwnedPlaylist(owned);
    await s.recordOwnedPlaylist({ ...owned, account: "other", playlistId: "PL9" });
    expect(await s.ownedPlaylist("acc", "r")).toEqual(owned);
    await s.recordOwnedPlaylist({ ...owned, playlistId: "PL2", target: "playlist:PL2", createdAt: 20 });
    expect(await s.ownedPlaylist("acc", "r")).toEqual({
      ...owned,
      playlistId: "PL2",
      target: "playlist:PL2",
      createdAt: 20,
    });
    await s.forgetOwnedPlaylist("acc", "PL1");
    expect(await s.ownedPlaylist("acc", "r")).not.toBeNull();
    await s.forgetOwnedPlaylist("acc", "PL2");
    expect(await s.ownedPlaylist("acc", "r")).toBeNull();
    expect((await s.ownedPlaylist("other", "r"))?.playlistId).toBe("PL9");
  });

  it("keeps owned rows per account and target in the order added, copies included", async () => {
    const s = get();
    const rows = [
      { itemKey: "k2", setVideoId: "s2", addedAt: 1 },
      { itemKey: "k1", setVideoId: "s1a", addedAt: 2 },
      { itemKey: "k1", setVideoId: "s1b", addedAt: 3 },
      { itemKey: "k3", setVideoId: null, addedAt: 4 },
    ];
    await s.addOwnedRows("acc", "pl:1", rows);
    await s.addOwnedRows("acc", "pl:2", [{ itemKey: "x", setVideoId: "sx", addedAt: 5 }]);
    await s.addOwnedRows("other", "pl:1", [{ itemKey: "y", setVideoId: "sy", addedAt: 6 }]);
    await s.addOwnedRows("acc", "pl:1", []);
    expect(await s.ownedRows("acc", "pl:1")).toEqual(rows);
    expect((await s.ownedRows("acc", "pl:2")).map((r) => r.itemKey)).toEqual(["x"]);
    expect(await s.ownedRows("acc", "pl:3")).toEqual([]);
  });

  it("removes one copy by setVideoId, or every copy by item key, only in that target", async () => {
    const s = get();
    const copies = [
      { itemKey: "k1", setVideoId: "s1a", addedAt: 1 },
      { itemKey: "k1", setVideoId: "s1b", addedAt: 2 },
      { itemKey: "k2", setVideoId: "s2", addedAt: 3 },
      { itemKey: "k3", setVideoId: "s3", addedAt: 4 },
    ];
    await s.addOwnedRows("acc", "pl:1", copies);
    await s.addOwnedRows("acc", "pl:2", copies);
    await s.removeOwnedRows("acc", "pl:1", [{ itemKey: "k1", setVideoId: "s1b" }]);
    expect((await s.ownedRows("acc", "pl:1")).map((r) => r.setVideoId)).toEqual(["s1a", "s2", "s3"]);
    await s.addOwnedRows("acc", "pl:1", [{ itemKey: "k1", setVideoId: "s1c", addedAt: 5 }]);
    await s.removeOwnedRows("acc", "pl:1", [{ itemKey: "k1" }, { itemKey: "k3", setVideoId: null }]);
    expect((await s.ownedRows("acc", "pl:1")).map((r) => r.setVideoId)).toEqual(["s2"]);
    expect(await s.ownedRows("acc", "pl:2")).toEqual(copies);
  });
}

function tombstoneStore(get: Get): void {
  it("keeps tombstones per account and target, and removes the ones named", async () => {
    const s = get();
    await s.addTombstones("acc", "pl:1", "r", ["k1", "k2", "k3"], 10);
    await s.addTombstones("acc", "pl:2", "r", ["k9"], 10);
    await s.addTombstones("other", "pl:1", "r", ["k8"], 10);
    expect(await s.tombstones("acc", "pl:1")).toEqual(new Set(["k1", "k2", "k3"]));
    await s.removeTombstones("acc", "pl:1", ["k2", "absent"]);
    await s.removeTombstones("acc", "pl:1", []);
    expect(await s.tombstones("acc", "pl:1")).toEqual(new Set(["k1", "k3"]));
    expect(await s.tombstones("acc", "pl:2")).toEqual(new Set(["k9"]));
    expect(await s.tombstones("acc", "pl:3")).toEqual(new Set());
  });

  it("lists the tombstones recorded at `since` or later; recording one again does not renew it", async () => {
    const s = get();
    await s.addTombstones("acc", "pl:1", "r", ["old"], 100);
    await s.addTombstones("acc", "pl:1", "r", ["edge"], 200);
    await s.addTombstones("acc", "pl:1", "r", ["new", "old"], 300);
    expect(await s.tombstonesSince("acc", "pl:1", 200)).toEqual(new Set(["edge", "new"]));
    expect(await s.tombstonesSince("acc", "pl:1", 301)).toEqual(new Set());
    expect(await s.tombstones("acc", "pl:1")).toEqual(new Set(["old", "edge", "new"]));
  });

  it("reads a target's tombstones and another's since a time in one call, as the two reads give them", async () => {
    const s = get();
    await s.addTombstones("acc", "pl:1", "r", ["b", "a"], 100);
    await s.addTombstones("acc", "quarantine", "r", ["q-old"], 100);
    await s.addTombstones("acc", "quarantine", "r", ["q-new", "a"], 300);
    await s.addTombstones("other", "quarantine", "r", ["q-other"], 300);
    await s.addTombstones("other", "pl:1", "r", ["x"], 300);
    for (const since of [0, 200, 301]) {
      const [own, quarantine] = await s.tombstonesWith("acc", "pl:1", { target: "quarantine", since });
      expect([...own]).toEqual([...(await s.tombstones("acc", "pl:1"))]);
      expect([...quarantine]).toEqual([...(await s.tombstonesSince("acc", "quarantine", since))]);
    }
    const [own, quarantine] = await s.tombstonesWith("acc", "pl:1", { target: "quarantine", since: 200 });
    expect([...own]).toEqual(["a", "b"]);
    expect([...quarantine]).toEqual(["a", "q-new"]);
    // The same target on both sides: all of it, and the part since the time.
    const [all, recent] = await s.tombstonesWith("acc", "quarantine", { target: "quarantine", since: 200 });
    expect([...all]).toEqual(["a", "q-new", "q-old"]);
    expect([...recent]).toEqual(["a", "q-new"]);
  });

  it("reads a target's memory in one call, as the separate reads give it", async () => {
    const s = get();
    const quarantine = { target: "quarantine", since: 200 };
    expect(await s.targetMemory("acc", "r", "pl:1", quarantine)).toEqual({
      ownedRows: [],
      unfinished: [],
      tombstones: [new Set(), new Set()],
      sourceReads: new Map(),
      generation: null,
    });
    // Nulls, JSON, times past 2^32 ms and keys whose byte order is not a collation's.
    const at = Date.UTC(2026, 0, 1);
    await s.addOwnedRows("acc", "pl:1", [
      { itemKey: "k2", setVideoId: null, addedAt: at },
      { itemKey: "k1", setVideoId: "s1", addedAt: at + 1 },
    ]);
    await s.addOwnedRows("acc", "pl:2", [{ itemKey: "x", setVideoId: "sx", addedAt: 5 }]);
    const run = await startRun(s, "r", 1);
    await s.journalPlanned(run, [{ seq: 1, kind: "add", target: "pl:1", payload: { ids: ["é", 2] } }], at);
    await s.journalMark(run, 1, "unknown", at + 2, { error: "timeout" });
    await s.addTombstones("acc", "pl:1", "r", ["apple", "Zed"], 100);
    await s.addTombstones("acc", "quarantine", "r", ["q-old"], 100);
    await s.addTombstones("acc", "quarantine", "r", ["q-new"], 300);
    await s.recordSourceReads(
      "r",
      [
        { sourceId: "b", items: 7 },
        { sourceId: "B", items: 100 },
      ],
      10,
    );
    await s.recordSourceReads("q", [{ sourceId: "a", items: 1 }], 10);
    await s.recordGeneration("r", "h1", 10);
    const second = await s.recordGeneration("r", "h2", 11);
    await s.recordGeneration("q", "h3", 12);
    const memory = await s.targetMemory("acc", "r", "pl:1", quarantine);
    expect(memory).toEqual({
      ownedRows: await s.ownedRows("acc", "pl:1"),
      unfinished: await s.unfinishedWrites(),
      tombstones: await s.tombstonesWith("acc", "pl:1", quarantine),
      sourceReads: await s.sourceReads("r"),
      generation: { generation: second, hash: "h2" },
    });
    // The generation read with the memory spares the run's start its own read, with the same result.
    expect(await s.recordGeneration("r", "h2", 13, memory.generation)).toBe(second);
    expect(await s.recordGeneration("r", "h4", 14, memory.generation)).toBe(second + 1);
    // One read a moment out of date (h4 recorded since) still numbers a hash once.
    expect(await s.recordGeneration("r", "h4", 15, memory.generation)).toBe(second + 1);
    expect(await s.recordGeneration("r", "h5", 16, null)).toBe(second + 2);
    expect(memory.ownedRows).toEqual([
      { itemKey: "k2", setVideoId: null, addedAt: at },
      { itemKey: "k1", setVideoId: "s1", addedAt: at + 1 },
    ]);
    expect(memory.unfinished).toEqual([
      {
        runId: run,
        seq: 1,
        kind: "add",
        target: "pl:1",
        payload: { ids: ["é", 2] },
        status: "unknown",
        attempt: 0,
        result: { error: "timeout" },
        updatedAt: at + 2,
      },
    ]);
    expect(memory.tombstones.map((t) => [...t])).toEqual([["Zed", "apple"], ["q-new"]]);
    expect([...memory.sourceReads]).toEqual([
      ["B", 100],
      ["b", 7],
    ]);
  });
}

function snapshotStore(get: Get): void {
  it("keeps the latest snapshot of each target, rows and metadata included", async () => {
    const s = get();
    expect(await s.snapshot("acc", "pl:1")).toBeNull();
    const meta = { playlistId: "PL1", title: "Mix", description: null, privacy: "PRIVATE" };
    await s.saveSnapshot(snapshotFor("pl:1", "r", 10));
    await s.saveSnapshot(snapshotFor("pl:2", "q", 15));
    const latest = snapshotFor("pl:1", "r", 20, { runId: 7, meta, rows: [{ key: "a", setVideoId: null }] });
    await s.saveSnapshot(latest);
    expect(await s.snapshot("acc", "pl:1")).toEqual(latest);
    expect((await s.snapshot("acc", "pl:2"))?.recipeId).toBe("q");
    expect(await s.snapshot("other", "pl:1")).toBeNull();
  });

  it("has no metadata on a snapshot saved without it", async () => {
    const s = get();
    await s.saveSnapshot(snapshotFor("liked", "r", 10));
    expect((await s.snapshot("acc", "liked"))?.meta ?? null).toBeNull();
  });

  it("finds a recipe's newest snapshot whatever its target's key", async () => {
    const s = get();
    await s.saveSnapshot(snapshotFor("playlist:new", "r", 10));
    await s.saveSnapshot(snapshotFor("playlist:PL1", "r", 30));
    await s.saveSnapshot(snapshotFor("playlist:PL0", "r", 20));
    await s.saveSnapshot(snapshotFor("playlist:PLq", "q", 40));
    expect((await s.snapshotOf("acc", "r"))?.target).toBe("playlist:PL1");
    expect(await s.snapshotOf("other", "r")).toBeNull();
    expect(await s.snapshotOf("acc", "none")).toBeNull();
  });
}

function lockStore(get: Get): void {
  const STALE = 1000;

  it("gives the lock to the first holder and refuses everyone, itself included, while it is fresh", async () => {
    const s = get();
    const first = await s.acquireLock("acc", "box:1", 100, STALE);
    if (!first.acquired) throw new Error("the free lock was refused");
    expect(first.lock).toMatchObject({ account: "acc", holder: "box:1", acquiredAt: 100, heartbeatAt: 100 });
    expect(await s.lock("acc")).toEqual(first.lock);
    for (const holder of ["box:2", "box:1"]) {
      const again = await s.acquireLock("acc", holder, 100 + STALE, STALE);
      expect(again).toEqual({ acquired: false, heldBy: first.lock });
    }
    const elsewhere = await s.acquireLock("acc2", "box:2", 100, STALE);
    expect(elsewhere.acquired).toBe(true);
  });

  it("takes over a lock whose heartbeat is older than staleAfterMs; the old holder's id stops working", async () => {
    const s = get();
    const first = await s.acquireLock("acc", "box:1", 100, STALE);
    if (!first.acquired) throw new Error("the free lock was refused");
    const taken = await s.acquireLock("acc", "box:2", 101 + STALE, STALE);
    if (!taken.acquired) throw new Error("a stale lock was not taken over");
    expect(taken.lock.lockId).not.toBe(first.lock.lockId);
    expect(taken.lock).toMatchObject({ holder: "box:2", acquiredAt: 101 + STALE });
    expect(await s.heartbeat(first.lock.lockId, 1200)).toBe(false);
    expect((await s.lock("acc"))?.holder).toBe("box:2");
  });

  it("keeps a lock fresh with heartbeats", async () => {
    const s = get();
    const first = await s.acquireLock("acc", "box:1", 100, STALE);
    if (!first.acquired) throw new Error("the free lock was refused");
    expect(await s.heartbeat(first.lock.lockId, 900)).toBe(true);
    expect((await s.lock("acc"))?.heartbeatAt).toBe(900);
    const late = await s.acquireLock("acc", "box:2", 101 + STALE, STALE);
    expect(late.acquired).toBe(false);
  });

  it("frees the lock on release, and forceUnlock removes it whoever holds it", async () => {
    const s = get();
    const a = await s.acquireLock("acc", "box:1", 100, STALE);
    const b = await s.acquireLock("acc2", "box:2", 100, STALE);
    if (!a.acquired || !b.acquired) throw new Error("a free lock was refused");
    expect((await s.locks()).map((l) => l.account)).toEqual(["acc", "acc2"]);
    await s.releaseLock(a.lock.lockId);
    expect(await s.lock("acc")).toBeNull();
    expect((await s.acquireLock("acc", "box:3", 101, STALE)).acquired).toBe(true);
    expect(await s.forceUnlock(b.lock.lockId)).toBe(true);
    expect(await s.forceUnlock(b.lock.lockId)).toBe(false);
    expect(await s.lock("acc2")).toBeNull();
    expect((await s.locks()).map((l) => l.holder)).toEqual(["box:3"]);
  });
}

function accountHealthStore(get: Get): void {
  const fresh = (account: string) => ({
    account,
    consecutiveFailures: 0,
    suspendedAt: null,
    suspendedReason: null,
  });

  it("counts failures and suspends at the Nth, keeping the first suspension's time and reason", async () => {
    const s = get();
    expect(await s.health("acc")).toEqual(fresh("acc"));
    const opts = { suspendAfter: 3 };
    expect(await s.recordFailure("acc", 10, "HTTP 500", opts)).toEqual({
      ...fresh("acc"),
      consecutiveFailures: 1,
    });
    await s.recordFailure("acc", 20, "HTTP 500", opts);
    const third = await s.recordFailure("acc", 30, "HTTP 503", opts);
    expect(third).toEqual({
      account: "acc",
      consecutiveFailures: 3,
      suspendedAt: 30,
      suspendedReason: "HTTP 503",
    });
    await s.recordFailure("acc", 40, "HTTP 502", opts);
    expect(await s.health("acc")).toMatchObject({
      consecutiveFailures: 4,
      suspendedAt: 30,
      suspendedReason: "HTTP 503",
    });
    expect(await s.health("other")).toEqual(fresh("other"));
  });

  it("suspends at once when the credentials expired", async () => {
    const s = get();
    const h = await s.recordFailure("acc", 10, "auth expired", { suspendAfter: 5, authExpired: true });
    expect(h).toMatchObject({ consecutiveFailures: 1, suspendedAt: 10, suspendedReason: "auth expired" });
  });

  it("keeps the first suspension's time and reason through later failures, and a count that is no number never suspends", async () => {
    const s = get();
    await s.recordFailure("acc", 10, "first", { suspendAfter: 1 });
    const later = await s.recordFailure("acc", 20, "auth expired", { suspendAfter: 1, authExpired: true });
    expect(later).toMatchObject({ consecutiveFailures: 2, suspendedAt: 10, suspendedReason: "first" });
    expect((await s.recordFailure("b", 30, "x", { suspendAfter: Number.NaN })).suspendedAt).toBeNull();
  });

  it("starts the count again after a success, and resume lifts a suspension", async () => {
    const s = get();
    const opts = { suspendAfter: 3 };
    await s.recordFailure("acc", 10, "x", opts);
    await s.recordFailure("acc", 20, "x", opts);
    expect((await s.recordSuccess("acc")).consecutiveFailures).toBe(0);
    expect((await s.recordFailure("acc", 30, "x", opts)).suspendedAt).toBeNull();
    await s.recordFailure("acc", 40, "x", { suspendAfter: 1, authExpired: true });
    await s.resume("acc");
    expect(await s.health("acc")).toEqual(fresh("acc"));
    expect((await s.recordFailure("acc", 50, "x", opts)).suspendedAt).toBeNull();
  });

  it("lists the accounts with a health record, by name", async () => {
    const s = get();
    await s.recordFailure("b", 10, "x", { suspendAfter: 3 });
    await s.recordSuccess("a");
    expect((await s.accountHealth()).map((h) => [h.account, h.consecutiveFailures])).toEqual([
      ["a", 0],
      ["b", 1],
    ]);
  });
}

function recipeHealthStore(get: Get): void {
  it("has a clean record for a recipe never run", async () => {
    expect(await get().recipeHealth("r")).toEqual({
      recipeId: "r",
      account: null,
      consecutiveFailures: 0,
      suspendedAt: null,
      suspendedReason: null,
      nextRunAt: null,
      nextRunReason: null,
      plannedBy: null,
    });
  });

  it("reads a recipe's health and its account's together, each as read alone, recorded or not", async () => {
    const s = get();
    const both = async (recipeId: string, account: string) => ({
      recipe: await s.recipeHealth(recipeId),
      account: await s.health(account),
    });
    expect(await s.healthOf("r", "acc")).toEqual(await both("r", "acc"));
    await s.recordRecipeFailure("r", "acc", 10, "source gone", { suspendAfter: 1 });
    await s.setNextRun("q", "other", { at: 50, reason: "schedule", by: "box:1" }, 20);
    expect(await s.healthOf("r", "acc")).toEqual(await both("r", "acc"));
    await s.recordFailure("acc", 30, "refused", { suspendAfter: 1 });
    const read = await s.healthOf("r", "acc");
    expect(read).toEqual(await both("r", "acc"));
    expect(read).toMatchObject({ recipe: { suspendedAt: 10 }, account: { suspendedAt: 30 } });
    expect(await s.healthOf("q", "nobody")).toEqual(await both("q", "nobody"));
    expect((await s.healthOf("q", "nobody")).recipe.nextRunAt).toBe(50);
    expect(await s.healthOf("none", "acc")).toEqual(await both("none", "acc"));
  });

  it("suspends a recipe after N failures in a row, naming the last failure", async () => {
    const s = get();
    const opts = { suspendAfter: 2 };
    expect((await s.recordRecipeFailure("r", "acc", 10, "first", opts)).suspendedAt).toBeNull();
    const second = await s.recordRecipeFailure("r", "acc", 20, "source gone", opts);
    expect(second).toMatchObject({ account: "acc", consecutiveFailures: 2, suspendedAt: 20 });
    expect(second.suspendedReason).toContain("source gone");
    await s.recordRecipeFailure("r", "acc", 30, "later", opts);
    expect(await s.recipeHealth("r")).toMatchObject({ consecutiveFailures: 3, suspendedAt: 20 });
    expect((await s.recipeHealth("q")).consecutiveFailures).toBe(0);
  });

  it("resets the count on success; resume lifts a suspension once", async () => {
    const s = get();
    const opts = { suspendAfter: 2 };
    await s.recordRecipeFailure("r", "acc", 10, "x", opts);
    expect((await s.recordRecipeSuccess("r", "acc", 15)).consecutiveFailures).toBe(0);
    expect((await s.recordRecipeFailure("r", "acc", 20, "x", opts)).suspendedAt).toBeNull();
    expect(await s.resumeRecipe("r", 21)).toBe(false);
    await s.recordRecipeFailure("r", "acc", 30, "x", opts);
    expect(await s.resumeRecipe("r", 31)).toBe(true);
    expect(await s.recipeHealth("r")).toMatchObject({
      consecutiveFailures: 0,
      suspendedAt: null,
      suspendedReason: null,
    });
    expect(await s.resumeRecipe("r", 32)).toBe(false);
  });

  it("plans the next run without touching the failure count, and clears it", async () => {
    const s = get();
    await s.recordRecipeFailure("r", "acc", 10, "x", { suspendAfter: 5 });
    await s.setNextRun("r", "acc", { at: 500, reason: "retry", by: "daemon:1" }, 11);
    expect(await s.recipeHealth("r")).toMatchObject({
      account: "acc",
      consecutiveFailures: 1,
      nextRunAt: 500,
      nextRunReason: "retry",
      plannedBy: "daemon:1",
    });
    await s.setNextRun("r", "acc", { at: null, reason: null, by: null }, 12);
    expect(await s.recipeHealth("r")).toMatchObject({
      consecutiveFailures: 1,
      nextRunAt: null,
      nextRunReason: null,
      plannedBy: null,
    });
  });
}

function conditionStore(get: Get): void {
  it("moves changedAt only when a condition's status changes", async () => {
    const s = get();
    await s.setCondition("r", { type: "Ready", status: "False", reason: "AuthExpired", message: "m1" }, 10);
    await s.setCondition("r", { type: "Ready", status: "False", reason: "SourceShrank", message: "m2" }, 20);
    expect(await s.conditions("r")).toEqual([
      { type: "Ready", status: "False", reason: "SourceShrank", message: "m2", changedAt: 10 },
    ]);
    await s.setCondition("r", { type: "Ready", status: "True", reason: "Converged", message: "" }, 30);
    expect((await s.conditions("r"))[0]).toMatchObject({ status: "True", changedAt: 30 });
  });

  it("keeps one condition per type and recipe", async () => {
    const s = get();
    await s.setCondition("r", { type: "Ready", status: "True", reason: "a", message: "" }, 10);
    await s.setCondition("r", { type: "AuthValid", status: "True", reason: "b", message: "" }, 10);
    await s.setCondition("q", { type: "Ready", status: "False", reason: "c", message: "" }, 10);
    const types = (await s.conditions("r")).map((c) => c.type).sort();
    expect(types).toEqual(["AuthValid", "Ready"]);
    expect(await s.conditions("none")).toEqual([]);
  });

  it("sets several conditions at once, each as alone (of a type given twice, the last)", async () => {
    const s = get();
    await s.setCondition("r", { type: "Ready", status: "False", reason: "a", message: "" }, 10);
    await s.setCondition(
      "r",
      [
        { type: "Ready", status: "False", reason: "b", message: "still" },
        { type: "Degraded", status: "True", reason: "c", message: "" },
        { type: "Degraded", status: "False", reason: "d", message: "last" },
      ],
      20,
    );
    expect(await s.conditions("r")).toEqual([
      { type: "Degraded", status: "False", reason: "d", message: "last", changedAt: 20 },
      { type: "Ready", status: "False", reason: "b", message: "still", changedAt: 10 },
    ]);
    await s.setCondition("r", [], 30);
    expect(await s.conditions("r")).toHaveLength(2);
  });

  it("counts a new generation only when the recipe's hash changes", async () => {
    const s = get();
    expect(await s.recordGeneration("r", "h1", 10)).toBe(1);
    expect(await s.recordGeneration("r", "h1", 20)).toBe(1);
    expect(await s.recordGeneration("r", "h2", 30)).toBe(2);
    expect(await s.recordGeneration("r", "h1", 40)).toBe(3);
    expect(await s.recordGeneration("q", "h2", 50)).toBe(1);
  });
}

function sourceReadStore(get: Get): void {
  it("keeps the item count of each source's last complete read, per recipe", async () => {
    const s = get();
    expect(await s.sourceReads("r")).toEqual(new Map());
    await s.recordSourceReads(
      "r",
      [
        { sourceId: "a", items: 100 },
        { sourceId: "b", items: 7 },
      ],
      10,
    );
    await s.recordSourceReads("r", [{ sourceId: "a", items: 90 }], 20);
    await s.recordSourceReads("q", [{ sourceId: "a", items: 1 }], 20);
    expect(await s.sourceReads("r")).toEqual(
      new Map([
        ["a", 90],
        ["b", 7],
      ]),
    );
    expect(await s.sourceReads("q")).toEqual(new Map([["a", 1]]));
  });
}

function matchStore(get: Get): void {
  const match = (key: string, videoId: string | null, matchedAt = 1): CachedMatch => ({
    key,
    videoId,
    score: videoId === null ? null : 0.9,
    reasons: videoId === null ? ["no result"] : ["title", "artist"],
    matchedAt,
  });

  it("answers only the keys it has matched, a miss included", async () => {
    const s = get();
    await s.recordMatches([match("k1", "v1"), match("k2", null)]);
    const got = await s.cachedMatches(["k1", "k2", "k3"]);
    expect([...got.keys()].sort()).toEqual(["k1", "k2"]);
    expect(got.get("k1")).toEqual(match("k1", "v1"));
    expect(got.get("k2")).toEqual(match("k2", null));
    expect(await s.cachedMatches([])).toEqual(new Map());
  });

  it("replaces a key's match when it is matched again", async () => {
    const s = get();
    await s.recordMatches([match("k1", "v1", 1)]);
    await s.recordMatches([match("k1", null, 2)]);
    expect((await s.cachedMatches(["k1"])).get("k1")).toEqual(match("k1", null, 2));
  });

  it("answers a large batch of keys in full", async () => {
    const s = get();
    const keys = Array.from({ length: 1234 }, (_, i) => `key-${i}`);
    await s.recordMatches(keys.map((k) => match(k, `v-${k}`)));
    const got = await s.cachedMatches(keys);
    expect(got.size).toBe(keys.length);
    expect(got.get("key-1233")?.videoId).toBe("v-key-1233");
  });
}

function approvalStore(get: Get): void {
  it("holds a plan as pending, and a newer plan of the same recipe supersedes it", async () => {
    const s = get();
    const r1 = await startRun(s, "r", 1);
    const q1 = await startRun(s, "q", 2);
    const r2 = await startRun(s, "r", 3);
    await s.recordPendingApproval(pendingApproval(r1, "r", 10));
    await s.recordPendingApproval(pendingApproval(q1, "q", 15));
    expect(await s.approval(r1)).toEqual({
      ...pendingApproval(r1, "r", 10),
      status: "pending",
      decidedAt: null,
      appliedRunId: null,
    });
    await s.recordPendingApproval(pendingApproval(r2, "r", 20));
    expect(await s.approval(r1)).toMatchObject({ status: "superseded", decidedAt: 20 });
    expect((await s.approval(q1))?.status).toBe("pending");
    expect((await s.approvals()).map((a) => a.runId)).toEqual([r2, q1]);
    expect((await s.approvals({ all: true })).map((a) => a.runId)).toEqual([r2, q1, r1]);
    expect((await s.approvals({ recipeId: "r", all: true })).map((a) => a.runId)).toEqual([r2, r1]);
    expect(await s.approval(r2 + 100)).toBeNull();
  });

  it("decides an approval once; a superseded one cannot be decided", async () => {
    const s = get();
    const r1 = await startRun(s, "r", 1);
    const r2 = await startRun(s, "r", 2);
    const applied = await startRun(s, "r", 3);
    await s.recordPendingApproval(pendingApproval(r1, "r", 10));
    await s.recordPendingApproval(pendingApproval(r2, "r", 20));
    expect(await s.decideApproval(r1, { status: "approved", at: 30 })).toBe(false);
    expect(await s.decideApproval(r2, { status: "approved", at: 30, appliedRunId: applied })).toBe(true);
    expect(await s.decideApproval(r2, { status: "refused", at: 40 })).toBe(false);
    expect(await s.approval(r2)).toMatchObject({ status: "approved", decidedAt: 30, appliedRunId: applied });
    expect(await s.approvals()).toEqual([]);
  });

  it("supersedes a recipe's pending approvals when a newer plan was applied, counting them", async () => {
    const s = get();
    const r1 = await startRun(s, "r", 1);
    const r2 = await startRun(s, "r", 2);
    const q1 = await startRun(s, "q", 3);
    await s.recordPendingApproval(pendingApproval(r1, "r", 10));
    await s.decideApproval(r1, { status: "refused", at: 11 });
    await s.recordPendingApproval(pendingApproval(r2, "r", 20));
    await s.recordPendingApproval(pendingApproval(q1, "q", 20));
    expect(await s.supersedeApprovals("r", 50)).toBe(1);
    expect(await s.approval(r2)).toMatchObject({ status: "superseded", decidedAt: 50 });
    expect(await s.approval(r1)).toMatchObject({ status: "refused", decidedAt: 11 });
    expect((await s.approval(q1))?.status).toBe("pending");
    expect(await s.supersedeApprovals("r", 60)).toBe(0);
  });
}

function accountStore(get: Get): void {
  const account = (name: string, at: number, sealed = `sealed-${name}-${at}`) => ({
    name,
    settings: { base_url: "http://127.0.0.1:1", language: "en" },
    sealed,
    createdAt: at,
    updatedAt: at,
  });

  it("saves, lists by name in byte order, reads one and removes it", async () => {
    const s = get();
    for (const [name, at] of [
      ["zed", 1],
      ["Ann", 2],
      ["bob", 3],
    ] as const)
      await s.saveAccount(account(name, at));
    expect((await s.storedAccounts()).map((a) => a.name)).toEqual(["Ann", "bob", "zed"]);
    expect(await s.storedAccount("bob")).toEqual(account("bob", 3));
    expect(await s.storedAccount("nobody")).toBeNull();
    expect(await s.removeAccount("bob")).toBe(true);
    expect(await s.removeAccount("bob")).toBe(false);
    expect((await s.storedAccounts()).map((a) => a.name)).toEqual(["Ann", "zed"]);
  });

  it("replaces an account of the same name, keeping when it was first added", async () => {
    const s = get();
    await s.saveAccount(account("ann", 10, "old"));
    await s.saveAccount({ ...account("ann", 20, "new"), settings: { language: "de" } });
    expect(await s.storedAccount("ann")).toEqual({
      name: "ann",
      settings: { language: "de" },
      sealed: "new",
      createdAt: 10,
      updatedAt: 20,
    });
    expect(await s.storedAccounts()).toHaveLength(1);
  });

  it("swaps an account only while its sealed credentials are the ones read; never brings back a removed one", async () => {
    const s = get();
    await s.saveAccount(account("ann", 10, "first"));
    expect(await s.swapAccount(account("ann", 20, "second"), "first")).toBe(true);
    expect(await s.storedAccount("ann")).toMatchObject({ sealed: "second", createdAt: 10, updatedAt: 20 });
    // Written meanwhile by another: the stale write-back changes nothing.
    expect(await s.swapAccount(account("ann", 30, "stale"), "first")).toBe(false);
    expect((await s.storedAccount("ann"))?.sealed).toBe("second");
    expect(await s.removeAccount("ann")).toBe(true);
    expect(await s.swapAccount(account("ann", 40, "back"), "second")).toBe(false);
    expect(await s.storedAccount("ann")).toBeNull();
    expect(await s.storedAccounts()).toEqual([]);
  });
}

/**
 * What the stores, written once, rely on from the dialect: a read-then-write is not undone by a call
 * made meanwhile (SQLite's transactions await inside, between the read and the write), a failed
 * transaction takes nothing of another call with it, and each method is the state's own (a spy on
 * one sees the engine's calls).
 */
function callsAtOnce(get: Get): void {
  it("keeps a failure and a planned next run made at once, both", async () => {
    const s = get();
    await Promise.all([
      s.setNextRun("r", "acc", { at: 500, reason: "retry", by: "box:1" }, 100),
      s.recordRecipeFailure("r", "acc", 100, "refused", { suspendAfter: 1 }),
      s.recordFailure("acc", 100, "token expired", { suspendAfter: 5, authExpired: true }),
      s.recordSuccess("acc"),
    ]);
    expect(await s.recipeHealth("r")).toMatchObject({ consecutiveFailures: 1, nextRunAt: 500 });
    expect((await s.recipeHealth("r")).suspendedAt).toBe(100);
    // Whichever came first, a success does not lift the suspension a failure made.
    expect(await s.health("acc")).toMatchObject({ suspendedAt: 100, suspendedReason: "token expired" });
  });

  it("counts every failure of twenty made at once", async () => {
    const s = get();
    const calls = Array.from({ length: 20 }, (_, i) =>
      i % 2 === 0
        ? s.recordRecipeFailure("r", "acc", i, "refused", { suspendAfter: 100 })
        : s.recordFailure("acc", i, "refused", { suspendAfter: 100 }),
    );
    await Promise.all(calls);
    expect((await s.recipeHealth("r")).consecutiveFailures).toBe(10);
    expect((await s.health("acc")).consecutiveFailures).toBe(10);
  });

  it("rolls back a failed transaction without taking another call's writes with it", async () => {
    const s = get();
    const id = await startRun(s, "r", 1);
    // 1,200 entries (several statements), the last a seq given twice: refused by the unique index.
    const entries = Array.from({ length: 1200 }, (_, i) => ({
      seq: i + 1,
      kind: "add",
      target: "t",
      payload: i as unknown,
    }));
    entries.push({ seq: 7, kind: "add", target: "t", payload: "again" });
    const [journalled, other, owned] = await Promise.allSettled([
      s.journalPlanned(id, entries, 2),
      startRun(s, "q", 3),
      s.addOwnedRows("acc", "t", [{ itemKey: "k", setVideoId: "s", addedAt: 4 }]),
    ]);
    expect(journalled.status).toBe("rejected");
    expect(await s.journal(id)).toEqual([]);
    expect(other.status).toBe("fulfilled");
    expect((await s.runs("q")).map((r) => r.startedAt)).toEqual([3]);
    expect(owned.status).toBe("fulfilled");
    expect((await s.ownedRows("acc", "t")).map((r) => r.itemKey)).toEqual(["k"]);
  });

  it("answers every call made before close, and closes once they are done", async () => {
    const s = get();
    const id = startRun(s, "r", 1);
    const failure = s.recordRecipeFailure("r", "acc", 2, "refused", { suspendAfter: 3 });
    const closed = s.close();
    await expect(id).resolves.toBeGreaterThan(0);
    await expect(failure).resolves.toMatchObject({ consecutiveFailures: 1 });
    await closed;
  });

  it("has each method on the state itself, where a spy sees the calls", async () => {
    const s = get();
    expect(typeof Object.getPrototypeOf(s).journalMark).toBe("function");
    const spy = vi.spyOn(s, "journalMark").mockRejectedValueOnce(new Error("disk full"));
    const id = await startRun(s, "r", 1);
    await s.journalPlanned(id, [{ seq: 1, kind: "add", target: "t", payload: null }], 2);
    await expect(s.journalMark(id, 1, "sent", 3)).rejects.toThrow("disk full");
    await s.journalMark(id, 1, "sent", 4);
    expect(spy).toHaveBeenCalledTimes(2);
    expect((await s.journal(id))[0]).toMatchObject({ status: "sent", attempt: 1, updatedAt: 4 });
  });
}

function batches(get: Get): void {
  it("records a run's end in one batch: every call's write, guarded ones included", async () => {
    const s = get();
    const id = await startRun(s, "r", 1);
    await s.recordFailure("acc", 1, "refused", { suspendAfter: 5 });
    const got = await s.batch(async (b) => {
      await b.recordSourceReads("r", [{ sourceId: "src", items: 15 }], 2);
      await b.finishRun(id, { at: 2, result: "no_changes", counts: { add: 0 } });
      await b.setCondition("r", { type: "Ready", status: "True", reason: "Converged", message: "ok" }, 2);
      // Guarded (a lock per account on PostgreSQL) inside the batch's transaction.
      await b.recordSuccess("acc");
      return b.run(id);
    });
    expect(got).toMatchObject({ result: "no_changes", finishedAt: 2 });
    expect(await s.sourceReads("r")).toEqual(new Map([["src", 15]]));
    expect((await s.conditions("r")).map((c) => c.reason)).toEqual(["Converged"]);
    expect((await s.health("acc")).consecutiveFailures).toBe(0);
  });

  it("keeps nothing of a batch that fails, and the state takes calls after it", async () => {
    const s = get();
    const id = await startRun(s, "r", 1);
    const failed = s.batch(async (b) => {
      await b.finishRun(id, { at: 2, result: "converged" });
      await b.recordSourceReads("r", [{ sourceId: "src", items: 15 }], 2);
      // Refused by the journal's unique index, after two writes of the batch.
      await b.journalPlanned(
        id,
        [1, 1].map((seq) => ({ seq, kind: "add", target: "t", payload: null })),
        2,
      );
    });
    await expect(failed).rejects.toThrow();
    expect(await s.run(id)).toMatchObject({ result: "running", finishedAt: null });
    expect(await s.sourceReads("r")).toEqual(new Map());
    await s.finishRun(id, { at: 3, result: "failed" });
    expect(await s.run(id)).toMatchObject({ result: "failed" });
  });

  it("records a run's end of writes only, as a run makes it: every write, each as given", async () => {
    const s = get();
    const id = await startRun(s, "r", 1);
    await s.recordPendingApproval(pendingApproval(id, "r", 1));
    const snapshot = snapshotFor("t", "r", 2, {
      runId: id,
      meta: { playlistId: "PL1", title: "T", description: null, privacy: "PRIVATE" },
    });
    await s.batch(async (b) => {
      await b.saveSnapshot(snapshot);
      await b.finishRun(id, { at: 2, result: "converged", counts: { add: 1 } });
      await b.supersedeApprovals("r", 2);
      await b.setCondition(
        "r",
        [
          { type: "Ready", status: "True", reason: "Converged", message: "it's 100% 'done'" },
          { type: "Degraded", status: "False", reason: "Converged", message: "$1 and $2" },
        ],
        2,
      );
    });
    expect(await s.run(id)).toMatchObject({ result: "converged", finishedAt: 2, counts: { add: 1 } });
    expect(await s.snapshotOf("acc", "r")).toEqual(snapshot);
    expect((await s.approval(id))?.status).toBe("superseded");
    expect((await s.conditions("r")).map((c) => [c.type, c.message])).toEqual([
      ["Degraded", "$1 and $2"],
      ["Ready", "it's 100% 'done'"],
    ]);
  });

  it("keeps nothing of a batch of writes only that the database refuses part of", async () => {
    const s = get();
    const id = await startRun(s, "r", 1);
    const failed = s.batch(async (b) => {
      await b.finishRun(id, { at: 2, result: "converged" });
      await b.setCondition("r", { type: "Ready", status: "True", reason: "Converged", message: "ok" }, 2);
      // No fingerprint: refused by the column's NOT NULL, after two writes of the batch.
      await b.saveSnapshot(snapshotFor("t", "r", 2, { fingerprint: null as unknown as string }));
    });
    await expect(failed).rejects.toThrow();
    expect(await s.run(id)).toMatchObject({ result: "running", finishedAt: null });
    expect(await s.conditions("r")).toEqual([]);
    expect(await s.snapshotOf("acc", "r")).toBeNull();
  });

  it("keeps nothing of a batch whose journal mark names no entry, and refuses a batch of that mark alone", async () => {
    const s = get();
    const id = await startRun(s, "r", 1);
    await s.journalPlanned(id, [{ seq: 1, kind: "add", target: "t", payload: null }], 1);
    const failed = s.batch(async (b) => {
      await b.finishRun(id, { at: 2, result: "converged" });
      await b.journalMark(id, 1, "confirmed", 2, { ok: true });
      await b.journalMark(id, 7, "confirmed", 2, { ok: true });
    });
    await expect(failed).rejects.toThrow(`journal: no entry 7 in run ${id}`);
    expect(await s.run(id)).toMatchObject({ result: "running" });
    expect((await s.journal(id))[0]).toMatchObject({ status: "pending", result: null });
    await expect(s.batch((b) => b.journalMark(id, 8, "sent", 3))).rejects.toThrow(
      `journal: no entry 8 in run ${id}`,
    );
    await s.batch((b) => b.journalMark(id, 1, "sent", 4));
    expect((await s.journal(id))[0]).toMatchObject({ status: "sent", attempt: 1, updatedAt: 4 });
  });

  it("writes one row twice in a batch in the order given, the later write kept", async () => {
    const s = get();
    const [a, b] = [await startRun(s, "r", 1), await startRun(s, "r", 1)];
    await s.batch(async (w) => {
      await w.setCondition("r", { type: "Ready", status: "True", reason: "Converged", message: "ok" }, 2);
      await w.finishRun(a, { at: 2, result: "converged" });
      await w.finishRun(b, { at: 3, result: "failed", error: "no" });
      await w.setCondition("r", { type: "Ready", status: "False", reason: "RunFailed", message: "no" }, 3);
    });
    expect((await s.run(a))?.result).toBe("converged");
    expect(await s.run(b)).toMatchObject({ result: "failed", error: "no" });
    expect(await s.conditions("r")).toEqual([
      { type: "Ready", status: "False", reason: "RunFailed", message: "no", changedAt: 3 },
    ]);
  });

  it("runs a call made while a batch is open after it, never inside it", async () => {
    const s = get();
    const id = await startRun(s, "r", 1);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const batch = s.batch(async (b) => {
      await b.finishRun(id, { at: 2, result: "converged" });
      await held;
      throw new Error("the batch fails after another call was made");
    });
    const other = startRun(s, "q", 3);
    release();
    await expect(batch).rejects.toThrow(/the batch fails/);
    await other;
    // The other call's run survived the batch's rollback; the batch's write did not.
    expect((await s.runs("q")).map((r) => r.startedAt)).toEqual([3]);
    expect(await s.run(id)).toMatchObject({ result: "running" });
  });
}
