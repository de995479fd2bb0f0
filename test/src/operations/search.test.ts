import { afterEach, describe, expect, it } from "vitest";
import { ArgumentError, AuthError, ErrorCodes, ParseError } from "../../../src/errors.js";
import { searchParams } from "../../../src/operations/search.js";
import { collectNotes } from "../../../src/parsers/notes.js";
import { parseSearchResponse, parseSearchSuggestions } from "../../../src/parsers/search.js";
import type { SearchFilter } from "../../../src/types/search.js";
import { bodyOf, type Served, serve } from "../../support/page-server.js";
import { browseRun, dotted, nextToken, playOverlay, row, thumbs, watchRun } from "../support/browsing.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** A filtered-search song row in the captured shape. */
function songRow(n: number): Record<string, unknown> {
  const id = `vid${String(n).padStart(8, "0")}`;
  return row(
    [
      [watchRun(`Song ${n}`, id)],
      dotted(browseRun("Artist", "UCartist"), browseRun("Album", "MPREb_album"), "3:12"),
      [{ text: "1.2M\u00a0plays" }],
    ],
    { overlay: playOverlay(id), thumbnail: thumbs() },
  );
}

function shelfPage(rows: number, from: number, token?: string): Record<string, unknown> {
  return {
    contents: {
      tabbedSearchResultsRenderer: {
        tabs: [
          {
            tabRenderer: {
              content: {
                sectionListRenderer: {
                  contents: [
                    {
                      musicShelfRenderer: {
                        title: { runs: [{ text: "Songs" }] },
                        contents: Array.from({ length: rows }, (_, i) => songRow(from + i)),
                        ...(token ? { continuations: nextToken(token) } : {}),
                      },
                    },
                  ],
                },
              },
            },
          },
        ],
      },
    },
  };
}

function continuationPage(rows: number, from: number, token?: string): Record<string, unknown> {
  return {
    continuationContents: {
      musicShelfContinuation: {
        contents: Array.from({ length: rows }, (_, i) => songRow(from + i)),
        ...(token ? { continuations: nextToken(token) } : {}),
      },
    },
  };
}

describe("search params", () => {
  it("follows the protocol table for catalogue filters, with and without spelling correction", () => {
    expect(searchParams(null, null, false)).toBeNull();
    expect(searchParams(null, null, true)).toBe("EhGKAQ4IARABGAEgASgAOAFAAUICCAE%3D");
    expect(searchParams("songs", null, false)).toBe("EgWKAQIIAWoMEA4QChADEAQQCRAF");
    expect(searchParams("songs", null, true)).toBe("EgWKAQIIAUICCAFqDBAOEAoQAxAEEAkQBQ%3D%3D");
    expect(searchParams("videos", null, false)).toBe("EgWKAQIQAWoMEA4QChADEAQQCRAF");
    expect(searchParams("albums", null, true)).toBe("EgWKAQIYAUICCAFqDBAOEAoQAxAEEAkQBQ%3D%3D");
    expect(searchParams("artists", null, false)).toBe("EgWKAQIgAWoMEA4QChADEAQQCRAF");
    expect(searchParams("playlists", null, false)).toBe("Eg-KAQwIABAAGAAgACgBMABqChAEEAMQCRAFEAo%3D");
    expect(searchParams("playlists", null, true)).toBe("Eg-KAQwIABAAGAAgACgBMABCAggBagoQBBADEAkQBRAK");
    expect(searchParams("community_playlists", null, false)).toBe("EgeKAQQoAEABagwQDhAKEAMQBBAJEAU%3D");
    expect(searchParams("community_playlists", null, true)).toBe("EgeKAQQoAEABQgIIAWoMEA4QChADEAQQCRAF");
    expect(searchParams("featured_playlists", null, false)).toBe("EgeKAQQoADgBagwQDhAKEAMQBBAJEAU%3D");
    expect(searchParams("featured_playlists", null, true)).toBe("EgeKAQQoADgBQgIIAWoMEA4QChADEAQQCRAF");
    expect(searchParams("profiles", null, false)).toBe("EgWKAQJYAWoMEA4QChADEAQQCRAF");
    expect(searchParams("podcasts", null, true)).toBe("EgWKAQJQAUICCAFqDBAOEAoQAxAEEAkQBQ%3D%3D");
    expect(searchParams("episodes", null, false)).toBe("EgWKAQJIAWoMEA4QChADEAQQCRAF");
  });

  it("ignores the spelling flag in the library and uploads scopes", () => {
    for (const spelling of [false, true]) {
      expect(searchParams(null, "library", spelling)).toBe("agIYBA%3D%3D");
      expect(searchParams(null, "uploads", spelling)).toBe("agIYAw%3D%3D");
      expect(searchParams("songs", "library", spelling)).toBe("EgWKAQIIAWoKEAUQCRADEAoYBA%3D%3D");
      expect(searchParams("playlists", "library", spelling)).toBe("EgWKAQIoAWoKEAUQCRADEAoYBA%3D%3D");
      expect(searchParams("episodes", "library", spelling)).toBe("EgWKAQJIAWoKEAUQCRADEAoYBA%3D%3D");
    }
  });
});

describe("search arguments", () => {
  const refused: Array<[string, Record<string, unknown>, string]> = [
    ["an unknown filter", { filter: "tracks" }, "filter"],
    ["an unknown scope", { scope: "everything" }, "scope"],
    ["any filter with the uploads scope", { scope: "uploads", filter: "songs" }, "filter"],
    ["community playlists in the library", { scope: "library", filter: "community_playlists" }, "filter"],
    ["featured playlists in the library", { scope: "library", filter: "featured_playlists" }, "filter"],
    ["a negative limit", { limit: -1 }, "limit"],
    ["a fractional limit", { limit: 2.5 }, "limit"],
    ["a non-boolean ignoreSpelling", { ignoreSpelling: "yes" }, "ignoreSpelling"],
  ];
  for (const [what, options, argument] of refused) {
    it(`refuses ${what} before any request`, async () => {
      served = await serve([], { auth: true });
      const error = await served.client.search("q", options as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ArgumentError);
      expect((error as ArgumentError).argument).toBe(argument);
      expect((error as ArgumentError).code).toBe(ErrorCodes.INVALID_ARGUMENT);
      expect(served.innertube()).toHaveLength(0);
    });
  }

  for (const scope of ["library", "uploads"] as const) {
    it(`needs credentials for the ${scope} scope, before any request`, async () => {
      served = await serve([]);
      const error = await served.client.search("q", { scope }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthError);
      expect((error as AuthError).code).toBe(ErrorCodes.AUTH_REQUIRED);
      expect(served.innertube()).toHaveLength(0);
    });
  }

  it("sends the ignore-spelling params and the query", async () => {
    served = await serve([{}]);
    await served.client.search("beatles", { filter: "songs", ignoreSpelling: true });
    expect(bodyOf(served.innertube()[0])).toEqual({
      query: "beatles",
      params: "EgWKAQIIAUICCAFqDBAOEAoQAxAEEAkQBQ%3D%3D",
    });
  });
});

describe("search continuations", () => {
  it("stops once the limit is reached, counting the first page", async () => {
    served = await serve([
      shelfPage(3, 0, "tok1"),
      continuationPage(3, 3, "tok2"),
      continuationPage(3, 6, "tok3"),
    ]);
    const results = await served.client.search("q", { filter: "songs", limit: 5 });
    // Whole pages: 3 + 3 ≥ 5, so the third page is never asked for.
    expect(results.map((r) => r.title)).toEqual(["Song 0", "Song 1", "Song 2", "Song 3", "Song 4", "Song 5"]);
    const sent = served.innertube();
    expect(sent).toHaveLength(2);
    expect(sent[1]?.query).toContain("ctoken=tok1&continuation=tok1");
    expect(bodyOf(sent[1])).toEqual(bodyOf(sent[0]));
  });

  it("fetches no continuation when the first page already holds the limit", async () => {
    served = await serve([shelfPage(4, 0, "tok1")]);
    const results = await served.client.search("q", { filter: "songs", limit: 4 });
    expect(results).toHaveLength(4);
    expect(served.innertube()).toHaveLength(1);
  });

  it("with a null limit follows tokens until a page has none", async () => {
    served = await serve([shelfPage(2, 0, "a"), continuationPage(2, 2, "b"), continuationPage(1, 4)]);
    const results = await served.client.search("q", { filter: "songs", limit: null });
    expect(results).toHaveLength(5);
    expect(served.innertube()).toHaveLength(3);
  });

  it("stops cleanly on an answer without continuation contents", async () => {
    served = await serve([shelfPage(2, 0, "a")]); // the server answers `{}` afterwards
    const results = await served.client.search("q", { filter: "songs", limit: 50 });
    expect(results).toHaveLength(2);
    expect(served.innertube()).toHaveLength(2);
  });

  it("stops on an empty continuation page even if it carries a token", async () => {
    served = await serve([shelfPage(2, 0, "a"), continuationPage(0, 2, "b"), continuationPage(2, 2)]);
    const results = await served.client.search("q", { filter: "songs", limit: 50 });
    expect(results).toHaveLength(2);
    expect(served.innertube()).toHaveLength(2);
  });

  it("never continues an unfiltered search", async () => {
    served = await serve([shelfPage(2, 0, "a"), continuationPage(2, 2)]);
    const results = await served.client.search("q", { limit: 50 });
    expect(results).toHaveLength(2);
    expect(served.innertube()).toHaveLength(1);
  });
});

describe("search parsing", () => {
  it("parses song rows: runs classified, plays joined by NBSP kept, explicit badge, menu defaults", async () => {
    served = await serve([shelfPage(1, 7)]);
    const [song] = await served.client.search("q", { filter: "songs" });
    expect(song).toMatchObject({
      category: "Songs",
      resultType: "song",
      title: "Song 7",
      videoId: "vid00000007",
      videoType: "MUSIC_VIDEO_TYPE_ATV",
      artists: [{ name: "Artist", id: "UCartist" }],
      album: { name: "Album", id: "MPREb_album" },
      duration: "3:12",
      duration_seconds: 192,
      views: "1.2M\u00a0plays",
      isExplicit: false,
      year: null,
    });
  });

  it("raises a ParseError naming the path when the results tab has no section list", async () => {
    served = await serve([{ contents: { tabbedSearchResultsRenderer: { tabs: [{ tabRenderer: {} }] } } }]);
    const error = await served.client.search("q").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).path).toBe(
      "contents.tabbedSearchResultsRenderer.tabs[0].tabRenderer.content.sectionListRenderer.contents",
    );
    expect((error as ParseError).operation).toBe("search");
  });

  it("reads an unfiltered library search from the library tab", async () => {
    const page = shelfPage(1, 0) as { contents: { tabbedSearchResultsRenderer: { tabs: unknown[] } } };
    const tabs = page.contents.tabbedSearchResultsRenderer.tabs;
    tabs.unshift({ tabRenderer: { content: { sectionListRenderer: { contents: [] } } } });
    served = await serve([page], { auth: true });
    const results = await served.client.search("q", { scope: "library" });
    expect(results.map((r) => r.title)).toEqual(["Song 0"]);
    expect(bodyOf(served.innertube()[0])).toEqual({ query: "q", params: "agIYBA%3D%3D" });
  });

  it("answers [] for a response without contents (no results)", async () => {
    served = await serve([{ responseContext: {} }]);
    expect(await served.client.search("zzzz")).toEqual([]);
  });

  it("skips shelves whose title does not name the filtered kind, and reports unknown renderers", () => {
    const page = shelfPage(2, 0) as {
      contents: {
        tabbedSearchResultsRenderer: {
          tabs: Array<{ tabRenderer: { content: { sectionListRenderer: { contents: unknown[] } } } }>;
        };
      };
    };
    const sections = page.contents.tabbedSearchResultsRenderer.tabs[0]?.tabRenderer.content
      .sectionListRenderer.contents as unknown[];
    sections.push({ musicShelfRenderer: { title: { runs: [{ text: "Videos" }] }, contents: [songRow(9)] } });
    sections.push({ adSlotRenderer: {} });
    (sections[0] as { musicShelfRenderer: { contents: unknown[] } }).musicShelfRenderer.contents.push({
      promoRenderer: {},
    });
    const notes = collectNotes();
    const parsed = parseSearchResponse(page, { filter: "songs" as SearchFilter, scope: null }, notes);
    expect(parsed.results.map((r) => r.title)).toEqual(["Song 0", "Song 1"]);
    expect(notes.unknown.map((n) => n.renderer).sort()).toEqual(["adSlotRenderer", "promoRenderer"]);
  });
});

describe("search suggestions", () => {
  const response = {
    contents: [
      {
        searchSuggestionsSectionRenderer: {
          contents: [
            {
              historySuggestionRenderer: {
                suggestion: { runs: [{ text: "beat", bold: true }, { text: "les" }] },
                navigationEndpoint: { searchEndpoint: { query: "beatles" } },
                serviceEndpoint: { feedbackEndpoint: { feedbackToken: "hist-token" } },
              },
            },
            {
              searchSuggestionRenderer: {
                suggestion: { runs: [{ text: "beat", bold: true }, { text: " it" }] },
                navigationEndpoint: { searchEndpoint: { query: "beat it" } },
              },
            },
            { musicTypeaheadPromoRenderer: {} },
          ],
        },
      },
    ],
  };

  it("returns the suggestion texts and sends the partial query as `input`", async () => {
    served = await serve([response]);
    expect(await served.client.getSearchSuggestions("beat")).toEqual(["beatles", "beat it"]);
    const [request] = served.innertube();
    expect(request?.path).toBe("/youtubei/v1/music/get_search_suggestions");
    expect(bodyOf(request)).toEqual({ input: "beat" });
  });

  it("with detailedRuns returns runs and marks history suggestions with their token", async () => {
    served = await serve([response]);
    const detailed = await served.client.getSearchSuggestions("beat", { detailedRuns: true });
    expect(detailed).toEqual([
      {
        text: "beatles",
        runs: [{ text: "beat", bold: true }, { text: "les" }],
        fromHistory: true,
        feedbackToken: "hist-token",
      },
      {
        text: "beat it",
        runs: [{ text: "beat", bold: true }, { text: " it" }],
        fromHistory: false,
        feedbackToken: null,
      },
    ]);
  });

  it("reports unknown suggestion renderers and answers [] without a section", () => {
    const notes = collectNotes();
    expect(parseSearchSuggestions(response, false, notes)).toHaveLength(2);
    expect(notes.unknown.map((n) => n.renderer)).toEqual(["musicTypeaheadPromoRenderer"]);
    expect(parseSearchSuggestions({}, true, notes)).toEqual([]);
  });
});
