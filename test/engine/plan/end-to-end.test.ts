/**
 * From recipe text to rendered plan, with an in-memory client: load → read sources → pipeline →
 * plan → text. Checks the promise that every source item and every target row is accounted for.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildDesired, planPolicy } from "../../../engine/plan/desired.js";
import { plan } from "../../../engine/plan/plan.js";
import type { ActualTarget, Owned } from "../../../engine/plan/types.js";
import { loadRecipeText } from "../../../engine/recipe/load.js";
import { renderPlanText } from "../../../engine/render/text.js";
import { readSources } from "../../../engine/sources/read.js";
import type { SourceClient, TrackResult } from "../../../engine/sources/reader.js";
import { rows, vid } from "../support/fixtures.js";

function chartTracks(n: number): TrackResult[] {
  return Array.from({ length: n }, (_, i) => ({
    videoId: vid(`c${i}`),
    title: `Chart song ${i}`,
    artists: [{ name: `Artist ${i % 7}`, id: null }],
    duration: "3:10",
    videoType: "MUSIC_VIDEO_TYPE_ATV",
    // Every tenth song is greyed out, every 25th listed twice.
    isAvailable: i % 10 !== 9,
  }));
}

function client(tracks: TrackResult[], trackCount: number): SourceClient {
  const fake = {
    getCharts: async () => ({
      videos: [{ title: "Daily Top Music Videos", playlistId: "PLvideos" }],
      daily: [{ title: "Daily Top Songs - United States", playlistId: "PLsongs" }],
    }),
    getPlaylist: async (id: string) => {
      // The shipped recipe mirrors the video chart (the 2025+ charts page has no songs chart).
      if (id !== "PLvideos") throw new Error(`unexpected playlist ${id}`);
      return { trackCount, tracks };
    },
  };
  return fake as unknown as SourceClient;
}

const recipeText = readFileSync(new URL("../../../recipes/chart-mirror.yaml", import.meta.url), "utf8");
const loaded = loadRecipeText("chart-mirror.yaml", recipeText).recipes[0]!;
const owned: Owned = { playlist: true, rows: new Set(), tombstones: new Set() };

describe("chart mirror, end to end", () => {
  it("plans a full read with every source item and every row accounted for", async () => {
    const tracks = chartTracks(120);
    tracks.splice(30, 0, tracks[24]!); // a duplicate inside the chart
    const reads = await readSources(loaded.recipe, client(tracks, tracks.length));
    const desired = buildDesired(loaded, reads, { now: new Date("2026-11-21T07:15:00Z") });
    // The existing playlist: yesterday's chart, partly, in another order, plus a song that dropped out.
    const have = rows(["c3", "c1", "c0", "gone", "c2"]);
    const actual: ActualTarget = {
      exists: true,
      playlistId: "PLmine",
      title: "US Daily Top 100",
      description: "[musicsync:us-daily-chart]",
      privacy: "PRIVATE",
      rows: have,
      truncated: false,
    };
    const p = plan(desired, actual, owned, planPolicy(loaded));

    // Every source item exactly once among the lines (source + rank), every row once.
    const sourceLines = p.lines.filter((l) => l.source === "chart").map((l) => l.rank);
    expect(sourceLines.sort((a, b) => a! - b!)).toEqual(
      Array.from({ length: tracks.length }, (_, i) => i + 1),
    );
    const rowLines = p.lines.filter((l) => l.source === null);
    expect(rowLines.map((l) => [l.label, l.op, l.reason])).toEqual([
      ["gone — Artist", "remove", "not desired"],
    ]);

    expect(desired.items).toHaveLength(100);
    // c3 and one of c1/c0 are out of order; the rest of the rows already are.
    expect(p.summary).toMatchObject({ add: 96, remove: 1, move: 2, keep: 2 });
    expect(p.lines.filter((l) => l.reason === "unavailable")).toHaveLength(12);
    expect(p.lines.filter((l) => l.reason?.startsWith("duplicate of"))).toHaveLength(1);
    expect(p.lines.filter((l) => l.reason === "over the limit of 100")).toHaveLength(
      tracks.length - 12 - 1 - 100,
    );
    expect(p.guards).toEqual([]);
    expect(renderPlanText(p).trimEnd().split("\n").at(-1)).toMatch(
      /^Plan: 96 to add, 1 to remove, 2 to move, 0 to rate;/,
    );
  });

  it("adds but does not remove when the chart read comes back short", async () => {
    const tracks = chartTracks(60);
    const reads = await readSources(loaded.recipe, client(tracks, 100));
    expect(reads.get("chart")!.truncated).toBe(true);
    const desired = buildDesired(loaded, reads, { now: new Date("2026-11-21T07:15:00Z") });
    const actual: ActualTarget = {
      exists: true,
      playlistId: "PLmine",
      title: "US Daily Top 100",
      description: "[musicsync:us-daily-chart]",
      privacy: "PRIVATE",
      rows: rows(["old1", "old2"]),
      truncated: false,
    };
    const p = plan(desired, actual, owned, planPolicy(loaded));
    expect(p.summary.remove).toBe(0);
    expect(p.summary.add).toBeGreaterThan(0);
    expect(p.guards.map((g) => g.guard)).toEqual(["source_truncated"]);
    expect(renderPlanText(p)).toContain(
      "! guard source_truncated: source read looks truncated (chart) (removals held back)",
    );
  });

  it("plans the same twice for the same inputs", async () => {
    const reads = await readSources(loaded.recipe, client(chartTracks(110), 110));
    const now = new Date("2026-11-21T07:15:00Z");
    const actual: ActualTarget = {
      exists: false,
      playlistId: null,
      title: null,
      description: null,
      privacy: null,
      rows: [],
      truncated: false,
    };
    const a = plan(buildDesired(loaded, reads, { now }), actual, owned, planPolicy(loaded));
    const b = plan(buildDesired(loaded, reads, { now }), actual, owned, planPolicy(loaded));
    expect(b).toEqual(a);
    expect(a.actions[0]).toMatchObject({
      kind: "create_playlist",
      title: "US Daily Top 100",
      privacy: "PRIVATE",
    });
  });
});
