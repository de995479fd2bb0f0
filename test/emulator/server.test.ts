import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { api, at, call, headersFor, type Json } from "./helpers.js";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 300, seed: 7 });
});
afterAll(async () => {
  await emu?.stop();
});

function someAlbum(): string {
  return (
    emu.state.store.sqlite.prepare("SELECT browse_id AS b FROM albums ORDER BY id LIMIT 1").get() as {
      b: string;
    }
  ).b;
}

describe("routing", () => {
  it("answers POST /youtubei/v1/<endpoint> with any query parameters", async () => {
    const r = await api(
      emu,
      "browse",
      { browseId: someAlbum() },
      {},
      { query: "&prettyPrint=false&key=abc&itct=x" },
    );
    expect(r.status).toBe(200);
    expect(at(r.json, "contents", "twoColumnBrowseResultsRenderer")).toBeDefined();
  });

  it("accepts gzipped bodies by their magic bytes and ignores a content-encoding header on a plain body", async () => {
    const zipped = await api(emu, "browse", { browseId: someAlbum() }, {}, { gzip: true });
    expect(zipped.status).toBe(200);
    const plainWithHeader = await call(emu, "/youtubei/v1/browse", {
      body: JSON.stringify({ browseId: someAlbum() }),
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect(plainWithHeader.status).toBe(200);
    expect(plainWithHeader.json).toEqual(zipped.json);
  });

  it("serves the start page with a one-line ytcfg.set carrying VISITOR_DATA and a jsUrl", async () => {
    const r = await call(emu, "/");
    expect(r.status).toBe(200);
    const m = /ytcfg\.set\s*\(\s*(\{.+?\})\s*\)\s*;/.exec(r.text);
    expect(m).not.toBeNull();
    const cfg = JSON.parse(m![1]!) as Json;
    expect(typeof cfg.VISITOR_DATA).toBe("string");
    expect(cfg.INNERTUBE_CLIENT_VERSION).toMatch(/^1\.\d{8}\.01\.00$/);
    const js = /jsUrl"\s*:\s*"([^"]+)"/.exec(r.text)?.[1];
    expect(js).toMatch(/^\/s\/player\/.+\/base\.js$/);
    const base = await call(emu, js!);
    expect(base.status).toBe(200);
    const sts = Number(/signatureTimestamp[:=](\d+)/.exec(base.text)?.[1]);
    expect(sts).toBe(Math.floor(Date.now() / 86_400_000) - 1);
  });

  it("serves /playlist?list=OLAK… whose first quoted MPRE token is the album", async () => {
    const album = emu.state.store.sqlite
      .prepare("SELECT browse_id AS b, audio_playlist_id AS p FROM albums LIMIT 1 OFFSET 3")
      .get() as {
      b: string;
      p: string;
    };
    const r = await call(emu, `/playlist?list=${album.p}`);
    const unescaped = r.text.replace(/\\x([0-9a-f]{2})/gi, (_, h) =>
      String.fromCharCode(Number.parseInt(h, 16)),
    );
    expect(/"(MPRE[^"]+)"/.exec(unescaped)?.[1]).toBe(album.b);
  });
});

describe("bad input gets the service's error format, never a crash", () => {
  const expectError = (r: { status: number; json: unknown }, status: number, name: string) => {
    expect(r.status).toBe(status);
    expect(at(r.json, "error", "code")).toBe(status);
    expect(at(r.json, "error", "status")).toBe(name);
    expect(typeof at(r.json, "error", "message")).toBe("string");
  };

  it("refuses malformed JSON with 400 INVALID_ARGUMENT", async () => {
    const r = await call(emu, "/youtubei/v1/browse", {
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expectError(r, 400, "INVALID_ARGUMENT");
  });

  it("refuses a non-object body, a broken gzip stream and a wrong context type", async () => {
    expectError(await call(emu, "/youtubei/v1/browse", { body: "[1,2]" }), 400, "INVALID_ARGUMENT");
    const broken = Buffer.concat([gzipSync("{}").subarray(0, 5), Buffer.from("xx")]);
    expectError(await call(emu, "/youtubei/v1/browse", { body: broken }), 400, "INVALID_ARGUMENT");
    expectError(
      await call(emu, "/youtubei/v1/browse", { body: '{"context": 5, "browseId": "FEmusic_home"}' }),
      400,
      "INVALID_ARGUMENT",
    );
  });

  it("answers unknown endpoints and paths with 404 NOT_FOUND in JSON", async () => {
    expectError(await api(emu, "no/such_endpoint", {}), 404, "NOT_FOUND");
    expectError(await call(emu, "/nothing-here"), 404, "NOT_FOUND");
  });

  it("answers missing fields, wrong types and unknown ids", async () => {
    expectError(await api(emu, "browse", {}), 400, "INVALID_ARGUMENT");
    expectError(await api(emu, "browse", { browseId: 42 }), 400, "INVALID_ARGUMENT");
    expectError(
      await api(emu, "browse", { browseId: "FEmusic_home", params: ["x"] }),
      400,
      "INVALID_ARGUMENT",
    );
    expectError(await api(emu, "browse", { browseId: "MPREb_doesnotexist" }), 404, "NOT_FOUND");
    expectError(await api(emu, "browse", { browseId: "VLPLnothing" }), 404, "NOT_FOUND");
    expectError(await api(emu, "browse", { browseId: "garbage" }), 400, "INVALID_ARGUMENT");
    expectError(await api(emu, "search", { query: 3 }), 400, "INVALID_ARGUMENT");
    expectError(await api(emu, "search", { query: "x", params: "not-a-filter" }), 400, "INVALID_ARGUMENT");
    expectError(await api(emu, "next", {}), 400, "INVALID_ARGUMENT");
    expectError(await api(emu, "player", {}), 400, "INVALID_ARGUMENT");
    expectError(await api(emu, "browse", {}, {}, { query: "&ctoken=garbage" }), 400, "INVALID_ARGUMENT");
  });

  it("survives a burst of random bodies and keeps serving", async () => {
    const endpoints = [
      "browse",
      "search",
      "next",
      "player",
      "browse/edit_playlist",
      "feedback",
      "playlist/create",
    ];
    const bodies = [
      "",
      "null",
      "{}",
      '{"browseId":null}',
      '{"actions":"x"}',
      "\u0000\u0001",
      '{"query":{}}',
      "1e999",
    ];
    for (const e of endpoints) {
      for (const b of bodies) {
        const r = await call(emu, `/youtubei/v1/${e}`, { body: b });
        expect(r.status).toBeGreaterThanOrEqual(200);
        expect(r.json).not.toBeNull();
        if (r.status >= 400) expect(typeof at(r.json, "error", "message")).toBe("string");
      }
    }
    const ok = await api(emu, "browse", { browseId: "FEmusic_home" });
    expect(ok.status).toBe(200);
  });
});

describe("control endpoints", () => {
  it("counts requests per endpoint and resets", async () => {
    await call(emu, "/_emulator/stats", { method: "DELETE" });
    await api(emu, "browse", { browseId: "FEmusic_home" });
    await api(emu, "browse", { browseId: "FEmusic_home" });
    await api(emu, "search", { query: "a" });
    const r = await call(emu, "/_emulator/stats");
    expect(at(r.json, "requests", "browse")).toBe(2);
    expect(at(r.json, "requests", "search")).toBe(1);
    expect(at(r.json, "total")).toBe(3);
    expect(emu.counts()).toEqual(at(r.json, "requests"));
    emu.resetCounts();
    expect(emu.counts()).toEqual({});
  });

  it("logs every API request with its timing, and writes apart", async () => {
    await call(emu, "/_emulator/requests", { method: "DELETE" });
    const headers = await headersFor(emu, 1);
    await api(emu, "browse", { browseId: "FEmusic_home" });
    await api(emu, "like/like", { target: { videoId: "nosuchvideo" } }, headers);
    const all = at((await call(emu, "/_emulator/requests")).json, "requests") as Json[];
    expect(all.map((r) => [r.endpoint, r.write])).toEqual([
      ["browse", false],
      ["like/like", true],
    ]);
    for (const r of all) expect(Number(r.finishedAt)).toBeGreaterThanOrEqual(Number(r.startedAt));
    const writes = at((await call(emu, "/_emulator/requests?writes=1")).json, "requests") as Json[];
    expect(writes.map((r) => r.endpoint)).toEqual(["like/like"]);
    const later = at(
      (await call(emu, `/_emulator/requests?since=${all[0]?.seq}`)).json,
      "requests",
    ) as Json[];
    expect(later.map((r) => r.seq)).toEqual([all[1]?.seq]);
  });

  it("lists the seeded accounts with a brand account under the first login", async () => {
    const r = await call(emu, "/_emulator/accounts");
    const accounts = at(r.json, "accounts") as Json[];
    expect(accounts.length).toBeGreaterThanOrEqual(3);
    const brand = accounts.find((a) => a.brand === true);
    expect(brand?.parentId).toBe(1);
    expect(String(brand?.pageId)).toMatch(/^\d{21}$/);
  });
});

describe("response cache", () => {
  it("keeps within its byte budget, dropping the oldest entries", async () => {
    const { ResponseCache, encodeResponse } = await import("../../emulator/cache.js");
    const cache = new ResponseCache(10_000);
    const entry = encodeResponse({ text: "x".repeat(2000) }, false);
    for (let i = 0; i < 10; i++) cache.set(`k${i}`, 1, entry);
    expect(cache.get("k0", 1)).toBeUndefined();
    expect(cache.get("k9", 1)).toBeDefined();
    expect(cache.get("k9", 2)).toBeUndefined(); // a new state version empties it
  });
});
