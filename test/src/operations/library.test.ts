import { describe, expect, it } from "vitest";
import { ArgumentError, AuthError, ParseError, ServiceError } from "../../../src/index.js";
import { clientPlaybackNonce } from "../../../src/operations/library.js";
import { describeWithFixtures, fixtureCase, requestDifferences, runCase } from "../../support/fixtures.js";
import type { Reply, SeenRequest } from "../../support/replay-server.js";
import { classicPage, ctoken, fields, startService } from "../support/library.js";

// ── synthetic rows in the captured shapes ──────────────────────────────────────────────────────

const runs = (...texts: string[]) => ({ runs: texts.map((text) => ({ text })) });
const flex = (text: unknown) => ({ musicResponsiveListItemFlexColumnRenderer: { text } });

function artistRow(n: number) {
  return {
    musicResponsiveListItemRenderer: {
      navigationEndpoint: {
        browseEndpoint: {
          browseId: `UC${n}`,
          browseEndpointContextSupportedConfigs: {
            browseEndpointContextMusicConfig: { pageType: "MUSIC_PAGE_TYPE_ARTIST" },
          },
        },
      },
      flexColumns: [flex(runs(`Artist ${n}`)), flex(runs(`${n} songs`))],
    },
  };
}

function songRow(n: number) {
  const videoId = `video${n}`;
  return {
    musicResponsiveListItemRenderer: {
      overlay: {
        musicItemThumbnailOverlayRenderer: {
          content: { musicPlayButtonRenderer: { playNavigationEndpoint: { watchEndpoint: { videoId } } } },
        },
      },
      flexColumns: [
        flex({ runs: [{ text: `Song ${n}`, navigationEndpoint: { watchEndpoint: { videoId } } }] }),
      ],
      fixedColumns: [{ musicResponsiveListItemFixedColumnRenderer: { text: runs("3:00") } }],
      menu: { menuRenderer: { items: [] } },
    },
  };
}

const shuffleRow = { musicResponsiveListItemRenderer: { flexColumns: [flex(runs("Shuffle all"))] } };

/** A library page: sections in the first tab, or (without sections) `tabs` extra tabs. */
function libraryPage(sections: unknown[] | null, extraTabs: unknown[] = []) {
  const first =
    sections === null
      ? { tabRenderer: {} }
      : { tabRenderer: { content: { sectionListRenderer: { contents: sections } } } };
  return { contents: { singleColumnBrowseResultsRenderer: { tabs: [first, ...extraTabs] } } };
}

function shelf(items: unknown[], token: string | null = null) {
  const renderer: Record<string, unknown> = { contents: items };
  if (token !== null) renderer.continuations = [{ nextContinuationData: { continuation: token } }];
  return { musicShelfRenderer: renderer };
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

// ── credentials ────────────────────────────────────────────────────────────────────────────────

describe("library operations without credentials", () => {
  const calls: Array<[string, (c: import("../../../src/index.js").MusicClient) => Promise<unknown>]> = [
    ["getLibraryPlaylists", (c) => c.getLibraryPlaylists()],
    ["getLibrarySongs", (c) => c.getLibrarySongs()],
    ["getLibraryAlbums", (c) => c.getLibraryAlbums()],
    ["getLibraryArtists", (c) => c.getLibraryArtists()],
    ["getLibrarySubscriptions", (c) => c.getLibrarySubscriptions()],
    ["getLibraryPodcasts", (c) => c.getLibraryPodcasts()],
    ["getLibraryChannels", (c) => c.getLibraryChannels()],
    ["getLikedSongs", (c) => c.getLikedSongs()],
    ["getSavedEpisodes", (c) => c.getSavedEpisodes()],
    ["getHistory", (c) => c.getHistory()],
    [
      "addHistoryItem",
      (c) =>
        c.addHistoryItem({
          playbackTracking: { videostatsPlaybackUrl: { baseUrl: "http://127.0.0.1:9/x" } },
        }),
    ],
    ["removeHistoryItems", (c) => c.removeHistoryItems(["token"])],
    ["rateSong", (c) => c.rateSong("video", "LIKE")],
    ["editSongLibraryStatus", (c) => c.editSongLibraryStatus(["token"])],
    ["ratePlaylist", (c) => c.ratePlaylist("PL1", "LIKE")],
    ["subscribeArtists", (c) => c.subscribeArtists(["UC1"])],
    ["unsubscribeArtists", (c) => c.unsubscribeArtists(["UC1"])],
    ["getAccountInfo", (c) => c.getAccountInfo()],
  ];
  for (const [name, call] of calls) {
    it(`${name} fails with AUTH_REQUIRED before any request`, async () => {
      const service = await startService(() => ({ body: {} }), { anonymous: true });
      const error = await call(service.client).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthError);
      expect((error as AuthError).code).toBe("AUTH_REQUIRED");
      expect(service.api()).toHaveLength(0);
      expect(service.other()).toHaveLength(0);
    });
  }
});

// ── argument checks ────────────────────────────────────────────────────────────────────────────

describe("library argument checks happen before any request", () => {
  const cases: Array<[string, string, (c: import("../../../src/index.js").MusicClient) => Promise<unknown>]> =
    [
      ["a rating outside LIKE/DISLIKE/INDIFFERENT", "rating", (c) => c.rateSong("v", "LOVE" as never)],
      ["a playlist rating outside the three", "rating", (c) => c.ratePlaylist("PL1", "like" as never)],
      ["an unknown order", "order", (c) => c.getLibraryAlbums({ order: "newest" as never })],
      ["a negative limit", "limit", (c) => c.getLibrarySongs({ limit: -1 })],
      ["a fractional limit", "limit", (c) => c.getLibraryArtists({ limit: 2.5 })],
      [
        "validation without a limit",
        "validateResponses",
        (c) => c.getLibrarySongs({ limit: null, validateResponses: true }),
      ],
      ["two channels to subscribe", "channelIds", (c) => c.subscribeArtists(["UC1", "UC2"])],
      ["no feedback tokens", "feedbackTokens", (c) => c.removeHistoryItems([])],
      ["a non-string token", "feedbackTokens", (c) => c.editSongLibraryStatus([3 as never])],
      ["an empty video id", "videoId", (c) => c.rateSong("", "LIKE")],
      ["a song without tracking URL", "song", (c) => c.addHistoryItem({})],
    ];
  for (const [what, argument, call] of cases) {
    it(`refuses ${what} (${argument})`, async () => {
      const service = await startService(() => ({ body: {} }));
      const error = await call(service.client).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ArgumentError);
      expect((error as ArgumentError).argument).toBe(argument);
      expect(service.api()).toHaveLength(0);
    });
  }
});

// ── writes ─────────────────────────────────────────────────────────────────────────────────────

describe("ratings, library status and subscriptions", () => {
  it("rates songs and playlists through the like endpoint of the rating", async () => {
    const service = await startService((r) => ({ body: { actions: [{ endpoint: r.path }] } }));
    const liked = await service.client.rateSong("abc", "LIKE");
    await service.client.rateSong("abc", "DISLIKE");
    await service.client.rateSong("abc");
    await service.client.ratePlaylist("PL9", "LIKE");
    await service.client.ratePlaylist("PL9");
    const sent = service.api();
    expect(sent.map((r) => r.path)).toEqual([
      "/youtubei/v1/like/like",
      "/youtubei/v1/like/dislike",
      "/youtubei/v1/like/removelike",
      "/youtubei/v1/like/like",
      "/youtubei/v1/like/removelike",
    ]);
    expect(fields(sent[0])).toEqual({ target: { videoId: "abc" } });
    expect(fields(sent[3])).toEqual({ target: { playlistId: "PL9" } });
    // The whole response comes back.
    expect(liked).toEqual({ actions: [{ endpoint: "/youtubei/v1/like/like" }] });
  });

  it("sends library and history feedback tokens and returns the response", async () => {
    const answer = { feedbackResponses: [{ isProcessed: true }, { isProcessed: false }] };
    const service = await startService(() => ({ body: answer }));
    expect(await service.client.editSongLibraryStatus(["add-token", "pin-token"])).toEqual(answer);
    expect(await service.client.removeHistoryItems(["history-token"])).toEqual(answer);
    const [edit, remove] = service.api();
    expect(edit?.path).toBe("/youtubei/v1/feedback");
    expect(fields(edit)).toEqual({ feedbackTokens: ["add-token", "pin-token"] });
    expect(fields(remove)).toEqual({ feedbackTokens: ["history-token"] });
  });

  it("subscribes to one channel and unsubscribes from several in one call", async () => {
    const service = await startService(() => ({ body: { actions: [] } }));
    await service.client.subscribeArtists(["UC1"]);
    await service.client.unsubscribeArtists(["UC1", "UC2"]);
    const [subscribe, unsubscribe] = service.api();
    expect(subscribe?.path).toBe("/youtubei/v1/subscription/subscribe");
    expect(fields(subscribe)).toEqual({ channelIds: ["UC1"] });
    expect(unsubscribe?.path).toBe("/youtubei/v1/subscription/unsubscribe");
    expect(fields(unsubscribe)).toEqual({ channelIds: ["UC1", "UC2"] });
  });

  it("raises the service's HTTP error for a write instead of returning it", async () => {
    const service = await startService(() => ({
      status: 403,
      body: { error: { code: 403, message: "denied" } },
    }));
    const error = await service.client.rateSong("abc", "LIKE").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).status).toBe(403);
    // Writes are never retried.
    expect(service.api()).toHaveLength(1);
  });
});

// ── account ────────────────────────────────────────────────────────────────────────────────────

function accountMenu(header: Record<string, unknown>) {
  return {
    actions: [
      {
        openPopupAction: {
          popup: { multiPageMenuRenderer: { header: { activeAccountHeaderRenderer: header } } },
        },
      },
    ],
  };
}

describe("getAccountInfo", () => {
  it("posts an empty body to account/account_menu and reads the active account header", async () => {
    const service = await startService(() => ({
      body: accountMenu({
        accountName: runs("Ada Lovelace"),
        channelHandle: runs("@ada"),
        accountPhoto: { thumbnails: [{ url: "https://photo/ada=s48", width: 48, height: 48 }] },
      }),
    }));
    expect(await service.client.getAccountInfo()).toEqual({
      accountName: "Ada Lovelace",
      channelHandle: "@ada",
      accountPhotoUrl: "https://photo/ada=s48",
    });
    const [request] = service.api();
    expect(request?.path).toBe("/youtubei/v1/account/account_menu");
    expect(fields(request)).toEqual({});
  });

  it("gives a null handle for an account without a channel", async () => {
    const service = await startService(() => ({
      body: accountMenu({ accountName: runs("No Channel"), accountPhoto: { thumbnails: [{ url: "u" }] } }),
    }));
    expect((await service.client.getAccountInfo()).channelHandle).toBeNull();
  });

  it("raises a ParseError naming the path when the menu has no account header", async () => {
    const service = await startService(() => ({ body: { actions: [] } }));
    const error = await service.client.getAccountInfo().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as ParseError).path).toContain("activeAccountHeaderRenderer");
    expect((error as ParseError).operation).toBe("get_account_info");
  });
});

// ── history ────────────────────────────────────────────────────────────────────────────────────

describe("addHistoryItem", () => {
  it("GETs the song's tracking URL with ver, c and a playback nonce, authenticated, and reports 204", async () => {
    let tracked: SeenRequest | undefined;
    const service = await startService((r): Reply => {
      if (r.path === "/api/stats/playback") {
        tracked = r;
        return { status: 204 };
      }
      return { body: {} };
    });
    const song = {
      playbackTracking: {
        videostatsPlaybackUrl: { baseUrl: `${service.server.url}/api/stats/playback?docid=abc&ei=xyz&ns=yt` },
      },
    };
    expect(await service.client.addHistoryItem(song)).toEqual({ status: 204 });
    expect(tracked?.method).toBe("GET");
    const query = new URLSearchParams(tracked?.query);
    expect(query.get("docid")).toBe("abc");
    expect(query.get("ei")).toBe("xyz");
    expect(query.get("ver")).toBe("2");
    expect(query.get("c")).toBe("WEB_REMIX");
    expect(query.get("cpn")).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(tracked?.headers.authorization).toMatch(/^SAPISIDHASH /);
    expect(tracked?.headers.cookie).toContain("SAPISID");
  });

  it("raises an HTTP_ERROR when the tracking endpoint refuses", async () => {
    const service = await startService(() => ({ status: 500, body: "nope" }));
    const song = {
      playbackTracking: { videostatsPlaybackUrl: { baseUrl: `${service.server.url}/api/stats/playback` } },
    };
    const error = await service.client.addHistoryItem(song).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe("HTTP_ERROR");
    expect((error as ServiceError).status).toBe(500);
  });

  it("draws nonce characters from the 64-symbol alphabet, masked to 6 bits", () => {
    expect(clientPlaybackNonce(() => 256)).toBe("a".repeat(16));
    expect(clientPlaybackNonce(() => 63)).toBe("_".repeat(16));
    expect(clientPlaybackNonce(() => 64 + 26)).toBe("A".repeat(16));
    const bounds: number[] = [];
    clientPlaybackNonce((max) => {
      bounds.push(max);
      return 0;
    });
    expect(new Set(bounds)).toEqual(new Set([257]));
  });
});

describe("getHistory", () => {
  it("raises NO_CONTENT with the service's notice when history is paused", async () => {
    const paused = libraryPage([{ musicNotifierShelfRenderer: { title: runs("Watch history is paused") } }]);
    const service = await startService(() => ({ body: paused }));
    const error = await service.client.getHistory().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe("NO_CONTENT");
    expect((error as ServiceError).message).toContain("Watch history is paused");
    expect(fields(service.api()[0])).toEqual({ browseId: "FEmusic_history" });
  });

  it("gives each row the period of its shelf", async () => {
    const today = { musicShelfRenderer: { title: runs("Today"), contents: [songRow(1), songRow(2)] } };
    const june = { musicShelfRenderer: { title: runs("June 2024"), contents: [songRow(3)] } };
    const service = await startService(() => ({ body: libraryPage([today, june]) }));
    const history = await service.client.getHistory();
    expect(history.map((h) => [h.videoId, h.played])).toEqual([
      ["video1", "Today"],
      ["video2", "Today"],
      ["video3", "June 2024"],
    ]);
  });
});

// ── library lists ──────────────────────────────────────────────────────────────────────────────

describe("library lists", () => {
  it("sends the order's params and re-sends the same body with each continuation", async () => {
    const service = await startService((r) =>
      ctoken(r) === null
        ? { body: libraryPage([shelf(range(1, 3).map(artistRow), "next-1")]) }
        : { body: classicPage("musicShelfContinuation", range(4, 3).map(artistRow), null) },
    );
    const artists = await service.client.getLibrarySubscriptions({ order: "z_to_a", limit: 5 });
    expect(artists.map((a) => a.browseId)).toEqual(["UC1", "UC2", "UC3", "UC4", "UC5", "UC6"]);
    const [first, second] = service.api();
    expect(fields(first)).toEqual({ browseId: "FEmusic_library_corpus_artists", params: "ggMGKgQIARAB" });
    expect(fields(second)).toEqual(fields(first));
    expect(ctoken(second)).toBe("next-1");
    expect(new URLSearchParams(second?.query).get("continuation")).toBe("next-1");
  });

  it.each([
    ["a_to_z", "ggMGKgQIARAA"],
    ["z_to_a", "ggMGKgQIARAB"],
    ["recently_added", "ggMGKgQIABAB"],
  ] as const)("sends %s as params %s", async (order, params) => {
    const service = await startService(() => ({ body: libraryPage([{ gridRenderer: { items: [] } }]) }));
    await service.client.getLibraryAlbums({ order });
    await service.client.getLibraryUploadSongs({ order });
    expect(service.api().map((r) => fields(r).params)).toEqual([params, params]);
  });

  it("stops at the limit, counting whole pages", async () => {
    let page = 0;
    const service = await startService(() => {
      page++;
      const rows = range(page * 10, 3).map(artistRow);
      return page === 1
        ? { body: libraryPage([shelf(rows, "t1")]) }
        : { body: classicPage("musicShelfContinuation", rows, `t${page}`) };
    });
    expect(await service.client.getLibraryArtists({ limit: 3 })).toHaveLength(3);
    expect(service.api()).toHaveLength(1);
    page = 0;
    expect(await service.client.getLibraryArtists({ limit: 7 })).toHaveLength(9);
    expect(service.api()).toHaveLength(4);
  });

  it("with limit null follows continuations to the last page", async () => {
    let page = 0;
    const service = await startService(() => {
      page++;
      const rows = range(page * 10, 2).map(artistRow);
      if (page === 1) return { body: libraryPage([shelf(rows, "t1")]) };
      return { body: classicPage("musicShelfContinuation", rows, page < 5 ? `t${page}` : null) };
    });
    const artists = await service.client.getLibraryChannels({ limit: null });
    expect(artists).toHaveLength(10);
    expect(service.api()).toHaveLength(5);
  });

  it("stops on an empty continuation page or one without continuation contents", async () => {
    const service = await startService((r) =>
      ctoken(r) === null
        ? { body: libraryPage([shelf([artistRow(1)], "t1")]) }
        : ctoken(r) === "t1"
          ? { body: classicPage("musicShelfContinuation", [], "t2") }
          : { body: {} },
    );
    expect(await service.client.getLibraryArtists({ limit: null })).toHaveLength(1);
    expect(service.api()).toHaveLength(2);
  });

  it("finds the list inside an itemSectionRenderer", async () => {
    const page = libraryPage([
      { musicShelfRenderer: { contents: [] } },
      { itemSectionRenderer: { contents: [{ musicShelfRenderer: { contents: [artistRow(7)] } }] } },
    ]);
    const service = await startService(() => ({ body: page }));
    expect((await service.client.getLibraryArtists()).map((a) => a.artist)).toEqual(["Artist 7"]);
  });

  it("falls back to tab 1, or tab 2 when a Downloads tab exists, for pages whose first tab has no sections", async () => {
    const tab = (n: number) => ({
      tabRenderer: { content: { sectionListRenderer: { contents: [shelf([artistRow(n)])] } } },
    });
    const two = await startService(() => ({ body: libraryPage(null, [tab(1)]) }));
    expect((await two.client.getLibraryUploadArtists()).map((a) => a.browseId)).toEqual(["UC1"]);
    const three = await startService(() => ({ body: libraryPage(null, [tab(1), tab(2)]) }));
    expect((await three.client.getLibraryUploadArtists()).map((a) => a.browseId)).toEqual(["UC2"]);
  });

  it("gives an empty list when the page holds no list", async () => {
    const service = await startService(() => ({ body: libraryPage(null) }));
    expect(await service.client.getLibraryPlaylists()).toEqual([]);
    expect(await service.client.getLibraryAlbums()).toEqual([]);
  });

  it("drops the shuffle row that opens the library songs", async () => {
    const service = await startService(() => ({
      body: libraryPage([shelf([shuffleRow, songRow(1), songRow(2)])]),
    }));
    const songs = await service.client.getLibrarySongs();
    expect(songs.map((s) => s.videoId)).toEqual(["video1", "video2"]);
    expect(fields(service.api()[0])).toEqual({ browseId: "FEmusic_liked_videos" });
  });
});

describe("getLibrarySongs with validateResponses", () => {
  it("re-requests a short first page up to 3 more times and keeps the largest answer", async () => {
    const sizes = [10, 12, 11, 9];
    let call = 0;
    const service = await startService(() => {
      const size = sizes[call++] ?? 25;
      return { body: libraryPage([shelf([shuffleRow, ...range(1, size).map(songRow)])]) };
    });
    const songs = await service.client.getLibrarySongs({ limit: 25, validateResponses: true });
    expect(songs).toHaveLength(12);
    expect(service.api()).toHaveLength(4);
  });

  it("asks once when the page is as long as expected, and checks continuation pages against what is left", async () => {
    const service = await startService((r) => {
      if (ctoken(r) === null)
        return { body: libraryPage([shelf([shuffleRow, ...range(1, 25).map(songRow)], "t1")]) };
      // 5 rows are still wanted: a page of 5 is complete.
      return { body: classicPage("musicShelfContinuation", range(26, 5).map(songRow), "t2") };
    });
    const songs = await service.client.getLibrarySongs({ limit: 30, validateResponses: true });
    expect(songs).toHaveLength(30);
    expect(service.api()).toHaveLength(2);
  });

  it("without validation takes a short page as it comes", async () => {
    const service = await startService(() => ({
      body: libraryPage([shelf([shuffleRow, ...range(1, 10).map(songRow)])]),
    }));
    expect(await service.client.getLibrarySongs({ limit: 25 })).toHaveLength(10);
    expect(service.api()).toHaveLength(1);
  });
});

describe("getLikedSongs and getSavedEpisodes", () => {
  it("read the LM and SE playlists", async () => {
    const service = await startService(() => ({ body: {} }));
    await service.client.getLikedSongs().catch(() => undefined);
    await service.client.getSavedEpisodes().catch(() => undefined);
    expect(service.api().map((r) => fields(r))).toEqual([{ browseId: "VLLM" }, { browseId: "VLSE" }]);
  });
});

describeWithFixtures("getLibraryPodcasts on the capture the reference fails on", () => {
  it("skips the link-less 'Add podcast' card of every page and reads both pages", async () => {
    const c = fixtureCase("yt_get_library_podcasts_20250626");
    const { result, requests } = await runCase(c);
    const podcasts = result as Array<{ title: string; podcastId: string | null; browseId: string | null }>;
    expect(podcasts).toHaveLength(8);
    expect(podcasts.some((p) => p.title === "Add podcast")).toBe(false);
    expect(podcasts.slice(0, 4).map((p) => p.podcastId)).toEqual([
      "RDPN",
      "SE",
      "PLWnnGn_Lw9os50MbtFCouWYsArlq2s8ct",
      "PL-DKwJ9DPK50GVw01eGOULr7R-kJmMPoq",
    ]);
    expect(podcasts.every((p) => p.browseId !== null)).toBe(true);
    // The two requests the reference made are the same; the captured continuation page carries a token
    // again, so a third request follows (answered `{}` by the replay server), which ends the list.
    expect(requestDifferences(c, requests.slice(0, 2))).toEqual([]);
    expect(requests).toHaveLength(3);
    expect(ctoken(requests[2])).toBe(ctoken(requests[1]));
  });
});
