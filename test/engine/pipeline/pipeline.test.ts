import { describe, expect, it } from "vitest";
import { combine } from "../../../engine/pipeline/combine.js";
import { isoWeek, parseServiceDate } from "../../../engine/pipeline/dates.js";
import { filterItems } from "../../../engine/pipeline/filter.js";
import { runPipeline } from "../../../engine/pipeline/run.js";
import {
  dedupe,
  exclude,
  limit,
  normaliseTitle,
  periodKey,
  shuffle,
  since,
  sortItems,
} from "../../../engine/pipeline/steps.js";
import type { PipelineContext } from "../../../engine/pipeline/types.js";
import type { FilterStep, PipelineStep, SourceSpec } from "../../../engine/recipe/types.js";
import { list, names, track } from "../support/fixtures.js";

const noFilter: FilterStep["filter"] = {
  available: null,
  explicit: null,
  videoType: null,
  duration: null,
  artists: null,
  title: null,
};

describe("combine", () => {
  const a = list("a", ["a1", "a2", "a3", "shared"]);
  const b = list("b", ["b1", "shared"]);

  it("concatenates in source order", () => {
    expect(names(combine("concat", [a, b]).items)).toEqual(["a1", "a2", "a3", "shared", "b1", "shared"]);
  });

  it("interleaves round-robin, then the rest of the longer list", () => {
    expect(names(combine("interleave", [a, b]).items)).toEqual(["a1", "b1", "a2", "shared", "a3", "shared"]);
  });

  it("unions by identity, reporting the second copy", () => {
    const r = combine("union", [a, b], ["a", "b"]);
    expect(names(r.items)).toEqual(["a1", "a2", "a3", "shared", "b1"]);
    expect(r.skipped.map((s) => [s.item.source, s.reason])).toEqual([["b", "duplicate (union)"]]);
  });

  it("intersects keeping the first list's order and items", () => {
    const r = combine("intersect", [a, b], ["a", "b"]);
    expect(names(r.items)).toEqual(["shared"]);
    expect(r.items[0]!.source).toBe("a");
    expect(r.skipped).toHaveLength(3);
  });

  it("takes a difference, naming the source that removed an item", () => {
    const r = combine("difference", [a, b], ["a", "b"]);
    expect(names(r.items)).toEqual(["a1", "a2", "a3"]);
    expect(r.skipped.map((s) => s.reason)).toEqual(['also in source "b" (difference)']);
  });
});

describe("filter", () => {
  const items = [
    track("ok"),
    track("gone", { isAvailable: false }),
    track("rude", { isExplicit: true }),
    track("short", { duration_seconds: 30 }),
    track("long", { duration_seconds: 4000 }),
    track("video", { videoType: "MUSIC_VIDEO_TYPE_UGC" }),
    track("Song (Live)", { artists: [{ name: "Other", id: "UCother" }] }),
  ];

  it("drops unavailable and explicit items with reasons", () => {
    const r = filterItems(items, { ...noFilter, available: true, explicit: false });
    expect(names(r.items)).toEqual(["ok", "short", "long", "video", "Song (Live)"]);
    expect(r.skipped.map((s) => s.reason)).toEqual(["unavailable", "explicit"]);
  });

  it("bounds duration, keeping items whose duration is unknown", () => {
    const unknown = track("unknown", { duration_seconds: null });
    const r = filterItems([...items, unknown], { ...noFilter, duration: { min: 60, max: 600 } });
    expect(names(r.skipped.map((s) => s.item))).toEqual(["short", "long"]);
    expect(r.skipped.map((s) => s.reason)).toEqual(["shorter than 60 s", "longer than 600 s"]);
    expect(names(r.items)).toContain("unknown");
  });

  it("matches video types, artists by name (any case) or id, and title patterns", () => {
    const withTypes = items.map((i) => (i.videoType ? i : { ...i, videoType: "MUSIC_VIDEO_TYPE_ATV" }));
    expect(names(filterItems(withTypes, { ...noFilter, videoType: ["MUSIC_VIDEO_TYPE_UGC"] }).items)).toEqual(
      ["video"],
    );
    expect(
      names(filterItems(items, { ...noFilter, artists: { include: ["other"], exclude: null } }).items),
    ).toEqual(["Song (Live)"]);
    expect(
      names(filterItems(items, { ...noFilter, artists: { include: null, exclude: ["UCother"] } }).items),
    ).not.toContain("Song (Live)");
    const r = filterItems(items, { ...noFilter, title: { include: null, exclude: "\\(live\\)" } });
    expect(r.skipped.map((s) => [s.item.title, s.reason])).toEqual([["Song (Live)", "title excluded"]]);
    expect(names(filterItems(items, { ...noFilter, title: { include: "^s", exclude: null } }).items)).toEqual(
      ["short", "Song (Live)"],
    );
  });
});

describe("dates", () => {
  const now = new Date("2026-11-21T12:00:00Z");

  it("reads relative and written dates", () => {
    const day = 86_400_000;
    expect(parseServiceDate("3 days ago", now)).toBe(now.getTime() - 3 * day);
    expect(parseServiceDate("1 week ago", now)).toBe(now.getTime() - 7 * day);
    expect(parseServiceDate("an hour ago", now)).toBe(now.getTime() - 3_600_000);
    expect(parseServiceDate("Yesterday", now)).toBe(now.getTime() - day);
    expect(parseServiceDate("Aug 30, 2024", now)).toBe(Date.UTC(2024, 7, 30));
    expect(parseServiceDate("Dec 30", new Date("2026-01-02T00:00:00Z"))).toBe(Date.UTC(2025, 11, 30));
    expect(parseServiceDate("sometime", now)).toBeNull();
    expect(parseServiceDate(null, now)).toBeNull();
  });

  it("names ISO weeks, including the ones that cross a year", () => {
    expect(isoWeek(new Date("2026-11-21T00:00:00Z"))).toBe("2026-W47");
    expect(isoWeek(new Date("2021-01-03T00:00:00Z"))).toBe("2020-W53");
    expect(isoWeek(new Date("2024-12-30T00:00:00Z"))).toBe("2025-W01");
  });
});

describe("since", () => {
  it("keeps items inside the window and says why others go", () => {
    const now = new Date("2026-11-21T12:00:00Z");
    const items = [
      track("new", { date: "2 days ago" }),
      track("old", { date: "3 weeks ago" }),
      track("undated", { date: null }),
      track("edge", { date: "Nov 10, 2026" }),
    ];
    const r = since(items, 14, now);
    expect(names(r.items)).toEqual(["new", "edge"]);
    expect(r.skipped.map((s) => [s.item.title, s.reason])).toEqual([
      ["old", "older than 14 days"],
      ["undated", "no date"],
    ]);
  });
});

describe("dedupe", () => {
  it("keeps the first copy of a videoId", () => {
    const a = list("a", ["x", "y"]);
    const b = list("b", ["x"]);
    const r = dedupe([...a, ...b], "videoId");
    expect(names(r.items)).toEqual(["x", "y"]);
    expect(r.skipped[0]!.reason).toBe(`duplicate of ${a[0]!.videoId} (#1 of a)`);
  });

  it("folds releases of one recording by title and artist", () => {
    const items = [
      track("Drive My Car", { videoId: "v1", artists: [{ name: "The Beatles", id: null }] }),
      track("Drive My Car (Remastered 2009)", {
        videoId: "v2",
        artists: [{ name: "the beatles", id: null }],
      }),
      track("Drive My Car - 2009 Remaster", { videoId: "v3", artists: [{ name: "The Beatles", id: null }] }),
      track("Drive My Car", { videoId: "v4", artists: [{ name: "Someone Else", id: null }] }),
      track("Café", { videoId: "v5" }),
      track("Cafe", { videoId: "v6" }),
    ];
    const r = dedupe(items, "title_artist");
    expect(r.items.map((i) => i.videoId)).toEqual(["v1", "v4", "v5"]);
    expect(normaliseTitle("Song [Official Video] feat. X")).toBe("song");
  });
});

describe("exclude", () => {
  it("removes items named by other sources, liked songs and tombstones", () => {
    const items = list("a", ["keep", "blocked", "liked", "gone"]);
    const r = exclude(items, {
      sources: new Map([[items[1]!.videoId!, "blocklist"]]),
      liked: new Set([items[2]!.videoId!]),
      tombstones: new Set([items[3]!.videoId!]),
    });
    expect(names(r.items)).toEqual(["keep"]);
    expect(r.skipped.map((s) => s.reason)).toEqual([
      'excluded by source "blocklist"',
      "already liked",
      "tombstoned",
    ]);
  });

  it("ignores liked songs unless asked", () => {
    const items = list("a", ["liked"]);
    expect(exclude(items, { sources: new Map(), liked: null, tombstones: null }).items).toHaveLength(1);
  });
});

describe("sort", () => {
  const now = new Date("2026-11-21T12:00:00Z");
  const items = [
    track("b", { duration_seconds: 300, date: "1 day ago", rank: 2 }),
    track("A", { duration_seconds: null, date: null, rank: 3 }),
    track("c", { duration_seconds: 100, date: "5 days ago", rank: 1 }),
  ];

  it("sorts text case-insensitively and numbers with blanks last in both orders", () => {
    expect(names(sortItems(items, "title", "asc", now).items)).toEqual(["A", "b", "c"]);
    expect(names(sortItems(items, "duration", "asc", now).items)).toEqual(["c", "b", "A"]);
    expect(names(sortItems(items, "duration", "desc", now).items)).toEqual(["b", "c", "A"]);
    expect(names(sortItems(items, "date", "desc", now).items)).toEqual(["b", "c", "A"]);
    expect(names(sortItems(items, "rank", "asc", now).items)).toEqual(["c", "b", "A"]);
  });

  it("is stable for ties", () => {
    const tied = [
      track("x1", { duration_seconds: 5 }),
      track("x2", { duration_seconds: 5 }),
      track("x3", { duration_seconds: 5 }),
    ];
    expect(names(sortItems(tied, "duration", "desc", now).items)).toEqual(["x1", "x2", "x3"]);
  });
});

describe("shuffle", () => {
  const items = list(
    "a",
    Array.from({ length: 30 }, (_, i) => `t${i}`),
  );

  it("gives the same order for the same seed, a different one for another seed, and loses nothing", () => {
    const one = names(shuffle(items, "r|week|2026-W47").items);
    expect(names(shuffle(items, "r|week|2026-W47").items)).toEqual(one);
    expect(names(shuffle(items, "r|week|2026-W48").items)).not.toEqual(one);
    expect(one).not.toEqual(names(items));
    expect([...one].sort()).toEqual([...names(items)].sort());
  });

  it("keys periods so a week's plans share a seed", () => {
    const monday = new Date("2026-11-16T08:00:00Z");
    const sunday = new Date("2026-11-22T22:00:00Z");
    expect(periodKey("week", monday)).toBe(periodKey("week", sunday));
    expect(periodKey("day", monday)).not.toBe(periodKey("day", sunday));
    expect(periodKey("month", monday)).toBe("2026-11");
  });

  it("counts days and weeks in the recipe's time zone", () => {
    // Sunday 23:30 UTC is already Monday in Berlin: a new week there, the old one in UTC.
    const late = new Date("2026-11-22T23:30:00Z");
    expect(periodKey("week", late)).toBe("2026-W47");
    expect(periodKey("week", late, "Europe/Berlin")).toBe("2026-W48");
    expect(periodKey("day", late, "America/New_York")).toBe("2026-11-22");
    expect(periodKey("day", late, "Asia/Tokyo")).toBe("2026-11-23");
  });
});

describe("limit", () => {
  it("keeps the first n and accounts for the rest", () => {
    const r = limit(list("a", ["1", "2", "3"]), 2);
    expect(names(r.items)).toEqual(["1", "2"]);
    expect(r.skipped.map((s) => s.reason)).toEqual(["over the limit of 2"]);
  });
});

describe("runPipeline", () => {
  const chart = list("chart", ["c1", "c2", "c3", "c4"]);
  const block = list("block", ["c2"]);
  const ctx = (extra: Partial<PipelineContext> = {}): PipelineContext => ({
    sources: new Map([
      ["chart", chart],
      ["block", block],
    ]),
    liked: new Set(),
    tombstones: new Set(),
    now: new Date("2026-11-21T12:00:00Z"),
    recipeId: "r",
    ...extra,
  });
  const sources: SourceSpec[] = [
    { id: "chart", type: "chart", country: "US", section: "songs", limit: null },
    { id: "block", type: "static", videoIds: [], limit: null },
  ];

  it("starts from every source except those only used to exclude, and accounts for each dropped item", () => {
    const pipeline: PipelineStep[] = [
      { exclude: { sources: ["block"], liked: false, tombstones: false } },
      { limit: 2 },
    ];
    const r = runPipeline({ sources, pipeline }, ctx());
    expect(names(r.items)).toEqual(["c1", "c3"]);
    expect(r.skipped.map((s) => [s.item.title, s.reason])).toEqual([
      ["c2", 'excluded by source "block"'],
      ["c4", "over the limit of 2"],
    ]);
    expect(r.items.length + r.skipped.length).toBe(chart.length);
  });

  it("starts from a combine when it is the first step", () => {
    const pipeline: PipelineStep[] = [{ combine: { op: "difference", sources: ["chart", "block"] } }];
    expect(names(runPipeline({ sources, pipeline }, ctx()).items)).toEqual(["c1", "c3", "c4"]);
  });

  it("concatenates all sources when there is no combine", () => {
    expect(names(runPipeline({ sources, pipeline: [] }, ctx()).items)).toEqual([
      "c1",
      "c2",
      "c3",
      "c4",
      "c2",
    ]);
  });

  it("shuffles the same within a week and differently for another recipe", () => {
    const pipeline: PipelineStep[] = [{ shuffle: { period: "week", seed: "" } }];
    const many = list(
      "chart",
      Array.from({ length: 20 }, (_, i) => `s${i}`),
    );
    const base = ctx({ sources: new Map([["chart", many]]) });
    const a = names(runPipeline({ sources: sources.slice(0, 1), pipeline }, base).items);
    const later = names(
      runPipeline(
        { sources: sources.slice(0, 1), pipeline },
        { ...base, now: new Date("2026-11-22T23:00:00Z") },
      ).items,
    );
    const other = names(
      runPipeline({ sources: sources.slice(0, 1), pipeline }, { ...base, recipeId: "other" }).items,
    );
    expect(later).toEqual(a);
    expect(other).not.toEqual(a);
  });
});
