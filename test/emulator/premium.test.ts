/**
 * docs/PROTOCOL.md#explore — a premium account. The seeded premium login (and any account a control
 * endpoint makes premium) sees what the service shows premium accounts only: daily and weekly chart
 * carousels apart, ranked top songs on the charts page and `top_songs` on explore (docs/PROTOCOL.md#explore).
 * Read through the real MusicClient; the ranked rows' shapes are checked against the captures
 * (rank column: ytm_2026_07_get_charts_us_albums_no_genres; ranked carousel and row:
 * ytm_2025_11_get_explore).
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { MusicClient } from "../../src/index.js";
import { api, at, call, headersFor, type Json, SECTION_LIST } from "./helpers.js";

const FIXTURES = fileURLToPath(new URL("../../../shared/fixtures/responses/", import.meta.url));
const present = existsSync(FIXTURES);
if (!present) console.warn(`premium shape tests skipped: no captures at ${FIXTURES}`);
const capture = (name: string): Json => JSON.parse(readFileSync(`${FIXTURES}${name}.json`, "utf8")) as Json;

const PREMIUM = 5;
let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 300, seed: 11 });
});
afterAll(async () => {
  await emu?.stop();
});

async function clientFor(account: number | null): Promise<MusicClient> {
  const auth = account === null ? undefined : await headersFor(emu, account);
  return new MusicClient({ baseUrl: emu.url, uploadUrl: emu.url, retry: false, ...(auth ? { auth } : {}) });
}

const setPremium = (id: number, premium: unknown) =>
  call(emu, `/_emulator/accounts/${id}/premium`, {
    body: JSON.stringify({ premium }),
    headers: { "content-type": "application/json" },
  });

describe("the premium login", () => {
  it("is seeded as a fourth login and listed premium; the other accounts are not", async () => {
    const r = await call(emu, "/_emulator/accounts");
    const accounts = (r.json as { accounts: Json[] }).accounts;
    const logins = accounts.filter((a) => a.brand === false);
    expect(logins.map((a) => a.id)).toEqual([1, 2, 3, PREMIUM]);
    expect(accounts.filter((a) => a.premium === true).map((a) => a.id)).toEqual([PREMIUM]);
  });

  it("gets daily and weekly chart carousels apart and ranked top songs in every country", async () => {
    const client = await clientFor(PREMIUM);
    for (const country of ["ZZ", "US", "DE"]) {
      const charts = await client.getCharts({ country });
      expect(charts.videos, country).toBeUndefined();
      expect(charts.daily?.map((p) => p.title).join(" | "), country).toMatch(/Daily Top Songs/);
      expect(charts.weekly?.map((p) => p.title).join(" | "), country).toMatch(/Top 100 Songs/);
      const songs = charts.songs!;
      expect(songs.playlist, country).toMatch(/^VLPL/);
      expect(songs.items.map((s) => s.rank)).toEqual(songs.items.map((_, i) => String(i + 1)));
      for (const s of songs.items) expect(["up", "down", "neutral"]).toContain(s.trend);
      expect(songs.items.every((s) => s.videoId && s.title && s.artists?.length)).toBe(true);
    }
  });

  it("finds top songs on explore, the global chart's", async () => {
    const client = await clientFor(PREMIUM);
    const explore = await client.getExplore();
    const charts = await client.getCharts({ country: "ZZ" });
    expect(explore.top_songs?.playlist).toBe(charts.songs?.playlist);
    expect(explore.top_songs?.items.map((s) => [s.videoId, s.rank, s.trend])).toEqual(
      charts.songs?.items.map((s) => [s.videoId, s.rank, s.trend]),
    );
  });

  it("has the whole chart behind the carousel: a playlist whose rows are the ranked songs in order", async () => {
    const client = await clientFor(PREMIUM);
    const songs = (await client.getCharts({ country: "US" })).songs!;
    const playlist = await client.getPlaylist(songs.playlist!, { limit: null });
    expect(playlist.tracks.length).toBe(100);
    expect(playlist.tracks.slice(0, songs.items.length).map((t) => t.videoId)).toEqual(
      songs.items.map((s) => s.videoId),
    );
  });
});

describe("accounts without premium", () => {
  it("signed in or out, get one video-charts carousel and no song charts", async () => {
    for (const account of [1, 2, 3, null]) {
      const client = await clientFor(account);
      const charts = await client.getCharts({ country: "DE" });
      expect(charts.songs, String(account)).toBeUndefined();
      expect(charts.daily, String(account)).toBeUndefined();
      expect(charts.videos?.length, String(account)).toBeGreaterThan(0);
      expect((await client.getExplore()).top_songs, String(account)).toBeUndefined();
    }
  });
});

describe("POST /_emulator/accounts/<id>/premium", () => {
  it("makes any account premium and back, and pages read before the change are not served again", async () => {
    const client = await clientFor(2);
    expect((await client.getCharts({ country: "GB" })).songs).toBeUndefined();
    const on = await setPremium(2, true);
    expect(on.status).toBe(200);
    expect(on.json).toEqual({ id: 2, premium: true });
    expect((await client.getCharts({ country: "GB" })).songs?.items.length).toBeGreaterThan(0);
    expect((await client.getExplore()).top_songs).toBeDefined();
    expect((await setPremium(2, false)).status).toBe(200);
    expect((await client.getCharts({ country: "GB" })).songs).toBeUndefined();
  });

  it("lets a brand account use its login's premium", async () => {
    await setPremium(1, true);
    try {
      const brand = (await call(emu, "/_emulator/accounts")).json as { accounts: Json[] };
      const pageId = brand.accounts.find((a) => a.id === 4)!.pageId as string;
      const headers = await headersFor(emu, 1);
      const r = await api(emu, "browse", { browseId: "FEmusic_charts" }, headers, { user: pageId });
      const titles = (at(r.json, ...SECTION_LIST, "contents") as Json[]).map(carouselTitle);
      expect(titles).toContain("Top songs");
    } finally {
      await setPremium(1, false);
    }
  });

  it("refuses a body without a boolean and an unknown account", async () => {
    expect((await setPremium(2, "yes")).status).toBe(400);
    expect((await setPremium(99, true)).status).toBe(404);
  });
});

/** A carousel's header title run (under `musicCarouselShelfRenderer`). */
const TITLE_RUN = ["header", "musicCarouselShelfBasicHeaderRenderer", "title", "runs", 0] as const;
/** A section's carousel title text. */
const carouselTitle = (section: unknown) => at(section, "musicCarouselShelfRenderer", ...TITLE_RUN, "text");
/** The browse id a carousel's title opens. */
const titleBrowseId = (carousel: unknown) =>
  at(carousel, ...TITLE_RUN, "navigationEndpoint", "browseEndpoint", "browseId") as string | undefined;

/** The sections of a single-column page. */
const sectionsOf = (page: unknown) => at(page, ...SECTION_LIST, "contents") as Json[];
const rowOf = (item: unknown) => at(item, "musicResponsiveListItemRenderer") as Json;
const column = (row: Json) => at(row, "customIndexColumn", "musicCustomIndexColumnRenderer") as Json;

/** How the charts capture writes each trend: icon → colour and label with the rank left out. */
function capturedTrendLooks(): Map<string, { colour: unknown; label: string }> {
  const looks = new Map<string, { colour: unknown; label: string }>();
  const page = capture("ytm_2026_07_get_charts_us_albums_no_genres");
  for (const section of sectionsOf(page)) {
    for (const item of (at(section, "musicCarouselShelfRenderer", "contents") ?? []) as Json[]) {
      const c = column(rowOf(item) ?? {});
      if (!c) continue;
      const rank = at(c, "text", "runs", 0, "text") as string;
      const label = (at(c, "accessibilityData", "accessibilityData", "label") as string).replace(rank, "#");
      looks.set(at(c, "icon", "iconType") as string, { colour: c.iconColorStyle, label });
    }
  }
  return looks;
}

/** The explore capture's ranked carousel (its rows carry a rank column). */
function capturedRankedCarousel(): Json {
  const found = sectionsOf(capture("ytm_2025_11_get_explore")).find((s) => {
    const first = at(s, "musicCarouselShelfRenderer", "contents", 0);
    return first !== undefined && column(rowOf(first) ?? {}) !== undefined;
  });
  return at(found, "musicCarouselShelfRenderer") as Json;
}

describe.skipIf(!present)("the ranked song rows' shapes", () => {
  it("write rank and trend as the charts capture writes its ranked rows", async () => {
    const looks = capturedTrendLooks();
    expect([...looks.keys()].sort()).toEqual(["ARROW_CHART_NEUTRAL", "ARROW_DROP_DOWN", "ARROW_DROP_UP"]);
    // The capture's first ranked artist row: the keys every rank column has.
    const captured = column(
      rowOf(
        at(
          capture("ytm_2026_07_get_charts_us_albums_no_genres"),
          ...SECTION_LIST,
          "contents",
          3,
          "musicCarouselShelfRenderer",
          "contents",
          0,
        ),
      ),
    );
    const page = (await api(emu, "browse", { browseId: "FEmusic_charts" }, await headersFor(emu, PREMIUM)))
      .json;
    const songs = sectionsOf(page).find((s) => carouselTitle(s) === "Top songs");
    const rows = (at(songs, "musicCarouselShelfRenderer", "contents") as Json[]).map(rowOf);
    const seen = new Set<string>();
    for (const row of rows) {
      const c = column(row);
      expect(Object.keys(c).sort()).toEqual(Object.keys(captured).sort());
      const icon = at(c, "icon", "iconType") as string;
      const rank = at(c, "text", "runs", 0, "text") as string;
      seen.add(icon);
      expect(c.iconColorStyle).toBe(looks.get(icon)?.colour);
      expect(at(c, "accessibilityData", "accessibilityData", "label")).toBe(
        looks.get(icon)?.label.replace("#", rank),
      );
    }
    expect(seen.size).toBeGreaterThan(1);
  });

  it("sit in a carousel and rows shaped as explore's ranked one, the title opening the chart's playlist", async () => {
    const theirs = capturedRankedCarousel();
    const page = (await api(emu, "browse", { browseId: "FEmusic_explore" }, await headersFor(emu, PREMIUM)))
      .json;
    const ours = sectionsOf(page)
      .map((s) => at(s, "musicCarouselShelfRenderer") as Json)
      .find((c) => titleBrowseId(c)?.startsWith("VLPL"))!;
    expect(ours).toBeDefined();
    for (const key of ["itemSize", "numItemsPerColumn"]) expect(ours[key], key).toBe(theirs[key]);
    const link = [
      ...TITLE_RUN,
      "navigationEndpoint",
      "browseEndpoint",
      "browseEndpointContextSupportedConfigs",
    ];
    expect(at(ours, ...link)).toEqual(at(theirs, ...link));
    const theirRow = rowOf((theirs.contents as Json[])[0]);
    const ourRow = rowOf((ours.contents as Json[])[0]);
    for (const key of Object.keys(theirRow).filter((k) => k !== "trackingParams"))
      expect(ourRow, key).toHaveProperty(key);
    for (const key of ["flexColumnDisplayStyle", "itemHeight"]) expect(ourRow[key], key).toBe(theirRow[key]);
    const playlistId = titleBrowseId(ours) as string;
    const play = [
      "overlay",
      "musicItemThumbnailOverlayRenderer",
      "content",
      "musicPlayButtonRenderer",
      "playNavigationEndpoint",
      "watchEndpoint",
      "playlistId",
    ];
    expect(at(ourRow, ...play)).toBe(playlistId.slice(2));
    expect(typeof at(theirRow, ...play)).toBe("string");
  });
});
