/**
 * Other clients in our own tests (docs/PROTOCOL.md#the-emulators-side): youtubei.js's Music client, driven through a user's
 * session against the emulator. Its documented `fetch` option sends every request to the emulator;
 * the start uses only what the music web client's own start serves (`GET /`: visitor data and the
 * player script's id), so nothing is faked — youtubei.js builds its session locally instead of asking
 * www.youtube.com's `sw.js_data` and `/youtubei/v1/config`, which the music start does not use. Each
 * step is its own test and passes only when youtubei.js returns what a user reads and its parser
 * reports nothing (`Parser.setParserErrorHandler`). Later steps follow ids and links the earlier ones
 * read, as a user clicks through. Where youtubei.js disagrees with a capture the capture wins: each
 * such step says so in a comment, and emulator/README.md lists them ("Where a client disagrees with a
 * capture").
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Innertube, Log, Parser, YTNodes } from "youtubei.js";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { call, headersFor } from "./helpers.js";
import { provideEvaluator } from "./js-evaluator.js";

Log.setLevel(Log.Level.NONE);
// youtubei.js runs the player script's functions only through an evaluator its users provide.
provideEvaluator();

const FIXTURES = fileURLToPath(new URL("../../../shared/fixtures/responses/", import.meta.url));

let emu: RunningEmulator;
let reports: string[] = [];

/** What the music web client's start page (`GET /`) hands a client: visitor data and the player id. */
async function startOf(e: RunningEmulator): Promise<{ visitorData: string; playerId: string }> {
  const html = (await call(e, "/")).text;
  return {
    visitorData: /"VISITOR_DATA":"([^"]+)"/.exec(html)?.[1] ?? "",
    playerId: /\/s\/player\/([^/]+)\//.exec(html)?.[1] ?? "",
  };
}

/** youtubei.js with every request sent to the emulator; signed in when given an account's cookie. */
async function innertube(cookie?: string): Promise<Innertube> {
  const start = await startOf(emu);
  return Innertube.create({
    cookie,
    visitor_data: start.visitorData,
    player_id: start.playerId,
    generate_session_locally: true,
    retrieve_innertube_config: false,
    fetch: (input, init) => {
      const req = input instanceof Request ? input : new Request(input, init);
      const url = new URL(req.url);
      return fetch(new Request(emu.url + url.pathname + url.search, req), init);
    },
  });
}

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 300, seed: 1 });
  Parser.setParserErrorHandler((e) => reports.push(`${e.error_type}:${e.classname}`));
});
afterAll(async () => {
  await emu?.stop();
});
beforeEach(() => {
  reports = [];
});

type Music = Innertube["music"];
type SearchPage = Awaited<ReturnType<Music["search"]>>;
type Row = YTNodes.MusicResponsiveListItem;

/** The list rows of a search page's shelves, as the user sees them top to bottom. */
const rowsOf = (page: SearchPage): Row[] =>
  page.contents?.flatMap((s) => (s.is(YTNodes.MusicShelf) ? [...s.contents] : [])) ?? [];
const shelfTitles = (page: SearchPage) =>
  page.contents?.filterType(YTNodes.MusicShelf).map((s) => s.title.toString()) ?? [];
/** What a row shows first: a song's or an album's title, an artist's name. */
const label = (row: Row) => String(row.title ?? row.name ?? "");
/** The watch endpoint of a row's "Start radio" menu entry. */
const radioOf = (row: Row) =>
  row.menu?.items.filterType(YTNodes.MenuNavigationItem).find((i) => i.text?.toString() === "Start radio")
    ?.endpoint;

/** A playlist row whose subtitle does not say it holds fewer than 100 songs. */
const mayBeLong = (row: Row) =>
  row.item_type === "playlist" &&
  !/(^|\D)\d{1,2} (songs|tracks)/.test(row.flex_columns.at(1)?.title.toString() ?? "");

/** The id shape of what each search type lists (video ids, MPRE albums, UC channels, VL playlists). */
const ID_SHAPE = {
  song: /^[\w-]{11}$/,
  video: /^[\w-]{11}$/,
  album: /^MPRE/,
  artist: /^UC/,
  // The playlists filter's first page also holds a podcast (MPSP…), as capture
  // yt_search_playlists_20231228 does; youtubei.js types that row `podcast_show`.
  playlist: /^(VL(PL|RDCLAK|OLAK)|MPSP)/,
} as const;
const ITEM_TYPES: Record<keyof typeof ID_SHAPE, string[]> = {
  song: ["song"],
  video: ["video"],
  album: ["album"],
  artist: ["artist"],
  playlist: ["playlist", "podcast_show"],
};

/** youtubei.js's report for each episode row of a podcast page's shelf (see the step that opens one). */
const PODCAST_ROWS = "typecheck:MusicMultiRowListItem";

describe("youtubei.js's Music client through a user's session, signed out", () => {
  let yt: Innertube;
  let words: string[] = [];
  let query = "";
  let all: SearchPage;
  const found: Partial<Record<keyof typeof ID_SHAPE, Row>> = {};
  let explore: Awaited<ReturnType<Music["getExplore"]>>;

  it("starts from the music start page alone", async () => {
    yt = await innertube();
    expect(yt.session.player?.signature_timestamp).toBeGreaterThan(19000);
    expect(yt.session.context.client.visitorData).toBe((await startOf(emu)).visitorData);
  });

  it("suggests searches as the user types the name of an artist on home", async () => {
    const home = await yt.music.getHomeFeed();
    const names = (home.sections ?? []).flatMap((s) =>
      s.is(YTNodes.MusicCarouselShelf)
        ? s.contents.filterType(YTNodes.MusicTwoRowItem).flatMap((i) => i.artists?.map((a) => a.name) ?? [])
        : [],
    );
    expect(names.length).toBeGreaterThan(0);
    words = [...new Set(names.map((n) => n.split(" ")[0]!))].slice(0, 10);
    const typed = words[0]!.slice(0, 3).toLowerCase();
    const sections = await yt.music.getSearchSuggestions(typed);
    const suggested = sections
      .flatMap((s) => [...s.contents])
      .filter((c) => c.is(YTNodes.SearchSuggestion))
      .map((c) => c.as(YTNodes.SearchSuggestion).suggestion.toString().toLowerCase());
    expect(suggested.length).toBeGreaterThan(0);
    for (const w of suggested) expect(w).toContain(typed);
    expect(reports).toEqual([]);
  });

  it("searches everything: a top result, a shelf per category and the filter chips", async () => {
    // The user tries a word of those names until one shows every category (each type step uses it).
    for (const word of words) {
      all = await yt.music.search(word);
      query = word;
      if (shelfTitles(all).some((t) => t.endsWith("playlists")) && all.artists && all.videos) break;
    }
    expect(all.contents?.firstOfType(YTNodes.MusicCardShelf)?.title.toString()).toBeTruthy();
    expect(shelfTitles(all)).toEqual(expect.arrayContaining(["Songs", "Albums"]));
    expect(all.filters).toEqual(expect.arrayContaining(["Songs", "Videos", "Albums", "Artists"]));
    for (const song of all.songs?.contents ?? []) {
      expect(song.title).toBeTruthy();
      expect(song.artists?.length).toBeGreaterThan(0);
      expect(song.duration?.seconds).toBeGreaterThan(0);
    }
    expect(reports).toEqual([]);
  });

  for (const type of Object.keys(ID_SHAPE) as (keyof typeof ID_SHAPE)[]) {
    it(`searches ${type}s only`, async () => {
      const page = await yt.music.search(query, { type });
      expect(shelfTitles(page)).toHaveLength(1);
      const rows = rowsOf(page);
      expect(rows.length, type).toBeGreaterThan(0);
      for (const row of rows) {
        expect(label(row), type).not.toBe("");
        expect(row.id, `${type} ${label(row)}`).toMatch(ID_SHAPE[type]);
        expect(ITEM_TYPES[type], label(row)).toContain(row.item_type);
      }
      found[type] = rows[0];
      expect(reports).toEqual([]);
    });
  }

  it("narrows the search with a chip", async () => {
    const albums = await all.applyFilter("Albums");
    expect(shelfTitles(albums)).toEqual(["Albums"]);
    expect(rowsOf(albums).map(label)[0]).toBe(label(found.album!));
    expect(reports).toEqual([]);
  });

  it("scrolls a filtered search to its next page", async () => {
    const songs = await yt.music.search("e", { type: "song" });
    expect(songs.has_continuation).toBe(true);
    const first = rowsOf(songs).map((r) => r.id);
    const more = await songs.getContinuation();
    const next = more.contents?.contents.as(YTNodes.MusicResponsiveListItem).map((r) => r.id) ?? [];
    expect(next.length).toBeGreaterThan(0);
    expect(next.filter((id) => first.includes(id))).toEqual([]);
    expect(reports).toEqual([]);
  });

  it("reads home and scrolls it", async () => {
    const home = await yt.music.getHomeFeed();
    const titles = (s: typeof home) =>
      (s.sections ?? []).map((x) => (x.is(YTNodes.MusicCarouselShelf) ? x.header?.title.toString() : x.type));
    expect(titles(home).length).toBeGreaterThan(0);
    expect(titles(home).every(Boolean)).toBe(true);
    expect(home.has_continuation).toBe(true);
    const next = await home.getContinuation();
    expect(titles(next).length).toBeGreaterThan(0);
    expect(titles(next).every(Boolean)).toBe(true);
    for (const shelf of next.sections?.filterType(YTNodes.MusicCarouselShelf) ?? [])
      expect(shelf.contents.length).toBeGreaterThan(0);
    expect(reports).toEqual([]);
  });

  it("opens explore", async () => {
    explore = await yt.music.getExplore();
    expect(explore.top_buttons.map((b) => b.button_text)).toEqual(
      expect.arrayContaining(["New releases", "Charts", "Moods & genres"]),
    );
    expect(explore.sections.length).toBeGreaterThan(0);
    expect(reports).toEqual([]);
  });

  it("opens an episode from explore's popular episodes, plays it and opens its podcast", async () => {
    // youtubei.js gives these rows no id: the capture's rows carry the episode's page on the title,
    // its podcast on the second title and the play on `onTap` (ytm_2025_11_get_explore).
    const shelf = explore.sections.find((s) => s.header?.title.toString() === "Popular episodes");
    const row = shelf?.contents.firstOfType(YTNodes.MusicMultiRowListItem);
    expect(row, "a popular episode").toBeDefined();
    const title = row!.title.runs?.[0] as { endpoint?: YTNodes.NavigationEndpoint } | undefined;
    expect(title?.endpoint?.payload.browseId).toMatch(/^MPED/);
    const page = await title!.endpoint!.call(yt.actions, { client: "YTMUSIC", parse: true });
    const header = page.contents_memo?.getType(YTNodes.MusicResponsiveHeader).at(0);
    expect(header?.title.toString()).toBe(row!.title.toString());
    const info = await yt.music.getInfo(row!.on_tap);
    expect(info.basic_info.id).toBe(title!.endpoint!.payload.browseId.slice(4));
    expect(info.basic_info.title).toBe(row!.title.toString());
    const show = row!.second_title?.runs?.[0] as { endpoint?: YTNodes.NavigationEndpoint } | undefined;
    const podcast = await show!.endpoint!.call(yt.actions, { client: "YTMUSIC", parse: true });
    const showHeader = podcast.contents_memo?.getType(YTNodes.MusicResponsiveHeader).at(0);
    expect(showHeader?.title.toString()).toBe(row!.second_title?.toString());
    // youtubei.js's MusicShelf keeps list-item rows only, so it drops the podcast page's episode rows
    // (musicMultiRowListItemRenderer, capture yt_get_podcast_20240830) with a typecheck report each,
    // as it does on the capture: the capture wins, those reports are excused here.
    expect(podcast.contents_memo?.getType(YTNodes.MusicShelf).length).toBeGreaterThan(0);
    expect(reports.filter((r) => r !== PODCAST_ROWS)).toEqual([]);
  });

  /** A page explore's top button opens, as the web client opens it. */
  const openButton = async (text: string) => {
    const button = explore.top_buttons.find((b) => b.button_text === text);
    expect(button, text).toBeDefined();
    return button!.endpoint.call(yt.actions, { client: "YTMUSIC", parse: true });
  };
  const carousels = (page: Awaited<ReturnType<typeof openButton>>) =>
    page.contents_memo?.getType(YTNodes.MusicCarouselShelf) ?? [];

  it("opens new releases from explore", async () => {
    const page = await openButton("New releases");
    const shelves = carousels(page);
    expect(shelves.length).toBeGreaterThan(0);
    const albums = shelves[0]!.contents.filterType(YTNodes.MusicTwoRowItem);
    expect(albums.length).toBeGreaterThan(0);
    for (const a of albums) expect(a.title.toString()).not.toBe("");
    expect(reports).toEqual([]);
  });

  it("opens charts from explore", async () => {
    const page = await openButton("Charts");
    const titles = carousels(page).map((c) => c.header?.title.toString());
    expect(titles).toEqual(expect.arrayContaining(["Video charts"]));
    const video = carousels(page).find((c) => c.header?.title.toString() === "Video charts")!;
    const lists = video.contents.filterType(YTNodes.MusicTwoRowItem).map((i) => i.title.toString());
    // Chart playlists carry the country (capture ytm_2026_07_get_charts_us_albums_no_genres).
    expect(lists.some((t) => t.startsWith("Top 100 Music Videos"))).toBe(true);
    expect(reports).toEqual([]);
  });

  let mood: YTNodes.MusicNavigationButton | undefined;
  it("opens moods and genres from explore", async () => {
    const page = await openButton("Moods & genres");
    const buttons = page.contents_memo?.getType(YTNodes.MusicNavigationButton) ?? [];
    expect(buttons.length).toBeGreaterThan(3);
    for (const b of buttons) expect(b.button_text).not.toBe("");
    mood = buttons[0];
    expect(reports).toEqual([]);
  });

  it("opens a mood's page", async () => {
    const page = await mood!.endpoint.call(yt.actions, { client: "YTMUSIC", parse: true });
    const header = page.header?.item();
    expect(header?.is(YTNodes.MusicHeader) && header.title?.toString()).toBe(mood!.button_text);
    const playlists = page.contents_memo?.getType(YTNodes.MusicTwoRowItem) ?? [];
    expect(playlists.length).toBeGreaterThan(0);
    for (const p of playlists) expect(p.id).toMatch(/^VL/);
    expect(reports).toEqual([]);
  });

  let artist: Awaited<ReturnType<Music["getArtist"]>>;
  it("opens the artist it found", async () => {
    artist = await yt.music.getArtist(found.artist!.id!);
    expect(artist.header?.title?.toString()).toBe(label(found.artist!));
    expect(artist.sections.length).toBeGreaterThan(0);
    expect(reports).toEqual([]);
  });

  it("lists all of the artist's songs", async () => {
    const shelf = artist.sections.find((s) => s.is(YTNodes.MusicShelf))?.as(YTNodes.MusicShelf);
    // youtubei.js looks for a shelf titled "Top songs"; the two-column artist page titles it "Songs"
    // (capture ytm_2026_07_get_artist_two_column), so there the user's click on the title is followed.
    const songs =
      shelf?.title.toString() === "Top songs"
        ? await artist.getAllSongs()
        : (await shelf!.endpoint!.call(yt.actions, { client: "YTMUSIC", parse: true })).contents_memo
            ?.getType(YTNodes.MusicPlaylistShelf)
            .at(0);
    if (shelf?.title.toString() === "Songs") await expect(artist.getAllSongs()).rejects.toThrow(/Top songs/);
    expect(songs?.contents.length).toBeGreaterThanOrEqual(shelf?.contents.length ?? 1);
    for (const s of songs?.contents.as(YTNodes.MusicResponsiveListItem) ?? [])
      expect(s.artists?.map((a) => a.name)).toContain(label(found.artist!));
    expect(reports).toEqual([]);
  });

  it("opens the album it found, with its tracks", async () => {
    const album = await yt.music.getAlbum(found.album!.id!);
    expect(album.header?.title?.toString()).toBe(label(found.album!));
    const tracks = album.contents.filterType(YTNodes.MusicResponsiveListItem);
    expect(tracks.length).toBeGreaterThan(0);
    for (const t of tracks) expect(t.title).toBeTruthy();
    expect(reports).toEqual([]);
  });

  it("opens a long playlist and scrolls past its first 100 rows", async () => {
    // The user narrows a search to community playlists with its chip, pages through them and opens
    // those not marked as short ("N songs").
    type More = Awaited<ReturnType<SearchPage["getContinuation"]>>;
    const search = await (await yt.music.search("e")).applyFilter("Community playlists");
    expect(shelfTitles(search)).toEqual(["Community playlists"]);
    let candidates = rowsOf(search);
    let load: (() => Promise<More>) | null = search.has_continuation ? () => search.getContinuation() : null;
    let long: Awaited<ReturnType<Music["getPlaylist"]>> | undefined;
    for (let pages = 0; pages < 6 && !long; pages++) {
      for (const row of candidates.filter(mayBeLong)) {
        const p = await yt.music.getPlaylist(row.id!);
        if (!p.has_continuation) continue;
        long = p;
        break;
      }
      if (long || !load) break;
      const more = await load();
      candidates = more.contents?.contents.as(YTNodes.MusicResponsiveListItem) ?? [];
      load = more.has_continuation ? () => more.getContinuation() : null;
    }
    expect(long, "a playlist of more than 100 songs in the search").toBeDefined();
    // Shape C: 100 rows, then a continuation item that youtubei.js keeps among the items.
    const first = long!.items.filterType(YTNodes.MusicResponsiveListItem);
    expect(first).toHaveLength(100);
    // Scrolling to the end shows as many rows as the header's "N tracks" says (rows may repeat a song).
    const header = long!.header?.as(YTNodes.MusicResponsiveHeader);
    const total = Number(/(\d+) tracks/.exec(header?.second_subtitle.toString() ?? "")?.[1]);
    expect(total).toBeGreaterThan(100);
    let page = long!;
    let rows = first.length;
    for (let i = 0; i < 5 && page.has_continuation; i++) {
      page = await page.getContinuation();
      const next = page.items.filterType(YTNodes.MusicResponsiveListItem);
      for (const r of next) expect(r.title).toBeTruthy();
      rows += next.length;
    }
    expect(rows).toBe(total);
    expect(reports).toEqual([]);
  });

  it("reads what plays next after the song it found", async () => {
    const panel = await yt.music.getUpNext(found.song!.id!);
    const queue = panel.contents.filterType(YTNodes.PlaylistPanelVideo);
    expect(queue[0]?.video_id).toBe(found.song!.id);
    expect(queue.length).toBeGreaterThan(1);
    for (const v of queue) expect(v.title.toString()).not.toBe("");
    expect(reports).toEqual([]);
  });

  it("starts a radio from the song's menu", async () => {
    const endpoint = radioOf(found.song!);
    expect(endpoint?.payload.playlistId).toBe(`RDAMVM${found.song!.id}`);
    const info = await yt.music.getInfo(endpoint!);
    const radio = await info.getUpNext();
    expect(radio.playlist_id).toBe(`RDAMVM${found.song!.id}`);
    expect(radio.contents.filterType(YTNodes.PlaylistPanelVideo).length).toBeGreaterThan(5);
    expect(reports).toEqual([]);
  });

  it("reads music related to the song", async () => {
    const related = await yt.music.getRelated(found.song!.id!);
    const shelves = related.as(YTNodes.SectionList).contents.filterType(YTNodes.MusicCarouselShelf);
    expect(shelves.length).toBeGreaterThan(0);
    expect(shelves.every((s) => s.header?.title.toString())).toBe(true);
    expect(reports).toEqual([]);
  });

  it("reads the song's lyrics", async () => {
    const lyrics = await yt.music.getLyrics(found.song!.id!);
    expect(lyrics?.description.toString().split("\n").length).toBeGreaterThan(2);
    expect(lyrics?.footer?.toString()).toMatch(/^Source: /);
    expect(reports).toEqual([]);
  });

  it("reads the song's info and picks an audio format", async () => {
    const info = await yt.music.getInfo(found.song!.id!);
    expect(info.basic_info.title).toBe(label(found.song!));
    expect(info.basic_info.duration).toBe(found.song!.duration?.seconds);
    const format = info.chooseFormat({ type: "audio", quality: "best" });
    expect(format.mime_type).toMatch(/^audio\//);
    // As the music web client gets them (capture yt_get_song_tracking_url_20240728), the format's
    // URL is a signatureCipher: youtubei.js runs the player script's functions on its s and n.
    expect(format.signature_cipher).toBeTruthy();
    expect(format.url).toBeUndefined();
    expect(reports).toEqual([]);
  });

  it("deciphers the audio format's URL with the player script, and the emulator serves it", async () => {
    const info = await yt.music.getInfo(found.song!.id!);
    const format = info.chooseFormat({ type: "audio", quality: "best" });
    const url = new URL(await format.decipher(yt.session.player));
    expect(url.searchParams.get("id")).toBe(found.song!.id);
    expect(url.origin).toBe(emu.url);
    const audio = await fetch(url);
    expect(audio.status).toBe(200);
    expect(audio.headers.get("content-type")).toBe(format.mime_type.split(";")[0]);
    expect((await audio.arrayBuffer()).byteLength).toBe(format.content_length);
    // The stream host refuses a URL whose sig or n the script did not make.
    for (const key of ["sig", "n"]) {
      const wrong = new URL(url);
      wrong.searchParams.set(key, `${url.searchParams.get(key)}x`);
      expect((await fetch(wrong)).status, key).toBe(403);
    }
    expect(reports).toEqual([]);
  });

  it("downloads the song's audio with youtubei.js's own downloader", async () => {
    const info = await yt.music.getInfo(found.song!.id!);
    const format = info.chooseFormat({ type: "audio", quality: "best" });
    // The downloader deciphers, then asks for googlevideo's `range` in 10 MB pieces.
    const stream = await info.download({ type: "audio", quality: "best" });
    let size = 0;
    for await (const chunk of stream) size += chunk.byteLength;
    expect(size).toBe(format.content_length);
    expect(reports).toEqual([]);
  });
});

/** Every value under `key`, depth first, in document order. */
function valuesOf(node: unknown, key: string, out: unknown[] = []): unknown[] {
  if (Array.isArray(node)) for (const x of node) valuesOf(x, key, out);
  else if (node && typeof node === "object")
    for (const [k, v] of Object.entries(node)) {
      if (k === key) out.push(v);
      valuesOf(v, key, out);
    }
  return out;
}

/** The first two cards of the captured playlists library (New playlist, then the pinned Liked Music). */
function capturedLibraryHead(): string[] {
  const file = `${FIXTURES}yt_get_library_playlists.json`;
  if (!existsSync(file)) return ["New playlist", "Liked Music"];
  const cards = valuesOf(JSON.parse(readFileSync(file, "utf8")), "musicTwoRowItemRenderer") as {
    title: { runs: { text: string }[] };
  }[];
  return cards.slice(0, 2).map((c) => c.title.runs[0]!.text);
}

/**
 * The podcast library's "Add podcast" card opens the RSS-feed dialog (flowRootRenderer → flowStepRenderer
 * → musicAddByUrlDialogViewModel), as capture yt_get_library_podcasts_20250626 holds it; youtubei.js 18
 * has no class for those three, so it reports them. The capture wins: these reports are excused there.
 */
const PODCAST_DIALOG = [
  "class_not_found:FlowRoot",
  "class_not_found:FlowStep",
  "class_not_found:MusicAddByUrlDialogView",
];

describe("youtubei.js's Music client through a user's session, signed in", () => {
  let yt: Innertube;
  let library: Awaited<ReturnType<Music["getLibrary"]>>;
  type Library = typeof library;
  const titlesOf = (lib: Library) =>
    (lib.contents ?? []).flatMap((list) =>
      list.is(YTNodes.Grid)
        ? list.items.filterType(YTNodes.MusicTwoRowItem).map((i) => i.title.toString())
        : list.as(YTNodes.MusicShelf).contents.map(label),
    );

  it("signs in with the account's cookie", async () => {
    const headers = await headersFor(emu, 1);
    yt = await innertube(headers.Cookie ?? headers.cookie);
    expect(yt.session.logged_in).toBe(true);
  });

  it("opens the library", async () => {
    library = await yt.music.getLibrary();
    expect(library.filters).toEqual(["Playlists", "Songs", "Albums", "Artists", "Podcasts"]);
    // Liked Music is pinned right after New playlist, as in capture yt_get_library_playlists.
    expect(titlesOf(library).slice(0, 2)).toEqual(capturedLibraryHead());
    expect(reports).toEqual([]);
  });

  it("sorts the library's songs from A to Z", async () => {
    const songs = await library.applyFilter("Songs");
    expect(songs.sort_options).toEqual(["Recently saved", "A to Z", "Z to A"]);
    // youtubei.js takes every option with a command as selected (see README); unmark A to Z first.
    const option = songs.page.contents_memo
      ?.getType(YTNodes.MusicMultiSelectMenuItem)
      .find((o) => o.title === "A to Z");
    option!.selected = false;
    const sorted = await songs.applySort(option!);
    const titles = titlesOf(sorted).filter((t) => t !== "Shuffle all");
    expect(titles.length).toBeGreaterThan(3);
    expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b, "en")));
    expect(reports).toEqual([]);
  });

  for (const filter of ["Playlists", "Songs", "Albums", "Artists", "Podcasts"]) {
    it(`filters the library: ${filter}`, async () => {
      const page = await library.applyFilter(filter);
      expect(titlesOf(page).length).toBeGreaterThan(0);
      // The capture's "Clear filters" chip is an icon with an accessibility label and no text
      // (yt_get_library_songs_20240701), so youtubei.js names it "N/A": the capture wins.
      expect(page.filters.slice(0, 2)).toEqual(["N/A", filter]);
      expect(reports.filter((r) => !(filter === "Podcasts" && PODCAST_DIALOG.includes(r)))).toEqual([]);
    });
  }

  it("scrolls the library's songs", async () => {
    const songs = await library.applyFilter("Songs");
    expect(songs.has_continuation).toBe(true);
    const first = titlesOf(songs);
    const more = await songs.getContinuation();
    const next = more.contents?.contents?.as(YTNodes.MusicResponsiveListItem).map((r) => r.id) ?? [];
    expect(next.length).toBeGreaterThan(0);
    expect(first.length + next.length).toBeGreaterThan(first.length);
    expect(reports).toEqual([]);
  });

  it("opens liked songs", async () => {
    const liked = await yt.music.getPlaylist("LM");
    expect(liked.header?.is(YTNodes.MusicResponsiveHeader) && liked.header.title.toString()).toBe(
      "Liked Music",
    );
    expect(liked.items.length).toBeGreaterThan(0);
    expect(reports).toEqual([]);
  });

  it("finds a song it played at the top of its history", async () => {
    const songs = rowsOf(await yt.music.search("e", { type: "song" }));
    const played = songs[songs.length - 1]!;
    const info = await yt.music.getInfo(played.id!);
    await info.addToWatchHistory();
    const history = await yt.actions.execute("/browse", {
      browseId: "FEmusic_history",
      client: "YTMUSIC",
      parse: true,
    });
    const rows = history.contents_memo?.getType(YTNodes.MusicResponsiveListItem) ?? [];
    expect(rows[0]?.id).toBe(played.id);
    expect(rows[0]?.title).toBe(label(played));
    expect(reports).toEqual([]);
  });
});
