/**
 * Fidelity: for each operation with a real capture, the emulator's response to the same kind of
 * request must carry the capture's renderer structure (the set of renderer paths, array positions
 * folded), and youtubei.js must parse it into the capture's node types. The figures are printed
 * per capture; each case has a floor below which the test fails.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Helpers, Log, Parser } from "youtubei.js";
import type { RunningEmulator } from "../../emulator/index.js";
import { CASES, type Ids, startFidelityEmulator } from "./fidelity-cases.js";
import { api, at, findAll, headersFor, type Json, rendererPaths } from "./helpers.js";

const FIXTURES = fileURLToPath(new URL("../../../shared/fixtures/", import.meta.url));
const present = existsSync(`${FIXTURES}responses`);
if (!present) console.warn(`fidelity tests skipped: no captures at ${FIXTURES}responses`);

Log.setLevel(Log.Level.NONE);

function capture(name: string): unknown {
  return JSON.parse(readFileSync(`${FIXTURES}responses/${name}.json`, "utf8"));
}

/** What youtubei.js's parser reported through its error hook, as `error_type:classname`. */
let reports: string[] = [];
Parser.setParserErrorHandler((e) => {
  reports.push(`${e.error_type}:${e.classname}`);
});

/** The youtubei.js reports made while parsing `response`. */
function parserReports(response: unknown): string[] {
  reports = [];
  try {
    Parser.parseResponse(response as never);
  } catch (e) {
    reports.push(`throw:${String(e).slice(0, 80)}`);
  }
  return reports;
}

/** Every object key anywhere in a value. */
function allKeys(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const x of value) allKeys(x, out);
  else if (value && typeof value === "object") {
    for (const [k, x] of Object.entries(value)) {
      out.add(k);
      allKeys(x, out);
    }
  }
  return out;
}

/**
 * Reports on the emulator's response that the capture does not excuse: an unknown renderer is
 * excused only when the capture has that renderer too (youtubei.js does not know the service's
 * own renderer; it remembers a class once reported, so the capture is checked by its keys); a type
 * mismatch or a parse failure only when the capture's own parse reports the same.
 */
function unexcusedReports(mine: unknown, real: unknown): string[] {
  const own = parserReports(mine);
  const theirs = new Set(parserReports(real));
  const keys = allKeys(real);
  return own.filter((r) => {
    const [kind, name = ""] = r.split(":");
    if (theirs.has(r)) return false;
    if (kind === "class_not_found" || kind === "class_changed") {
      return ![...keys].some(
        (k) => k.toLowerCase() === name.toLowerCase() || k.toLowerCase().startsWith(name.toLowerCase()),
      );
    }
    return true;
  });
}

/**
 * youtubei.js reports on the emulator's responses that are open gaps (not yet fixed), per capture.
 * Listed so the suite states them; a listed report that no longer occurs fails the test.
 */
const KNOWN_REPORTS: Record<string, string[]> = {};

/**
 * youtubei.js node types of a capture that the emulator's response to the same kind of request
 * does not parse into, each with why generated data or the requested page variant has no such
 * node. A listed type that the emulator does produce (or the capture no longer has) fails the
 * test, so the list cannot go stale.
 */
const DELETE_UPLOAD =
  'the capture lists an uploaded song, whose menu has "Delete song" behind a confirmation dialog; the request\'s rows are catalogue songs';
const SAVE_EPISODE =
  'the capture\'s results include a podcast episode, whose "Save episode for later" toggle is a playlistEditEndpoint to SE; the generated results for this query hold no episode';
const PINNED_BADGE =
  'the capture\'s library holds an item the account pinned to Listen again (a "Pinned" badge on the card); the seeded library pins nothing';
const EXPLICIT_BADGE =
  "the capture's cards include an explicit one (an explicit badge in the subtitle); the generated items shown on this page are not explicit";

const OLDER_ALBUM_PLAY =
  "in this 2024 capture an album card's play button is a watchEndpoint (the one place on this page where youtubei.js makes a WatchEndpoint node); the emulator follows the newer capture ytm_2025_11_get_explore, where it is a watchPlaylistEndpoint";

const TYPES_NOT_APPLICABLE: Record<string, Record<string, string>> = {
  yt_search_videos_20240612: { PlaylistEditEndpoint: SAVE_EPISODE },
  yt_search_basic_top_result_20231228: { PlaylistEditEndpoint: SAVE_EPISODE },
  yt_get_playlist_20250604: {
    ConfirmDialog: DELETE_UPLOAD,
    PlaylistEditEndpoint:
      "the capturing account could edit this playlist (the rows' remove item); the case reads a community playlist the account does not own",
  },
  yt_get_playlist_continuation_20250604: {
    ConfirmDialog: DELETE_UPLOAD,
    Button: "the buttons of that confirmation dialog",
    PlaylistEditEndpoint: "as in yt_get_playlist_20250604: an editable playlist's remove item",
  },
  yt_get_history_20240713: {
    ConfirmDialog: DELETE_UPLOAD,
    Button: "the buttons of that confirmation dialog",
  },
  yt_search_basic_with_podcast_community_playlists_20250605: {
    ConfirmDialog:
      'the capture\'s top result is a genre radio ("Metal Radio", RDAT…), whose "Share" item asks "Share radio?" first; the generated catalogue has no genre radios, so no top result is one',
  },
  yt_get_library_podcasts_20250626: { MusicInlineBadge: PINNED_BADGE },
  yt_get_library_playlists_continuation_mock: {
    MusicInlineBadge: PINNED_BADGE,
    CreatePlaylistDialog:
      'this hand-made continuation repeats the first page\'s "New playlist" card (its createPlaylistEndpoint dialog); the emulator puts that card on the first page only, where yt_get_library_playlists checks it',
    Dropdown: "the privacy dropdown of that dialog",
    DropdownItem: "the entries of that dropdown",
  },
  yt_browse_artist_albums: { MusicInlineBadge: EXPLICIT_BADGE, WatchEndpoint: OLDER_ALBUM_PLAY },
  yt_get_library_albums_20240701: { WatchEndpoint: OLDER_ALBUM_PLAY },
  ytm_2026_07_get_charts_us_albums_no_genres: { MusicInlineBadge: EXPLICIT_BADGE },
};

/**
 * Node types the emulator does not produce yet although they could apply: open gaps, each with
 * where it sits in the capture. Same staleness rule as TYPES_NOT_APPLICABLE.
 */
const TYPES_NOT_YET: Record<string, Record<string, string>> = {};

/** The youtubei.js node types a response parses into. */
function nodeTypes(response: unknown): Set<string> {
  const types = new Set<string>();
  let parsed: unknown;
  try {
    parsed = Parser.parseResponse(response as never);
  } catch {
    return types;
  }
  const seen = new Set<unknown>();
  const walk = (v: unknown, depth: number) => {
    if (!v || typeof v !== "object" || seen.has(v) || depth > 100) return;
    seen.add(v);
    if (v instanceof Helpers.YTNode) types.add(v.type);
    if (v instanceof Map) {
      for (const x of v.values()) walk(x, depth + 1);
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
      return;
    }
    for (const k of Object.keys(v)) walk((v as Json)[k], depth + 1);
  };
  walk(parsed, 0);
  return types;
}

/** Share of `reference` found in `candidate` (1 when the reference is empty). */
function coverage(reference: Set<string>, candidate: Set<string>): number {
  if (reference.size === 0) return 1;
  let n = 0;
  for (const p of reference) if (candidate.has(p)) n++;
  return n / reference.size;
}

let emu: RunningEmulator;
let ids: Ids;

beforeAll(async () => {
  if (!present) return;
  ({ emu, ids } = await startFidelityEmulator());
});
afterAll(async () => {
  await emu?.stop();
});

const figures: string[] = [];

describe.skipIf(!present)("emulator responses have the captures' structure", () => {
  for (const c of CASES) {
    it(c.capture, async () => {
      const auth = await headersFor(emu, 1);
      const reply = await c.run(ids, auth);
      expect(reply.status).toBe(200);
      const real = capture(c.capture);
      const pathShare = coverage(rendererPaths(real), rendererPaths(reply.json));
      const unexcused = unexcusedReports(reply.json, real);
      const realTypes = nodeTypes(real);
      const mineTypes = nodeTypes(reply.json);
      const nodeShare = coverage(realTypes, mineTypes);
      const missingTypes = [...realTypes].filter((x) => !mineTypes.has(x)).sort();
      const allowed: Record<string, string> = {
        ...TYPES_NOT_APPLICABLE[c.capture],
        ...TYPES_NOT_YET[c.capture],
      };
      const required = new Set([...realTypes].filter((x) => !(x in allowed)));
      const requiredShare = coverage(required, mineTypes);
      // EMU_FIDELITY_DUMP=<folder> writes each emulator response there, to compare with the capture.
      if (process.env.EMU_FIDELITY_DUMP) {
        writeFileSync(
          `${process.env.EMU_FIDELITY_DUMP}/${c.capture}.json`,
          JSON.stringify(reply.json, null, 1),
        );
      }
      if (process.env.EMU_FIDELITY_DIFF) {
        const mine = rendererPaths(reply.json);
        const missing = [...rendererPaths(real)].filter((x) => !mine.has(x));
        console.log(`${c.capture} missing:\n  ${missing.join("\n  ")}\n  types: ${missingTypes.join(" ")}`);
      }
      const notYet = Object.keys(TYPES_NOT_YET[c.capture] ?? {}).length;
      figures.push(
        `${c.capture.padEnd(48)} paths ${(pathShare * 100).toFixed(0).padStart(3)}%  nodes ${(nodeShare * 100).toFixed(0).padStart(3)}%` +
          `  required ${(requiredShare * 100).toFixed(0).padStart(3)}% of ${String(required.size).padStart(2)}` +
          (missingTypes.length > 0
            ? `  (allow-listed: ${missingTypes.length - notYet} not applicable, ${notYet} not produced yet)`
            : ""),
      );
      // Every node type of the capture that is not allow-listed is in the emulator's response.
      expect(missingTypes.filter((t) => !(t in allowed))).toEqual([]);
      // Every allow-listed type is still in the capture and still absent from the emulator's response.
      expect(Object.keys(allowed).filter((t) => !missingTypes.includes(t))).toEqual([]);
      const known = new Set(KNOWN_REPORTS[c.capture] ?? []);
      expect([...new Set(unexcused)].filter((r) => !known.has(r))).toEqual([]);
      expect([...known].filter((r) => !unexcused.includes(r))).toEqual([]);
      expect(pathShare).toBeGreaterThanOrEqual(c.paths);
      expect(nodeShare).toBeGreaterThanOrEqual(c.nodes);
    });
  }

  it("prints the figures", () => {
    console.log(
      `renderer-path and youtubei.js node-type coverage of each capture (required = the node types not allow-listed):\n${figures.join("\n")}`,
    );
    expect(figures.length).toBe(CASES.length);
  });
});

describe.skipIf(!present)("where the nodes the captures showed lead", () => {
  /** The musicCarouselShelfRenderer titled `title` in a browse response. */
  const shelf = (json: unknown, title: string) =>
    (findAll(json, "musicCarouselShelfRenderer") as Json[]).find(
      (c) => at(c, "header", "musicCarouselShelfBasicHeaderRenderer", "title", "runs", 0, "text") === title,
    );
  const subscribeToggle = (card: unknown) =>
    (findAll(card, "toggleMenuServiceItemRenderer") as Json[]).find(
      (t) => at(t, "defaultIcon", "iconType") === "SUBSCRIBE",
    );

  it("the charts' Albums \"More\" button opens the country's whole album chart, in chart order", async () => {
    const charts = await api(emu, "browse", {
      browseId: "FEmusic_charts",
      formData: { selectedValues: ["US"] },
    });
    const albums = shelf(charts.json, "Albums");
    const more = at(
      albums,
      "header",
      "musicCarouselShelfBasicHeaderRenderer",
      "moreContentButton",
      "buttonRenderer",
    );
    const endpoint = at(more, "navigationEndpoint", "browseEndpoint") as Json;
    expect(at(more, "text", "runs", 0, "text")).toBe("More");
    const page = await api(emu, "browse", { browseId: endpoint.browseId, params: endpoint.params });
    expect(page.status).toBe(200);
    const opened = (findAll(at(page.json, "contents"), "gridRenderer") as Json[]).flatMap((g) =>
      (g.items as Json[]).map((c) =>
        at(c, "musicTwoRowItemRenderer", "navigationEndpoint", "browseEndpoint", "browseId"),
      ),
    );
    const stored = (
      emu.state.store.sqlite
        .prepare(
          "SELECT target_id AS t FROM charts WHERE country = 'US' AND section = 'albums' ORDER BY position",
        )
        .all() as { t: string }[]
    ).map((r) => r.t);
    expect(stored.length).toBeGreaterThan(0);
    expect(opened).toEqual(stored);
    // A chart channel of a country without an album chart is not found.
    const unknown = String(endpoint.browseId).replace("-US", "-XX");
    expect((await api(emu, "browse", { browseId: unknown, params: endpoint.params })).status).toBe(404);
  });

  it("Listen again's artist card is an artist of the account's history, and its toggle follows subscribing", async () => {
    // Account 1 has a play history; account 2 has neither history nor subscriptions, so no artist.
    const auth = await headersFor(emu, 1);
    const card = async (h = auth) => {
      const home = await api(emu, "browse", { browseId: "FEmusic_home" }, h);
      const again = shelf(home.json, "Listen again");
      return (again?.contents as Json[] | undefined)?.find((c) => subscribeToggle(c) !== undefined);
    };
    const first = await card();
    expect(first).toBeDefined();
    const channelId = String(
      at(first, "musicTwoRowItemRenderer", "navigationEndpoint", "browseEndpoint", "browseId"),
    );
    const latest = emu.state.store.library.history(1)[0];
    expect(channelId).toBe(latest?.channelId);
    const toggle = subscribeToggle(first)!;
    const was = toggle.isToggled === true;
    const side = was ? "toggledServiceEndpoint" : "defaultServiceEndpoint";
    const endpoint = at(toggle, side, was ? "unsubscribeEndpoint" : "subscribeEndpoint") as Json;
    expect(endpoint.channelIds).toEqual([channelId]);
    const r = await api(emu, `subscription/${was ? "unsubscribe" : "subscribe"}`, endpoint, auth);
    expect(r.status).toBe(200);
    expect(subscribeToggle(await card())?.isToggled).toBe(!was);
    const back = was ? "subscribeEndpoint" : "unsubscribeEndpoint";
    const restore = at(toggle, was ? "defaultServiceEndpoint" : "toggledServiceEndpoint", back) as Json;
    await api(emu, `subscription/${was ? "subscribe" : "unsubscribe"}`, restore, auth);
    expect(subscribeToggle(await card())?.isToggled).toBe(was);
    expect(await card(await headersFor(emu, 2))).toBeUndefined();
  });

  it("a podcast among the playlist results pins to Listen again through its feedback token", async () => {
    const r = await api(emu, "search", { query: "a", params: "Eg-KAQwIABAAGAAgACgBMABqChAEEAMQCRAFEAo%3D" });
    const rows = findAll(r.json, "musicResponsiveListItemRenderer") as Json[];
    const podcasts = rows.filter((row) =>
      String(at(row, "navigationEndpoint", "browseEndpoint", "browseId")).startsWith("MPSP"),
    );
    expect(podcasts).toHaveLength(1);
    const pin = (findAll(podcasts[0], "toggleMenuServiceItemRenderer") as Json[]).find(
      (t) => at(t, "defaultIcon", "iconType") === "KEEP",
    );
    const token = at(pin, "defaultServiceEndpoint", "feedbackEndpoint", "feedbackToken");
    const done = await api(emu, "feedback", { feedbackTokens: [token] }, await headersFor(emu, 2));
    expect(at(done.json, "feedbackResponses", 0, "isProcessed")).toBe(true);
    // The playlist rows of the same signed-out page open sign-in modals from both save items.
    const modals = findAll(
      rows.find((row) => !podcasts.includes(row)),
      "modalWithTitleAndButtonRenderer",
    );
    expect(modals).toHaveLength(2);
  });
});
