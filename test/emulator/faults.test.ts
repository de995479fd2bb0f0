import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FaultInjector, parseFaultHeader } from "../../emulator/faults.js";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { api, at, call, findAll, headersFor } from "./helpers.js";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 200, seed: 5 });
});
afterAll(async () => {
  await emu?.stop();
});

const HOME = { browseId: "FEmusic_home" };

describe("faults per request (header)", () => {
  it("answers 429 with Retry-After", async () => {
    const r = await api(emu, "browse", HOME, { "x-emulator-fault": "429;retry-after=7" });
    expect(r.status).toBe(429);
    expect(r.headers["retry-after"]).toBe("7");
    expect(at(r.json, "error", "status")).toBe("RESOURCE_EXHAUSTED");
  });

  it("answers 500 and 503 in the error format", async () => {
    expect((await api(emu, "browse", HOME, { "x-emulator-fault": "500" })).status).toBe(500);
    const r = await api(emu, "browse", HOME, { "x-emulator-fault": "503;retry-after=2" });
    expect(r.status).toBe(503);
    expect(at(r.json, "error", "code")).toBe(503);
  });

  it("delays a slow response and still answers it", async () => {
    const t0 = performance.now();
    const r = await api(emu, "browse", HOME, { "x-emulator-fault": "slow=300" });
    expect(r.status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
  });

  it("cuts the connection in the middle of the body", async () => {
    const r = await request(`${emu.url}/youtubei/v1/browse`, {
      method: "POST",
      body: JSON.stringify(HOME),
      headers: { "x-emulator-fault": "cut" },
    });
    expect(r.statusCode).toBe(200);
    await expect(r.body.text()).rejects.toThrow();
  });

  it("refuses a write with HTTP 200 and a failed status, changing nothing", async () => {
    const auth = await headersFor(emu, 1);
    const before = emu.state.store.playlists.playlistsOf(1).length;
    const r = await api(
      emu,
      "playlist/create",
      { title: "never" },
      { ...auth, "x-emulator-fault": "failed" },
    );
    expect(r.status).toBe(200);
    expect(at(r.json, "status")).toBe("STATUS_FAILED");
    expect(emu.state.store.playlists.playlistsOf(1).length).toBe(before);
  });
});

describe("a conflict and a throttling 400", () => {
  it("answers a plain 409 for the header, changing nothing", async () => {
    const auth = await headersFor(emu, 1);
    const before = emu.state.store.playlists.playlistsOf(1).length;
    for (const h of ["409", "conflict"]) {
      const r = await api(emu, "playlist/create", { title: "dup" }, { ...auth, "x-emulator-fault": h });
      expect(r.status).toBe(409);
      expect(at(r.json, "error", "code")).toBe(409);
      expect(typeof at(r.json, "error", "message")).toBe("string");
    }
    expect(emu.state.store.playlists.playlistsOf(1).length).toBe(before);
  });

  it("answers a throttling 400 with the quota status and Retry-After", async () => {
    const r = await api(emu, "browse", HOME, { "x-emulator-fault": "throttled;retry-after=4" });
    expect(r.status).toBe(400);
    expect(r.headers["retry-after"]).toBe("4");
    expect(at(r.json, "error", "code")).toBe(400);
    expect(at(r.json, "error", "status")).toBe("RESOURCE_EXHAUSTED");
    expect(at(r.json, "error", "message")).toMatch(/^Quota exceeded/);
    // An ordinary bad request keeps its usual status name.
    const bad = await call(emu, "/youtubei/v1/browse", { body: "[1]" });
    expect(bad.status).toBe(400);
    expect(at(bad.json, "error", "status")).toBe("INVALID_ARGUMENT");
  });
});

describe("a gated write", () => {
  it("answers 200 with only an engagement panel and creates nothing", async () => {
    const auth = await headersFor(emu, 1);
    const before = emu.state.store.playlists.playlistsOf(1).length;
    const r = await api(emu, "playlist/create", { title: "gated" }, { ...auth, "x-emulator-fault": "gated" });
    expect(r.status).toBe(200);
    expect(at(r.json, "actions", 0, "showEngagementPanelEndpoint", "identifier", "tag")).toBe(
      "PAfeature_enablement",
    );
    expect(at(r.json, "playlistId")).toBeUndefined();
    expect(emu.state.store.playlists.playlistsOf(1).length).toBe(before);
  });
});

describe("faults queued through the control endpoint", () => {
  it("applies a queued fault to the next matching requests only", async () => {
    await call(emu, "/_emulator/faults", {
      body: JSON.stringify({ queue: [{ kind: "server-error", endpoint: "search", count: 2 }] }),
    });
    expect((await api(emu, "browse", HOME)).status).toBe(200);
    expect((await api(emu, "search", { query: "a" })).status).toBe(500);
    expect((await api(emu, "search", { query: "a" })).status).toBe(500);
    expect((await api(emu, "search", { query: "a" })).status).toBe(200);
  });

  it("accepts every kind, each answered as it would be through the header", async () => {
    const auth = await headersFor(emu, 1);
    const queue = (kind: string, extra: Record<string, unknown> = {}) =>
      call(emu, "/_emulator/faults", {
        body: JSON.stringify({ queue: [{ kind, endpoint: "playlist/create", ...extra }] }),
      });
    const create = () => api(emu, "playlist/create", { title: "queued" }, auth);
    const before = emu.state.store.playlists.playlistsOf(1).length;

    expect((await queue("conflict")).status).toBe(200);
    expect((await create()).status).toBe(409);

    expect((await queue("throttled", { retryAfter: 9 })).status).toBe(200);
    const throttled = await create();
    expect([throttled.status, throttled.headers["retry-after"]]).toEqual([400, "9"]);
    expect(at(throttled.json, "error", "status")).toBe("RESOURCE_EXHAUSTED");

    expect((await queue("gated")).status).toBe(200);
    const gated = await create();
    expect(gated.status).toBe(200);
    expect(at(gated.json, "actions", 0, "showEngagementPanelEndpoint", "identifier", "tag")).toBe(
      "PAfeature_enablement",
    );
    expect(emu.state.store.playlists.playlistsOf(1).length).toBe(before);
    // The queue is used up: the next create goes through.
    expect(at((await create()).json, "playlistId")).toEqual(expect.any(String));
    expect(emu.state.store.playlists.playlistsOf(1).length).toBe(before + 1);
  });

  it("accepts a queued truncate, which cuts the next read's list", async () => {
    const r = await call(emu, "/_emulator/faults", {
      body: JSON.stringify({ queue: [{ kind: "truncate", endpoint: "browse" }] }),
    });
    expect(r.status).toBe(200);
    const p = (
      emu.state.store.sqlite
        .prepare(
          "SELECT playlist_id AS p FROM playlists WHERE (SELECT count(*) FROM playlist_items i WHERE i.playlist_id = playlists.playlist_id) > 100 LIMIT 1",
        )
        .get() as { p: string }
    ).p;
    const rows = async () =>
      findAll((await api(emu, "browse", { browseId: `VL${p}` })).json, "playlistItemData").length;
    expect(await rows()).toBe(50);
    expect(await rows()).toBe(100);
  });

  it("accepts the new kinds in a configured rate", async () => {
    const r = await call(emu, "/_emulator/faults", {
      body: JSON.stringify({ config: { rate: 1, seed: 3, kinds: ["conflict", "throttled"] } }),
    });
    expect(r.status).toBe(200);
    try {
      const seen = new Set<number>();
      for (let i = 0; i < 12; i++) seen.add((await api(emu, "browse", HOME)).status);
      expect([...seen].sort()).toEqual([400, 409]);
    } finally {
      await call(emu, "/_emulator/faults", { method: "DELETE" });
    }
  });

  it("rejects an unknown fault kind", async () => {
    const r = await call(emu, "/_emulator/faults", {
      body: JSON.stringify({ queue: [{ kind: "explode" }] }),
    });
    expect(r.status).toBe(400);
  });

  it("draws faults at a configured rate from a seed, the same sequence every time", async () => {
    const statuses = async () => {
      await call(emu, "/_emulator/faults", {
        body: JSON.stringify({ config: { rate: 0.5, seed: 42, kinds: ["rate-limit", "unavailable"] } }),
      });
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await api(emu, "browse", HOME)).status);
      await call(emu, "/_emulator/faults", { method: "DELETE" });
      return out;
    };
    const first = await statuses();
    const second = await statuses();
    expect(first).toEqual(second);
    expect(first.filter((s) => s === 200).length).toBeGreaterThan(2);
    expect(first.filter((s) => s === 429 || s === 503).length).toBeGreaterThan(2);
    expect((await api(emu, "browse", HOME)).status).toBe(200);
  });
});

describe("fault parsing", () => {
  it("reads the header forms", () => {
    expect(parseFaultHeader("429;retry-after=3")).toEqual({ kind: "rate-limit", retryAfter: 3 });
    expect(parseFaultHeader("slow=50")).toEqual({ kind: "slow", delayMs: 50 });
    expect(parseFaultHeader("cut")).toEqual({ kind: "cut" });
    expect(parseFaultHeader("409")).toEqual({ kind: "conflict" });
    expect(parseFaultHeader("throttled;retry-after=5")).toEqual({ kind: "throttled", retryAfter: 5 });
    expect(parseFaultHeader("throttled")).toEqual({ kind: "throttled", retryAfter: 1 });
    expect(parseFaultHeader("bogus")).toBeNull();
  });

  it("limits configured faults to the named endpoints", () => {
    const f = new FaultInjector({ rate: 1, endpoints: ["browse/edit_playlist"] });
    expect(f.pick("browse", undefined)).toBeNull();
    expect(f.pick("browse/edit_playlist", undefined)?.kind).toBeDefined();
  });
});

describe("a playlist just created", () => {
  it("refuses edits with 409 for a while when configured, as the service does", async () => {
    let now = Date.now();
    const strict = await startEmulator({
      catalogueSize: 100,
      seed: 5,
      recentPlaylistConflictMs: 20_000,
      now: () => now,
    });
    try {
      const auth = await headersFor(strict, 1);
      const created = await api(strict, "playlist/create", { title: "fresh" }, auth);
      const id = at(created.json, "playlistId");
      const rename = () =>
        api(
          strict,
          "browse/edit_playlist",
          { playlistId: id, actions: [{ action: "ACTION_SET_PLAYLIST_NAME", playlistName: "x" }] },
          auth,
        );
      expect((await rename()).status).toBe(409);
      now += 21_000;
      expect(at((await rename()).json, "status")).toBe("STATUS_SUCCEEDED");
    } finally {
      await strict.stop();
    }
  });
});

describe("a list cut short", () => {
  it("keeps the first half of a playlist's rows and drops its continuation, the count untouched", async () => {
    const p = (
      emu.state.store.sqlite
        .prepare(
          "SELECT playlist_id AS p FROM playlists WHERE (SELECT count(*) FROM playlist_items i WHERE i.playlist_id = playlists.playlist_id) > 100 LIMIT 1",
        )
        .get() as { p: string }
    ).p;
    const whole = await api(emu, "browse", { browseId: `VL${p}` });
    const cut = await api(emu, "browse", { browseId: `VL${p}` }, { "x-emulator-fault": "truncate" });
    const rows = (r: typeof whole) => findAll(r.json, "playlistItemData").length;
    expect(rows(whole)).toBe(100);
    expect(rows(cut)).toBe(50);
    expect(findAll(cut.json, "continuationItemRenderer")).toEqual([]);
    const count = (r: typeof whole) => JSON.stringify(findAll(r.json, "secondSubtitle"));
    expect(count(cut)).toBe(count(whole));
  });
});
