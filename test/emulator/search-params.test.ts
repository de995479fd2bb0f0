/**
 * Search `params` as the service reads them (a protobuf, not a fixed string), and the links of the
 * search page that carry them (chips, "Show all", tabs). The expected values come from the captures
 * in ../shared/fixtures and from youtubei.js, an independent client.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Innertube, Log, Parser, YTNodes } from "youtubei.js";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { api, at, findAll, headersFor, type Json } from "./helpers.js";

const RESPONSES = fileURLToPath(new URL("../../../shared/fixtures/responses/", import.meta.url));
const present = existsSync(RESPONSES);
if (!present) console.warn(`search-params tests skipped: no captures at ${RESPONSES}`);

Log.setLevel(Log.Level.NONE);
let parserReports: string[] = [];
Parser.setParserErrorHandler((e) => {
  parserReports.push(`${e.error_type}:${e.classname}`);
});

/** A query with hits in every catalogue category and in the library's songs, albums and artists (seed 1). */
const QUERY = "e";

let emu: RunningEmulator;
let auth: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 300, seed: 1 });
  auth = await headersFor(emu, 1);
});
afterAll(async () => {
  await emu?.stop();
});

// ---- reading pages (ours and the captures) ----

interface Link {
  kind: "chip" | "more" | "tab";
  /** The chip's text, the shelf's title, the tab's title; "" for the clear-filters chip. */
  label: string;
  selected: boolean;
  endpoint: Json;
}

/** Every search link of a search page: its chips, its shelves' "Show all" links and its tabs. */
function linksOf(page: unknown): Link[] {
  const out: Link[] = [];
  const tabs = (at(page, "contents", "tabbedSearchResultsRenderer", "tabs") ?? []) as Json[];
  for (const t of tabs) {
    const tab = t.tabRenderer as Json;
    if (tab.endpoint)
      out.push({ kind: "tab", label: String(tab.title), selected: false, endpoint: tab.endpoint as Json });
    const list = at(tab, "content", "sectionListRenderer") as Json | undefined;
    for (const c of (at(list, "header", "chipCloudRenderer", "chips") ?? []) as Json[]) {
      const chip = c.chipCloudChipRenderer as Json;
      const label = String(at(chip, "text", "runs", 0, "text") ?? "");
      out.push({
        kind: "chip",
        label,
        selected: chip.isSelected === true,
        endpoint: chip.navigationEndpoint as Json,
      });
    }
    for (const s of (list?.contents ?? []) as Json[]) {
      const shelf = s.musicShelfRenderer as Json | undefined;
      if (shelf?.bottomEndpoint)
        out.push({
          kind: "more",
          label: String(at(shelf, "title", "runs", 0, "text")),
          selected: false,
          endpoint: shelf.bottomEndpoint as Json,
        });
    }
  }
  return out;
}

/** What a user sees of a search page: its open tab, its selected chip and its shelves' titles. */
function viewOf(page: unknown): { tab: string; chip: string | null; shelves: string[] } {
  const tabs = at(page, "contents", "tabbedSearchResultsRenderer", "tabs") as Json[];
  const open = tabs.map((t) => t.tabRenderer as Json).find((t) => t.selected === true)!;
  const chip = linksOf(page).find((l) => l.kind === "chip" && l.selected);
  const sections = at(open, "content", "sectionListRenderer", "contents") as Json[];
  const shelves = sections.flatMap((s) => {
    const title = at(s, "musicShelfRenderer", "title", "runs", 0, "text");
    return typeof title === "string" ? [title] : [];
  });
  return { tab: String(open.title), chip: chip?.label ?? null, shelves };
}

const fold = (s: string) => s.replace(/\s/g, " ");

const searchCaptures = (): string[] =>
  present
    ? readdirSync(RESPONSES).filter((f) => f.startsWith("yt_search_") && !f.includes("continuation"))
    : [];
const capture = (file: string): unknown => JSON.parse(readFileSync(RESPONSES + file, "utf8"));

/** Follows a link's `searchEndpoint` with our query, signed in (library links need an account). */
async function follow(endpoint: Json) {
  const se = endpoint.searchEndpoint as Json;
  const body: Json = { query: QUERY };
  if (se.params !== undefined) body.params = se.params;
  return api(emu, "search", body, auth);
}

/** The object with its tracking fields dropped (the emulator renders none), keys sorted. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (!value || typeof value !== "object") return typeof value;
  const entries = Object.entries(value as Json)
    .filter(([k]) => k !== "trackingParams" && k !== "clickTrackingParams")
    .sort(([a], [b]) => a.localeCompare(b));
  return Object.fromEntries(entries.map(([k, v]) => [k, shape(v)]));
}

// ---- youtubei.js against the emulator ----

/** youtubei.js's Music client with every request sent to the emulator. */
async function youtubei(): Promise<Innertube["music"]> {
  const redirect = (input: string | URL | Request, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const url = new URL(request.url);
    return fetch(new Request(emu.url + url.pathname + url.search, request));
  };
  const yt = await Innertube.create({
    fetch: redirect as typeof fetch,
    generate_session_locally: true,
    retrieve_player: false,
  });
  return yt.music;
}

// docs/PROTOCOL.md#search
describe.skipIf(!present)("search params are read as the protobuf they are", () => {
  it("the captures' own chip relation: a filtered page's selected chip names its shelf", () => {
    // The check the next tests make of the emulator holds in every filtered capture.
    let filtered = 0;
    for (const file of searchCaptures()) {
      const v = viewOf(capture(file));
      if (!v.chip || !v.shelves.length) continue;
      filtered++;
      expect(v.shelves, file).toEqual([v.chip]);
    }
    expect(filtered).toBeGreaterThanOrEqual(8);
  });

  it("accepts every params value of the captures' chips, Show-all links and tabs, and opens the page it names", async () => {
    let followed = 0;
    for (const file of searchCaptures()) {
      for (const link of linksOf(capture(file))) {
        if (!link.label) continue; // the clear-filters chip has no page of its own to name
        const r = await follow(link.endpoint);
        expect(r.status, `${file} ${link.kind} ${link.label}`).toBe(200);
        const v = viewOf(r.json);
        // Some captures write the tab "YT\u00a0Music", the newer ones "YT Music".
        if (link.kind === "tab") expect(fold(v.tab), `${file} tab ${link.label}`).toBe(fold(link.label));
        else {
          expect(v.shelves, `${file} ${link.kind} ${link.label}`).toEqual([link.label]);
          expect(v.chip, `${file} ${link.kind} ${link.label}`).toBe(link.label);
        }
        followed++;
      }
    }
    expect(followed).toBeGreaterThan(100);
  });

  it("accepts the web client's own values from the issue: the albums chip and the minimal songs encoding", async () => {
    const albums = await api(emu, "search", { query: QUERY, params: "EgWKAQIYAWoSEAkQAxAOEAoQBRAEEBEQEBAV" });
    expect(albums.status).toBe(200);
    expect(viewOf(albums.json).shelves).toEqual(["Albums"]);
    const songs = await api(emu, "search", { query: QUERY, params: "EgWKAQIIAQ%3D%3D" });
    expect(songs.status).toBe(200);
    expect(viewOf(songs.json).shelves).toEqual(["Songs"]);
  });

  it("youtubei.js's typed searches get the filtered page, with no parser report", async () => {
    const music = await youtubei();
    const titles = { song: "Songs", video: "Videos", album: "Albums", artist: "Artists" } as const;
    for (const [type, title] of Object.entries(titles) as [keyof typeof titles, string][]) {
      parserReports = [];
      const page = await music.search(QUERY, { type });
      const shelves = page.contents?.filterType(YTNodes.MusicShelf) ?? [];
      expect(
        shelves.map((s) => s.title.toString()),
        type,
      ).toEqual([title]);
      expect(shelves[0]?.contents.length, type).toBeGreaterThan(0);
      if (type !== "artist") expect(page.has_continuation, type).toBe(true); // eight artists match
      expect(parserReports, type).toEqual([]);
    }
    // Its playlist type is the playlists flag, which the service answers with community playlists
    // (capture yt_search_playlists_20231228), the shelf youtubei.js's `playlists` reads.
    const playlists = await music.search(QUERY, { type: "playlist" });
    expect(playlists.playlists?.contents.length).toBeGreaterThan(0);
  });

  it("every playlists filter value finds the playlists that hold an artist's songs, and no results only when none does", async () => {
    const all = <T>(sql: string, ...args: unknown[]) =>
      emu.state.store.sqlite.prepare(sql).all(...args) as T[];
    // An artist whose name no playlist's title or author holds, and the public playlists holding its songs.
    const [artist] = all<{ id: number; name: string }>(
      `SELECT id, name FROM artists a WHERE kind = 'artist' AND NOT EXISTS
         (SELECT 1 FROM playlists p WHERE instr(lower(p.title || ' ' || p.author_name), lower(a.name)) > 0)
       ORDER BY id LIMIT 1`,
    );
    expect(artist).toBeDefined();
    const holding = (kinds: string[]) =>
      new Set(
        all<{ id: string }>(
          `SELECT DISTINCT p.playlist_id AS id FROM playlists p JOIN playlist_items i ON i.playlist_id = p.playlist_id
             JOIN songs s ON s.video_id = i.video_id
           WHERE p.privacy = 'PUBLIC' AND s.artist_id = ? AND p.kind IN (${kinds.map(() => "?").join(",")})`,
          artist!.id,
          ...kinds,
        ).map((r) => `VL${r.id}`),
      );
    const values: [string, string, Set<string>][] = [
      // youtubei.js's playlist type, ytmusicapi's playlists filter (capture yt_search_playlists_20231228)
      // and the web client's community and featured chips (captures yt_search_*_playlists_20231226).
      [
        "EgWKAQIoAQ%3D%3D",
        "Community playlists",
        holding(["editorial", "community", "mood", "chart", "user"]),
      ],
      [
        "Eg-KAQwIABAAGAAgACgBMABqChAEEAMQCRAFEAo%3D",
        "Community playlists",
        holding(["editorial", "community", "mood", "chart", "user"]),
      ],
      ["EgeKAQQoAEABagwQDhAKEAMQBBAJEAU%3D", "Community playlists", holding(["community", "user"])],
      ["EgeKAQQoADgBagwQDhAKEAMQBBAJEAU%3D", "Featured playlists", holding(["editorial", "mood"])],
    ];
    for (const [params, title, expected] of values) {
      expect(expected.size, title).toBeGreaterThan(0);
      const r = await api(emu, "search", { query: artist!.name, params });
      expect(viewOf(r.json).shelves, params).toEqual([title]);
      const ids = (findAll(r.json, "browseId") as string[]).filter((id) => id.startsWith("VL"));
      expect(ids.length, params).toBeGreaterThan(0);
      for (const id of ids) expect(expected.has(id), `${params} ${id}`).toBe(true);
      // A query that no title, author, song or artist holds has no results in any of them.
      const none = await api(emu, "search", { query: "zzqx", params });
      expect(findAll(none.json, "musicShelfRenderer"), params).toEqual([]);
      expect(findAll(none.json, "itemSectionRenderer").length, params).toBe(1);
    }
  });

  it("answers a malformed params value with the service's 400", async () => {
    // Not base64, a cut-off length, a varint longer than ten bytes, an end-group with no group.
    for (const params of ["not base64!", "%E0%A4%A", "EgWKAQII", "CP____________8B", "DA%3D%3D"]) {
      const r = await api(emu, "search", { query: QUERY, params });
      expect(r.status, params).toBe(400);
      expect(at(r.json, "error", "code"), params).toBe(400);
      expect(at(r.json, "error", "status"), params).toBe("INVALID_ARGUMENT");
      expect(typeof at(r.json, "error", "message"), params).toBe("string");
    }
  });

  it("ignores fields it does not know, as the service does", async () => {
    // The songs filter with an unknown varint (field 1 = 3, youtubei.js's `prioritize`), an unknown
    // fixed64, and an unknown group wrapped around the message's start.
    const bytes = [
      0x08, 0x03, 0x19, 1, 2, 3, 4, 5, 6, 7, 8, 0x1b, 0x08, 0x01, 0x1c, 0x12, 0x05, 0x8a, 0x01, 0x02, 0x08,
      0x01,
    ];
    const params = encodeURIComponent(Buffer.from(bytes).toString("base64"));
    const r = await api(emu, "search", { query: QUERY, params });
    expect(r.status).toBe(200);
    expect(viewOf(r.json).shelves).toEqual(["Songs"]);
  });
});

// docs/PROTOCOL.md#search
describe.skipIf(!present)("chips, Show-all links and tabs carry their filter and scope", () => {
  it("render the links in the captures' shapes", async () => {
    const unfiltered = linksOf((await api(emu, "search", { query: QUERY }, auth)).json);
    const songs = linksOf((await api(emu, "search", { query: QUERY, params: "EgWKAQIIAQ%3D%3D" })).json);
    const basic = linksOf(capture("yt_search_basic_top_result_20231228.json"));
    const filtered = linksOf(capture("yt_search_songs_20231226.json"));
    const sample = (links: Link[], kind: Link["kind"], pick: (l: Link) => boolean = () => true) =>
      shape(links.find((l) => l.kind === kind && pick(l))?.endpoint);
    expect(sample(unfiltered, "chip")).toEqual(sample(basic, "chip"));
    expect(sample(unfiltered, "more")).toEqual(sample(basic, "more"));
    expect(sample(unfiltered, "tab")).toEqual(sample(basic, "tab"));
    expect(sample(songs, "chip", (l) => !l.label)).toEqual(sample(filtered, "chip", (l) => !l.label));
    expect(sample(songs, "chip", (l) => l.selected)).toEqual(sample(filtered, "chip", (l) => l.selected));
    // The chip renderers themselves, key for key: the clear chip, the selected one, another.
    const chipsOf = (page: unknown) =>
      (
        at(
          page,
          "contents",
          "tabbedSearchResultsRenderer",
          "tabs",
          0,
          "tabRenderer",
          "content",
          "sectionListRenderer",
          "header",
          "chipCloudRenderer",
          "chips",
        ) as Json[]
      ).map((c) => c.chipCloudChipRenderer as Json);
    const ours = chipsOf((await api(emu, "search", { query: QUERY, params: "EgWKAQIIAQ%3D%3D" })).json);
    const theirs = chipsOf(capture("yt_search_songs_20231226.json"));
    const picks = [
      (c: Json) => !c.text,
      (c: Json) => c.isSelected === true,
      (c: Json) => !!c.text && !c.isSelected,
    ];
    for (const pick of picks) expect(shape(ours.find(pick))).toEqual(shape(theirs.find(pick)));
  });

  it("each chip and Show-all link of the unfiltered page opens its filtered page", async () => {
    const links = linksOf((await api(emu, "search", { query: QUERY }, auth)).json);
    const chips = links.filter((l) => l.kind === "chip");
    const more = links.filter((l) => l.kind === "more");
    expect(chips.length).toBeGreaterThanOrEqual(9);
    expect(more.length).toBeGreaterThanOrEqual(5);
    for (const link of [...chips, ...more]) {
      const v = viewOf((await follow(link.endpoint)).json);
      expect(v.shelves, `${link.kind} ${link.label}`).toEqual([link.label]);
      expect(v.chip, `${link.kind} ${link.label}`).toBe(link.label);
    }
  });

  it("a filtered page's chips switch the filter, and its clear chip goes back to all categories", async () => {
    const page = (await api(emu, "search", { query: QUERY, params: "EgWKAQIIAQ%3D%3D" })).json;
    const chips = linksOf(page).filter((l) => l.kind === "chip");
    // The clear chip first, then every category (capture yt_search_songs_20231226 has ten).
    expect(chips[0]?.label).toBe("");
    expect(chips.length).toBeGreaterThanOrEqual(10);
    for (const link of chips) {
      const v = viewOf((await follow(link.endpoint)).json);
      if (link.label) expect(v.shelves, link.label).toEqual([link.label]);
      else expect(v.shelves.length).toBeGreaterThan(3);
    }
  });

  it("signed out, a search page has the catalogue's tab only, as the signed-out capture does", async () => {
    // Capture yt_search_highlighted_top_result_20240107 was made signed out: one tab, no link to the
    // library or uploads, which need an account.
    const tabsOf = (page: unknown) =>
      (at(page, "contents", "tabbedSearchResultsRenderer", "tabs") as Json[]).map((t) =>
        fold(String((t.tabRenderer as Json).title)),
      );
    expect(tabsOf(capture("yt_search_highlighted_top_result_20240107.json"))).toEqual(["YT Music"]);
    expect(tabsOf((await api(emu, "search", { query: QUERY })).json)).toEqual(["YT Music"]);
    expect(tabsOf((await api(emu, "search", { query: QUERY }, auth)).json)).toEqual(["YT Music", "Library"]);
  });

  it("the tabs open their scope, and the library's chips stay in the library", async () => {
    const links = linksOf((await api(emu, "search", { query: QUERY }, auth)).json);
    const library = links.find((l) => l.kind === "tab" && l.label === "Library")!;
    const libraryPage = (await follow(library.endpoint)).json;
    expect(viewOf(libraryPage).tab).toBe("Library");
    const more = linksOf(libraryPage).filter((l) => l.kind === "more");
    expect(more.length).toBeGreaterThanOrEqual(3);
    for (const link of more) {
      const filtered = (await follow(link.endpoint)).json;
      expect(viewOf(filtered)).toEqual({ tab: "Library", chip: link.label, shelves: [link.label] });
      for (const chip of linksOf(filtered).filter((l) => l.kind === "chip")) {
        const v = viewOf((await follow(chip.endpoint)).json);
        expect(v.tab, `${link.label} → ${chip.label || "clear"}`).toBe("Library");
      }
    }
  });

  it("youtubei.js follows a chip and a Show-all link to the filtered page", async () => {
    const music = await youtubei();
    parserReports = [];
    const all = await music.search(QUERY);
    expect(all.filters).toContain("Songs");
    const viaChip = await all.applyFilter("Videos");
    expect(viaChip.contents?.filterType(YTNodes.MusicShelf).map((s) => s.title.toString())).toEqual([
      "Videos",
    ]);
    const albums = all.albums;
    expect(albums).toBeDefined();
    const viaMore = await all.getMore(albums);
    expect(viaMore.albums?.contents.length).toBeGreaterThan(3);
    expect(viaMore.has_continuation).toBe(true);
    expect(parserReports).toEqual([]);
  });
});
