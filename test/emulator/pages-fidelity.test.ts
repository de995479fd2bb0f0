/**
 * Pages as the service serves them to any client (docs/PROTOCOL.md#pages): the home and explore
 * tabs, the pages the explore page links, the artist songs shelf of each layout, the player script's
 * signatureTimestamp, and album track rows. Expected shapes come from the real captures in
 * ../shared/fixtures; youtubei.js (its Music page classes and its player-script extraction) stands in
 * for a client that is not ours.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JsAnalyzer, JsExtractor, JsMatchers, Log, Parser, YTMusic } from "youtubei.js";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { MusicClient } from "../../src/index.js";
import { api, at, call, findAll, headersFor, type Json, SECTION_LIST } from "./helpers.js";

const FIXTURES = fileURLToPath(new URL("../../../shared/fixtures/responses/", import.meta.url));
const present = existsSync(FIXTURES);
if (!present) console.warn(`pages-fidelity tests skipped: no captures at ${FIXTURES}`);
const capture = (name: string): Json => JSON.parse(readFileSync(`${FIXTURES}${name}.json`, "utf8")) as Json;

Log.setLevel(Log.Level.NONE);

let emu: RunningEmulator;
let auth: Record<string, string>;
const q = <T>(sql: string, ...args: unknown[]) => emu.state.store.sqlite.prepare(sql).get(...args) as T;
const browse = async (body: Json, headers: Record<string, string> = {}) => {
  const r = await api(emu, "browse", body, headers);
  expect(r.status, JSON.stringify(body)).toBe(200);
  return r.json as Json;
};

/**
 * The part of youtubei.js's `Actions` its Music page classes use to load further pages: POST the
 * endpoint's body to the emulator (signed out), parsed when asked.
 */
const actions = {
  async execute(path: string, args: Json) {
    const { client: _client, parse, ...body } = args;
    const r = await api(emu, path.replace(/^\//, ""), body);
    return parse
      ? Parser.parseResponse(r.json as never)
      : { success: true, status_code: r.status, data: r.json };
  },
};
const response = (data: unknown) => ({ success: true, status_code: 200, data }) as never;

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 400, seed: 5 });
  auth = await headersFor(emu, 1);
});
afterAll(async () => {
  await emu?.stop();
});

/** The first tab of a single-column page, without its content. */
function tabFields(page: unknown): Json {
  const tab = at(page, "contents", "singleColumnBrowseResultsRenderer", "tabs", 0, "tabRenderer") as Json;
  const { content: _content, trackingParams: _t, ...rest } = tab;
  const endpoint = at(rest, "endpoint", "browseEndpoint", "browseId");
  return { ...rest, endpoint };
}

describe.skipIf(!present)("home and explore tabs", () => {
  // docs/PROTOCOL.md#browsing
  it("home and explore mark their tab selected and name it as the captures do; youtubei.js finds both", async () => {
    const pages = [
      { id: "FEmusic_home", capture: "yt_set_taste_profile_20240723" },
      { id: "FEmusic_explore", capture: "ytm_2025_11_get_explore" },
    ];
    for (const p of pages) {
      const page = await browse({ browseId: p.id });
      expect(tabFields(page), p.id).toEqual(tabFields(capture(p.capture)));
    }
    const home = new YTMusic.HomeFeed(response(await browse({ browseId: "FEmusic_home" })), actions as never);
    expect(home.sections?.length).toBeGreaterThan(0);
    const explore = new YTMusic.Explore(response(await browse({ browseId: "FEmusic_explore" })));
    expect(explore.top_buttons.length).toBe(4);
    expect(explore.sections.length).toBeGreaterThan(0);
  });

  // docs/PROTOCOL.md#browsing
  it("home continues in shape A from where the capture puts the token, and youtubei.js reads every page", async () => {
    const first = await browse({ browseId: "FEmusic_home" });
    const tokenPath = [...SECTION_LIST, "continuations", 0, "nextContinuationData", "continuation"];
    expect(typeof at(capture("yt_set_taste_profile_20240723"), ...tokenPath)).toBe("string");
    expect(typeof at(first, ...tokenPath)).toBe("string");
    let feed = new YTMusic.HomeFeed(response(first), actions as never);
    let pages = 0;
    for (let i = 0; i < 20 && feed.has_continuation; i++) {
      feed = await feed.getContinuation();
      expect(feed.sections?.length).toBeGreaterThan(0);
      pages++;
    }
    expect(pages).toBeGreaterThan(0);
    expect(feed.has_continuation).toBe(false);
    // Our client and the reference implementation read the rows at `continuationContents` (docs/PROTOCOL.md#continuations).
    const token = String(at(first, ...tokenPath));
    const next = (await api(emu, "browse", { continuation: token })).json;
    expect(at(next, "continuationContents", "sectionListContinuation", "contents", 0)).toBeDefined();
  });
});

/** Every browse endpoint (id and params) in a page, once each. */
function browseLinks(page: unknown): { browseId: string; params?: string }[] {
  const out = new Map<string, { browseId: string; params?: string }>();
  for (const e of findAll(page, "browseEndpoint") as Json[]) {
    if (typeof e.browseId !== "string") continue;
    const link =
      typeof e.params === "string" ? { browseId: e.browseId, params: e.params } : { browseId: e.browseId };
    out.set(`${link.browseId}|${link.params ?? ""}`, link);
  }
  return [...out.values()];
}

describe.skipIf(!present)("the pages the explore page links", () => {
  const exploreIds = () =>
    browseLinks(capture("ytm_2025_11_get_explore"))
      .map((l) => l.browseId)
      .filter((id) => id.startsWith("FEmusic_") && id !== "FEmusic_explore");

  // docs/PROTOCOL.md#explore
  it("each FEmusic link of the captured explore page is on the emulator's and opens a titled section list", async () => {
    const ours = new Set(browseLinks(await browse({ browseId: "FEmusic_explore" })).map((l) => l.browseId));
    const ids = [...new Set(exploreIds())];
    expect(ids).toEqual(expect.arrayContaining(["FEmusic_new_releases", "FEmusic_non_music_audio"]));
    for (const id of ids) {
      expect(ours.has(id), id).toBe(true);
      if (id === "FEmusic_moods_and_genres_category") continue; // needs a category's params
      const page = await browse({ browseId: id });
      const sections = at(page, ...SECTION_LIST, "contents") as unknown[];
      expect(sections?.length, id).toBeGreaterThan(0);
      expect(typeof at(page, "header", "musicHeaderRenderer", "title", "runs", 0, "text"), id).toBe("string");
      // Each page lists something a client can open.
      expect(browseLinks(sections).length + findAll(sections, "watchEndpoint").length, id).toBeGreaterThan(0);
    }
  });

  // docs/PROTOCOL.md#explore
  it("the emulator has no route that answers a link it serves itself with 404", async () => {
    const artist = q<{ c: string }>("SELECT channel_id AS c FROM artists WHERE kind = 'artist' LIMIT 1").c;
    const album = q<{ b: string }>("SELECT browse_id AS b FROM albums LIMIT 1").b;
    const playlist = q<{ p: string }>(
      "SELECT playlist_id AS p FROM playlists WHERE kind = 'editorial' LIMIT 1",
    ).p;
    const mood = q<{ p: string }>("SELECT params AS p FROM mood_categories LIMIT 1").p;
    const starts: Json[] = [
      { browseId: "FEmusic_home" },
      { browseId: "FEmusic_explore" },
      { browseId: "FEmusic_charts" },
      { browseId: "FEmusic_moods_and_genres" },
      { browseId: "FEmusic_moods_and_genres_category", params: mood },
      { browseId: artist },
      { browseId: album },
      { browseId: `VL${playlist}` },
      { browseId: "FEmusic_library_landing" },
      { browseId: "FEmusic_liked_playlists" },
      { browseId: "FEmusic_liked_videos" },
      { browseId: "FEmusic_liked_albums" },
      { browseId: "FEmusic_library_corpus_track_artists" },
      { browseId: "FEmusic_library_non_music_audio_list" },
      { browseId: "FEmusic_history" },
    ];
    const seen = new Set<string>();
    const missing: string[] = [];
    // Two levels: the start pages' links, and the links of the fixed feeds (`FE…`) reached from them,
    // so the pages explore opens are walked too. Bounded by the set of distinct links.
    let frontier = starts;
    for (let depth = 0; depth < 2 && frontier.length > 0; depth++) {
      const next: Json[] = [];
      for (const start of frontier) {
        const page = (await api(emu, "browse", start, auth)).json;
        for (const link of browseLinks(page)) {
          const key = `${link.browseId}|${link.params ?? ""}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const r = await api(emu, "browse", link, auth);
          if (r.status === 404) missing.push(`${String(start.browseId)} → ${key}`);
          if (link.browseId.startsWith("FE")) next.push(link);
        }
      }
      frontier = next;
    }
    expect(seen.size).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });
});

/** The first shelf of an artist page's section list, in either layout. */
function songsShelf(page: unknown): Json {
  const layout = at(page, "contents", "twoColumnBrowseResultsRenderer")
    ? "twoColumnBrowseResultsRenderer"
    : "singleColumnBrowseResultsRenderer";
  const sections = at(
    page,
    "contents",
    layout,
    "tabs",
    0,
    "tabRenderer",
    "content",
    "sectionListRenderer",
    "contents",
  ) as Json[];
  return sections.find((s) => s.musicShelfRenderer)?.musicShelfRenderer as Json;
}

describe.skipIf(!present)("the artist songs shelf", () => {
  // docs/PROTOCOL.md#browsing
  it("is titled as each layout's capture titles it, and the clients still find the songs", async () => {
    const pick = (twoColumn: boolean) =>
      q<{ c: string; n: number }>(
        `SELECT a.channel_id AS c, count(*) AS n FROM artists a JOIN songs s ON s.artist_id = a.id
         WHERE a.kind = 'artist' AND s.video_type = 'MUSIC_VIDEO_TYPE_ATV' AND (a.id % 5 = 0) = ?
         GROUP BY a.id ORDER BY a.id LIMIT 1`,
        twoColumn ? 1 : 0,
      ).c;
    const client = new MusicClient({ baseUrl: emu.url, retry: false });
    const layouts = [
      { twoColumn: false, capture: "ytm_2026_05_get_artist1" },
      { twoColumn: true, capture: "ytm_2026_07_get_artist_two_column" },
    ];
    for (const l of layouts) {
      const channelId = pick(l.twoColumn);
      const page = await browse({ browseId: channelId });
      const ours = songsShelf(page);
      const theirs = songsShelf(capture(l.capture));
      expect(at(ours, "title", "runs", 0, "text"), l.capture).toBe(at(theirs, "title", "runs", 0, "text"));
      if (theirs.bottomText) expect(ours.bottomText).toEqual(theirs.bottomText);
      const artist = await client.getArtist(channelId);
      expect(artist.songs?.results?.length, l.capture).toBeGreaterThan(0);
      expect(artist.songs?.browseId).toMatch(/^VL/);
      if (!l.twoColumn) {
        // youtubei.js opens the full list from the shelf it finds by the newest capture's title.
        const parsed = new YTMusic.Artist(response(page), actions as never);
        const all = await parsed.getAllSongs();
        expect(all?.contents?.length).toBeGreaterThan(0);
      }
    }
  });
});

describe("the player script", () => {
  // docs/PROTOCOL.md#player
  it("holds signatureTimestamp inside a function a variable holds, where youtubei.js's extraction and our client find it", async () => {
    // A clock of its own, so the timestamp differs from the one a client would compute from today.
    const day = 86_400_000;
    const fixed = Date.UTC(2031, 0, 15);
    const own = await startEmulator({ catalogueSize: 40, seed: 2, now: () => fixed });
    try {
      const expected = Math.floor(fixed / day) - 1;
      const start = await call(own, "/");
      const jsUrl = /"jsUrl":"([^"]+)"/.exec(start.text)?.[1];
      expect(jsUrl).toBeDefined();
      const script = (await call(own, String(jsUrl))).text;
      // The extraction youtubei.js runs on a downloaded player (core/Player.js).
      const analyzer = new JsAnalyzer(script, {
        extractions: [
          { friendlyName: "sts", match: JsMatchers.timestampMatcher, collectDependencies: false },
        ],
      });
      const result = new JsExtractor(analyzer).buildScript({
        disallowSideEffectInitializers: true,
        exportRawValues: true,
        rawValueOnly: ["sts"],
      });
      expect(Number(result.exportedRawValues?.sts)).toBe(expected);

      const warnings: string[] = [];
      const logger = {
        debug() {},
        info() {},
        error() {},
        warn(_fields: object, message?: string) {
          warnings.push(String(message));
        },
      };
      const client = new MusicClient({ baseUrl: own.url, retry: false, logger });
      const v = (
        own.state.store.sqlite.prepare("SELECT video_id AS v FROM songs LIMIT 1").get() as { v: string }
      ).v;
      const song = (await client.getSong(v)) as unknown as Json;
      expect(at(song, "videoDetails", "videoId")).toBe(v);
      expect(warnings.filter((w) => w.includes("signature timestamp"))).toEqual([]);
    } finally {
      await own.stop();
    }
  });
});

/** Each flex column's text of a renderer tree: `{}` (empty), or its runs. */
function flexTexts(value: unknown): Json[] {
  return (findAll(value, "musicResponsiveListItemFlexColumnRenderer") as Json[]).map(
    (c) => (c.text ?? {}) as Json,
  );
}

/** How a capture writes an album row's artist column: `empty` (`{}`) or `runs` (one or more). */
const columnShape = (t: Json) =>
  Array.isArray(t.runs) ? (t.runs.length > 0 ? "runs" : "empty runs") : "empty";

describe.skipIf(!present)("album track rows", () => {
  const albumRows = (page: unknown) =>
    at(
      page,
      "contents",
      "twoColumnBrowseResultsRenderer",
      "secondaryContents",
      "sectionListRenderer",
      "contents",
      0,
      "musicShelfRenderer",
      "contents",
    ) as Json[];

  // docs/PROTOCOL.md#browsing
  it("carry the artist column in a shape the album captures have, never an empty runs list", async () => {
    const captured = new Set<string>();
    for (const name of [
      "ytm_2024_03_get_album",
      "yt_get_album_20240724",
      "yt_get_album_not_signed_in_20250611",
    ]) {
      for (const row of albumRows(capture(name))) {
        captured.add(columnShape(flexTexts(row)[1] ?? {}));
      }
    }
    expect(captured).not.toContain("empty runs");
    // A one-artist album's rows (ytm_2024_03_get_album, Eminem's "Revival") leave the column as this.
    const oneArtist = albumRows(capture("ytm_2024_03_get_album")).map((row) => flexTexts(row)[1]);
    expect(new Set(oneArtist.map((t) => JSON.stringify(t))).size).toBe(1);
    // Every generated album is by one artist.
    const mixed = q<{ n: number }>(
      "SELECT count(*) AS n FROM songs s JOIN albums al ON al.id = s.album_id WHERE s.artist_id != al.artist_id",
    );
    expect(mixed.n).toBe(0);
    const albums = emu.state.store.sqlite
      .prepare("SELECT browse_id AS b FROM albums ORDER BY id LIMIT 5")
      .all() as {
      b: string;
    }[];
    for (const { b } of albums) {
      for (const headers of [{}, auth]) {
        const rows = albumRows(await browse({ browseId: b }, headers));
        expect(rows.length).toBeGreaterThan(0);
        for (const row of rows) {
          expect(captured).toContain(columnShape(flexTexts(row)[1] ?? {}));
          expect(flexTexts(row)[1]).toEqual(oneArtist[0]);
        }
      }
    }
  });

  // docs/PROTOCOL.md#browsing
  it("let a reader take the first run of every column that has runs, on every page an album flow opens", async () => {
    // The reference implementation reads `text.runs[0]` of any column whose text has `runs`; the
    // captures never give it an empty list.
    const empties = (value: unknown) =>
      flexTexts(value).filter((t) => Array.isArray(t.runs) && t.runs.length === 0);
    for (const name of ["ytm_2024_03_get_album", "yt_get_playlist_20250604", "ytm_2025_11_get_explore"]) {
      expect(empties(capture(name)), name).toEqual([]);
    }
    const album = q<{ b: string; p: string; c: string }>(
      "SELECT al.browse_id AS b, al.audio_playlist_id AS p, a.channel_id AS c FROM albums al JOIN artists a ON a.id = al.artist_id LIMIT 1",
    );
    const pages = [
      { browseId: album.b },
      { browseId: `VL${album.p}` },
      { browseId: album.c },
      { browseId: "FEmusic_home" },
      { browseId: "FEmusic_explore" },
      { browseId: "FEmusic_liked_videos" },
      { browseId: "FEmusic_history" },
    ];
    for (const body of pages) expect(empties(await browse(body, auth)), String(body.browseId)).toEqual([]);
    // Our client still names each track's artist.
    const client = new MusicClient({ baseUrl: emu.url, retry: false });
    const read = await client.getAlbum(album.b);
    for (const t of read.tracks) expect(t.artists?.[0]?.name).toBeTruthy();
  });
});
