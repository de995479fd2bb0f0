import { afterEach, describe, expect, it } from "vitest";
import { ArgumentError, AuthError, ParseError } from "../../../src/errors.js";
import { defaultSignatureTimestamp, tasteProfileForm } from "../../../src/operations/song.js";
import { parseLyrics, parseTimedLyrics } from "../../../src/parsers/lyrics.js";
import { collectNotes } from "../../../src/parsers/notes.js";
import { parseSong } from "../../../src/parsers/song.js";
import { parseTasteProfile } from "../../../src/parsers/taste-profile.js";
import { describeWithFixtures, loadResponse } from "../../support/fixtures.js";
import { bodyOf, clientOf, recordingLogger, type Served, serve } from "../../support/page-server.js";

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const PLAYER = { videoDetails: { videoId: "v1", title: "T" }, playabilityStatus: { status: "OK" }, extra: 1 };

describe("getSong", () => {
  it("reads the current signature timestamp from the player script the start page names", async () => {
    served = await serve([PLAYER], {
      paths: {
        // JSON-escaped slashes, as a page may print them.
        "/": {
          body: '<html><script>var cfg = {"jsUrl":"\\/s\\/player\\/abc123\\/base.js","x":1};</script></html>',
        },
        "/s/player/abc123/base.js": { body: "var a={};a.signatureTimestamp:20123,b=2;" },
      },
    });
    const song = await served.client.getSong("v1");
    expect(bodyOf(served.innertube()[0])).toEqual({
      playbackContext: { contentPlaybackContext: { signatureTimestamp: 20123 } },
      video_id: "v1",
    });
    expect(served.plain().map((r) => r.path)).toContain("/s/player/abc123/base.js");
    expect(song.videoDetails?.videoId).toBe("v1");
    expect(song.streamingData).toBeNull();
  });

  it("falls back to the computed default and says why when the script cannot be found", async () => {
    const logger = recordingLogger();
    served = await serve([PLAYER], { client: { logger } });
    const before = defaultSignatureTimestamp();
    await served.client.getSong("v1");
    const sent = bodyOf(served.innertube()[0]) as {
      playbackContext: { contentPlaybackContext: { signatureTimestamp: number } };
    };
    const sts = sent.playbackContext.contentPlaybackContext.signatureTimestamp;
    expect(sts === before || sts === defaultSignatureTimestamp()).toBe(true);
    const warning = logger.lines.find((l) => l.level === "warn");
    expect(warning?.fields).toMatchObject({ operation: "get_song", signatureTimestamp: sts });
    expect(String((warning?.fields as { reason?: string } | undefined)?.reason)).toMatch(/jsUrl/);
  });

  it("sends a given signature timestamp without reading the player script", async () => {
    served = await serve([PLAYER]);
    await served.client.getSong("v1", { signatureTimestamp: 19000 });
    expect(served.plain().some((r) => r.path.endsWith("base.js"))).toBe(false);
    expect(JSON.stringify(bodyOf(served.innertube()[0]))).toContain('"signatureTimestamp":19000');
  });

  it("refuses an empty video id or a bad timestamp before any request", async () => {
    served = await serve([PLAYER]);
    await expect(served.client.getSong("")).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      argument: "videoId",
    });
    await expect(served.client.getSong("v1", { signatureTimestamp: -3 })).rejects.toBeInstanceOf(
      ArgumentError,
    );
    expect(served.innertube()).toHaveLength(0);
  });

  it("computes the default as whole days since the epoch minus one", () => {
    expect(defaultSignatureTimestamp(Date.UTC(2024, 0, 1, 12))).toBe(19722);
  });

  it("keeps only the five player sections, null where absent", () => {
    expect(parseSong(PLAYER)).toEqual({
      videoDetails: PLAYER.videoDetails,
      playabilityStatus: PLAYER.playabilityStatus,
      streamingData: null,
      microformat: null,
      playbackTracking: null,
    });
    expect(() => parseSong([])).toThrow(ParseError);
  });
});

/** A mobile-client answer in the shape the service gives timed lyrics (docs/PROTOCOL.md#browsing). */
function timedAnswer(lines: unknown[]): unknown {
  return {
    contents: {
      elementRenderer: {
        newElement: {
          type: {
            componentType: {
              model: {
                timedLyricsModel: {
                  lyricsData: { timedLyricsData: lines, sourceMessage: "Source: Musixmatch" },
                },
              },
            },
          },
        },
      },
    },
  };
}

const LINE = (text: string, start: string, end: string, id: string) => ({
  lyricLine: text,
  cueRange: { startTimeMilliseconds: start, endTimeMilliseconds: end, metadata: { id } },
});

describe("getLyrics", () => {
  it("asks as the mobile client for timed lyrics and reads the numbers", async () => {
    served = await serve([timedAnswer([LINE("first", "0", "1500", "1"), LINE("", "1500", "4200", "2")])]);
    const lyrics = await served.client.getLyrics("MPLYt_x", { timestamps: true });
    expect(clientOf(served.innertube()[0])).toMatchObject({
      clientName: "ANDROID_MUSIC",
      clientVersion: "7.21.50",
    });
    expect(lyrics).toEqual({
      lyrics: [
        { text: "first", start_time: 0, end_time: 1500, id: 1 },
        { text: "", start_time: 1500, end_time: 4200, id: 2 },
      ],
      source: "Source: Musixmatch",
      hasTimestamps: true,
    });
  });

  it("falls back to plain lyrics in the mobile answer, and to null when there are none", async () => {
    const plain = {
      contents: {
        sectionListRenderer: {
          contents: [{ musicDescriptionShelfRenderer: { description: { runs: [{ text: "la la" }] } } }],
        },
      },
    };
    served = await serve([plain, {}]);
    expect(await served.client.getLyrics("MPLYt_x", { timestamps: true })).toEqual({
      lyrics: "la la",
      source: null,
      hasTimestamps: false,
    });
    expect(await served.client.getLyrics("MPLYt_x")).toBeNull();
    expect(clientOf(served.innertube()[1]).clientName).toBe("WEB_REMIX");
  });

  it("names the path of a timed line without its times", () => {
    const broken = timedAnswer([LINE("a", "0", "1", "1"), { lyricLine: "b", cueRange: {} }]);
    expect(() => parseTimedLyrics(broken)).toThrow(/timedLyricsData\[1\]\.cueRange\.startTimeMilliseconds/);
  });

  it("refuses a missing browse id before any request", async () => {
    served = await serve([]);
    await expect(served.client.getLyrics("")).rejects.toMatchObject({ argument: "browseId" });
    expect(served.innertube()).toHaveLength(0);
  });
});

describeWithFixtures("lyrics capture", () => {
  it("reads the lyrics and their source line", () => {
    const lyrics = parseLyrics(loadResponse("yt_get_lyrics_20231219"));
    expect(lyrics?.source).toBe("Source: LyricFind");
    expect(lyrics?.lyrics.startsWith("Push")).toBe(true);
  });
});

const PROFILE = {
  contents: {
    tastebuilderRenderer: {
      contents: [
        {
          tastebuilderItemListRenderer: {
            contents: [
              {
                tastebuilderItemRenderer: {
                  title: { runs: [{ text: "A" }] },
                  selectionFormValue: "sA",
                  impressionFormValue: "iA",
                },
              },
              { somethingNewRenderer: {} },
              {
                tastebuilderItemRenderer: {
                  title: { runs: [{ text: "B" }] },
                  selectionFormValue: "sB",
                  impressionFormValue: "iB",
                },
              },
            ],
          },
        },
      ],
    },
  },
};

describe("taste profile", () => {
  it("needs credentials, before any request", async () => {
    served = await serve([PROFILE]);
    await expect(served.client.getTasteProfile()).rejects.toBeInstanceOf(AuthError);
    await expect(served.client.setTasteProfile(["A"])).rejects.toBeInstanceOf(AuthError);
    expect(served.innertube()).toHaveLength(0);
  });

  it("reports renderers it does not know and keeps the artists", () => {
    const notes = collectNotes();
    expect(Object.keys(parseTasteProfile(PROFILE, notes))).toEqual(["A", "B"]);
    expect(notes.unknown).toEqual([
      {
        renderer: "somethingNewRenderer",
        where: "contents.tastebuilderRenderer.contents[0].tastebuilderItemListRenderer.contents[1]",
      },
    ]);
  });

  it("fails naming the path when the taste builder is missing", () => {
    expect(() => parseTasteProfile({ contents: {} }, collectNotes())).toThrow(
      /contents\.tastebuilderRenderer\.contents/,
    );
  });

  it("sends every impression and the chosen selections to the home page", async () => {
    served = await serve([PROFILE, {}], { auth: true });
    await served.client.setTasteProfile(["B"]);
    const [get, set] = served.innertube();
    expect(bodyOf(get)).toEqual({ browseId: "FEmusic_tastebuilder" });
    expect(bodyOf(set)).toEqual({
      browseId: "FEmusic_home",
      formData: { impressionValues: ["iA", "iB"], selectedValues: ["sB"] },
    });
  });

  it("refuses an artist the profile does not offer before the write", async () => {
    served = await serve([PROFILE], { auth: true });
    await expect(served.client.setTasteProfile(["A", "Nobody"])).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      argument: "artists",
    });
    expect(served.innertube().map((r) => bodyOf(r).browseId)).toEqual(["FEmusic_tastebuilder"]);
  });

  it("uses a given profile without fetching it", async () => {
    served = await serve([{}], { auth: true });
    await served.client.setTasteProfile(["A"], {
      tasteProfile: { A: { selectionValue: "s", impressionValue: "i" } },
    });
    expect(served.innertube()).toHaveLength(1);
    expect(tasteProfileForm({ A: { selectionValue: "s", impressionValue: "i" } }, [])).toEqual({
      impressionValues: ["i"],
      selectedValues: [],
    });
  });
});
