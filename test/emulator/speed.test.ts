/**
 * Speed: what makes the uncached paths fast must not change what they answer. A batch of
 * moves reads the playlist once (not once per move) and leaves the order the moves describe; a gzip
 * body spliced from cached rows inflates to exactly the plain body; the songs search, now read from
 * an index in order of views, still lists the most viewed matches first. The speed itself is
 * measured by bench/emulator.ts, never asserted here.
 */
import { gunzipSync, gzipSync, crc32 as zlibCrc32 } from "node:zlib";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deflatePiece, gzipPieces } from "../../emulator/gzip-pieces.js";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { MusicClient } from "../../src/index.js";
import { api, headersFor, type Json } from "./helpers.js";

let emu: RunningEmulator;
let headers: Record<string, string>;
let client: MusicClient;
beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 1500, seed: 5, cache: false });
  headers = await headersFor(emu);
  client = new MusicClient({ auth: headers, baseUrl: emu.url });
});
afterAll(async () => {
  await emu?.stop();
});

function songIds(count: number): string[] {
  const rows = emu.state.store.sqlite
    .prepare("SELECT video_id AS id FROM songs WHERE available = 1 ORDER BY id LIMIT ?")
    .all(count) as { id: string }[];
  return rows.map((r) => r.id);
}

async function createPlaylist(videoIds: string[]): Promise<string> {
  const r = await api(
    emu,
    "playlist/create",
    { title: "speed", privacyStatus: "PRIVATE", videoIds },
    headers,
  );
  expect(r.status).toBe(200);
  return (r.json as Json).playlistId as string;
}

const setVideoIds = async (playlistId: string) =>
  (await client.getPlaylist(playlistId, { limit: null })).tracks.map((t) => t.setVideoId ?? "");

/** Rows the database hands to the emulator while `during` runs (every statement's results). */
async function rowsRead(during: () => Promise<unknown>): Promise<number> {
  const proto = Object.getPrototypeOf(emu.state.store.sqlite.prepare("SELECT 1")) as {
    all(...args: unknown[]): unknown[];
    get(...args: unknown[]): unknown;
  };
  const { all, get } = proto;
  let rows = 0;
  proto.all = function (this: unknown, ...args: unknown[]) {
    const out = all.apply(this, args);
    rows += out.length;
    return out;
  };
  proto.get = function (this: unknown, ...args: unknown[]) {
    const out = get.apply(this, args);
    if (out !== undefined) rows++;
    return out;
  };
  try {
    await during();
  } finally {
    proto.all = all;
    proto.get = get;
  }
  return rows;
}

/** A small seeded generator, so that the moves are the same on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 4294967296;
  };
}

describe("moves", () => {
  it("apply a batch of 100 moves to a 1,000-row playlist reading its rows once, in the order they describe", async () => {
    const playlistId = await createPlaylist(songIds(1000));
    const order = await setVideoIds(playlistId);
    expect(order).toHaveLength(1000);
    const next = random(3);
    const actions: Json[] = [];
    const expected = [...order];
    for (let i = 0; i < 100; i++) {
      const moved = order[Math.floor(next() * order.length)]!;
      const successor = i % 10 === 9 ? null : order[Math.floor(next() * order.length)]!;
      if (successor === moved) continue;
      expected.splice(expected.indexOf(moved), 1);
      if (successor === null) expected.push(moved);
      else expected.splice(expected.indexOf(successor), 0, moved);
      actions.push({
        action: "ACTION_MOVE_VIDEO_BEFORE",
        setVideoId: moved,
        ...(successor === null ? {} : { movedSetVideoIdSuccessor: successor }),
      });
    }
    const read = await rowsRead(async () => {
      const r = await api(emu, "browse/edit_playlist", { playlistId, actions }, headers);
      expect(r.status).toBe(200);
      expect((r.json as Json).status).toBe("STATUS_SUCCEEDED");
    });
    // One read of the list (1,000) plus the request's own lookups; re-reading it per move: 100,000.
    expect(read).toBeLessThan(1500);
    expect(await setVideoIds(playlistId)).toEqual(expected);
  });

  it("keep adds, removals and moves of one request in request order", async () => {
    const songs = songIds(30);
    const playlistId = await createPlaylist(songs.slice(0, 10));
    const before = await setVideoIds(playlistId);
    const r = await api(
      emu,
      "browse/edit_playlist",
      {
        playlistId,
        actions: [
          { action: "ACTION_ADD_VIDEO", addedVideoId: songs[20] },
          { action: "ACTION_MOVE_VIDEO_BEFORE", setVideoId: before[9], movedSetVideoIdSuccessor: before[0] },
          { action: "ACTION_REMOVE_VIDEO", setVideoId: before[5] },
          { action: "ACTION_ADD_VIDEO", addedVideoId: songs[21] },
          { action: "ACTION_MOVE_VIDEO_BEFORE", setVideoId: before[1] },
        ],
      },
      headers,
    );
    expect((r.json as Json).status).toBe("STATUS_SUCCEEDED");
    const tracks = (await client.getPlaylist(playlistId, { limit: null })).tracks.map((t) => t.videoId);
    expect(tracks).toEqual([
      songs[9],
      songs[0],
      songs[2],
      songs[3],
      songs[4],
      songs[6],
      songs[7],
      songs[8],
      songs[20],
      songs[21],
      songs[1],
    ]);
    // A move of a row that is not there fails the whole request and changes nothing.
    const bad = await api(
      emu,
      "browse/edit_playlist",
      { playlistId, actions: [{ action: "ACTION_MOVE_VIDEO_BEFORE", setVideoId: before[5] }] },
      headers,
    );
    expect(bad.status).toBe(400);
    expect((await client.getPlaylist(playlistId, { limit: null })).tracks.map((t) => t.videoId)).toEqual(
      tracks,
    );
  });
});

async function body(path: string, json: Json, gzip: boolean): Promise<{ encoding: unknown; bytes: Buffer }> {
  const r = await request(`${emu.url}/youtubei/v1/${path}`, {
    method: "POST",
    body: JSON.stringify({
      context: { client: { clientName: "WEB_REMIX", clientVersion: "1.20260101.01.00" } },
      ...json,
    }),
    headers: {
      "content-type": "application/json",
      ...headers,
      ...(gzip ? { "accept-encoding": "gzip" } : {}),
    },
  });
  return { encoding: r.headers["content-encoding"], bytes: Buffer.from(await r.body.arrayBuffer()) };
}

describe("gzip bodies spliced from cached rows", () => {
  it("are one gzip member that inflates to the parts in order, with the CRC zlib computes", () => {
    const parts = [
      Buffer.from('{"a":['),
      Buffer.from("x".repeat(70_000)),
      Buffer.from(","),
      Buffer.alloc(0),
      Buffer.from("é•ü".repeat(30_000)),
      Buffer.from("]}"),
    ];
    const zipped = gzipPieces(parts.map((p, i) => (i % 2 ? deflatePiece(p) : p)));
    expect(gunzipSync(zipped).equals(Buffer.concat(parts))).toBe(true); // gunzip checks CRC and size
    for (const p of parts) expect(deflatePiece(p).crc).toBe(zlibCrc32(p));
  });

  it("inflate to exactly the plain body, before and after a write", async () => {
    const playlistId = await createPlaylist(songIds(150));
    for (let round = 0; round < 3; round++) {
      const zipped = await body("browse", { browseId: `VL${playlistId}` }, true);
      const plain = await body("browse", { browseId: `VL${playlistId}` }, false);
      expect(zipped.encoding).toBe("gzip");
      expect(plain.encoding).toBeUndefined();
      expect(gunzipSync(zipped.bytes).equals(plain.bytes)).toBe(true);
      // The header's "•" and the rows' text survive the splice as UTF-8.
      expect(plain.bytes.toString("utf8")).toContain(" • ");
      if (round === 1) await api(emu, "like/like", { target: { videoId: songIds(1)[0] } }, headers);
    }
  });
});

describe("the response cache and spliced gzip bodies", () => {
  it("splices a page's gzip from rows compressed against their neighbours: as small as one deflate of the whole", async () => {
    const cached = await startEmulator({ catalogueSize: 300, seed: 5 });
    try {
      const h = await headersFor(cached);
      const create = await api(cached, "playlist/create", { title: "c", videoIds: [] }, h);
      const playlistId = (create.json as Json).playlistId as string;
      const songs = (
        cached.state.store.sqlite.prepare("SELECT video_id AS id FROM songs LIMIT 100").all() as {
          id: string;
        }[]
      ).map((r) => r.id);
      await api(
        cached,
        "browse/edit_playlist",
        { playlistId, actions: songs.map((v) => ({ action: "ACTION_ADD_VIDEO", addedVideoId: v })) },
        h,
      );
      const read = async (gzip: boolean) => {
        const r = await request(`${cached.url}/youtubei/v1/browse`, {
          method: "POST",
          body: JSON.stringify({
            context: { client: { clientName: "WEB_REMIX", clientVersion: "1.2026" } },
            browseId: `VL${playlistId}`,
          }),
          headers: {
            "content-type": "application/json",
            ...h,
            ...(gzip ? { "accept-encoding": "gzip" } : {}),
          },
        });
        return Buffer.from(await r.body.arrayBuffer());
      };
      const first = await read(true); // a miss: spliced from the rows
      const again = await read(true); // a hit: the same bytes
      const plain = await read(false);
      expect(gunzipSync(first).equals(plain)).toBe(true);
      expect(again.equals(first)).toBe(true);
      // Rows compressed alone made a body four times larger than a deflate of the whole.
      expect(first.length).toBeLessThan(gzipSync(plain, { level: 1 }).length * 1.1);
    } finally {
      await cached.stop();
    }
  });
});

describe("songs search", () => {
  it("lists the most viewed matching songs first, and videos apart", async () => {
    for (const types of [["MUSIC_VIDEO_TYPE_ATV"], ["MUSIC_VIDEO_TYPE_OMV", "MUSIC_VIDEO_TYPE_UGC"]]) {
      // Words no title is (one-word titles are nouns): no title bonus, views alone order them
      // (the bonus is hard-catalogue.test.ts's).
      for (const query of ["the", "an", "golden"]) {
        const page = await client.search(query, { filter: types.length === 1 ? "songs" : "videos" });
        const wanted = emu.state.store.sqlite
          .prepare(
            `SELECT video_id AS id FROM songs WHERE video_type IN (${types.map(() => "?").join(",")})
             AND search_text LIKE ? ORDER BY views DESC, id LIMIT 20`,
          )
          .all(...types, `%${query}%`) as { id: string }[];
        expect(
          page.slice(0, wanted.length).map((r) => (r as { videoId?: string }).videoId),
          `${types[0]} "${query}"`,
        ).toEqual(wanted.map((w) => w.id));
      }
    }
  });
});
