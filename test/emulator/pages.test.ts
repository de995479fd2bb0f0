import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { api, at, call, findAll, headersFor, type Json, SECTION_LIST } from "./helpers.js";

let emu: RunningEmulator;
let auth: Record<string, string>;
const q = <T>(sql: string, ...args: unknown[]) => emu.state.store.sqlite.prepare(sql).get(...args) as T;

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 400, seed: 9 });
});
afterAll(async () => {
  await emu?.stop();
});

const fresh = async () => {
  auth = await headersFor(emu, 1);
  return auth;
};

describe("continuations in the shapes the service uses", () => {
  it("filtered search pages with shape A (musicShelfContinuation) until the results run out", async () => {
    const seen: string[] = [];
    let r = await api(emu, "search", { query: "e", params: "EgWKAQIIAWoMEA4QChADEAQQCRAF" });
    let shelf = at(
      r.json,
      "contents",
      "tabbedSearchResultsRenderer",
      "tabs",
      0,
      "tabRenderer",
      "content",
      "sectionListRenderer",
      "contents",
      0,
      "musicShelfRenderer",
    ) as Json;
    for (let page = 0; page < 50; page++) {
      seen.push(...(findAll(shelf.contents, "playlistItemData") as Json[]).map((d) => String(d.videoId)));
      const token = at(shelf, "continuations", 0, "nextContinuationData", "continuation");
      if (typeof token !== "string") break;
      r = await api(
        emu,
        "search",
        { query: "e", params: "EgWKAQIIAWoMEA4QChADEAQQCRAF" },
        {},
        { query: `&ctoken=${token}&continuation=${token}&type=next` },
      );
      shelf = at(r.json, "continuationContents", "musicShelfContinuation") as Json;
      expect(shelf).toBeDefined();
    }
    const expected = (
      emu.state.store.sqlite
        .prepare(
          "SELECT count(*) AS n FROM songs WHERE video_type = 'MUSIC_VIDEO_TYPE_ATV' AND search_text LIKE '%e%'",
        )
        .get() as { n: number }
    ).n;
    expect(seen.length).toBe(expected);
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("library lists page by 25 with shape A and honour the order params", async () => {
    await fresh();
    const first = await api(
      emu,
      "browse",
      { browseId: "FEmusic_liked_videos", params: "ggMGKgQIARAA" },
      auth,
    );
    const shelf = at(first.json, ...SECTION_LIST, "contents", 0, "musicShelfRenderer") as Json;
    const rows = shelf.contents as Json[];
    expect(rows.length).toBe(26); // the shuffle row, then 25 songs
    const token = String(at(shelf, "continuations", 0, "nextContinuationData", "continuation"));
    const next = await api(emu, "browse", {}, auth, { query: `&ctoken=${token}&continuation=${token}` });
    const more = at(next.json, "continuationContents", "musicShelfContinuation", "contents") as Json[];
    expect(more.length).toBeGreaterThan(0);
    const titles = [...rows.slice(1), ...more].map((r) =>
      String(
        at(
          r,
          "musicResponsiveListItemRenderer",
          "flexColumns",
          0,
          "musicResponsiveListItemFlexColumnRenderer",
          "text",
          "runs",
          0,
          "text",
        ),
      ),
    );
    expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b, "en")));
    expect(
      (await api(emu, "browse", { browseId: "FEmusic_liked_videos", params: "bogus" }, auth)).status,
    ).toBe(400);
  });

  it("the watch queue continues with nextRadioContinuationData for radios", async () => {
    const v = q<{ v: string }>("SELECT video_id AS v FROM songs LIMIT 1").v;
    const r = await api(emu, "next", {
      videoId: v,
      playlistId: `RDAMVM${v}`,
      enablePersistentPlaylistPanel: true,
      isAudioOnly: true,
    });
    const panel = findAll(r.json, "playlistPanelRenderer")[0] as Json;
    expect((panel.contents as unknown[]).length).toBe(50);
    const token = at(panel, "continuations", 0, "nextRadioContinuationData", "continuation");
    expect(typeof token).toBe("string");
    const next = await api(
      emu,
      "next",
      { videoId: v, playlistId: `RDAMVM${v}` },
      {},
      { query: `&ctoken=${token}&continuation=${token}` },
    );
    expect(
      (at(next.json, "continuationContents", "playlistPanelContinuation", "contents") as unknown[]).length,
    ).toBeGreaterThan(0);
  });

  it("the queue of a private playlist is missing, with HTTP 200", async () => {
    const owned = q<{ p: string }>(
      "SELECT playlist_id AS p FROM playlists WHERE owner_account_id = 1 AND privacy = 'PRIVATE' LIMIT 1",
    ).p;
    const r = await api(emu, "next", { playlistId: owned });
    expect(r.status).toBe(200);
    expect(findAll(r.json, "playlistPanelRenderer")).toEqual([]);
    const mine = await api(emu, "next", { playlistId: owned }, await fresh());
    expect(findAll(mine.json, "playlistPanelRenderer").length).toBe(1);
  });

  it("home continues its section list with shape A", async () => {
    const r = await api(emu, "browse", { browseId: "FEmusic_home" });
    const list = at(r.json, ...SECTION_LIST) as Json;
    const token = at(list, "continuations", 0, "nextContinuationData", "continuation");
    const next = await api(
      emu,
      "browse",
      { browseId: "FEmusic_home" },
      {},
      { query: `&ctoken=${token}&continuation=${token}` },
    );
    expect(
      (at(next.json, "continuationContents", "sectionListContinuation", "contents") as unknown[]).length,
    ).toBe(3);
  });
});

describe("pages", () => {
  it("an artist's songs shelf links to a playlist of the artist's songs", async () => {
    const c = q<{ c: string; id: number }>(
      "SELECT channel_id AS c, id FROM artists WHERE kind = 'artist' LIMIT 1",
    );
    const page = await api(emu, "browse", { browseId: c.c });
    const link = String(
      at(
        page.json,
        ...SECTION_LIST,
        "contents",
        0,
        "musicShelfRenderer",
        "title",
        "runs",
        0,
        "navigationEndpoint",
        "browseEndpoint",
        "browseId",
      ),
    );
    const list = await api(emu, "browse", { browseId: link });
    expect(list.status).toBe(200);
    const n = q<{ n: number }>(
      "SELECT count(*) AS n FROM songs WHERE artist_id = ? AND video_type = 'MUSIC_VIDEO_TYPE_ATV'",
      c.id,
    ).n;
    expect(findAll(list.json, "playlistItemData").length).toBe(Math.min(n, 100));
  });

  it("an artist's album grid reloads in the order chosen from its sort menu", async () => {
    const a = q<{ c: string; id: number }>(
      "SELECT a.channel_id AS c, a.id FROM artists a WHERE kind = 'artist' AND (SELECT count(*) FROM albums WHERE artist_id = a.id AND type = 'Album') > 2 LIMIT 1",
    );
    const page = await api(emu, "browse", { browseId: a.c, params: "ggMIegYIARoCAQI%3D" });
    const options = findAll(page.json, "musicMultiSelectMenuItemRenderer") as Json[];
    expect(options.map((o) => at(o, "title", "runs", 0, "text"))).toEqual([
      "Recency",
      "Popularity",
      "Alphabetical order",
    ]);
    const token = at(
      (at(options[2], "selectedCommand", "commandExecutorCommand", "commands") as Json[]).at(-1),
      "browseSectionListReloadEndpoint",
      "continuation",
      "reloadContinuationData",
      "continuation",
    );
    const reloaded = await api(
      emu,
      "browse",
      { browseId: a.c, params: "ggMIegYIARoCAQI%3D" },
      {},
      { query: `&ctoken=${token}&continuation=${token}` },
    );
    const grid = at(
      reloaded.json,
      "continuationContents",
      "sectionListContinuation",
      "contents",
      0,
      "gridRenderer",
      "items",
    ) as Json[];
    const titles = grid.map((g) => String(at(g, "musicTwoRowItemRenderer", "title", "runs", 0, "text")));
    const expected = (
      emu.state.store.sqlite
        .prepare(
          "SELECT title FROM albums WHERE artist_id = ? AND type = 'Album' ORDER BY title COLLATE NOCASE, id",
        )
        .all(a.id) as { title: string }[]
    ).map((r) => r.title);
    expect(titles).toEqual(expected);
  });

  it("the New episodes playlist lists episodes of saved podcasts", async () => {
    await fresh();
    const newEpisodes = async () =>
      findAll((await api(emu, "browse", { browseId: "VLRDPN" }, auth)).json, "musicMultiRowListItemRenderer")
        .length;
    // The seeded account has saved podcasts, so its feed is not empty.
    const before = await newEpisodes();
    expect(before).toBeGreaterThan(0);
    const p = q<{ p: string; id: number }>(
      "SELECT playlist_id AS p, id FROM podcasts WHERE playlist_id NOT IN (SELECT target_id FROM ratings WHERE account_id = 1 AND rating = 'LIKE') LIMIT 1",
    );
    await api(emu, "like/like", { target: { playlistId: p.p } }, auth);
    expect(await newEpisodes()).toBe(
      before +
        Math.min(5, q<{ n: number }>("SELECT count(*) AS n FROM episodes WHERE podcast_id = ?", p.id).n),
    );
    expect((await api(emu, "browse", { browseId: "VLRDPN" })).status).toBe(401);
  });

  it("a song without lyrics has no lyrics shelf and its Lyrics tab is unselectable", async () => {
    const v = q<{ v: string }>(
      "SELECT video_id AS v FROM songs WHERE lyrics_source IS NULL AND video_type = 'MUSIC_VIDEO_TYPE_ATV' LIMIT 1",
    ).v;
    const lyrics = await api(emu, "browse", { browseId: `MPLYt_${v}` });
    expect(findAll(lyrics.json, "musicDescriptionShelfRenderer")).toEqual([]);
    const watch = await api(emu, "next", { videoId: v });
    const tab = (findAll(watch.json, "tabRenderer") as Json[]).find((t) => t.title === "Lyrics");
    expect(tab?.unselectable).toBe(true);
  });

  it("serves timed lyrics to the ANDROID_MUSIC client only", async () => {
    const v = q<{ v: string; d: number }>(
      "SELECT video_id AS v, duration_seconds AS d FROM songs WHERE lyrics_source IS NOT NULL LIMIT 1",
    );
    const web = await api(emu, "browse", { browseId: `MPLYt_${v.v}` });
    const plain = String(
      at(
        web.json,
        "contents",
        "sectionListRenderer",
        "contents",
        0,
        "musicDescriptionShelfRenderer",
        "description",
        "runs",
        0,
        "text",
      ),
    );
    const android = await call(emu, "/youtubei/v1/browse", {
      body: JSON.stringify({
        context: { client: { clientName: "ANDROID_MUSIC", clientVersion: "7.21.50", hl: "en" } },
        browseId: `MPLYt_${v.v}`,
      }),
    });
    const data = at(
      android.json,
      "contents",
      "elementRenderer",
      "newElement",
      "type",
      "componentType",
      "model",
      "timedLyricsModel",
      "lyricsData",
    ) as Json;
    const lines = data.timedLyricsData as Json[];
    expect(lines.map((l) => l.lyricLine)).toEqual(plain.split("\r\n").filter((l) => l !== ""));
    const starts = lines.map((l) => Number(at(l, "cueRange", "startTimeMilliseconds")));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(
      Math.max(...lines.map((l) => Number(at(l, "cueRange", "endTimeMilliseconds")))),
    ).toBeLessThanOrEqual(v.d * 1000);
  });

  it("credits name the performer, related lists songs and artists", async () => {
    const s = q<{ v: string; a: string }>(
      "SELECT s.video_id AS v, a.name AS a FROM songs s JOIN artists a ON a.id = s.artist_id LIMIT 1",
    );
    const credits = await api(emu, "browse", { browseId: `MPTC${s.v}` });
    const sections = findAll(credits.json, "dismissableDialogContentSectionRenderer") as Json[];
    expect(at(sections[0], "title", "runs", 0, "text")).toBe("Performed by");
    expect(at(sections[0], "subtitle", "runs", 0, "text")).toBe(s.a);
    const related = await api(emu, "browse", { browseId: `MPTRt_${s.v}` });
    expect(findAll(related.json, "musicTwoRowItemRenderer").length).toBeGreaterThan(0);
  });

  it("charts: the 2026 layout (albums, video charts with Trending 20, artists; no genres); rank and trend only when signed in", async () => {
    const global = await api(emu, "browse", {
      browseId: "FEmusic_charts",
      formData: { selectedValues: ["ZZ"] },
    });
    const us = await api(
      emu,
      "browse",
      { browseId: "FEmusic_charts", formData: { selectedValues: ["US"] } },
      await fresh(),
    );
    const titles = (r: typeof us) =>
      (findAll(r.json, "musicCarouselShelfBasicHeaderRenderer") as Json[]).map((h) =>
        at(h, "title", "runs", 0, "text"),
      );
    for (const page of [global, us]) {
      expect(titles(page)).toEqual(["Albums", "Video charts", "Top artists"]);
    }
    const charts = (r: typeof us) =>
      (findAll(r.json, "musicTwoRowItemRenderer") as Json[])
        .map((c) => String(at(c, "title", "runs", 0, "text")))
        .filter((t) => /Trending|Music Videos/.test(t));
    expect(charts(us)).toEqual([
      "Trending 20 United States",
      "Daily Top Music Videos - United States",
      "Top 100 Music Videos United States",
    ]);
    expect(findAll(global.json, "musicCustomIndexColumnRenderer")).toEqual([]);
    expect(findAll(us.json, "musicCustomIndexColumnRenderer").length).toBeGreaterThan(0);
  });

  it("search suggestions mark the typed text bold, and come from history when signed in", async () => {
    const r = await api(emu, "music/get_search_suggestions", { input: "the" });
    const items = at(r.json, "contents", 0, "searchSuggestionsSectionRenderer", "contents") as Json[];
    expect(items.length).toBeGreaterThan(0);
    const runs = at(items[0], "searchSuggestionRenderer", "suggestion", "runs") as Json[];
    expect(runs.some((x) => x.bold === true && String(x.text).toLowerCase() === "the")).toBe(true);
    const signed = await api(emu, "music/get_search_suggestions", { input: "the" }, await fresh());
    expect(findAll(signed.json, "historySuggestionRenderer").length).toBe(1);
    const empty = await api(emu, "music/get_search_suggestions", { input: "" });
    expect(at(empty.json, "contents")).toBeUndefined();
  });

  it("two emulators with the same seed serve the same pages", async () => {
    const twin = await startEmulator({ catalogueSize: 400, seed: 9, cache: false });
    try {
      const p = q<{ p: string }>("SELECT playlist_id AS p FROM playlists WHERE kind = 'editorial' LIMIT 1").p;
      for (const body of [
        { browseId: "FEmusic_explore" },
        { browseId: `VL${p}` },
        { browseId: "FEmusic_charts" },
      ]) {
        const a = await api(emu, "browse", body);
        const b = await api(twin, "browse", body);
        expect(b.text).toBe(a.text);
      }
    } finally {
      await twin.stop();
    }
  });
});
