/**
 * Pages whose last gaps were closed, read through the real MusicClient: episode descriptions with
 * links and timestamps, a user's videos carousel and its full list, the uploaded artists' play
 * menus, explicit badges in a search continuation, and a playlist or podcast as the top result.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { MusicClient } from "../../src/index.js";
import { api, call, findAll, headersFor } from "./helpers.js";

let emu: RunningEmulator;
let anon: MusicClient;
let signedIn: MusicClient;

type Row = Record<string, unknown>;
const q = <T>(sql: string, ...args: unknown[]) => emu.state.store.sqlite.prepare(sql).get(...args) as T;
const all = <T>(sql: string, ...args: unknown[]) => emu.state.store.sqlite.prepare(sql).all(...args) as T[];

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 600, seed: 1 });
  anon = new MusicClient({ baseUrl: emu.url, uploadUrl: emu.url, retry: false });
  signedIn = new MusicClient({
    baseUrl: emu.url,
    uploadUrl: emu.url,
    auth: await headersFor(emu, 1),
    retry: false,
  });
});
afterAll(async () => {
  await emu?.stop();
});

describe("an episode's description", () => {
  it("holds the stored text, a link, and timestamps that jump within the episode", async () => {
    const e = q<{ v: string; d: string; s: number }>(
      "SELECT video_id AS v, description AS d, duration_seconds AS s FROM episodes ORDER BY video_id LIMIT 1",
    );
    const episode = (await anon.getEpisode(e.v)) as unknown as {
      description: { text: string; url?: string; seconds?: number }[];
    };
    const parts = episode.description;
    expect(parts.map((p) => p.text).join("")).toContain(e.d);
    const links = parts.filter((p) => p.url !== undefined);
    expect(links.length).toBeGreaterThan(0);
    for (const l of links) expect(l.url).toBe(l.text);
    const seconds = parts.filter((p) => p.seconds !== undefined).map((p) => p.seconds as number);
    expect(seconds.length).toBeGreaterThan(1);
    expect(seconds[0]).toBe(0);
    expect([...seconds].sort((a, b) => a - b)).toEqual(seconds);
    expect(Math.max(...seconds)).toBeLessThan(e.s);
    // Each timestamp's text is its own second, as m:ss or h:mm:ss.
    for (const p of parts.filter((x) => x.seconds !== undefined)) {
      expect(p.text.split(":").reduce((acc, n) => acc * 60 + Number(n), 0)).toBe(p.seconds);
    }
  });
});

describe("a user's videos", () => {
  it("shows a carousel whose More link lists all of the user's videos", async () => {
    const account = q<{ id: number; c: string; n: string }>(
      "SELECT id, channel_id AS c, name AS n FROM accounts WHERE id = 1",
    );
    const expected = emu.state.store.catalogue.userVideos(account.id, 1000).map((s) => s.videoId);
    expect(expected.length).toBeGreaterThan(0);
    const user = (await anon.getUser(account.c)) as unknown as {
      name: string;
      videos: { browseId: string | null; params: string | null; results: Row[] };
    };
    expect(user.name).toBe(account.n);
    expect(user.videos.browseId).toBe(account.c);
    expect(user.videos.params).toEqual(expect.any(String));
    expect(user.videos.results.map((v) => v.videoId)).toEqual(expected.slice(0, 10));
    // The cards name the user, not the catalogue's artist.
    for (const v of user.videos.results) expect(v.artists).toEqual([{ name: account.n, id: account.c }]);

    const videos = await anon.getUserVideos(account.c, user.videos.params as string);
    expect(videos.map((v) => v.videoId)).toEqual(expected);
  });

  it("refuses params that name no list", async () => {
    const c = q<{ c: string }>("SELECT channel_id AS c FROM accounts WHERE id = 1").c;
    expect((await api(emu, "browse", { browseId: c, params: "bogus" })).status).toBe(400);
  });

  it("marks the videos the viewer likes in the cards' menus", async () => {
    const account = q<{ c: string }>("SELECT channel_id AS c FROM accounts WHERE id = 1");
    const first = emu.state.store.catalogue.userVideos(1, 1)[0]!.videoId;
    await signedIn.rateSong(first, "LIKE");
    const page = await api(emu, "browse", { browseId: account.c }, await headersFor(emu, 1));
    const liked = findAll(page.json, "toggleMenuServiceItemRenderer").filter(
      (t) => JSON.stringify(t).includes(first) && JSON.stringify(t).includes("Add to liked songs"),
    );
    expect(liked.map((t) => (t as Row).isToggled)).toContain(true);
    await signedIn.rateSong(first, "INDIFFERENT");
  });
});

describe("uploaded artists", () => {
  it("each row's menu shuffles or starts a radio of that artist's uploads", async () => {
    const auth = await headersFor(emu, 1);
    for (const name of ["First Upload Artist", "Second Upload Artist"]) {
      const start = await call(emu, "/upload/usermusic/http?authuser=0", {
        body: `filename=${name} - Song.mp3`,
        headers: { ...auth, "x-goog-upload-command": "start", "x-goog-upload-header-content-length": "10" },
      });
      const u = new URL(String(start.headers["x-goog-upload-url"]));
      await call(emu, u.pathname + u.search, {
        body: Buffer.alloc(10, name),
        headers: { ...auth, "x-goog-upload-command": "upload, finalize" },
      });
    }
    const artists = (await signedIn.getLibraryUploadArtists()) as unknown as Row[];
    expect(artists.length).toBeGreaterThanOrEqual(2);
    const ids = new Set<unknown>();
    for (const a of artists) {
      expect(String(a.browseId)).toMatch(/^FEmusic_library_privately_owned_artist_detail/);
      const suffix = String(a.browseId).slice("FEmusic_library_privately_owned_artist_detail".length);
      expect(a.shuffleId).toBe(`MLPA${suffix}`);
      expect(a.radioId).toBe(a.shuffleId);
      ids.add(a.shuffleId);
    }
    // Every artist has a playlist of its own.
    expect(ids.size).toBe(artists.length);
  });
});

describe("search", () => {
  it("the songs continuation badges exactly the explicit songs", async () => {
    const songs = "EgWKAQIIAWoMEA4QChADEAQQCRAF";
    const explicitIds = new Set(
      all<{ v: string }>("SELECT video_id AS v FROM songs WHERE explicit = 1").map((r) => r.v),
    );
    const first = await api(emu, "search", { query: "er", params: songs });
    const token = String(findAll(first.json, "nextContinuationData").map((d) => (d as Row).continuation)[0]);
    const next = await api(
      emu,
      "search",
      { query: "er", params: songs },
      {},
      {
        query: `&ctoken=${token}&continuation=${token}`,
      },
    );
    const rows = findAll(next.json, "musicResponsiveListItemRenderer") as Row[];
    expect(rows.length).toBeGreaterThan(0);
    let badged = 0;
    for (const r of rows) {
      const id = String(findAll(r, "videoId")[0]);
      const badge = JSON.stringify(r.badges ?? []).includes("MUSIC_EXPLICIT_BADGE");
      expect(badge).toBe(explicitIds.has(id));
      if (badge) badged++;
    }
    expect(badged).toBeGreaterThan(0);
  });

  it("a public playlist named exactly as the query is the top result, ahead of songs", async () => {
    const before = (await anon.search("the")) as unknown as Row[];
    expect(before[0]?.resultType).not.toBe("playlist");
    const created = (await signedIn.createPlaylist("The", "", { privacyStatus: "PUBLIC" })) as unknown as
      | string
      | Row;
    const id = typeof created === "string" ? created : String(created.playlistId);
    const after = (await anon.search("the")) as unknown as Row[];
    expect(after[0]).toMatchObject({
      category: "Top result",
      resultType: "playlist",
      playlistId: id,
      title: "The",
    });
    // Other results still follow.
    expect(after.slice(1).some((r) => r.resultType === "song")).toBe(true);
    // A title that only contains the query does not count.
    expect(((await anon.search("th")) as unknown as Row[])[0]?.resultType).not.toBe("playlist");
  });

  it("a podcast named exactly as the query is the top result", async () => {
    const p = q<{ t: string; p: string }>(
      "SELECT title AS t, playlist_id AS p FROM podcasts ORDER BY id LIMIT 1",
    );
    const results = (await anon.search(p.t)) as unknown as Row[];
    expect(results[0]).toMatchObject({ category: "Top result", resultType: "podcast", title: p.t });
    expect(results[0]?.browseId).toBe(`MPSP${p.p}`);
  });
});
