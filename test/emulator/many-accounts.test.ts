/**
 * Many accounts on one emulator: a control request makes a batch of logins, each with a
 * library of its own and ready-to-use headers; the request log says whose each request was, and
 * a per-account tally counts writes of one account that were in flight at the same time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { MusicClient } from "../../src/client.js";
import { api, at, call, headersFor, type Json } from "./helpers.js";

interface MadeAccount {
  id: number;
  name: string;
  headers: Record<string, string>;
}

let emu: RunningEmulator;
let made: MadeAccount[];

const addAccounts = (target: RunningEmulator, body: unknown) =>
  call(target, "/_emulator/accounts", { method: "POST", body: JSON.stringify(body) });

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 300, seed: 5 });
  const r = await addAccounts(emu, { count: 50, seed: 9, playlists: 3, songs: 12, liked: 7 });
  expect(r.status).toBe(200);
  made = at(r.json, "accounts") as MadeAccount[];
});
afterAll(async () => {
  await emu?.stop();
});

/** An account's own playlists and their rows, as the database holds them. */
function libraryOf(target: RunningEmulator, accountId: number) {
  const db = target.state.store.sqlite;
  const lists = db
    .prepare("SELECT playlist_id AS id, title FROM playlists WHERE owner_account_id = ? ORDER BY id")
    .all(accountId) as { id: string; title: string }[];
  const rows = (id: string) =>
    (
      db
        .prepare("SELECT video_id AS v FROM playlist_items WHERE playlist_id = ? ORDER BY position")
        .all(id) as {
        v: string;
      }[]
    ).map((r) => r.v);
  const liked = db
    .prepare("SELECT target_id AS t FROM ratings WHERE account_id = ? AND rating = 'LIKE' ORDER BY id")
    .all(accountId) as { t: string }[];
  return { playlists: lists.map((p) => ({ ...p, rows: rows(p.id) })), liked: liked.map((l) => l.t) };
}

/** Some catalogue song's video id. */
function songAt(offset: number): string {
  const row = emu.state.store.sqlite
    .prepare(
      "SELECT video_id AS v FROM songs WHERE video_type = 'MUSIC_VIDEO_TYPE_ATV' ORDER BY id LIMIT 1 OFFSET ?",
    )
    .get(offset) as { v: string };
  return row.v;
}

async function loggedWrites(): Promise<Json[]> {
  return at((await call(emu, "/_emulator/requests?writes=1")).json, "requests") as Json[];
}

async function overlaps(): Promise<Json> {
  return (await call(emu, "/_emulator/requests/overlaps")).json as Json;
}

describe("POST /_emulator/accounts", () => {
  it("makes the accounts after the seeded ones, each with its own playlists and likes", () => {
    expect(made).toHaveLength(50);
    const ids = made.map((a) => a.id);
    expect(new Set(ids).size).toBe(50);
    expect(Math.min(...ids)).toBeGreaterThan(5);
    for (const a of made) {
      const lib = libraryOf(emu, a.id);
      expect(lib.playlists.map((p) => p.rows.length)).toEqual([12, 12, 12]);
      expect(lib.liked.length).toBeGreaterThan(0);
      expect(lib.liked.length).toBeLessThanOrEqual(7);
    }
  });

  it("hands out headers that sign in as each account, the same as the headers endpoint gives", async () => {
    const a = made[17]!;
    const fromEndpoint = await headersFor(emu, a.id);
    expect(a.headers.cookie).toBe(fromEndpoint.cookie);
    expect(Object.keys(a.headers).sort()).toEqual(Object.keys(fromEndpoint).sort());
    const cookies = new Set(made.map((m) => m.headers.cookie));
    expect(cookies.size).toBe(50);
  });

  it("lets our client read each account's own library playlists, not another account's", async () => {
    for (const a of made) {
      const music = new MusicClient({ auth: a.headers, baseUrl: emu.url, retry: false });
      const listed = await music.getLibraryPlaylists({ limit: null });
      const own = libraryOf(emu, a.id).playlists;
      const ids = listed.map((p) => p.playlistId).filter((id) => id !== "LM");
      expect(new Set(ids)).toEqual(new Set(own.map((p) => p.id)));
    }
    const music = new MusicClient({ auth: made[3]!.headers, baseUrl: emu.url, retry: false });
    const liked = await music.getLikedSongs({ limit: null });
    expect(new Set(liked.tracks.map((t) => t.videoId))).toEqual(new Set(libraryOf(emu, made[3]!.id).liked));
  });

  it("makes the same accounts from the same seed on a fresh emulator", async () => {
    const other = await startEmulator({ catalogueSize: 300, seed: 5 });
    try {
      const r = await addAccounts(other, { count: 50, seed: 9, playlists: 3, songs: 12, liked: 7 });
      const again = at(r.json, "accounts") as MadeAccount[];
      expect(again.map((a) => [a.id, a.name])).toEqual(made.map((a) => [a.id, a.name]));
      expect(again.map((a) => a.headers.cookie)).toEqual(made.map((a) => a.headers.cookie));
      for (const a of [made[0]!, made[49]!]) expect(libraryOf(other, a.id)).toEqual(libraryOf(emu, a.id));
      // Another batch with the same seed follows on with accounts of its own.
      const more = at((await addAccounts(other, { count: 2, seed: 9 })).json, "accounts") as MadeAccount[];
      expect(more.map((a) => a.id)).toEqual([made[49]!.id + 1, made[49]!.id + 2]);
      expect(made.map((a) => a.headers.cookie)).not.toContain(more[0]!.headers.cookie);
    } finally {
      await other.stop();
    }
  });

  it.each([
    [{}, "count"],
    [{ count: 0 }, "count"],
    [{ count: 1001 }, "count"],
    [{ count: 2.5 }, "count"],
    [{ count: "3" }, "count"],
    [{ count: 2, seed: -1 }, "seed"],
    [{ count: 2, playlists: 21 }, "playlists"],
    [{ count: 2, songs: null }, "songs"],
    [{ count: 2, liked: "many" }, "liked"],
    [{ count: 2, playlist: 3 }, "playlist"],
    // Within every range but too many rows in all.
    [{ count: 1000, playlists: 20, songs: 500 }, "count"],
  ])("refuses %j with 400 naming %s", async (body, field) => {
    const before = emu.state.store.accounts.nextId();
    const r = await addAccounts(emu, body);
    expect(r.status).toBe(400);
    expect(String(at(r.json, "error", "message"))).toMatch(new RegExp(`^${field} `));
    expect(emu.state.store.accounts.nextId()).toBe(before);
  });

  it("refuses a body that is not a JSON object", async () => {
    const r = await call(emu, "/_emulator/accounts", { method: "POST", body: "[1]" });
    expect(r.status).toBe(400);
  });
});

describe("whose request", () => {
  it("logs the signed-in account, the brand account acted for, and none signed out", async () => {
    await call(emu, "/_emulator/requests", { method: "DELETE" });
    const brand = (at((await call(emu, "/_emulator/accounts")).json, "accounts") as Json[]).find(
      (a) => a.brand === true,
    )!;
    const login = await headersFor(emu, Number(brand.parentId));
    await api(emu, "like/like", { target: { videoId: songAt(1) } }, made[5]!.headers);
    await api(emu, "like/like", { target: { videoId: songAt(2) } }, login, { user: String(brand.pageId) });
    await api(emu, "browse", { browseId: "FEmusic_home" });
    const all = at((await call(emu, "/_emulator/requests")).json, "requests") as Json[];
    expect(all.map((r) => [r.endpoint, r.account])).toEqual([
      ["like/like", made[5]!.id],
      ["like/like", brand.id],
      ["browse", null],
    ]);
  });

  it("tallies writes per account: concurrent writes of two accounts are fine, of one account an overlap", async () => {
    await call(emu, "/_emulator/requests", { method: "DELETE" });
    const [a, b] = [made[0]!, made[1]!];
    // The emulator holds this write for a while (a `slow` fault) before answering it.
    const held = api(
      emu,
      "like/like",
      { target: { videoId: songAt(3) } },
      {
        ...a.headers,
        "x-emulator-fault": "slow=3000",
      },
    );
    // Wait until the log shows it in flight, then write through B, then through A again.
    for (;;) {
      const w = await loggedWrites();
      if (w.some((r) => r.account === a.id && r.finishedAt === null)) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    expect((await api(emu, "like/like", { target: { videoId: songAt(4) } }, b.headers)).status).toBe(200);
    expect(await overlaps()).toEqual({ accounts: 2, writes: 2, overlaps: 0, worst: expect.any(Array) });
    expect((await api(emu, "like/like", { target: { videoId: songAt(5) } }, a.headers)).status).toBe(200);
    expect((await held).status).toBe(200);
    const writes = await loggedWrites();
    // The held write was still unanswered when the other two arrived.
    expect(Number(writes[0]!.finishedAt)).toBeGreaterThan(Number(writes[2]!.startedAt));
    const tally = await overlaps();
    expect(tally).toMatchObject({ accounts: 2, writes: 3, overlaps: 1 });
    expect((tally.worst as Json[])[0]).toEqual({ account: a.id, inFlight: 2, overlaps: 1 });
    expect(tally.worst as Json[]).toContainEqual({ account: b.id, inFlight: 1, overlaps: 0 });
  });

  it("counts writes in sequence as no overlap, and a reset empties the tally", async () => {
    await call(emu, "/_emulator/requests", { method: "DELETE" });
    for (const i of [6, 7, 8])
      await api(emu, "like/like", { target: { videoId: songAt(i) } }, made[2]!.headers);
    expect(await overlaps()).toEqual({
      accounts: 1,
      writes: 3,
      overlaps: 0,
      worst: [{ account: made[2]!.id, inFlight: 1, overlaps: 0 }],
    });
    await call(emu, "/_emulator/requests", { method: "DELETE" });
    expect(await overlaps()).toEqual({ accounts: 0, writes: 0, overlaps: 0, worst: [] });
  });

  it("tallies a write a fault refuses against its account as well", async () => {
    await call(emu, "/_emulator/requests", { method: "DELETE" });
    const r = await api(
      emu,
      "like/like",
      { target: { videoId: songAt(9) } },
      {
        ...made[4]!.headers,
        "x-emulator-fault": "429",
      },
    );
    expect(r.status).toBe(429);
    expect((await loggedWrites()).map((w) => w.account)).toEqual([made[4]!.id]);
    expect(await overlaps()).toMatchObject({ accounts: 1, writes: 1 });
  });
});
