/**
 * The 5,000 cap's `overflow` policies in the planner: `truncate` (the number dropped is the number
 * said), `rotate` (the oldest rows make room) and `split` (the list continues into "Title (2)", …).
 */
import { describe, expect, it } from "vitest";
import { ROTATED } from "../../../engine/plan/cap.js";
import { plan } from "../../../engine/plan/plan.js";
import type { ActualTarget, Desired, Owned, Plan, PlanPolicy } from "../../../engine/plan/types.js";
import { DEFAULT_POLICY } from "../../../engine/recipe/defaults.js";
import type { Mode, PlaylistTarget } from "../../../engine/recipe/types.js";
import { parsePlansJson, renderPlansJson } from "../../../engine/render/json.js";
import { renderPlanText } from "../../../engine/render/text.js";
import type { Planned, TargetSide } from "../../../engine/run/runner.js";
import { planParts } from "../../../engine/run/split.js";
import type { Item } from "../../../engine/sources/item.js";
import { list, rows } from "../support/fixtures.js";

const target: PlaylistTarget = {
  type: "playlist",
  playlist: { id: null, title: "Big", description: null, privacy: null },
  allow_delete: false,
};

const many = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

function desired(items: Item[]): Desired {
  return {
    recipe: { id: "big", hash: "h", account: "default", target },
    items,
    skipped: [],
    sourceTotal: items.length,
    truncatedSources: [],
  };
}

function actual(r: Item[], playlistId = "PL1"): ActualTarget {
  return {
    exists: true,
    playlistId,
    title: "Big",
    description: null,
    privacy: null,
    rows: r,
    truncated: false,
  };
}

const MISSING: ActualTarget = { ...actual([]), exists: false, playlistId: null, title: null };

function owned(keys: readonly Item[] = []): Owned {
  return { playlist: true, rows: new Set(keys.map((r) => r.videoId!)), tombstones: new Set() };
}

function policy(mode: Mode, extra: Partial<PlanPolicy> = {}): PlanPolicy {
  return { ...DEFAULT_POLICY, max_removals: 100_000, batch_size: 500, mode, ...extra };
}

/** The items as a source lists them again (same ids as the rows, source order). */
function asSource(r: readonly Item[]): Item[] {
  return r.map((x, i) => ({ ...x, setVideoId: null, source: "s", rank: i + 1 }));
}

describe("overflow: truncate", () => {
  it("drops every add, and says so, when the rows alone pass the cap", () => {
    // 5,001 rows stay (max_removals holds their removal back) and 3 adds would make 5,004: the old
    // slice(adds.length - over) started at -1 and dropped one add, leaving the target over the cap.
    const have = rows(many(5001, "t"));
    const p = plan(
      desired(list("s", many(3, "n"))),
      actual(have),
      owned(),
      policy("mirror", { max_removals: 10 }),
    );
    expect(p.summary.add).toBe(0);
    expect(p.lines.filter((l) => l.reason === "over the 5,000 cap")).toHaveLength(3);
    expect(p.guards.find((g) => g.guard === "overflow")?.message).toBe(
      "3 adds dropped: the target would pass the 5,000 cap",
    );
  });
});

describe("overflow: rotate", () => {
  it("append at the cap removes the oldest rows (the top) and tombstones them", () => {
    const have = rows(many(5000, "a"));
    const p = plan(
      desired(list("s", many(3, "n"))),
      actual(have),
      owned(have),
      policy("append", { overflow: "rotate" }),
    );
    const removed = p.lines.filter((l) => l.op === "remove");
    expect(removed.map((l) => l.videoId)).toEqual(have.slice(0, 3).map((r) => r.videoId));
    expect(removed.every((l) => l.reason === ROTATED)).toBe(true);
    expect(p.summary.add).toBe(3);
    expect(p.tombstones).toEqual(have.slice(0, 3).map((r) => r.videoId));
    expect(p.guards).toEqual([
      {
        guard: "overflow",
        message: "rotated out (3 oldest rows removed): the target would pass the 5,000 cap",
        blocks: "none",
      },
    ]);
    const removes = p.actions.find((a) => a.kind === "remove_playlist_items");
    expect(removes && "videos" in removes ? removes.videos.map((v) => v.setVideoId) : []).toEqual(
      have.slice(0, 3).map((r) => r.setVideoId),
    );
  });

  it("mirror keeps the newest 5,000 by source order, and rotation does not count against max_removals", () => {
    const have = rows(many(5000, "m"));
    const want = [...asSource(have), ...list("s", many(2, "n"))];
    const p = plan(
      desired(want),
      actual(have),
      owned(have),
      policy("mirror", { overflow: "rotate", max_removals: 0 }),
    );
    expect(p.lines.filter((l) => l.op === "remove").map((l) => l.videoId)).toEqual(
      have.slice(0, 2).map((r) => r.videoId),
    );
    expect(p.lines.filter((l) => l.op === "remove").every((l) => l.reason === ROTATED)).toBe(true);
    expect(p.summary.add).toBe(2);
    expect(p.guards.map((g) => g.guard)).toEqual(["overflow"]);
  });

  it("a new playlist takes the last 5,000 of a longer list", () => {
    const p = plan(
      desired(list("s", many(5003, "n"))),
      MISSING,
      owned(),
      policy("mirror", { overflow: "rotate" }),
    );
    expect(p.summary.add).toBe(5000);
    expect(p.lines.slice(0, 3).map((l) => [l.op, l.reason])).toEqual([
      ["skip", ROTATED],
      ["skip", ROTATED],
      ["skip", ROTATED],
    ]);
  });

  it("when a guard holds removals back, adds are dropped instead", () => {
    const have = rows(many(5000, "g"));
    const p = plan(
      { ...desired([...asSource(have), ...list("s", ["new"])]), truncatedSources: ["s"] },
      actual(have),
      owned(have),
      policy("mirror", { overflow: "rotate" }),
    );
    expect(p.summary.remove).toBe(0);
    expect(p.summary.add).toBe(0);
    expect(p.guards.map((g) => g.guard)).toEqual(["source_truncated", "overflow"]);
  });
});

function side(a: ActualTarget, o: Owned = owned()): TargetSide {
  return {
    read: { actual: a, foundBy: a.exists ? "state" : "none" },
    reconciliation: { ownedAdds: [], ownedRemoves: [], verdicts: [], runs: [] },
    owned: o,
    quarantine: new Set(),
    generation: null,
    lastReads: new Map(),
  };
}

async function split(
  items: Item[],
  known: TargetSide[],
  mode: Mode = "mirror",
  extra: Partial<PlanPolicy> = {},
): Promise<Plan[]> {
  const read = async () => side(MISSING);
  const planned: Planned = await planParts(
    { desired: desired(items), policy: policy(mode, { overflow: "split", ...extra }), target, base: "Big" },
    known,
    read,
  );
  return [planned, ...(planned.parts ?? [])].map((p) => p.plan);
}

/** The ids each part's plan puts in its playlist, in order. */
function addedIds(p: Plan): string[] {
  return p.actions.flatMap((a) =>
    a.kind === "create_playlist" || a.kind === "add_playlist_items" ? a.videoIds : [],
  );
}

describe("overflow: split", () => {
  it("cuts a new list into parts of 5,000 in order, each its own playlist owned under the part", async () => {
    const items = list("s", many(10_500, "x"));
    const plans = await split(items, [side(MISSING)]);
    expect(plans.map((p) => p.part)).toEqual([
      { index: 1, of: 3 },
      { index: 2, of: 3 },
      { index: 3, of: 3 },
    ]);
    expect(plans.map((p) => p.recipe.id)).toEqual(["big", "big.2", "big.3"]);
    expect(plans.flatMap(addedIds)).toEqual(items.map((i) => i.videoId));
    expect(plans.map((p) => addedIds(p).length)).toEqual([5000, 5000, 500]);
    const create = plans[1]!.actions[0]!;
    expect(create.kind === "create_playlist" && [create.title, create.description]).toEqual([
      "Big (2)",
      "[musicsync:big.2]",
    ]);
    expect(renderPlanText(plans[1]!).split("\n")[1]).toBe('  part 2 of 3: "Big (2)"');
    // A saved plan keeps its part through the plan file's schema.
    expect(parsePlansJson(renderPlansJson(plans)).plans.map((p) => p.part?.index)).toEqual([1, 2, 3]);
  });

  it("a list that fits one playlist is an ordinary plan", async () => {
    const plans = await split(list("s", many(10, "y")), [side(MISSING)]);
    expect(plans).toHaveLength(1);
    expect(plans[0]!.part).toBeUndefined();
  });

  it("items moving up when the list loses its head, and a part the list no longer reaches is emptied", async () => {
    const one = rows(many(5000, "p"));
    const two = rows(many(5000, "q"));
    const three = rows(many(500, "r"));
    const all = asSource([...one, ...two, ...three]);
    // The first 600 items are gone from the source: everything moves up by 600.
    const plans = await split(all.slice(600), [
      side(actual(one, "PL1"), owned(one)),
      side(actual(two, "PL2"), owned(two)),
      side(actual(three, "PL3"), owned(three)),
    ]);
    expect(plans.map((p) => p.part?.index)).toEqual([1, 2, 3]);
    expect(plans[0]!.summary).toMatchObject({ remove: 600, add: 600 });
    expect(plans[1]!.summary).toMatchObject({ remove: 600, add: 500 });
    expect(plans[2]!.summary).toMatchObject({ remove: 500, add: 0 });
    expect(plans[2]!.guards).toEqual([]);
    // Every item lands in exactly one part.
    const kept = (p: Plan) =>
      p.lines.filter((l) => l.op !== "remove" && l.op !== "skip").map((l) => l.videoId);
    expect(plans.flatMap(kept).sort()).toEqual(
      all
        .slice(600)
        .map((i) => i.videoId)
        .sort(),
    );
  });

  it("rows whose move to the next part a guard holds back are not added there as well", async () => {
    const one = rows(many(5000, "b"));
    const want = [...list("s", many(10, "c")), ...asSource(one)];
    const plans = await split(want, [side(actual(one), owned(one))], "mirror", { max_removals: 5 });
    expect(plans[0]!.summary).toMatchObject({ add: 0, remove: 0 });
    expect(plans[0]!.guards.map((g) => g.guard)).toEqual(["max_removals", "overflow"]);
    const inOne = new Set(one.map((r) => r.videoId));
    expect(addedIds(plans[1]!).filter((id) => inOne.has(id))).toEqual([]);
    expect(plans[1]!.lines.filter((l) => l.reason === "duplicate: already in part 1")).toHaveLength(10);
  });

  it("in append mode a full part keeps its rows and the new items go to the next part", async () => {
    const one = rows(many(5000, "f"));
    const plans = await split(
      [...asSource(one), ...list("s", many(5, "g"))],
      [side(actual(one), owned(one))],
      "append",
    );
    expect(addedIds(plans[0]!)).toEqual([]);
    expect(addedIds(plans[1]!)).toEqual(many(5, "g").map((n) => n.padEnd(11, "_")));
  });

  it("in sync mode the person's rows stay in their part and count toward it", async () => {
    const mine = rows(many(4990, "e"));
    const theirs = rows(many(20, "z"));
    const one = [...mine, ...theirs];
    const want = [...asSource(mine), ...list("s", many(30, "k"))];
    const plans = await split(want, [side(actual(one), owned(mine))], "sync");
    // 20 person rows stay and count: 4,980 of the engine's rows fit, the last 10 move on to part 2.
    expect(plans[0]!.lines.filter((l) => l.op === "remove").map((l) => l.videoId)).toEqual(
      mine.slice(4980).map((r) => r.videoId),
    );
    expect(addedIds(plans[0]!)).toEqual([]);
    expect(addedIds(plans[1]!)).toEqual(want.slice(4980).map((i) => i.videoId));
  });
});
