import { describe, expect, it } from "vitest";
import {
  parseAlbumCard,
  parsePlaylistCard,
  parseSingleCard,
  parseVideoCard,
} from "../../../src/parsers/cards.js";
import { likeStatusFromAction, parseMenuData, parseMenuPlaylists } from "../../../src/parsers/menu.js";
import { get, list } from "../../../src/parsers/nav.js";
import { collectNotes, ignoreNotes } from "../../../src/parsers/notes.js";
import { parsePlaylistItem, parsePlaylistItems } from "../../../src/parsers/song-row.js";
import { isDotRun, parseDuration, parseSongRuns, viewsOf } from "../../../src/parsers/text.js";
import {
  describeWithFixtures,
  diffValues,
  fixtureCases,
  loadExpected,
  loadResponse,
} from "../../support/fixtures.js";
import { browseRun, card, dotted, playOverlay, row, thumbs, watchRun } from "../support/browsing.js";

describe("text runs", () => {
  it("recognises only the bare DOT run as a separator", () => {
    expect(isDotRun({ text: " \u2022 " })).toBe(true);
    expect(isDotRun({ text: " \u2022 ", navigationEndpoint: {} })).toBe(false);
    expect(isDotRun({ text: "\u2022" })).toBe(false);
  });

  it("turns durations into seconds and refuses what is not one", () => {
    expect(parseDuration("3:12")).toBe(192);
    expect(parseDuration("1:02:03")).toBe(3723);
    expect(parseDuration("0:07")).toBe(7);
    expect(parseDuration("")).toBeNull();
    expect(parseDuration(" ")).toBeNull();
    expect(parseDuration(null)).toBeNull();
    expect(parseDuration("3 minutes")).toBeNull();
  });

  it("reads view counts the way the service writes them", () => {
    expect(viewsOf("1.4M views")).toBe("1.4M");
    expect(viewsOf("55M\u00a0plays")).toBe("55M\u00a0plays");
    expect(viewsOf("2Pac")).toBeNull();
    expect(viewsOf("Beatles")).toBeNull();
    // No Latin letters: a leading word is dropped first.
    expect(viewsOf("視聴回数 1.4万回")).toBe("1.4万回");
    expect(viewsOf("１２３")).toBeNull();
  });

  it("classifies runs into album, artist, duration, year and views", () => {
    const one = (run: unknown) => parseSongRuns([run]);
    expect(one(browseRun("LP", "MPREb_1"))).toEqual({ album: { name: "LP", id: "MPREb_1" } });
    expect(one(browseRun("Up", "FEmusic_library_privately_owned_release_detailb_po_x")).album?.name).toBe(
      "Up",
    );
    expect(one(browseRun("Band", "UCband"))).toEqual({ artists: [{ name: "Band", id: "UCband" }] });
    expect(one({ text: "4:09" })).toEqual({ duration: "4:09", duration_seconds: 249 });
    expect(one({ text: "2017" })).toEqual({ year: "2017" });
    expect(one({ text: "9.4M views" })).toEqual({ views: "9.4M" });
    expect(one({ text: "Someone" })).toEqual({ artists: [{ name: "Someone", id: null }] });
  });

  it("skips a leading type word only when it is followed by the DOT run and an artist-like run", () => {
    const song = dotted("Song", browseRun("Band", "UCband"), browseRun("LP", "MPREb_1"), "3:12");
    expect(parseSongRuns(song, true)).toEqual({
      artists: [{ name: "Band", id: "UCband" }],
      album: { name: "LP", id: "MPREb_1" },
      duration: "3:12",
      duration_seconds: 192,
    });
    // Without skipping, the type word reads as an artist without link.
    expect(parseSongRuns(song, false).artists?.[0]).toEqual({ name: "Song", id: null });
    // Run 2 is an album: nothing to skip.
    expect(parseSongRuns(dotted("Band", browseRun("LP", "MPREb_1")), true).artists).toEqual([
      { name: "Band", id: null },
    ]);
    // A separator carrying other keys is not the DOT run.
    const fake = [{ text: "Single" }, { text: " \u2022 ", bold: true }, { text: "Band" }];
    expect(parseSongRuns(fake, true).artists?.map((a) => a.name)).toEqual(["Single", "Band"]);
  });
});

function toggle(icon: string, extra: Record<string, unknown> = {}) {
  return {
    toggleMenuServiceItemRenderer: {
      defaultIcon: { iconType: icon },
      defaultServiceEndpoint: { feedbackEndpoint: { feedbackToken: `${icon}-default` } },
      toggledServiceEndpoint: { feedbackEndpoint: { feedbackToken: `${icon}-toggled` } },
      ...extra,
    },
  };
}
const menu = (...items: unknown[]) => ({ menu: { menuRenderer: { items } } });

describe("menu fields", () => {
  it("reads library state from isToggled and the tokens in the icon's order", () => {
    expect(parseMenuData(menu(toggle("BOOKMARK_BORDER", { isToggled: true })))).toEqual({
      inLibrary: true,
      pinnedToListenAgain: false,
      feedbackTokens: { add: "BOOKMARK_BORDER-default", remove: "BOOKMARK_BORDER-toggled" },
    });
    expect(parseMenuData(menu(toggle("BOOKMARK_BORDER", { isToggled: false }))).inLibrary).toBe(false);
    expect(parseMenuData(menu(toggle("BOOKMARK")))).toMatchObject({
      inLibrary: true,
      feedbackTokens: { add: "BOOKMARK-toggled", remove: "BOOKMARK-default" },
    });
  });

  it("reads Listen-again pins and the history token", () => {
    expect(parseMenuData(menu(toggle("KEEP_OFF")))).toMatchObject({
      pinnedToListenAgain: true,
      listenAgainFeedbackTokens: { pin: "KEEP_OFF-toggled", unpin: "KEEP_OFF-default" },
    });
    expect(parseMenuData(menu(toggle("KEEP", { isToggled: true })))).toMatchObject({
      pinnedToListenAgain: true,
      listenAgainFeedbackTokens: { pin: "KEEP-default", unpin: "KEEP-toggled" },
    });
    const history = {
      menuServiceItemRenderer: {
        icon: { iconType: "REMOVE_FROM_HISTORY" },
        serviceEndpoint: { feedbackEndpoint: { feedbackToken: "hist" } },
      },
    };
    expect(parseMenuData(menu(history))).toEqual({
      inLibrary: false,
      pinnedToListenAgain: false,
      feedbackToken: "hist",
    });
  });

  it("does not recognise the 2023–2025 library icons, and gives nothing without menu items", () => {
    expect(parseMenuData(menu(toggle("LIBRARY_SAVED")))).toEqual({
      inLibrary: false,
      pinnedToListenAgain: false,
    });
    expect(parseMenuData(menu({ menuNavigationItemRenderer: {} }))).toEqual({});
    expect(parseMenuData({})).toEqual({});
  });

  it("inverts the like toggle's action into the current status", () => {
    expect(likeStatusFromAction("LIKE")).toBe("INDIFFERENT");
    expect(likeStatusFromAction("INDIFFERENT")).toBe("LIKE");
    expect(likeStatusFromAction("DISLIKE")).toBeNull();
  });

  it("takes shuffle and radio ids from navigation entries, preferring watchPlaylistEndpoint", () => {
    const entry = (icon: string, endpoint: Record<string, unknown>) => ({
      menuNavigationItemRenderer: { icon: { iconType: icon }, navigationEndpoint: endpoint },
    });
    expect(
      parseMenuPlaylists(
        menu(
          entry("MUSIC_SHUFFLE", { watchPlaylistEndpoint: { playlistId: "RDAOx" } }),
          entry("MIX", { watchEndpoint: { playlistId: "RDEMx" } }),
          entry("SHARE", { watchEndpoint: { playlistId: "nope" } }),
        ),
      ),
    ).toEqual({ shuffleId: "RDAOx", radioId: "RDEMx" });
  });
});

describe("playlist-item rows", () => {
  const artistRun = browseRun("Band", "UCband", "MUSIC_PAGE_TYPE_ARTIST");
  const albumRun = browseRun("LP", "MPREb_lp", "MUSIC_PAGE_TYPE_ALBUM");

  it("finds columns by their links, whatever their order", () => {
    const item = parsePlaylistItem(
      row([[watchRun("Tune", "v1")], [albumRun], [artistRun]], { overlay: playOverlay("v1") })
        .musicResponsiveListItemRenderer,
    );
    expect(item).toMatchObject({
      videoId: "v1",
      title: "Tune",
      artists: [{ name: "Band", id: "UCband" }],
      album: { name: "LP", id: "MPREb_lp" },
      thumbnails: null,
      isAvailable: true,
    });
  });

  it("drops `Song deleted` rows and skips other renderers, noting unknown ones", () => {
    const notes = collectNotes();
    const items = parsePlaylistItems(
      [
        // Deleted tracks stay listed, greyed out, with this title.
        row([[{ text: "Song deleted" }], [{ text: "" }]], {
          musicItemRendererDisplayPolicy: "MUSIC_ITEM_RENDERER_DISPLAY_POLICY_GREY_OUT",
        }),
        row([[watchRun("Kept", "v2")], [artistRun]], { thumbnail: thumbs() }),
        { continuationItemRenderer: {} },
        { musicShelfDividerRenderer: {} },
      ],
      {},
      notes,
    );
    expect(items.map((i) => i.title)).toEqual(["Kept"]);
    expect(items[0]?.thumbnails).toEqual([{ url: "https://img.invalid/60", width: 60, height: 60 }]);
    expect(notes.unknown.map((n) => n.renderer)).toEqual(["musicShelfDividerRenderer"]);
  });

  it("presets columns for greyed-out rows, and reads setVideoId and votes", () => {
    const data = row([[{ text: "Gone" }], [{ text: "Band" }], [{ text: "LP" }]], {
      musicItemRendererDisplayPolicy: "MUSIC_ITEM_RENDERER_DISPLAY_POLICY_GREY_OUT",
      menu: {
        menuRenderer: {
          items: [
            {
              menuServiceItemRenderer: {
                serviceEndpoint: {
                  playlistEditEndpoint: { actions: [{ setVideoId: "SET1", removedVideoId: "v9" }] },
                },
              },
            },
          ],
        },
      },
      engagementBar: {
        engagementBarViewModel: {
          actions: [{ votingViewModel: { initialState: { votes: 3, voteStatus: "VOTE_STATUS_UPVOTED" } } }],
        },
      },
    }).musicResponsiveListItemRenderer;
    expect(parsePlaylistItem(data)).toMatchObject({
      videoId: "v9",
      title: "Gone",
      artists: [{ name: "Band", id: null }],
      album: { name: "LP", id: null },
      isAvailable: false,
      setVideoId: "SET1",
      inLibrary: false,
      communityVoteStatus: { netVoteValue: 3, status: "VOTE_STATUS_UPVOTED" },
    });
  });

  it("reads a collaborative row's duration from its flex column and album from column 3", () => {
    const data = row([
      [watchRun("T", "v3")],
      [artistRun],
      [{ text: "4:05" }],
      [albumRun],
    ]).musicResponsiveListItemRenderer;
    expect(parsePlaylistItem(data, { collaborative: true })).toMatchObject({
      album: { name: "LP", id: "MPREb_lp" },
      duration: "4:05",
      duration_seconds: 245,
    });
  });
});

describe("cards", () => {
  it("album cards: a year-only subtitle gives no type; a type word gives type and numeric year", () => {
    const yearOnly = card({
      title: browseRun("A", "MPREb_a"),
      subtitle: [{ text: "2026" }],
    }).musicTwoRowItemRenderer;
    expect(parseAlbumCard(yearOnly)).toMatchObject({ year: "2026" });
    expect(parseAlbumCard(yearOnly).type).toBeUndefined();
    const typed = card({
      title: browseRun("A", "MPREb_a"),
      subtitle: dotted("EP", "2019"),
    }).musicTwoRowItemRenderer;
    expect(parseAlbumCard(typed)).toMatchObject({ type: "EP", year: "2019" });
    expect(parseSingleCard(typed)).toMatchObject({ type: "EP", year: "2019", browseId: "MPREb_a" });
  });

  it("playlist cards: count and author only for a three-run subtitle with a count", () => {
    const counted = card({
      title: browseRun("P", "VLPLp"),
      subtitle: dotted("Me", "25 songs"),
    }).musicTwoRowItemRenderer;
    expect(parsePlaylistCard(counted)).toMatchObject({
      playlistId: "PLp",
      count: "25",
      author: [{ name: "Me", id: null }],
    });
    const plain = card({
      title: browseRun("P", "VLPLp"),
      subtitle: dotted("Playlist", "Me", "3 songs"),
    }).musicTwoRowItemRenderer;
    expect(parsePlaylistCard(plain).count).toBeUndefined();
  });

  it("video cards: artists before the first DOT, views from the last run", () => {
    const video = card({
      title: { text: "V" },
      subtitle: dotted(browseRun("A", "UCa"), browseRun("B", "UCb"), "9K views"),
      navigationEndpoint: { watchEndpoint: { videoId: "vv", playlistId: "PLv" } },
    }).musicTwoRowItemRenderer;
    expect(parseVideoCard(video)).toMatchObject({
      videoId: "vv",
      playlistId: "PLv",
      artists: [{ name: "A", id: "UCa" }],
      views: "9K",
    });
  });
});

const SECTIONS = [
  "contents",
  "singleColumnBrowseResultsRenderer",
  "tabs",
  0,
  "tabRenderer",
  "content",
  "sectionListRenderer",
  "contents",
];
const PLAYLIST_SHELF = [
  "contents",
  "twoColumnBrowseResultsRenderer",
  "secondaryContents",
  "sectionListRenderer",
  "contents",
  0,
  "musicPlaylistShelfRenderer",
  "contents",
];

describeWithFixtures("playlist-item rows of real captures", () => {
  // The shared row parser must give the reference's track fields for every group that uses it.
  const cases = fixtureCases(
    (c) => ["get_playlist", "get_library_songs", "get_history"].includes(c.operation) && c.expected !== null,
  );
  for (const c of cases) {
    it(`${c.id}: first page rows equal the reference's`, () => {
      const page = loadResponse(c.pages[0] as string);
      const expected = loadExpected(c);
      let rows: readonly unknown[] = [];
      let want: unknown[] = [];
      if (c.operation === "get_playlist") {
        rows = list(page, PLAYLIST_SHELF);
        want = (expected as { tracks?: unknown[] }).tracks ?? [];
      } else if (c.operation === "get_library_songs") {
        for (const section of list(page, SECTIONS)) {
          const shelf =
            get(section, ["itemSectionRenderer", "contents", 0, "musicShelfRenderer", "contents"]) ??
            get(section, ["musicShelfRenderer", "contents"]);
          if (Array.isArray(shelf)) rows = shelf.slice(1); // the leading shuffle row
        }
        want = expected as unknown[];
      } else {
        rows = list(list(page, SECTIONS)[0], ["musicShelfRenderer", "contents"]);
        want = (expected as Array<Record<string, unknown>>).map(({ played: _played, ...track }) => track);
      }
      const got = parsePlaylistItems(rows, { collaborative: c.id.includes("collaborative") }, ignoreNotes);
      expect(got.length).toBeGreaterThan(0);
      // The first page's rows are the reference's first tracks (continuation pages add the rest).
      const { diffs } = diffValues(want.slice(0, got.length), JSON.parse(JSON.stringify(got)), "");
      expect(diffs).toEqual([]);
    });
  }
});
