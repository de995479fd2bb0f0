/**
 * The paths the client's parsers read: each real capture is parsed by a real MusicClient (the
 * fixture harness) with `recordReads` on, which notes every path the parsers walk in it (array
 * positions folded). Each of those must exist in the emulator's response to the same kind of
 * request, apart from the allow-listed ones below, which cannot apply to generated data.
 */
import { appendFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { recordReads } from "../../src/parsers/nav.js";
import { fixtureCases, fixturesAvailable, loadResponse, runCase } from "../support/fixtures.js";
import { CASES, type Ids, startFidelityEmulator } from "./fidelity-cases.js";
import { headersFor } from "./helpers.js";

if (!fixturesAvailable)
  console.warn("read-path tests skipped: ../shared/fixtures is not beside the repository");

/**
 * Read paths the emulator does not produce, per capture, each with why generated data has no such
 * path. A path listed here that the emulator does produce (or the parsers no longer read) fails the
 * test, so the list cannot go stale.
 */
const SC =
  "contents.singleColumnBrowseResultsRenderer.tabs[].tabRenderer.content.sectionListRenderer.contents[]";
const TC = "contents.twoColumnBrowseResultsRenderer";
const TS = "contents.tabbedSearchResultsRenderer.tabs[].tabRenderer.content.sectionListRenderer.contents[]";
const ROW = "musicResponsiveListItemRenderer";
const CARD = "musicTwoRowItemRenderer";
const HEADER = `${TC}.tabs[].tabRenderer.content.sectionListRenderer.contents[].musicResponsiveHeaderRenderer`;
const ALBUM_ROWS = `${TC}.secondaryContents.sectionListRenderer.contents[].musicShelfRenderer.contents[].${ROW}`;
const PLAYLIST_ROWS = `${TC}.secondaryContents.sectionListRenderer.contents[].musicPlaylistShelfRenderer.contents[].${ROW}`;
const CONTINUATION_ROWS = `onResponseReceivedActions[].appendContinuationItemsAction.continuationItems[].${ROW}`;
const REMOVE_ACTION =
  "menu.menuRenderer.items[].menuServiceItemRenderer.serviceEndpoint.playlistEditEndpoint.actions[]";
const NEXT = "continuations[].nextContinuationData.continuation";
const WIKI = "description.runs[].navigationEndpoint.urlEndpoint.url";

const FEW_MATCHES =
  "the 600-song catalogue has fewer matches for this filter than one page holds, so there is no continuation (continuations of every search scope are tested in pages.test.ts)";
const FEW_LIBRARY_ITEMS =
  "the seeded library holds fewer items of this kind than one page, so there is no continuation (library continuations are tested in pages.test.ts)";
const WIKIPEDIA =
  "the real description ends with its Wikipedia source and licence links; generated descriptions have no external source";
const OLDER_SHAPE = (newer: string) =>
  `this capture shows an older shape of the same field; the emulator follows the newer capture ${newer}`;

const NOT_APPLICABLE: Record<string, Record<string, string>> = {
  yt_search_artists_20231226: { [`${TS}.musicShelfRenderer.${NEXT}`]: FEW_MATCHES },
  yt_search_community_playlists_20231226: { [`${TS}.musicShelfRenderer.${NEXT}`]: FEW_MATCHES },
  yt_search_podcasts_20231226: { [`${TS}.musicShelfRenderer.${NEXT}`]: FEW_MATCHES },
  yt_search_profiles_20231226: { [`${TS}.musicShelfRenderer.${NEXT}`]: FEW_MATCHES },
  yt_search_uploads_20231228: {
    [`${TS}.musicShelfRenderer.${NEXT}`]: FEW_MATCHES,
    [`${TS}.musicShelfRenderer.contents[].${ROW}.navigationEndpoint.browseEndpoint.browseId`]:
      "the capture's uploads include one with an album page link on the row itself; the emulator's one upload is a single song",
  },
  yt_get_album_20240724: {
    [`${ALBUM_ROWS}.flexColumns[].musicResponsiveListItemFlexColumnRenderer.text.runs[].navigationEndpoint.browseEndpoint.browseEndpointContextSupportedConfigs.browseEndpointContextMusicConfig.pageType`]:
      "the capture's album is a collaboration whose rows name their artists; generated albums have one artist, whose rows leave the artist column empty",
    [`${ALBUM_ROWS}.flexColumns[].musicResponsiveListItemFlexColumnRenderer.text.runs[].navigationEndpoint.browseEndpoint.browseId`]:
      "as above: per-row artist links appear only on albums by several artists",
    [`${ALBUM_ROWS}.musicItemRendererDisplayPolicy`]:
      "the capture's album has a greyed-out (unavailable) track; the chosen generated album has none",
    [`${HEADER}.description.musicDescriptionShelfRenderer.${WIKI}`]: WIKIPEDIA,
  },
  yt_get_album_not_signed_in_20250611: {
    [`${ALBUM_ROWS}.flexColumns[].musicResponsiveListItemFlexColumnRenderer.text.runs[].navigationEndpoint.browseEndpoint.browseEndpointContextSupportedConfigs.browseEndpointContextMusicConfig.pageType`]:
      "the capture's album is by several artists; generated albums have one artist",
    [`${ALBUM_ROWS}.flexColumns[].musicResponsiveListItemFlexColumnRenderer.text.runs[].navigationEndpoint.browseEndpoint.browseId`]:
      "the capture's album is by several artists; generated albums have one artist",
  },
  yt_get_playlist_20250604: {
    [`${PLAYLIST_ROWS}.${REMOVE_ACTION}`]:
      "the capturing account could edit this playlist; the case reads a community playlist the account does not own (owned rows carry the remove item, see yt_get_playlist_20240624)",
    [`${PLAYLIST_ROWS}.${REMOVE_ACTION}.removedVideoId`]: "as above (remove item of an editable playlist)",
    [`${PLAYLIST_ROWS}.${REMOVE_ACTION}.setVideoId`]: "as above (remove item of an editable playlist)",
    [`${PLAYLIST_ROWS}.musicItemRendererDisplayPolicy`]:
      "the capture's playlist holds an unavailable (greyed-out) video; the generated playlist has none",
  },
  yt_get_playlist_continuation_20250604: {
    [`${CONTINUATION_ROWS}.${REMOVE_ACTION}`]:
      "as in yt_get_playlist_20250604: an editable playlist's remove item",
    [`${CONTINUATION_ROWS}.${REMOVE_ACTION}.removedVideoId`]: "as above",
    [`${CONTINUATION_ROWS}.${REMOVE_ACTION}.setVideoId`]: "as above",
    [`${CONTINUATION_ROWS}.musicItemRendererDisplayPolicy`]:
      "the capture's playlist holds an unavailable video; the generated playlist has none",
  },
  yt_get_library_podcasts_20250626: { [`${SC}.gridRenderer.${NEXT}`]: FEW_LIBRARY_ITEMS },
  yt_get_library_channels_20250626: { [`${SC}.musicShelfRenderer.${NEXT}`]: FEW_LIBRARY_ITEMS },
  yt_get_library_upload_albums_20240712: { [`${SC}.gridRenderer.${NEXT}`]: FEW_LIBRARY_ITEMS },
  yt_get_library_upload_artists_20240712: { [`${SC}.musicShelfRenderer.${NEXT}`]: FEW_LIBRARY_ITEMS },
  ytm_2026_05_get_artist1: { [`${SC}.musicDescriptionShelfRenderer.${WIKI}`]: WIKIPEDIA },
  ytm_2024_03_get_album: {
    [`${HEADER}.buttons[].musicPlayButtonRenderer.playNavigationEndpoint.watchEndpoint.playlistId`]:
      OLDER_SHAPE("yt_get_album_20240724 (a watchPlaylistEndpoint)"),
    [`${HEADER}.description.musicDescriptionShelfRenderer.${WIKI}`]: WIKIPEDIA,
    [`${TC}.secondaryContents.sectionListRenderer.contents[].musicCarouselShelfRenderer.contents[].${CARD}.subtitle.runs[].navigationEndpoint.browseEndpoint.browseId`]:
      "the capture's other versions are by other artists, linked in the subtitle; a generated artist's other albums are their own, whose subtitle names only the year",
    [`${TC}.secondaryContents.sectionListRenderer.contents[].musicCarouselShelfRenderer.contents[].${CARD}.thumbnailOverlay.musicItemThumbnailOverlayRenderer.content.musicPlayButtonRenderer.playNavigationEndpoint.watchEndpoint.playlistId`]:
      OLDER_SHAPE("ytm_2025_11_get_explore (album cards play a watchPlaylistEndpoint)"),
  },
  yt_get_artist_20240705: {
    "header.musicImmersiveHeaderRenderer.startRadioButton.buttonRenderer.navigationEndpoint.watchEndpoint.playlistId":
      OLDER_SHAPE("ytm_2026_05_get_artist1 (the radio button is a watchPlaylistEndpoint)"),
  },
};

/**
 * Read paths the emulator does not produce yet although they could apply: open gaps, listed so the
 * figure stays honest. Same staleness rule as NOT_APPLICABLE.
 */
const NOT_YET: Record<string, string[]> = {};

/** Every path in a JSON value (objects' keys and leaves), array positions folded. */
function allPaths(value: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown, p: string) => {
    if (Array.isArray(v)) {
      if (v.length > 0) out.add(`${p}[]`);
      for (const x of v) walk(x, `${p}[]`);
    } else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        const np = p ? `${p}.${k}` : k;
        out.add(np);
        walk(x, np);
      }
    }
  };
  walk(value, "");
  return out;
}

const readsCache = new Map<string, Promise<Set<string>>>();

/**
 * The paths the parsers read in `page`: every fixture case that serves it is run through the client
 * with recording on, and the reads made in a response equal to the page are kept.
 */
function readPaths(page: string): Promise<Set<string>> {
  let cached = readsCache.get(page);
  if (cached === undefined) {
    cached = (async () => {
      const capture = loadResponse(page);
      const out = new Set<string>();
      for (const c of fixtureCases((x) => x.pages.includes(page))) {
        const { reads } = await recordReads(() => runCase(c).catch(() => null));
        for (const [root, paths] of reads) {
          if (isDeepStrictEqual(root, capture)) for (const p of paths) out.add(p);
        }
      }
      return out;
    })();
    readsCache.set(page, cached);
  }
  return cached;
}

let emu: RunningEmulator;
let ids: Ids;

beforeAll(async () => {
  if (!fixturesAvailable) return;
  ({ emu, ids } = await startFidelityEmulator());
});
afterAll(async () => {
  await emu?.stop();
});

const figures: string[] = [];

describe.skipIf(!fixturesAvailable)("the emulator produces every path the client's parsers read", () => {
  it("the recorder notes only paths that exist in the capture", async () => {
    // Checks the recorder's rooting: a read path missing from the capture would mean it was
    // noted from the wrong root.
    for (const page of [
      "yt_get_album_20240724",
      "yt_search_songs_20231226",
      "yt_get_watch_playlist_20250630",
    ]) {
      const reads = await readPaths(page);
      expect(reads.size).toBeGreaterThan(10);
      const real = allPaths(loadResponse(page));
      expect([...reads].filter((p) => !real.has(p))).toEqual([]);
    }
  });

  for (const c of CASES) {
    it(c.capture, async () => {
      const reads = await readPaths(c.capture);
      const reply = await c.run(ids, await headersFor(emu, 1));
      expect(reply.status).toBe(200);
      const mine = allPaths(reply.json);
      const allowed: Record<string, string> = { ...NOT_APPLICABLE[c.capture] };
      for (const p of NOT_YET[c.capture] ?? []) allowed[p] = "not produced yet";
      const missing = [...reads].filter((p) => !mine.has(p)).sort();
      if (process.env.EMU_READS_DUMP) console.log(`${c.capture}\n  ${[...reads].sort().join("\n  ")}`);
      if (process.env.EMU_READS_MISSING && missing.length > 0) {
        appendFileSync(process.env.EMU_READS_MISSING, `## ${c.capture}\n  ${missing.join("\n  ")}\n`);
      }
      figures.push(
        `${c.capture.padEnd(56)} ${String(reads.size - missing.length).padStart(4)} / ${String(reads.size).padStart(4)}` +
          (missing.length > 0
            ? `  (${missing.length} absent: ${(NOT_YET[c.capture] ?? []).length} not produced yet, the rest not applicable)`
            : ""),
      );
      expect(missing.filter((p) => !(p in allowed))).toEqual([]);
      // Every allow-listed path is still read and still absent.
      expect(Object.keys(allowed).filter((p) => !missing.includes(p))).toEqual([]);
    });
  }

  it("prints the figures", () => {
    console.log(
      `read paths present in the emulator's response / read paths, per capture:\n${figures.join("\n")}`,
    );
    expect(figures.length).toBe(CASES.length);
  });
});
