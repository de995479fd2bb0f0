import { afterEach, describe, expect, it } from "vitest";
import { ServiceError } from "../../../src/errors.js";
import { RADIO_PARAMS, SHUFFLE_PARAMS, watchRequestBody } from "../../../src/operations/watch.js";
import { collectNotes } from "../../../src/parsers/notes.js";
import { parseWatchPage } from "../../../src/parsers/watch.js";
import { describeWithFixtures, loadResponse } from "../../support/fixtures.js";
import { bodyOf, type Served, serve } from "../../support/page-server.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** A queue item in the captured shape. */
function track(videoId: string, playlistId: string, extra: Record<string, unknown> = {}): unknown {
  return {
    playlistPanelVideoRenderer: {
      videoId,
      title: { runs: [{ text: `Song ${videoId}` }] },
      longBylineText: {
        runs: [
          { text: "Artist", navigationEndpoint: { browseEndpoint: { browseId: "UCartist" } } },
          { text: " \u2022 " },
          { text: "Album", navigationEndpoint: { browseEndpoint: { browseId: "MPREalbum" } } },
          { text: " \u2022 " },
          { text: "2019" },
        ],
      },
      lengthText: { runs: [{ text: "3:21" }] },
      navigationEndpoint: { watchEndpoint: { videoId, playlistId } },
      ...extra,
    },
  };
}

function tracks(prefix: string, count: number, playlistId: string): unknown[] {
  return Array.from({ length: count }, (_, i) => track(`${prefix}${i}`, playlistId));
}

function tab(pageType: string, browseId: string, extra: Record<string, unknown> = {}): unknown {
  return {
    tabRenderer: {
      endpoint: {
        browseEndpoint: {
          browseId,
          browseEndpointContextSupportedConfigs: { browseEndpointContextMusicConfig: { pageType } },
        },
      },
      ...extra,
    },
  };
}

function continuations(kind: "next" | "radio", token: string | null): unknown[] | undefined {
  if (token === null) return undefined;
  return [
    { [kind === "next" ? "nextContinuationData" : "nextRadioContinuationData"]: { continuation: token } },
  ];
}

/** A `next` answer: queue tab, then lyrics and related tabs (or `otherTabs`). */
function nextAnswer(
  items: unknown[],
  kind: "next" | "radio",
  token: string | null,
  otherTabs: unknown[] = [
    tab("MUSIC_PAGE_TYPE_TRACK_LYRICS", "MPLYt_1"),
    tab("MUSIC_PAGE_TYPE_TRACK_RELATED", "MPTRt_1"),
  ],
): unknown {
  return {
    contents: {
      singleColumnMusicWatchNextResultsRenderer: {
        tabbedRenderer: {
          watchNextTabbedResultsRenderer: {
            tabs: [
              {
                tabRenderer: {
                  title: "Up next",
                  content: {
                    musicQueueRenderer: {
                      content: {
                        playlistPanelRenderer: { contents: items, continuations: continuations(kind, token) },
                      },
                    },
                  },
                },
              },
              ...otherTabs,
            ],
          },
        },
      },
    },
  };
}

function continuationAnswer(items: unknown[], kind: "next" | "radio", token: string | null): unknown {
  return {
    continuationContents: {
      playlistPanelContinuation: { contents: items, continuations: continuations(kind, token) },
    },
  };
}

describe("getWatchPlaylist requests", () => {
  it("builds the body for a song, a radio, a shuffle and a VL playlist", () => {
    const base = {
      enablePersistentPlaylistPanel: true,
      isAudioOnly: true,
      tunerSettingValue: "AUTOMIX_SETTING_NORMAL",
    };
    const config = {
      watchEndpointMusicConfig: { hasPersistentPlaylistPanel: true, musicVideoType: "MUSIC_VIDEO_TYPE_ATV" },
    };
    expect(watchRequestBody({ videoId: "v" })).toEqual({
      ...base,
      videoId: "v",
      playlistId: "RDAMVMv",
      watchEndpointMusicSupportedConfigs: config,
    });
    expect(watchRequestBody({ videoId: "v", radio: true })).toEqual({
      ...base,
      videoId: "v",
      playlistId: "RDAMVMv",
      params: RADIO_PARAMS,
    });
    expect(watchRequestBody({ playlistId: "VLPLabc", shuffle: true })).toEqual({
      ...base,
      playlistId: "PLabc",
      params: SHUFFLE_PARAMS,
    });
    // Radio wins over shuffle.
    expect(watchRequestBody({ playlistId: "PLabc", shuffle: true, radio: true }).params).toBe(RADIO_PARAMS);
  });

  it("refuses missing ids and bad limits before any request", async () => {
    served = await serve([]);
    await expect(served.client.getWatchPlaylist()).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      argument: "videoId",
    });
    await expect(served.client.getWatchPlaylist({ videoId: "v", limit: 0 })).rejects.toMatchObject({
      argument: "limit",
    });
    // A radio has no end: "all" cannot be asked of it.
    await expect(served.client.getWatchPlaylist({ videoId: "v", limit: null })).rejects.toMatchObject({
      argument: "limit",
    });
    expect(served.innertube()).toHaveLength(0);
  });
});

describe("getWatchPlaylist continuations", () => {
  it("stops at the first page when it already holds the limit", async () => {
    served = await serve([nextAnswer(tracks("a", 30, "RDAMVMv"), "radio", "R1")]);
    const result = await served.client.getWatchPlaylist({ videoId: "v" });
    expect(result.tracks).toHaveLength(30);
    expect(served.innertube()).toHaveLength(1);
    expect(result).toMatchObject({ playlistId: "RDAMVMv", lyrics: "MPLYt_1", related: "MPTRt_1" });
  });

  it("follows radio tokens with the same body until the limit is reached", async () => {
    served = await serve([
      nextAnswer(tracks("a", 20, "RDAMVMv"), "radio", "R1"),
      continuationAnswer(tracks("b", 20, "RDAMVMv"), "radio", "R2"),
      continuationAnswer(tracks("c", 20, "RDAMVMv"), "radio", "R3"),
    ]);
    const result = await served.client.getWatchPlaylist({ videoId: "v", limit: 35 });
    expect(result.tracks).toHaveLength(40);
    const sent = served.innertube();
    expect(sent).toHaveLength(2);
    expect(sent[1]?.query).toContain("ctoken=R1&continuation=R1");
    expect(bodyOf(sent[1])).toEqual(bodyOf(sent[0]));
  });

  it("follows a playlist's next tokens to the end when the limit is null", async () => {
    served = await serve([
      nextAnswer(tracks("a", 10, "PLx"), "next", "N1"),
      continuationAnswer(tracks("b", 10, "PLx"), "next", "N2"),
      continuationAnswer(tracks("c", 5, "PLx"), "next", null),
    ]);
    const result = await served.client.getWatchPlaylist({ playlistId: "PLx", limit: null });
    expect(result.tracks.map((t) => t.videoId).slice(-1)).toEqual(["c4"]);
    expect(result.tracks).toHaveLength(25);
    expect(served.innertube()[2]?.query).toContain("ctoken=N2");
  });

  it("continues a playlist played as a radio with the radio token it carries", async () => {
    served = await serve([
      nextAnswer(tracks("a", 10, "PLx"), "radio", "R1"),
      continuationAnswer(tracks("b", 10, "PLx"), "radio", null),
    ]);
    const result = await served.client.getWatchPlaylist({ playlistId: "PLx", radio: true, limit: 15 });
    expect(result.tracks).toHaveLength(20);
    expect(served.innertube()[1]?.query).toContain("ctoken=R1");
    expect(bodyOf(served.innertube()[0]).params).toBe(RADIO_PARAMS);
  });
});

describe("the watch page", () => {
  it("raises NO_CONTENT when the service sends no queue", async () => {
    const empty = {
      contents: {
        singleColumnMusicWatchNextResultsRenderer: {
          tabbedRenderer: {
            watchNextTabbedResultsRenderer: { tabs: [{ tabRenderer: { title: "Up next", content: {} } }] },
          },
        },
      },
    };
    served = await serve([empty]);
    const error = await served.client.getWatchPlaylist({ playlistId: "PLprivate" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ code: "NO_CONTENT", operation: "get_watch_playlist" });
  });

  it("finds tabs by page type, skipping unselectable ones and a comments tab", () => {
    const page = parseWatchPage(
      nextAnswer(tracks("a", 1, "RDx"), "radio", null, [
        { tabRenderer: { title: "Comments", content: {} } },
        tab("MUSIC_PAGE_TYPE_TRACK_RELATED", "MPTRt_9"),
        tab("MUSIC_PAGE_TYPE_TRACK_LYRICS", "MPLYt_9", { unselectable: true }),
      ]),
      collectNotes(),
    );
    expect(page.lyrics).toBeNull();
    expect(page.related).toBe("MPTRt_9");
  });

  it("skips unplayable items and reports unknown renderers", () => {
    const notes = collectNotes();
    const items = [
      track("ok", "RDx"),
      track("gone", "RDx", { unplayableText: { runs: [{ text: "Video unavailable" }] } }),
      { automixPreviewVideoRenderer: {} },
      { brandNewRenderer: {} },
    ];
    const page = parseWatchPage(nextAnswer(items, "radio", null), notes);
    expect(page.tracks.map((t) => t.videoId)).toEqual(["ok"]);
    expect(page.tracks[0]).toMatchObject({
      artists: [{ name: "Artist", id: "UCartist" }],
      album: { name: "Album", id: "MPREalbum" },
      year: "2019",
      length: "3:21",
    });
    expect(notes.unknown.map((n) => n.renderer)).toEqual(["brandNewRenderer"]);
  });

  it("names the path of a queue item without its video id", () => {
    const broken = { playlistPanelVideoRenderer: { title: { runs: [{ text: "x" }] } } };
    expect(() => parseWatchPage(nextAnswer([broken], "radio", null), collectNotes())).toThrow(
      /playlistPanelRenderer\.contents\[0\]\.playlistPanelVideoRenderer\.videoId/,
    );
  });

  it("fails naming the path when the watch page has no tabs", () => {
    expect(() => parseWatchPage({ contents: {} }, collectNotes())).toThrow(
      /watchNextTabbedResultsRenderer\.tabs/,
    );
  });
});

describeWithFixtures("watch capture", () => {
  it("keeps the song/video counterpart and the radio's playlist id", () => {
    const page = parseWatchPage(
      structuredClone(loadResponse("yt_get_watch_playlist_20250630")),
      collectNotes(),
    );
    expect(page.tracks).toHaveLength(50);
    expect(page.tracks[0]?.counterpart?.videoType).toBe("MUSIC_VIDEO_TYPE_OMV");
    expect(page.playlistId).toBe("RDAMVMlYBUbBu4W08");
  });
});
