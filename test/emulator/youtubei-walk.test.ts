/**
 * The walk (docs/PROTOCOL.md#the-emulators-side): from home, explore, a search, an artist, an album, a
 * playlist and a podcast, follow the links and buttons youtubei.js exposes on each page — every
 * navigation endpoint of the parsed page (browse, search, watch, watch-playlist), a bounded, seeded
 * pick of them — and check each answer as a client meets it: HTTP 200, parsed by youtubei.js with no
 * parser report that the service's own page of that kind does not make too, and laid out as the
 * captures of that kind are (the renderers of its first two levels are ones those captures have).
 * Kinds no capture shows are parsed but not compared; the test prints them.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Log, Parser, YTNodes } from "youtubei.js";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { Rng } from "../../emulator/random.js";
import { api, type Json, rendererPaths } from "./helpers.js";

const FIXTURES = fileURLToPath(new URL("../../../shared/fixtures/responses/", import.meta.url));
const present = existsSync(FIXTURES);
if (!present) console.warn(`youtubei.js walk skipped: no captures at ${FIXTURES}`);

Log.setLevel(Log.Level.NONE);
let reports: string[] = [];
Parser.setParserErrorHandler((e) => reports.push(`${e.error_type}:${e.classname}`));

/** Links followed per start page: one of each kind first, then a seeded pick of the rest. */
const LINKS_PER_PAGE = 12;

/** The captures that show the service's answer for each kind of link (see `kindOf`). */
const CAPTURES: Record<string, string[]> = {
  home: ["yt_set_taste_profile_20240723"],
  explore: ["ytm_2025_11_get_explore"],
  charts: ["ytm_2026_07_get_charts_us_albums_no_genres"],
  moods: ["yt_get_mood_categories_20240723"],
  mood: ["yt_get_mood_playlists_20240723"],
  artist: [
    "yt_get_artist_20240705",
    "ytm_2026_05_get_artist1",
    "ytm_2026_07_get_artist_two_column",
    "ytm_2026_07_get_artist_hashtag",
  ],
  "artist list": ["yt_browse_artist_albums"],
  album: ["yt_get_album_20240724", "ytm_2024_03_get_album", "yt_get_album_not_signed_in_20250611"],
  playlist: [
    "yt_get_playlist_20250604",
    "ytm_2024_03_get_playlist",
    "ytm_2024_03_get_playlist_public",
    "ytm_2025_01_get_playlist_chart",
    "ytm_2025_10_get_playlist_collaborative",
  ],
  podcast: ["yt_get_podcast_20240830"],
  episode: ["yt_get_episode_20240830"],
  channel: ["yt_get_channel_20240830", "yt_get_user_20250707"],
  search: [
    "yt_search_basic_top_result_20231228",
    "yt_search_basic_no_top_result_20231228",
    "yt_search_songs_20231226",
    "yt_search_albums_20231226",
    "yt_search_community_playlists_20231226",
    "yt_search_featured_playlists_20231226",
    "yt_search_podcasts_20231226",
  ],
  watch: ["yt_get_watch_playlist_20250630"],
};

/**
 * Pages no capture shows, built from a captured page's parts (emulator/README.md, "What it serves"):
 * youtubei.js's reports on that capture are excused on them, their layout is not compared.
 */
const BUILT_LIKE: Record<string, string> = {
  // Its episodes are a podcast page's shelf of episode rows, which youtubei.js's MusicShelf refuses.
  FEmusic_top_non_music_audio_episodes: "yt_get_podcast_20240830",
};

interface Link {
  kind: string;
  endpoint: string;
  body: Json;
  /** Where it was found, for messages. */
  from: string;
}

/** What a browse id opens, by the prefixes of docs/PROTOCOL.md#ids and the page types endpoints carry. */
function browseKind(browseId: string, params: unknown, pageType: unknown): string {
  if (browseId === "FEmusic_home") return "home";
  if (browseId === "FEmusic_explore") return "explore";
  if (browseId === "FEmusic_charts") return "charts";
  if (browseId === "FEmusic_moods_and_genres") return "moods";
  if (browseId === "FEmusic_moods_and_genres_category") return "mood";
  if (browseId.startsWith("FEmusic_")) return browseId;
  if (browseId.startsWith("MPRE")) return "album";
  if (browseId.startsWith("MPSP")) return "podcast";
  if (browseId.startsWith("MPED")) return "episode";
  if (browseId.startsWith("MPAD")) return "artist list";
  if (browseId.startsWith("VL")) return "playlist";
  if (browseId.startsWith("UC")) {
    if (params) return "artist list";
    return pageType === "MUSIC_PAGE_TYPE_ARTIST" ? "artist" : "channel";
  }
  return `browse ${browseId.slice(0, 4)}`;
}

/** The link an endpoint youtubei.js parsed stands for, or null for one that is not a page to open. */
function linkOf(e: YTNodes.NavigationEndpoint, from: string): Link | null {
  const p = e.payload as Json;
  switch (e.name) {
    case "browseEndpoint": {
      const pageType = (p.browseEndpointContextSupportedConfigs as Json | undefined)
        ?.browseEndpointContextMusicConfig as Json | undefined;
      const body: Json = { browseId: p.browseId };
      if (p.params) body.params = p.params;
      return {
        kind: browseKind(String(p.browseId), p.params, pageType?.pageType),
        endpoint: "browse",
        body,
        from,
      };
    }
    case "searchEndpoint":
      return { kind: "search", endpoint: "search", body: { query: p.query, params: p.params }, from };
    case "watchEndpoint":
    case "watchPlaylistEndpoint": {
      const { watchEndpointMusicSupportedConfigs: _c, loggingContext: _l, ...body } = p;
      return { kind: "watch", endpoint: "next", body, from };
    }
    default:
      return null;
  }
}

/** Every navigation endpoint in a parsed page (youtubei.js keeps them on the nodes it builds). */
function endpointsOf(parsed: unknown): YTNodes.NavigationEndpoint[] {
  const out: YTNodes.NavigationEndpoint[] = [];
  const seen = new Set<unknown>();
  const walk = (v: unknown, depth: number) => {
    if (!v || typeof v !== "object" || seen.has(v) || depth > 60) return;
    seen.add(v);
    if (v instanceof YTNodes.NavigationEndpoint) out.push(v);
    const values = v instanceof Map ? [...v.values()] : Array.isArray(v) ? v : Object.values(v);
    for (const x of values) walk(x, depth + 1);
  };
  walk(parsed, 0);
  return out;
}

/** One of each kind (in kind order), then a seeded pick of the others, `LINKS_PER_PAGE` in all. */
function pick(links: Link[], seed: number): Link[] {
  const unique = [...new Map(links.map((l) => [`${l.endpoint} ${JSON.stringify(l.body)}`, l])).values()];
  const r = new Rng(seed);
  const shuffled = [...unique];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = r.int(0, i);
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  const firsts = [...new Map(shuffled.map((l) => [l.kind, l])).values()].sort((a, b) =>
    a.kind.localeCompare(b.kind),
  );
  const rest = shuffled.filter((l) => !firsts.includes(l));
  return [...firsts, ...rest].slice(0, LINKS_PER_PAGE);
}

/** The renderer paths of a page's first two renderer levels: its layout. */
function layout(page: unknown): Set<string> {
  const depth = (p: string) => p.split(".").filter((k) => /(Renderer|ViewModel)$/.test(k)).length;
  return new Set([...rendererPaths(page)].filter((p) => depth(p) <= 2));
}

const captured = new Map<string, unknown>();
function capture(name: string): unknown {
  if (!captured.has(name)) captured.set(name, JSON.parse(readFileSync(`${FIXTURES}${name}.json`, "utf8")));
  return captured.get(name);
}

/** youtubei.js's reports on a response (a throw counts as one). */
function parse(json: unknown): { parsed: unknown; reports: string[] } {
  reports = [];
  let parsed: unknown = null;
  try {
    parsed = Parser.parseResponse(json as never);
  } catch (e) {
    reports.push(`throw:${String(e).slice(0, 100)}`);
  }
  return { parsed, reports: [...new Set(reports)] };
}

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 300, seed: 1 });
});
afterAll(async () => {
  await emu?.stop();
});

const one = <T>(sql: string) => emu.state.store.sqlite.prepare(sql).get() as T;

/** The start pages: what a user opens first, each as its request. */
function startPages(): Link[] {
  const artist = one<{ id: string; name: string }>(
    "SELECT channel_id AS id, name FROM artists WHERE kind = 'artist' ORDER BY id LIMIT 1",
  );
  const album = one<{ id: string }>("SELECT browse_id AS id FROM albums ORDER BY id LIMIT 1");
  const playlist = one<{ id: string }>(
    "SELECT playlist_id AS id FROM playlists WHERE kind = 'community' ORDER BY id LIMIT 1",
  );
  const podcast = one<{ id: string }>("SELECT playlist_id AS id FROM podcasts ORDER BY id LIMIT 1");
  const page = (kind: string, endpoint: string, body: Json): Link => ({
    kind,
    endpoint,
    body,
    from: "start",
  });
  return [
    page("home", "browse", { browseId: "FEmusic_home" }),
    page("explore", "browse", { browseId: "FEmusic_explore" }),
    page("search", "search", { query: artist.name.split(" ")[0] }),
    page("artist", "browse", { browseId: artist.id }),
    page("album", "browse", { browseId: album.id }),
    page("playlist", "browse", { browseId: `VL${playlist.id}` }),
    page("podcast", "browse", { browseId: `MPSP${podcast.id}` }),
  ];
}

/** What is wrong with one answer: its status, reports the kind's captures do not make, a layout they lack. */
async function check(link: Link): Promise<{ problems: string[]; json: unknown; compared: boolean }> {
  const r = await api(emu, link.endpoint, link.body);
  const name = `${link.kind} ${JSON.stringify(link.body)} (from ${link.from})`;
  if (r.status !== 200) return { problems: [`${name}: HTTP ${r.status}`], json: r.json, compared: false };
  const mine = parse(r.json);
  const captures = CAPTURES[link.kind] ?? [];
  const like = BUILT_LIKE[link.kind];
  const theirs = new Set([...captures, ...(like ? [like] : [])].flatMap((c) => parse(capture(c)).reports));
  const problems = mine.reports.filter((x) => !theirs.has(x)).map((x) => `${name}: youtubei.js ${x}`);
  if (captures.length) {
    const known = new Set(captures.flatMap((c) => [...layout(capture(c))]));
    for (const p of layout(r.json)) if (!known.has(p)) problems.push(`${name}: no capture has ${p}`);
  }
  return { problems, json: r.json, compared: captures.length > 0 };
}

describe.skipIf(!present)("youtubei.js walks every kind of link from the pages a user starts at", () => {
  const uncompared = new Set<string>();
  for (const [i, start] of [
    "home",
    "explore",
    "search",
    "artist",
    "album",
    "playlist",
    "podcast",
  ].entries()) {
    it(`from ${start}`, async () => {
      const page = startPages().find((p) => p.kind === start)!;
      const first = await check(page);
      expect(first.problems).toEqual([]);
      const links = endpointsOf(parse(first.json).parsed)
        .map((e) => linkOf(e, start))
        .filter((l): l is Link => l !== null);
      const chosen = pick(links, i + 1);
      expect(chosen.length, `${start} links`).toBeGreaterThan(2);
      const problems: string[] = [];
      for (const link of chosen) {
        const result = await check(link);
        problems.push(...result.problems);
        if (!result.compared) uncompared.add(link.kind);
      }
      expect(problems).toEqual([]);
    });
  }

  it("a community playlist's author opens a channel page of that author's playlists", async () => {
    const p = one<{ id: string; author: string; channel: string }>(
      "SELECT playlist_id AS id, author_name AS author, author_channel_id AS channel FROM playlists WHERE kind = 'community' ORDER BY id LIMIT 1",
    );
    const r = await api(emu, "browse", { browseId: p.channel });
    expect(r.status).toBe(200);
    const parsed = Parser.parseResponse(r.json as never);
    const header = parsed.header?.item().as(YTNodes.MusicVisualHeader);
    expect(header?.title.toString()).toBe(p.author);
    const cards = parsed.contents_memo?.getType(YTNodes.MusicTwoRowItem).map((c) => c.id) ?? [];
    expect(cards).toContain(`VL${p.id}`);
  });

  it("lists the kinds no capture shows", () => {
    console.log(
      `links followed but not compared (no capture of their kind): ${[...uncompared].sort().join(", ")}`,
    );
    expect(
      Object.keys(CAPTURES).every((k) => CAPTURES[k]!.every((c) => existsSync(`${FIXTURES}${c}.json`))),
    ).toBe(true);
  });
});
