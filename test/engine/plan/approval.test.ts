/** `policy.require_approval` as a pure rule over real plans (engine/plan/approval.ts). */
import { describe, expect, it } from "vitest";
import { approvalNeeded, removalsOf } from "../../../engine/plan/approval.js";
import { plan } from "../../../engine/plan/plan.js";
import type { ActualTarget, Desired, Owned, PlanPolicy } from "../../../engine/plan/types.js";
import { DEFAULT_POLICY } from "../../../engine/recipe/defaults.js";
import { loadProjectText, loadRecipeText } from "../../../engine/recipe/load.js";
import type { Mode, TargetSpec } from "../../../engine/recipe/types.js";
import type { Item } from "../../../engine/sources/item.js";
import { list, rows } from "../support/fixtures.js";

const playlist: TargetSpec = {
  type: "playlist",
  playlist: { id: "PLx", title: null, description: null, privacy: null },
  allow_delete: false,
};
const nobody: Owned = { playlist: true, rows: new Set(), tombstones: new Set() };
const policy = (mode: Mode = "mirror"): PlanPolicy => ({ ...DEFAULT_POLICY, max_removals: 10_000, mode });

function planOf(want: Item[], have: Item[], target: TargetSpec = playlist) {
  const desired: Desired = {
    recipe: { id: "r", hash: "h", account: "default", target },
    items: want,
    skipped: [],
    sourceTotal: want.length,
    truncatedSources: [],
  };
  const actual: ActualTarget = {
    exists: true,
    playlistId: target.type === "likes" ? "LM" : "PLx",
    title: null,
    description: null,
    privacy: null,
    rows: have,
    truncated: false,
  };
  return plan(desired, actual, nobody, policy());
}

const names = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

/** A mirror of 100 rows that keeps `keep` of them (and adds one new song). */
function shrinking(keep: number) {
  const have = names(100, "r");
  return planOf(list("s", [...have.slice(0, keep), "new"]), rows(have));
}

describe("approvalNeeded", () => {
  it("holds a plan with more removals than require_approval.removals, saying how many", () => {
    const p = shrinking(75);
    expect(removalsOf(p)).toBe(25);
    expect(approvalNeeded(p, { require_approval: { removals: 20 } })).toBe(
      "25 removals, over require_approval.removals 20",
    );
    expect(approvalNeeded(p, { require_approval: { removals: 25 } })).toBeNull();
  });

  it("holds a plan removing more than removals_percent of the target's rows", () => {
    const p = shrinking(70);
    expect(approvalNeeded(p, { require_approval: { removals_percent: 20 } })).toBe(
      "30 removals, 30% of the target's 100 rows, over require_approval.removals_percent 20",
    );
    expect(approvalNeeded(p, { require_approval: { removals_percent: 30 } })).toBeNull();
    expect(approvalNeeded(shrinking(80), { require_approval: { removals_percent: 20 } })).toBeNull();
  });

  it("names every threshold passed; 0 holds any removal; nothing held without the setting", () => {
    const p = shrinking(70);
    expect(approvalNeeded(p, { require_approval: { removals: 20, removals_percent: 20 } })).toBe(
      "30 removals, over require_approval.removals 20; 30% of the target's 100 rows, over require_approval.removals_percent 20",
    );
    expect(approvalNeeded(shrinking(99), { require_approval: { removals: 0 } })).toBe(
      "1 removal, over require_approval.removals 0",
    );
    expect(approvalNeeded(p, {})).toBeNull();
    expect(approvalNeeded(p, { require_approval: {} })).toBeNull();
  });

  it("never holds a plan that only adds", () => {
    const p = planOf(list("s", names(50, "n")), rows([]));
    expect(p.summary.add).toBe(50);
    expect(approvalNeeded(p, { require_approval: { removals: 0, removals_percent: 0 } })).toBeNull();
  });

  it("counts un-likes as removals (a likes target rates them INDIFFERENT)", () => {
    const likes: TargetSpec = { type: "likes", rating: "LIKE" };
    const p = planOf(list("s", ["a"]), rows(["a", "b", "c", "d"]), likes);
    expect(p.summary.remove).toBe(0);
    expect(removalsOf(p)).toBe(3);
    expect(approvalNeeded(p, { require_approval: { removals_percent: 50 } })).toBe(
      "3 removals, 75% of the target's 4 rows, over require_approval.removals_percent 50",
    );
  });
});

describe("require_approval in recipes", () => {
  const project = loadProjectText(
    "musicsync.yaml",
    [
      "apiVersion: musicsync/v1",
      "kind: Project",
      "accounts: { default: { auth: headers.json } }",
      "defaults: { policy: { require_approval: { removals: 20, removals_percent: 20 } } }",
      "",
    ].join("\n"),
  ).project!;
  const recipe = (policy: string) =>
    loadRecipeText(
      "r.yaml",
      [
        "apiVersion: musicsync/v1",
        "kind: Recipe",
        "id: r",
        "sources: [{ id: s, type: static, videoIds: [aaaaaaaaaaa] }]",
        "target: { type: playlist, playlist: { title: T } }",
        policy,
        "",
      ].join("\n"),
      { project },
    ).recipes[0]!.recipe.policy;

  it("comes from the project's defaults; a recipe's own replaces it as a whole", () => {
    expect(recipe("").require_approval).toEqual({ removals: 20, removals_percent: 20 });
    expect(recipe("policy: { require_approval: { removals: 50 } }").require_approval).toEqual({
      removals: 50,
    });
    expect(recipe("policy: { require_approval: {} }").require_approval).toEqual({});
  });

  it("is absent unless set, so recipes without it keep their hash", () => {
    const plain = loadRecipeText(
      "r.yaml",
      "apiVersion: musicsync/v1\nkind: Recipe\nid: r\nsources: [{ id: s, type: static, videoIds: [aaaaaaaaaaa] }]\ntarget: { type: playlist, playlist: { title: T } }\n",
    ).recipes[0]!;
    expect("require_approval" in plain.recipe.policy).toBe(false);
  });
});
