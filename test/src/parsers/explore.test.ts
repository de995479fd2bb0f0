import { afterEach, describe, expect, it } from "vitest";
import {
  CHART_SECTIONS,
  chartPlaylistNames,
  parseCharts,
  parseExplore,
  parseMoodCategories,
  parseMoodPlaylists,
} from "../../../src/parsers/explore.js";
import { collectNotes } from "../../../src/parsers/notes.js";
import { describeWithFixtures, loadResponse } from "../../support/fixtures.js";
import { bodyOf, type Served, serve } from "../../support/page-server.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** A single-column browse page with these sections (the shape of every explore page). */
function page(sections: unknown[], extra: Record<string, unknown> = {}): unknown {
  return {
    contents: {
      singleColumnBrowseResultsRenderer: {
        tabs: [{ tabRenderer: { content: { sectionListRenderer: { contents: sections } } } }],
      },
    },
    ...extra,
  };
}

type Sections = unknown[];
function sectionsOf(response: unknown): Sections {
  return (
    response as {
      contents: {
        singleColumnBrowseResultsRenderer: {
          tabs: Array<{ tabRenderer: { content: { sectionListRenderer: { contents: Sections } } } }>;
        };
      };
    }
  ).contents.singleColumnBrowseResultsRenderer.tabs[0]!.tabRenderer.content.sectionListRenderer.contents;
}

describe("getCharts", () => {
  it("asks for the global charts by default", async () => {
    served = await serve([page([])]);
    await served.client.getCharts();
    expect(bodyOf(served.innertube()[0])).toEqual({
      browseId: "FEmusic_charts",
      formData: { selectedValues: ["ZZ"] },
    });
  });

  it("refuses a country the service does not serve before any request", async () => {
    served = await serve([]);
    await expect(served.client.getCharts({ country: "XX" })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      argument: "country",
    });
    await expect(served.client.getCharts({ country: "us" })).rejects.toMatchObject({ argument: "country" });
    expect(served.innertube()).toHaveLength(0);
  });

  it("names playlist carousels from the sections table", () => {
    expect(chartPlaylistNames("ZZ", 1)).toEqual(["videos"]);
    expect(chartPlaylistNames("US", 2)).toEqual(["videos", "genres"]);
    expect(chartPlaylistNames("IN", 2)).toEqual(["videos", "languages"]);
    // More carousels than a plain account's page has: premium, daily and weekly apart.
    expect(chartPlaylistNames("US", 3)).toEqual(["daily", "weekly", "genres"]);
    expect(chartPlaylistNames("DE", 2)).toEqual(["daily", "weekly"]);
  });

  // docs/PROTOCOL.md#explore: ranked song rows come to premium accounts only, so a page that has them is a
  // premium page even where its playlist carousels are no more than a plain page's (the US page lost
  // its genre carousel: premium US has daily and weekly, nothing else).
  it("names the playlist carousels of a page with song rows as a premium page's", () => {
    expect(chartPlaylistNames("US", 2)).toEqual(["videos", "genres"]);
    expect(chartPlaylistNames("US", 2, true)).toEqual(["daily", "weekly", "genres"]);
    expect(chartPlaylistNames("ZZ", 1, true)).toEqual(["daily", "weekly"]);
  });

  it("documents that songs need a premium account and that global charts have no trending", () => {
    expect(CHART_SECTIONS.find((r) => r.key === "songs")?.premium).toBe(true);
    expect(CHART_SECTIONS.find((r) => r.key === "trending")?.notCountries).toContain("ZZ");
    expect(CHART_SECTIONS.find((r) => r.key === "genres")?.countries).toEqual(["US"]);
  });

  it("reads song and trending rows by content, with ranks when present", () => {
    const row = (videoType: string, withRank: boolean) => ({
      musicResponsiveListItemRenderer: {
        flexColumns: [
          {
            musicResponsiveListItemFlexColumnRenderer: {
              text: { runs: [{ text: "Song", navigationEndpoint: { watchEndpoint: { videoId: "v1" } } }] },
            },
          },
          { musicResponsiveListItemFlexColumnRenderer: { text: { runs: [{ text: "Someone" }] } } },
        ],
        overlay: {
          musicItemThumbnailOverlayRenderer: {
            content: {
              musicPlayButtonRenderer: {
                playNavigationEndpoint: {
                  watchEndpoint: {
                    videoId: "v1",
                    playlistId: "OLAKtrend",
                    watchEndpointMusicSupportedConfigs: {
                      watchEndpointMusicConfig: { musicVideoType: videoType },
                    },
                  },
                },
              },
            },
          },
        },
        ...(withRank
          ? {
              customIndexColumn: {
                musicCustomIndexColumnRenderer: {
                  text: { runs: [{ text: "1" }] },
                  icon: { iconType: "ARROW_DROP_UP" },
                },
              },
            }
          : {}),
      },
    });
    const carousel = (browseId: string, rows: unknown[]) => ({
      musicCarouselShelfRenderer: {
        header: {
          musicCarouselShelfBasicHeaderRenderer: {
            title: { runs: [{ text: "x", navigationEndpoint: { browseEndpoint: { browseId } } }] },
          },
        },
        contents: rows,
      },
    });
    const charts = parseCharts(
      page([
        { musicShelfRenderer: {} },
        carousel("VLOLAKtrend", [row("MUSIC_VIDEO_TYPE_OMV", false)]),
        carousel("VLPLsongs", [row("MUSIC_VIDEO_TYPE_ATV", true)]),
      ]),
      "DE",
      collectNotes(),
    );
    expect(charts.trending?.playlist).toBe("VLOLAKtrend");
    expect(charts.trending?.items[0]).toMatchObject({
      title: "Song",
      videoId: "v1",
      playlistId: "OLAKtrend",
    });
    expect(charts.songs?.items[0]).toMatchObject({ title: "Song", rank: "1", trend: "up" });
    expect(charts.countries).toEqual({ selected: null, options: [] });
  });

  it("reports a carousel of an unknown kind and leaves it out", () => {
    const notes = collectNotes();
    const charts = parseCharts(
      page([
        { musicShelfRenderer: {} },
        { musicCarouselShelfRenderer: { contents: [{ chartNewRenderer: {} }] } },
      ]),
      "ZZ",
      notes,
    );
    expect(Object.keys(charts)).toEqual(["countries"]);
    expect(notes.unknown).toEqual([
      {
        renderer: "chartNewRenderer",
        where: expect.stringContaining(
          "sectionListRenderer.contents[1].musicCarouselShelfRenderer.contents[0]",
        ),
      },
    ]);
  });

  it("fails naming the path when the page has no sections", () => {
    expect(() => parseCharts({ contents: {} }, "ZZ", collectNotes())).toThrow(
      /singleColumnBrowseResultsRenderer\.tabs\[0\]/,
    );
  });
});

describeWithFixtures("charts capture", () => {
  const capture = () => structuredClone(loadResponse("ytm_2026_07_get_charts_us_albums_no_genres"));

  it("classifies carousels by content, not position", () => {
    const response = capture();
    const sections = sectionsOf(response);
    // Move the artists carousel before the video charts and drop the albums carousel.
    const [menu, _albums, videos, artists] = sections;
    sections.splice(0, sections.length, menu, artists, videos);
    const charts = parseCharts(response, "US", collectNotes());
    expect(charts.artists?.[0]?.title).toBe("YoungBoy Never Broke Again");
    expect(charts.videos?.[0]?.title).toBe("Trending 20 United States");
    expect(charts.genres).toBeUndefined();
  });

  it("gives extra playlist carousels their US names: genres, then premium daily/weekly", () => {
    const response = capture();
    const sections = sectionsOf(response);
    const videos = sections[2];
    sections.push(structuredClone(videos));
    expect(Object.keys(parseCharts(response, "US", collectNotes()))).toEqual(
      expect.arrayContaining(["videos", "genres"]),
    );
    sections.push(structuredClone(videos));
    const premium = parseCharts(response, "US", collectNotes());
    expect(premium.videos).toBeUndefined();
    expect(premium.daily).toHaveLength(3);
    expect(premium.weekly).toHaveLength(3);
    expect(premium.genres).toHaveLength(3);
  });

  it("leaves rank and trend null when the rows carry none (signed out)", () => {
    const response = capture();
    const artists = sectionsOf(response)[3] as {
      musicCarouselShelfRenderer: { contents: Array<Record<string, Record<string, unknown>>> };
    };
    for (const row of artists.musicCarouselShelfRenderer.contents)
      delete row.musicResponsiveListItemRenderer?.customIndexColumn;
    const charts = parseCharts(response, "US", collectNotes());
    expect(charts.artists?.[0]).toMatchObject({ rank: null, trend: null, subscribers: "15.6M" });
  });
});

const button = (title: string, params: string) => ({
  musicNavigationButtonRenderer: {
    buttonText: { runs: [{ text: title }] },
    clickCommand: { browseEndpoint: { browseId: "FEmusic_moods_and_genres_category", params } },
  },
});

describe("moods", () => {
  it("reads every grid and reports other sections", () => {
    const notes = collectNotes();
    const categories = parseMoodCategories(
      page([
        {
          gridRenderer: {
            header: { gridHeaderRenderer: { title: { runs: [{ text: "Genres" }] } } },
            items: [button("Pop", "p1"), { somethingElse: {} }],
          },
        },
        { musicShelfDividerRenderer: {} },
      ]),
      notes,
    );
    expect(categories).toEqual({ Genres: [{ title: "Pop", params: "p1" }] });
    expect(notes.unknown.map((n) => n.renderer)).toEqual(["somethingElse", "musicShelfDividerRenderer"]);
  });

  it("names the path of a button without params", () => {
    const broken = { musicNavigationButtonRenderer: { buttonText: { runs: [{ text: "Pop" }] } } };
    const response = page([
      {
        gridRenderer: {
          header: { gridHeaderRenderer: { title: { runs: [{ text: "G" }] } } },
          items: [broken],
        },
      },
    ]);
    expect(() => parseMoodCategories(response, collectNotes())).toThrow(
      /gridRenderer\.items\[0\]\.musicNavigationButtonRenderer\.clickCommand\.browseEndpoint\.params/,
    );
  });

  it("collects playlist cards from grids and both carousel kinds", () => {
    const card = (id: string) => ({
      musicTwoRowItemRenderer: {
        title: { runs: [{ text: id, navigationEndpoint: { browseEndpoint: { browseId: `VL${id}` } } }] },
        subtitle: { runs: [{ text: "Playlist" }] },
      },
    });
    const playlists = parseMoodPlaylists(
      page([
        { gridRenderer: { items: [card("PL1")] } },
        { musicImmersiveCarouselShelfRenderer: { contents: [card("PL2")] } },
        { musicCarouselShelfRenderer: { contents: [card("PL3")] } },
      ]),
      collectNotes(),
    );
    expect(playlists.map((p) => p.playlistId)).toEqual(["PL1", "PL2", "PL3"]);
  });

  it("sends the category params", async () => {
    served = await serve([page([])]);
    expect(await served.client.getMoodPlaylists("ggMPOg")).toEqual([]);
    expect(bodyOf(served.innertube()[0])).toEqual({
      browseId: "FEmusic_moods_and_genres_category",
      params: "ggMPOg",
    });
  });
});

describeWithFixtures("explore capture", () => {
  it("recognises an episode among the trending tracks", () => {
    const explore = parseExplore(loadResponse("ytm_2025_11_get_explore"), collectNotes());
    const episode = explore.trending?.items.find((item) => "podcast" in item);
    expect(episode).toMatchObject({ videoType: "MUSIC_VIDEO_TYPE_PODCAST_EPISODE", date: "Nov 3, 2025" });
    expect(explore.top_songs).toBeUndefined();
  });

  it("reads carousels by their title link wherever they are", () => {
    const response = structuredClone(loadResponse("ytm_2025_11_get_explore"));
    sectionsOf(response).reverse();
    const explore = parseExplore(response, collectNotes());
    expect(explore.new_releases).toHaveLength(24);
    expect(explore.moods_and_genres?.[0]).toEqual({ title: "Chill", params: "ggMPOg1uX1JOQWZFeDByc2Jm" });
  });
});
