/**
 * The cache of serialized playlist rows changes the cost of a page, never its text: pages served
 * with it equal pages served without it, also after writes that change a row's inputs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { RawJson, RenderCache, stringify } from "../../emulator/raw-json.js";
import { api, headersFor } from "./helpers.js";

describe("RawJson and stringify", () => {
  it("splice serialized pieces where their values would be", () => {
    const row = { a: [1, "x\u0000y"], b: { c: null } };
    const page = { rows: [new RawJson(JSON.stringify(row)), { d: 2 }, new RawJson("3")], e: "\u0000" };
    expect(stringify(page)).toBe(JSON.stringify({ rows: [row, { d: 2 }, 3], e: "\u0000" }));
  });

  it("serialize to their value outside stringify", () => {
    expect(JSON.parse(JSON.stringify({ r: new RawJson('{"k":[1,2]}') }))).toEqual({ r: { k: [1, 2] } });
  });

  it("are kept within the cache's size, oldest out first", () => {
    const cache = new RenderCache(50);
    let renders = 0;
    const render = () => {
      renders++;
      return { text: "0123456789" }; // 21 characters serialized
    };
    cache.get("a", render);
    cache.get("b", render);
    cache.get("a", render); // a hit; b is now the oldest
    cache.get("c", render); // 63 characters: b leaves
    expect(renders).toBe(3);
    expect(cache.size).toBe(2);
    cache.get("a", render);
    expect(renders).toBe(3);
    cache.get("b", render);
    expect(renders).toBe(4);
  });

  it("count a piece's size in UTF-8 bytes, as it is sent", () => {
    const cache = new RenderCache(27);
    const piece = cache.get("a", () => "éé"); // 4 characters serialized, 6 bytes
    expect(piece.bytes.length).toBe(6);
    expect(piece.text).toBe('"éé"');
    cache.get("b", () => "x".repeat(20)); // 22 bytes: 28 in all (26 characters), a leaves
    expect(cache.size).toBe(1);
    cache.get("c", () => "xx"); // 4 bytes more: 26, both kept
    expect(cache.size).toBe(2);
  });
});

describe("pages with and without the row cache", () => {
  let cached: RunningEmulator;
  let plain: RunningEmulator;
  beforeAll(async () => {
    // Same seed, same catalogue; the response cache off so that every page is rendered.
    [cached, plain] = await Promise.all([
      startEmulator({ catalogueSize: 300, seed: 3, cache: false }),
      startEmulator({ catalogueSize: 300, seed: 3, cache: false, rowCache: false }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([cached?.stop(), plain?.stop()]);
  });

  const both = async (body: Record<string, unknown>, accountId: number | null) => {
    const [a, b] = await Promise.all(
      [cached, plain].map(async (emu) =>
        api(emu, "browse", body, accountId === null ? {} : await headersFor(emu, accountId)),
      ),
    );
    return { cached: a!.text, plain: b!.text };
  };

  it("are the same, for a viewer and signed out, before and after a write", async () => {
    const q = (emu: RunningEmulator) =>
      emu.state.store.sqlite
        .prepare("SELECT playlist_id AS p FROM playlists WHERE owner_account_id = 1 ORDER BY id LIMIT 1")
        .get() as { p: string };
    const playlistId = q(cached).p;
    expect(q(plain).p).toBe(playlistId);
    const body = { browseId: `VL${playlistId}` };
    for (const account of [1, null]) {
      const first = await both(body, account);
      expect(first.cached).toBe(first.plain);
      const again = await both(body, account);
      expect(again.cached).toBe(first.cached);
    }
    // A write that changes one row's inputs: the first song is liked.
    const video = cached.state.store.sqlite
      .prepare("SELECT video_id AS v FROM playlist_items WHERE playlist_id = ? ORDER BY position LIMIT 1")
      .get(playlistId) as { v: string };
    const before = await both(body, 1);
    for (const emu of [cached, plain]) {
      const r = await api(emu, "like/like", { target: { videoId: video.v } }, await headersFor(emu, 1));
      expect(r.status).toBe(200);
    }
    const after = await both(body, 1);
    expect(after.cached).toBe(after.plain);
    expect(after.cached).not.toBe(before.cached);
  });
});
