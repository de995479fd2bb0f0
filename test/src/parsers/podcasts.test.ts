import { afterEach, describe, expect, it } from "vitest";
import { parseEpisodeList, parseEpisodeRow } from "../../../src/parsers/episode-row.js";
import { parseMixedContent } from "../../../src/parsers/home.js";
import { get } from "../../../src/parsers/nav.js";
import { collectNotes } from "../../../src/parsers/notes.js";
import {
  descriptionElements,
  parseEpisodePage,
  parseEpisodesPlaylist,
  parsePodcast,
} from "../../../src/parsers/podcasts.js";
import { describeWithFixtures, loadResponse } from "../../support/fixtures.js";
import { bodyOf, type Served, serve } from "../../support/page-server.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** An episode row in the captured MMRIR shape. */
function episode(videoId: string, index?: number): unknown {
  return {
    musicMultiRowListItemRenderer: {
      title: {
        runs: [
          {
            text: `Episode ${videoId}`,
            navigationEndpoint: { browseEndpoint: { browseId: `MPED${videoId}` } },
          },
        ],
      },
      subtitle: { runs: [{ text: "Mar 5, 2024" }] },
      description: { runs: [{ text: "About things" }] },
      playbackProgress: {
        musicPlaybackProgressRenderer: { durationText: { runs: [{ text: " \u2022 " }, { text: "25 min" }] } },
      },
      onTap: {
        watchEndpoint: {
          videoId,
          ...(index === undefined ? {} : { index }),
          watchEndpointMusicSupportedConfigs: {
            watchEndpointMusicConfig: { musicVideoType: "MUSIC_VIDEO_TYPE_PODCAST_EPISODE" },
          },
        },
      },
    },
  };
}

/** `get_channel_episodes` answers one grid of episode rows (no capture exists; shape from channel pages). */
function channelEpisodesAnswer(rows: unknown[]): unknown {
  return {
    contents: {
      singleColumnBrowseResultsRenderer: {
        tabs: [
          {
            tabRenderer: {
              content: { sectionListRenderer: { contents: [{ gridRenderer: { items: rows } }] } },
            },
          },
        ],
      },
    },
  };
}

describe("getChannelEpisodes", () => {
  it("sends the channel and params and reads every episode of the one page", async () => {
    served = await serve([
      channelEpisodesAnswer([episode("e1"), episode("e2"), { continuationItemRenderer: {} }]),
    ]);
    const episodes = await served.client.getChannelEpisodes("UCchan", "6gPm");
    expect(bodyOf(served.innertube()[0])).toEqual({ browseId: "UCchan", params: "6gPm" });
    expect(served.innertube()).toHaveLength(1);
    expect(episodes).toEqual([
      {
        index: null,
        title: "Episode e1",
        description: "About things",
        duration: "25 min",
        videoId: "e1",
        browseId: "MPEDe1",
        videoType: "MUSIC_VIDEO_TYPE_PODCAST_EPISODE",
        date: "Mar 5, 2024",
        thumbnails: null,
      },
      expect.objectContaining({ videoId: "e2" }),
    ]);
  });

  it("refuses a missing params before any request", async () => {
    served = await serve([]);
    await expect(served.client.getChannelEpisodes("UCchan", "")).rejects.toMatchObject({
      argument: "params",
    });
    expect(served.innertube()).toHaveLength(0);
  });

  it("fails naming the path when the grid is missing", async () => {
    served = await serve([{ contents: {} }]);
    await expect(served.client.getChannelEpisodes("UCchan", "p")).rejects.toMatchObject({
      code: "PARSE_ERROR",
      operation: "get_channel_episodes",
      path: expect.stringContaining("sectionListRenderer.contents[0].gridRenderer"),
    });
  });
});

describe("episode rows", () => {
  const untitled = { musicMultiRowListItemRenderer: { subtitle: { runs: [{ text: "Mar 5, 2024" }] } } };

  it("leaves a row without a title out of a list and reports it, instead of failing the page", () => {
    const notes = collectNotes();
    const rows = [episode("a", 1), untitled, episode("b", 2)];
    const episodes = parseEpisodeList(rows, "shelf.contents", notes, parseEpisodeRow);
    expect(episodes.map((e) => [e.videoId, e.index])).toEqual([
      ["a", 1],
      ["b", 2],
    ]);
    expect(notes.unknown).toEqual([
      {
        renderer: "musicMultiRowListItemRenderer without a title",
        where: "shelf.contents[1].musicMultiRowListItemRenderer",
      },
    ]);
  });

  it("home rows read episodes with the same parse, and skip an untitled one the same way", () => {
    const notes = collectNotes();
    const rows = parseMixedContent(
      [{ musicCarouselShelfRenderer: { contents: [episode("a"), untitled] } }],
      notes,
    );
    expect(rows[0]?.contents).toEqual([
      {
        index: null,
        title: "Episode a",
        description: "About things",
        duration: "25 min",
        videoId: "a",
        browseId: "MPEDa",
        videoType: "MUSIC_VIDEO_TYPE_PODCAST_EPISODE",
        date: "Mar 5, 2024",
        thumbnails: null,
      },
    ]);
    expect(notes.unknown.map((n) => n.renderer)).toEqual(["musicMultiRowListItemRenderer without a title"]);
  });

  it("names the path of a row without a title", () => {
    expect(() => parseEpisodeRow({}, "somewhere[3].musicMultiRowListItemRenderer")).toThrow(
      /somewhere\[3\]\.musicMultiRowListItemRenderer\.title\.runs\[0\]\.text/,
    );
  });

  it("splits a description into text, links and jumps", () => {
    expect(
      descriptionElements([
        { text: "see " },
        { text: "site", navigationEndpoint: { urlEndpoint: { url: "https://x.test/" } } },
        { text: "1:02", navigationEndpoint: { watchEndpoint: { videoId: "v", startTimeSeconds: 62 } } },
        { text: "#tag", navigationEndpoint: { browseEndpoint: { browseId: "FEhashtag" } } },
      ]),
    ).toEqual([
      { text: "see " },
      { text: "site", url: "https://x.test/" },
      { text: "1:02", seconds: 62 },
      { text: "#tag" },
    ]);
  });
});

/** A continuation page of a show's episode shelf (shape A). */
function shelfContinuation(rows: unknown[], token: string | null): unknown {
  return {
    continuationContents: {
      musicShelfContinuation: {
        contents: rows,
        ...(token === null ? {} : { continuations: [{ nextContinuationData: { continuation: token } }] }),
      },
    },
  };
}

describeWithFixtures("getPodcast", () => {
  const first = () => loadResponse("yt_get_podcast_20240830");

  it("stops at the first page by default (100 episodes)", async () => {
    served = await serve([first()]);
    const podcast = await served.client.getPodcast("PLWnnGn_Lw9os50MbtFCouWYsArlq2s8ct");
    expect(podcast.episodes).toHaveLength(100);
    expect(bodyOf(served.innertube()[0])).toEqual({ browseId: "MPSPPLWnnGn_Lw9os50MbtFCouWYsArlq2s8ct" });
    expect(served.innertube()).toHaveLength(1);
  });

  it("follows the shelf's continuations until the limit", async () => {
    served = await serve([
      first(),
      shelfContinuation([episode("c1", 100), episode("c2", 101)], "T2"),
      shelfContinuation([episode("c3", 102)], null),
    ]);
    const podcast = await served.client.getPodcast("MPSPPLx", { limit: 101 });
    expect(podcast.episodes).toHaveLength(102);
    const sent = served.innertube();
    expect(sent).toHaveLength(2);
    expect(sent[1]?.query).toMatch(/ctoken=4qmF.*&continuation=4qmF/);
    expect(bodyOf(sent[1])).toEqual({ browseId: "MPSPPLx" });
  });

  it("reads every page with a null limit", async () => {
    served = await serve([
      first(),
      shelfContinuation([episode("c1")], "T2"),
      shelfContinuation([episode("c2")], null),
    ]);
    const podcast = await served.client.getPodcast("PLx", { limit: null });
    expect(podcast.episodes.map((e) => e.videoId).slice(-2)).toEqual(["c1", "c2"]);
    expect(served.innertube()[2]?.query).toContain("ctoken=T2");
  });

  it("reads the saved state from the like toggle wherever it sits", () => {
    const response = structuredClone(first());
    const header = get(response, [
      "contents",
      "twoColumnBrowseResultsRenderer",
      "tabs",
      0,
      "tabRenderer",
      "content",
      "sectionListRenderer",
      "contents",
      0,
      "musicResponsiveHeaderRenderer",
    ]) as { buttons: Array<{ toggleButtonRenderer: { isToggled: boolean } }> };
    const [toggle] = header.buttons.splice(1, 1);
    if (toggle === undefined) throw new Error("the capture has no second button");
    toggle.toggleButtonRenderer.isToggled = true;
    header.buttons.push(toggle);
    expect(parsePodcast(response, collectNotes()).podcast.saved).toBe(true);
  });

  it("refuses a bad limit before any request", async () => {
    served = await serve([]);
    await expect(served.client.getPodcast("PLx", { limit: 0 })).rejects.toMatchObject({ argument: "limit" });
    expect(served.innertube()).toHaveLength(0);
  });
});

describeWithFixtures("episode pages", () => {
  it("adds the MPED prefix only when missing", async () => {
    served = await serve([loadResponse("yt_get_episode_20240830"), loadResponse("yt_get_episode_20240830")]);
    await served.client.getEpisode("H65miGsCFps");
    await served.client.getEpisode("MPEDH65miGsCFps");
    expect(served.innertube().map((r) => bodyOf(r).browseId)).toEqual(["MPEDH65miGsCFps", "MPEDH65miGsCFps"]);
  });

  it("fails naming the header path when it is missing", () => {
    expect(() => parseEpisodePage({ contents: { twoColumnBrowseResultsRenderer: { tabs: [] } } })).toThrow(
      /musicResponsiveHeaderRenderer/,
    );
  });
});

describe("episode playlists", () => {
  it("reads a legacy detail header and its episode shelf", () => {
    const response = {
      header: {
        musicDetailHeaderRenderer: {
          title: { runs: [{ text: "New episodes" }] },
          subtitle: { runs: [{ text: "Auto playlist" }, { text: " \u2022 " }, { text: "2023" }] },
          secondSubtitle: { runs: [{ text: "2 episodes" }, { text: " \u2022 " }, { text: "1 hour" }] },
          description: { runs: [{ text: "Newest" }] },
          thumbnail: {
            croppedSquareThumbnailRenderer: {
              thumbnail: { thumbnails: [{ url: "u", width: 1, height: 1 }] },
            },
          },
        },
      },
      contents: {
        singleColumnBrowseResultsRenderer: {
          tabs: [
            {
              tabRenderer: {
                content: {
                  sectionListRenderer: {
                    contents: [{ musicShelfRenderer: { contents: [episode("a"), episode("b")] } }],
                  },
                },
              },
            },
          ],
        },
      },
    };
    expect(parseEpisodesPlaylist(response, collectNotes())).toEqual({
      owned: false,
      privacy: "PUBLIC",
      views: null,
      duration: "1 hour",
      trackCount: 2,
      title: "New episodes",
      thumbnails: [{ url: "u", width: 1, height: 1 }],
      description: "Newest",
      year: "2023",
      episodes: [expect.objectContaining({ videoId: "a" }), expect.objectContaining({ videoId: "b" })],
    });
  });

  it("asks for VLRDPN by default", async () => {
    served = await serve([{}]);
    await served.client.getEpisodesPlaylist().catch(() => undefined);
    expect(bodyOf(served.innertube()[0])).toEqual({ browseId: "VLRDPN" });
  });
});
