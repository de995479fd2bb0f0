/**
 * The library's sort menu and filter chips as the service serves them, and as three clients use
 * them: the raw wire (the capture's own tokens sent back), youtubei.js's Music library API, and our
 * MusicClient's `order` option (sent as browse `params`, as ytmusicapi does). Expected shapes and
 * tokens come from the captures, never from the emulator's own tables.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Innertube, Log, Parser, YTNodes } from "youtubei.js";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { MusicClient } from "../../src/index.js";
import { api, at, findAll, headersFor, type Json, SECTION_LIST } from "./helpers.js";

const FIXTURES = fileURLToPath(new URL("../../../shared/fixtures/responses/", import.meta.url));
const present = existsSync(FIXTURES);
const capture = (name: string): Json => JSON.parse(readFileSync(`${FIXTURES}${name}.json`, "utf8"));

Log.setLevel(Log.Level.NONE);

let emu: RunningEmulator;
let auth: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 300, seed: 1 });
  auth = await headersFor(emu, 1);
});
afterAll(async () => {
  await emu?.stop();
});

/** A copy without the tracking strings, which differ on every response. */
function untracked(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(untracked);
  if (!v || typeof v !== "object") return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => k !== "trackingParams" && k !== "clickTrackingParams")
      .map(([k, x]) => [k, untracked(x)]),
  );
}

/** The sort menu's reload token per option title. */
function sortTokens(page: unknown): Record<string, string> {
  const options = findAll(page, "musicMultiSelectMenuItemRenderer") as Json[];
  return Object.fromEntries(
    options.map((o) => [
      String(at(o, "title", "runs", 0, "text")),
      String(
        at(
          (at(o, "selectedCommand", "commandExecutorCommand", "commands") as Json[]).at(-1),
          "browseSectionListReloadEndpoint",
          "continuation",
          "reloadContinuationData",
          "continuation",
        ),
      ),
    ]),
  );
}

const chipsOf = (page: unknown) => at(findAll(page, "chipCloudRenderer")[0], "chips") as Json[];
const rowTitle = (row: unknown) =>
  String(
    at(row, "musicResponsiveListItemRenderer", "flexColumns", 0, "musicResponsiveListItemFlexColumnRenderer")
      ? at(
          row,
          "musicResponsiveListItemRenderer",
          "flexColumns",
          0,
          "musicResponsiveListItemFlexColumnRenderer",
          "text",
          "runs",
          0,
          "text",
        )
      : "",
  );

/**
 * Titles in the order a list shows them, without its fixed first rows (Shuffle all, New playlist…;
 * Liked Music is pinned, capture yt_get_library_playlists, so no sort moves it).
 */
const LEADING = new Set([
  "Shuffle all",
  "New playlist",
  "Liked Music",
  "Add podcast",
  "New Episodes",
  "Episodes for Later",
]);
const entries = (titles: string[]) => titles.filter((t) => !LEADING.has(t));

function expectOrder(titles: string[], title: string, saved: string[]): void {
  const sorted = [...titles].sort((a, b) => a.localeCompare(b, "en"));
  if (title === "A to Z") expect(titles).toEqual(sorted);
  else if (title === "Z to A") expect(titles).toEqual(sorted.reverse());
  else expect(titles).toEqual(saved);
}

describe.skipIf(!present)("the library's sort menu and filter chips on the wire", () => {
  // docs/PROTOCOL.md#library
  it("hands out the sort menu's reload tokens byte for byte as the capture has them", async () => {
    const mine = await api(emu, "browse", { browseId: "FEmusic_liked_videos" }, auth);
    expect(mine.status).toBe(200);
    expect(sortTokens(mine.json)).toEqual(sortTokens(capture("yt_get_library_songs_20240701")));
  });

  // docs/PROTOCOL.md#library
  it("serves filter chips as the captures do: a command executor whose first command is the browse", async () => {
    const cases: [string, string][] = [
      ["yt_get_library_playlists", "FEmusic_liked_playlists"],
      ["yt_get_library_songs_20240701", "FEmusic_liked_videos"],
      ["yt_get_library_albums_20240701", "FEmusic_liked_albums"],
      ["yt_get_library_artists", "FEmusic_library_corpus_track_artists"],
      ["yt_get_library_artist_subscriptions_20240701", "FEmusic_library_corpus_artists"],
      ["yt_get_library_podcasts_20250626", "FEmusic_library_non_music_audio_list"],
      ["yt_get_library_channels_20250626", "FEmusic_library_non_music_audio_channels_list"],
      ["yt_get_library_upload_songs_20240712", "FEmusic_library_privately_owned_tracks"],
      ["yt_get_library_upload_albums_20240712", "FEmusic_library_privately_owned_releases"],
    ];
    for (const [name, browseId] of cases) {
      const real = chipsOf(capture(name));
      // Open the page as its own chip does (with the chip's params, where it has some).
      const own = real.find(
        (c) =>
          at(c, "chipCloudChipRenderer", "uniqueId") &&
          at(c, "chipCloudChipRenderer", "isSelected") &&
          at(
            c,
            "chipCloudChipRenderer",
            "navigationEndpoint",
            "commandExecutorCommand",
            "commands",
            0,
            "browseEndpoint",
            "browseId",
          ) === browseId,
      );
      const params = at(
        own,
        "chipCloudChipRenderer",
        "navigationEndpoint",
        "commandExecutorCommand",
        "commands",
        0,
        "browseEndpoint",
        "params",
      );
      const mine = await api(emu, "browse", { browseId, ...(params ? { params } : {}) }, auth);
      expect(mine.status, name).toBe(200);
      expect(untracked(chipsOf(mine.json)), name).toEqual(untracked(real));
    }
  });

  // docs/PROTOCOL.md#library
  it("accepts the capture's sort tokens as continuations, in the body and in the query", async () => {
    const page = await api(emu, "browse", { browseId: "FEmusic_liked_videos" }, auth);
    const shelf = at(page.json, ...SECTION_LIST, "contents", 0, "musicShelfRenderer", "contents") as Json[];
    const saved = entries(shelf.map(rowTitle));
    expect(saved.length).toBeGreaterThan(3);
    for (const [title, token] of Object.entries(sortTokens(capture("yt_get_library_songs_20240701")))) {
      const inBody = await api(emu, "browse", { continuation: token }, auth);
      const inQuery = await api(emu, "browse", {}, auth, {
        query: `&ctoken=${token}&continuation=${token}&type=next`,
      });
      for (const r of [inBody, inQuery]) {
        expect(r.status, title).toBe(200);
        const rows = at(
          r.json,
          "continuationContents",
          "sectionListContinuation",
          "contents",
          0,
          "musicShelfRenderer",
          "contents",
        ) as Json[];
        expectOrder(entries(rows.map(rowTitle)), title, saved);
      }
    }
  });

  // docs/PROTOCOL.md#library
  it("accepts sort params as clients send them: plain, with the menu's flag, and sub-filter params", async () => {
    const wrapped = Buffer.from(
      decodeURIComponent(sortTokens(capture("yt_get_library_songs_20240701"))["A to Z"]!),
      "base64",
    );
    // The params inside the capture's token (a length-prefixed string after field 3's tag, 0x1a).
    const menuParams = wrapped.subarray(wrapped.indexOf(0x1a) + 2).toString("utf8");
    const subFilter = at(
      chipsOf(capture("yt_get_library_artists"))[2],
      "chipCloudChipRenderer",
      "navigationEndpoint",
      "commandExecutorCommand",
      "commands",
      0,
      "browseEndpoint",
    ) as Json;
    const ok: [string, string][] = [
      ["FEmusic_liked_videos", "ggMGKgQIARAA"],
      ["FEmusic_liked_videos", menuParams],
      [String(subFilter.browseId), String(subFilter.params)],
    ];
    for (const [browseId, params] of ok) {
      const r = await api(emu, "browse", { browseId, params }, auth);
      expect(r.status, params).toBe(200);
    }
    const bad = await api(emu, "browse", { browseId: "FEmusic_liked_videos", params: "not-a-sort" }, auth);
    expect(bad.status).toBe(400);
  });
});

/** youtubei.js's Innertube with every request sent to the emulator, signed in with account 1's cookie. */
async function innertube(): Promise<Innertube> {
  return Innertube.create({
    cookie: auth.Cookie ?? auth.cookie,
    generate_session_locally: true,
    retrieve_innertube_config: false,
    retrieve_player: false,
    fetch: (input, init) => {
      const req = input instanceof Request ? input : new Request(input, init);
      const url = new URL(req.url);
      return fetch(new Request(emu.url + url.pathname + url.search, req), init);
    },
  });
}

type Library = Awaited<ReturnType<Innertube["music"]["getLibrary"]>>;

function titlesOf(lib: Library): string[] {
  const items = (lib.contents ?? []).flatMap((list) =>
    list.is(YTNodes.Grid) ? [...list.items] : [...(list.as(YTNodes.MusicShelf).contents ?? [])],
  );
  return items.map((i) => {
    if (i.is(YTNodes.MusicTwoRowItem)) return i.title.toString();
    const row = i.as(YTNodes.MusicResponsiveListItem);
    return row.title ?? row.name ?? row.flex_columns[0]?.title.toString() ?? "";
  });
}

describe.skipIf(!present)("the library through youtubei.js's Music library API", () => {
  // docs/PROTOCOL.md#library
  it("applies every filter chip and every sort order, with no parser report the captures do not share", async () => {
    const reports: string[] = [];
    Parser.setParserErrorHandler((e) => reports.push(`${e.error_type}:${e.classname}`));
    const yt = await innertube();
    const landing = await yt.music.getLibrary();
    expect(landing.filters).toEqual(["Playlists", "Songs", "Albums", "Artists", "Podcasts"]);
    const visited: string[] = [];
    for (const filter of landing.filters) {
      const lib = await landing.applyFilter(filter);
      const saved = entries(titlesOf(lib));
      expect(saved.length, filter).toBeGreaterThan(0);
      const options = lib.page.contents_memo?.getType(YTNodes.MusicMultiSelectMenuItem) ?? [];
      expect(options.map((o) => o.title)).toEqual(["Recently saved", "A to Z", "Z to A"]);
      for (const option of options) {
        // youtubei.js counts every option with a command as selected (MusicMultiSelectMenuItem), and
        // the capture gives each one a command, so `applySort` would return at once: unmark it.
        option.selected = false;
        const sorted = await lib.applySort(option);
        expectOrder(entries(titlesOf(sorted)), option.title, saved);
        visited.push(`${filter}/${option.title}`);
      }
    }
    expect(visited).toHaveLength(15);
    // Renderers youtubei.js does not know are excused where the service's own pages hold them.
    const known = JSON.stringify(capture("yt_get_library_podcasts_20250626")).toLowerCase();
    const unexcused = reports.filter((r) => {
      const [kind, name = ""] = r.split(":");
      return !(kind === "class_not_found" && known.includes(`"${name.toLowerCase()}`));
    });
    expect(unexcused).toEqual([]);
  });

  // docs/PROTOCOL.md#library
  it("reaches the sub-filters (Subscriptions, Channels) from their parent chips", async () => {
    const yt = await innertube();
    const landing = await yt.music.getLibrary();
    const artists = await landing.applyFilter("Artists");
    expect(artists.filters).toContain("Subscriptions");
    const subscriptions = await artists.applyFilter("Subscriptions");
    expect(subscriptions.contents?.length).toBe(1);
    const podcasts = await landing.applyFilter("Podcasts");
    const channels = await podcasts.applyFilter("Channels");
    expect(channels.contents?.length).toBe(1);
  });
});

describe("the library through our client's order option", () => {
  // docs/PROTOCOL.md#library (a guard: the params our client and ytmusicapi send keep working)
  it("returns songs, albums and artists in each order", async () => {
    const music = new MusicClient({ baseUrl: emu.url, auth, retry: false });
    const lists = {
      songs: (order: string) => music.getLibrarySongs({ order, limit: 1000 } as never),
      albums: (order: string) => music.getLibraryAlbums({ order, limit: 1000 } as never),
      artists: (order: string) => music.getLibraryArtists({ order, limit: 1000 } as never),
    };
    const name = (x: unknown) => String((x as Json).title ?? (x as Json).artist);
    for (const [list, get] of Object.entries(lists)) {
      const saved = (await get("recently_added")).map(name);
      expect(saved.length, list).toBeGreaterThan(1);
      expectOrder((await get("a_to_z")).map(name), "A to Z", saved);
      expectOrder((await get("z_to_a")).map(name), "Z to A", saved);
    }
  });
});
