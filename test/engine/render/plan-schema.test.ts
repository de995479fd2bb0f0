/**
 * The saved plan's JSON Schema (engine/render/plan-schema.ts): real plans of every target type and
 * mode pass it, and `apply` refuses a damaged plan file with the JSON path of the bad field before
 * it sends anything (docs/ENGINE.md#bad-input).
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { plan } from "../../../engine/plan/plan.js";
import type { ActualTarget, Desired, Owned, Plan, PlanPolicy } from "../../../engine/plan/types.js";
import { DEFAULT_POLICY } from "../../../engine/recipe/defaults.js";
import { MODES, type Mode, type TargetSpec } from "../../../engine/recipe/types.js";
import { PlanFormatError, parsePlansJson, renderPlansJson } from "../../../engine/render/json.js";
import { planDocumentProblem } from "../../../engine/render/plan-schema.js";
import type { Item } from "../../../engine/sources/item.js";
import { musicsync, writeRecipes } from "../../support/daemon-harness.js";
import { catalogueSongs, type Harness, startHarness } from "../../support/sync-harness.js";
import { list, rows, track } from "../support/fixtures.js";

const TARGETS: TargetSpec[] = [
  {
    type: "playlist",
    playlist: { id: "PLx", title: null, description: null, privacy: null },
    allow_delete: false,
  },
  {
    type: "playlist",
    playlist: { id: null, title: "New", description: "made here", privacy: "PRIVATE" },
    allow_delete: true,
  },
  {
    type: "playlist",
    playlist: { id: "PLx", title: "Renamed", description: null, privacy: "UNLISTED" },
    allow_delete: false,
  },
  { type: "likes", rating: "LIKE" },
  { type: "likes", rating: "DISLIKE" },
  { type: "library", kind: "songs" },
  { type: "library", kind: "albums" },
  { type: "library", kind: "playlists" },
  { type: "library", kind: "podcasts" },
  { type: "subscriptions" },
  { type: "saved_episodes" },
];

/** Source items and target rows that give each target type something to add, remove and skip. */
function itemsFor(target: TargetSpec): { want: Item[]; have: Item[] } {
  const tokens = (n: string) => ({ feedbackTokens: { add: `ADD_${n}`, remove: `RM_${n}` } });
  switch (target.type) {
    case "library":
      if (target.kind === "songs") {
        return {
          want: [track("a", { source: "s", rank: 1, ...tokens("a") }), track("b", { source: "s", rank: 2 })],
          have: rows(["c"], tokens("c")),
        };
      }
      {
        // Each library list holds its own kind of item, found by playlist id.
        const kind = ({ albums: "album", playlists: "playlist", podcasts: "podcast" } as const)[target.kind];
        const entry = (n: string, source: string) =>
          track(n, { kind, videoId: null, playlistId: `OLAK${n}`, source, rank: 1 });
        return {
          want: [entry("a", "s"), track("song", { source: "s", rank: 2 })],
          have: [entry("x", "target")],
        };
      }
    case "subscriptions": {
      const artist = (n: string, source: string) =>
        track(n, { kind: "artist", videoId: null, browseId: `UC${n}`, source, rank: 1 });
      return { want: [artist("a", "s"), artist("b", "s")], have: [artist("x", "target")] };
    }
    case "saved_episodes":
      return {
        want: list("s", ["a", "b", "c"], { kind: "episode" }),
        have: rows(["b", "a", "old"], { kind: "episode" }),
      };
    default:
      return { want: list("s", ["a", "b", "c", "a"]), have: rows(["c", "x", "b", "y"]) };
  }
}

function realPlan(target: TargetSpec, mode: Mode, extra: Partial<PlanPolicy> = {}, last?: number): Plan {
  const { want, have } = itemsFor(target);
  const creating = target.type === "playlist" && target.playlist.id === null;
  const desired: Desired = {
    recipe: { id: "r", hash: "h", account: "default", target },
    items: want,
    skipped: [],
    sourceTotal: want.length,
    truncatedSources: [],
    sources: [
      {
        id: "s",
        key: "s:1",
        items: want.length,
        counted: false,
        truncated: false,
        last: last ?? want.length,
      },
    ],
  };
  const actual: ActualTarget = {
    exists: !creating,
    playlistId: creating ? null : target.type === "playlist" ? "PLx" : null,
    title: creating ? null : "Old title",
    description: null,
    privacy: null,
    rows: creating ? [] : have,
    truncated: false,
  };
  const owned: Owned = {
    playlist: true,
    rows: new Set(have.slice(0, 1).map((r) => r.videoId ?? "")),
    tombstones: new Set(),
  };
  return plan(desired, actual, owned, { ...DEFAULT_POLICY, max_removals: 10_000, ...extra, mode });
}

describe("the plan document schema", () => {
  // docs/ENGINE.md#bad-input
  it("accepts real plans of every target type and mode, with guards, skips and creates", () => {
    const plans: Plan[] = [];
    for (const target of TARGETS) for (const mode of MODES) plans.push(realPlan(target, mode));
    // Guards and errors as the planner writes them.
    plans.push(realPlan(TARGETS[0]!, "mirror", { max_removals: 0 }));
    plans.push(realPlan(TARGETS[0]!, "mirror", { min_source_items: 100 }));
    plans.push(realPlan(TARGETS[0]!, "mirror", {}, 40));
    const kinds = new Set(plans.flatMap((p) => p.actions.map((a) => a.kind)));
    expect([...kinds].sort()).toEqual(
      [
        "add_playlist_items",
        "create_playlist",
        "edit_playlist",
        "edit_song_library_status",
        "move_playlist_items",
        "rate_playlist",
        "rate_song",
        "remove_playlist_items",
        "subscribe_artists",
        "unsubscribe_artists",
      ].sort(),
    );
    expect(plans.some((p) => p.guards.length > 0)).toBe(true);
    for (const p of plans) {
      const doc = JSON.parse(renderPlansJson([p]));
      expect(planDocumentProblem(doc), `${p.target.spec.type} ${p.mode}`).toBeNull();
    }
    // A document with the recipes that failed, as `plan -o` writes it.
    const withFailures = renderPlansJson(plans.slice(0, 2), 2, [
      { recipe: "broken", target: TARGETS[2]!, mode: "sync", error: "HTTP 404" },
      { recipe: "unloaded", target: null, mode: null, error: "cannot read" },
    ]);
    expect(() => parsePlansJson(withFailures)).not.toThrow();
  });

  const base = () => JSON.parse(renderPlansJson([realPlan(TARGETS[0]!, "mirror")]));
  // biome-ignore lint/suspicious/noExplicitAny: the cases damage a parsed document at will
  const cases: [string, (d: any) => void, string][] = [
    [
      "a video id that is a number",
      (d) => (d.plans[0].actions = [{ kind: "add_playlist_items", playlistId: "PLx", videoIds: [5] }]),
      "plans[0].actions[0].videoIds[0] must be string",
    ],
    [
      "an unknown action",
      (d) => (d.plans[0].actions[0].kind = "wipe_playlist"),
      'plans[0].actions[0].kind: unknown value "wipe_playlist"',
    ],
    [
      "a field no plan has",
      (d) => (d.plans[0].actions[0].extra = true),
      "plans[0].actions[0].extra is not a field of a plan",
    ],
    [
      "a missing fingerprint",
      (d) => delete d.plans[0].target.fingerprint,
      "plans[0].target.fingerprint is missing",
    ],
    [
      "an unknown target type",
      (d) => (d.plans[0].target.spec.type = "podcasts"),
      'plans[0].target.spec.type: unknown value "podcasts"',
    ],
    [
      "a bad rating",
      (d) => (d.plans[0].actions = [{ kind: "rate_song", videoId: "x", rating: "LOVE" }]),
      'plans[0].actions[0].rating must be one of: "LIKE", "DISLIKE", "INDIFFERENT"',
    ],
    ["a negative count", (d) => (d.plans[0].summary.add = -1), "plans[0].summary.add must be >= 0"],
    ["a line of no kind", (d) => (d.plans[0].lines[0].op = "explode"), "plans[0].lines[0].op must be one of"],
    ["an unknown mode", (d) => (d.plans[0].mode = "wipe"), "plans[0].mode must be one of"],
    [
      "tombstones that are not a list",
      (d) => (d.plans[0].tombstones = "all"),
      "plans[0].tombstones must be array",
    ],
    ["a plan of another version", (d) => (d.plans[0].version = 2), "plans[0].version must be 1"],
    ["an extra top-level field", (d) => (d.execute = "rm -rf /"), "execute is not a field of a plan"],
  ];

  // docs/ENGINE.md#bad-input
  it.each(cases)("refuses %s, naming the JSON path", (_label, damage, message) => {
    const doc = base();
    damage(doc);
    expect(() => parsePlansJson(JSON.stringify(doc))).toThrow(PlanFormatError);
    expect(() => parsePlansJson(JSON.stringify(doc))).toThrow(message);
  });

  it("loads a library edit saved before edits named their songs; checks the direction of one that does", () => {
    const doc = JSON.parse(renderPlansJson([realPlan({ type: "library", kind: "songs" }, "mirror")]));
    const edits = doc.plans[0].actions as { direction?: string; videoIds?: string[] }[];
    expect(edits.map((a) => a.direction).sort()).toEqual(["add", "remove"]);
    expect(() => parsePlansJson(JSON.stringify(doc))).not.toThrow();
    for (const a of edits) {
      delete a.direction;
      delete a.videoIds;
    }
    expect(() => parsePlansJson(JSON.stringify(doc))).not.toThrow();
    doc.plans[0].actions[0].direction = "sideways";
    expect(() => parsePlansJson(JSON.stringify(doc))).toThrow("plans[0].actions[0].direction must be one of");
  });
});

describe("musicsync apply of a damaged plan file", () => {
  let h: Harness | null = null;
  afterEach(async () => {
    await h?.stop();
    h = null;
  });

  // docs/ENGINE.md#bad-input
  it("refuses with the path of the bad field and sends nothing; the real plan passes the schema", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 6);
    await writeRecipes(h.dir, [{ id: "mine", ids: songs }]);
    const planFile = join(h.dir, "plan.json");
    expect((await musicsync(["plan", "-p", h.projectFile, "-o", planFile])).code).toBe(2);
    const doc = JSON.parse(await readFile(planFile, "utf8"));
    expect(planDocumentProblem(doc)).toBeNull();

    const damaged = join(h.dir, "damaged.json");
    const before = await h.writes();
    const create = doc.plans[0].actions.findIndex((a: { kind: string }) => a.kind === "create_playlist");
    expect(create).toBeGreaterThanOrEqual(0);
    doc.plans[0].actions[create].videoIds[1] = { $ne: null };
    await writeFile(damaged, JSON.stringify(doc));
    const r = await musicsync(["apply", damaged, "-p", h.projectFile]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`error: ${damaged}: plans[0].actions[${create}].videoIds[1] must be string`);
    expect(await h.writes()).toBe(before);
  });
});
