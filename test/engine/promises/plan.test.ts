/**
 * No second playlist from a title the service trims or from a library read
 * cut short, and no mirror emptied by a source read cut short that carries no item count.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { plan } from "../../../engine/plan/plan.js";
import { planSources, shrinkMessage, sourceKey } from "../../../engine/plan/shrinkage.js";
import type { ActualTarget, Desired, Owned, PlanPolicy, SourceSize } from "../../../engine/plan/types.js";
import { DEFAULT_POLICY } from "../../../engine/recipe/defaults.js";
import { formatIssue } from "../../../engine/recipe/errors.js";
import { loadRecipeText } from "../../../engine/recipe/load.js";
import { sameTitle, serviceTitle, titleProblem } from "../../../engine/recipe/service-text.js";
import type { TargetSpec } from "../../../engine/recipe/types.js";
import { renderPlansJson } from "../../../engine/render/json.js";
import { renderPlansMarkdown } from "../../../engine/render/markdown.js";
import { renderPlanText } from "../../../engine/render/text.js";
import { planRecipe, syncRecipe } from "../../../engine/run/runner.js";
import type { PlaylistCardResult, PlaylistResult, SourceClient } from "../../../engine/sources/reader.js";
import { markerCandidates, readTarget } from "../../../engine/targets/read.js";
import {
  catalogueSongs,
  type Harness,
  playlistRows,
  playlistsTitled,
  recipe,
  startHarness,
} from "../../support/sync-harness.js";
import { list, rows } from "../support/fixtures.js";

let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

const staticPlaylist = (id: string, title: string, ids: readonly string[]) => `apiVersion: musicsync/v1
kind: Recipe
id: ${id}
sources:
  - { id: list, type: static, videoIds: [${ids.join(", ")}] }
target:
  type: playlist
  playlist: { title: "${title}", description: "made by a recipe", privacy: PRIVATE }
mode: sync
`;

describe("titles as the service keeps them", () => {
  // docs/ENGINE.md#titles
  it("compares titles trimmed, as the service stores them, and keeps inner spaces", () => {
    expect(serviceTitle("  Road  trip \u00a0\n")).toBe("Road  trip");
    expect(sameTitle("Road trip ", "Road trip")).toBe(true);
    expect(sameTitle("Road  trip", "Road trip")).toBe(false);
    expect(sameTitle(null, "Road trip")).toBe(false);
  });

  // docs/ENGINE.md#titles
  it("refuses empty, white-space-only, NBSP-only and control-character titles at validate with file:line:col", () => {
    expect(titleProblem("Mix")).toBeNull();
    const titles = ['"   "', '"\\u00A0\\u00A0"', '"\\u200B "', '"Mix\\u0000"', '"two\\nlines"'];
    for (const title of titles) {
      const yaml = `apiVersion: musicsync/v1
kind: Recipe
id: bad-title
sources:
  - { id: s, type: static, videoIds: [dQw4w9WgXcQ] }
target:
  type: playlist
  playlist: { title: ${title} }
`;
      const { recipes, issues } = loadRecipeText("bad.yaml", yaml);
      expect(recipes, title).toEqual([]);
      expect(issues.map(formatIssue), title).toEqual([
        expect.stringMatching(
          /^bad\.yaml:8:22 target\.playlist\.title: (holds only white space or invisible characters|holds a control character \(U\+)/,
        ),
      ]);
    }
  });

  // docs/ENGINE.md#titles
  it("stores a recipe's title and description trimmed", () => {
    const yaml = staticPlaylist("trimmed", "Road trip ", ["dQw4w9WgXcQ"]).replace(
      '"made by a recipe"',
      '"  notes \\n"',
    );
    const { recipes } = loadRecipeText("ok.yaml", yaml);
    const target = recipes[0]!.recipe.target as Extract<TargetSpec, { type: "playlist" }>;
    expect(target.playlist.title).toBe("Road trip");
    expect(target.playlist.description).toBe("notes");
  });

  // docs/ENGINE.md#titles
  it('sees two recipes titled "Mix" and " Mix " as writing one target', () => {
    const text = `${staticPlaylist("one", "Mix", ["dQw4w9WgXcQ"])}---\n${staticPlaylist("two", " Mix ", ["dQw4w9WgXcQ"])}`;
    const { recipes, issues } = loadRecipeText("two.yaml", text);
    expect(recipes).toEqual([]);
    expect(issues.map(formatIssue)).toEqual([
      expect.stringMatching(/^two\.yaml:\d+:\d+ target is already written by recipe "one"/),
    ]);
  });

  // docs/ENGINE.md#titles
  it("does not edit a title that differs only by surrounding white space", () => {
    const target: TargetSpec = {
      type: "playlist",
      playlist: { id: null, title: "Road trip ", description: null, privacy: null },
      allow_delete: false,
    };
    const desired: Desired = {
      recipe: { id: "r", hash: "h", account: "default", target },
      items: [],
      skipped: [],
      sourceTotal: 0,
      truncatedSources: [],
    };
    const actual: ActualTarget = {
      exists: true,
      playlistId: "PLr",
      title: "Road trip",
      description: "[musicsync:r]",
      privacy: "PRIVATE",
      rows: [],
      truncated: false,
    };
    const owned: Owned = { playlist: true, rows: new Set(), tombstones: new Set() };
    const p = plan(desired, actual, owned, { ...DEFAULT_POLICY, mode: "sync" });
    expect(p.actions).toEqual([]);
  });

  // docs/ENGINE.md#titles
  it("a title with surrounding white space converges, and a lost database finds the playlist again", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 3);
    const loaded = recipe(h.project, staticPlaylist("weekend", "Weekend drive ", songs));
    const first = await syncRecipe(loaded, h.env());
    expect(first.outcome, first.error ?? "").toBe("converged");
    // The service trimmed it; the engine's next plan agrees and edits nothing.
    expect(await playlistsTitled(h, "Weekend drive")).toEqual([first.apply!.playlistId]);
    expect((await planRecipe(loaded, h.env())).plan.actions).toEqual([]);
    // The state database is lost: the marker search finds the trimmed title, no second playlist.
    const fresh = h.env({ stateFile: join(h.dir, "lost.db") });
    const again = await syncRecipe(loaded, fresh);
    expect(again.plan!.actions.map((a) => a.kind)).toEqual([]);
    expect(await playlistsTitled(h, "Weekend drive")).toEqual([first.apply!.playlistId]);
  });
});

/** A library whose playlist list differs between reads, as when one read was cut short. */
function libraryClient(
  reads: PlaylistCardResult[][],
  playlists: Record<string, PlaylistResult>,
  opened: string[] = [],
): SourceClient {
  let n = 0;
  const client = {
    getLibraryPlaylists: async () => reads[Math.min(n++, reads.length - 1)]!,
    getPlaylist: async (id: string, o?: { limit?: number | null }) => {
      opened.push(`${id}:${o?.limit ?? "all"}`);
      return playlists[id] ?? { tracks: [] };
    },
  };
  return client as unknown as SourceClient;
}

describe("the marker search reads the whole library", () => {
  const target: TargetSpec = {
    type: "playlist",
    playlist: { id: null, title: "Weekly", description: null, privacy: null },
    allow_delete: false,
  };
  const others = Array.from({ length: 40 }, (_, i) => ({ title: `Mine ${i}`, playlistId: `PLmine${i}` }));
  const ours = { title: "Weekly", playlistId: "PLweekly" };
  const weekly: PlaylistResult = { title: "Weekly", description: "[musicsync:weekly]", tracks: [] };

  // docs/ENGINE.md#ownership
  it("refuses to conclude 'not there' when two full reads of the library differ", async () => {
    const client = libraryClient([others.slice(0, 13), others], {});
    await expect(readTarget(target, client, { recipeId: "weekly", ownedPlaylistId: null })).rejects.toThrow(
      /could not read the whole library to look for the playlist of recipe "weekly" \(two reads of it listed 13 and 40 playlists\); not creating one so as not to make a second/,
    );
  });

  // docs/ENGINE.md#ownership
  it("finds its playlist when only the second read lists it, and reports 'not there' when both agree", async () => {
    const cut = libraryClient([others.slice(0, 13), [...others, ours]], { PLweekly: weekly });
    const found = await readTarget(target, cut, { recipeId: "weekly", ownedPlaylistId: null });
    expect(found.foundBy).toBe("marker");
    expect(found.actual.playlistId).toBe("PLweekly");
    const whole = libraryClient([others, others], {});
    const none = await readTarget(target, whole, { recipeId: "weekly", ownedPlaylistId: null });
    expect(none.foundBy).toBe("none");
  });

  // docs/ENGINE.md#ownership
  it("after a lost database, 40 newer playlists and one truncated library read, makes no second playlist", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 3);
    const loaded = recipe(h.project, staticPlaylist("weekly", "Weekly", songs));
    const first = await syncRecipe(loaded, h.env());
    expect(first.outcome, first.error ?? "").toBe("converged");
    for (let i = 0; i < 40; i++) await h.person.createPlaylist(`Newer ${i}`, "the person's");
    const fresh = h.env({ stateFile: join(h.dir, "lost.db") });
    await h.faults({ queue: [{ kind: "truncate", endpoint: "browse" }] });
    const again = await syncRecipe(loaded, fresh);
    expect(again.plan!.actions.filter((a) => a.kind === "create_playlist")).toEqual([]);
    expect(await playlistsTitled(h, "Weekly")).toEqual([first.apply!.playlistId]);
  });

  // docs/ENGINE.md#ownership
  it("with no playlist yet and a truncated library read, fails with the reason and creates nothing", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 3);
    for (let i = 0; i < 40; i++) await h.person.createPlaylist(`Newer ${i}`, "the person's");
    const loaded = recipe(h.project, staticPlaylist("weekly", "Weekly", songs));
    const env = h.env();
    const before = await h.writes();
    await h.faults({ queue: [{ kind: "truncate", endpoint: "browse" }] });
    await expect(syncRecipe(loaded, env)).rejects.toThrow(
      /could not read the whole library .*not creating one so as not to make a second/,
    );
    expect(await h.writes()).toBe(before);
    expect(await playlistsTitled(h, "Weekly")).toEqual([]);
    // Read in full, the next run creates it, once.
    const next = await syncRecipe(loaded, env);
    expect(next.outcome, next.error ?? "").toBe("converged");
    expect(await playlistsTitled(h, "Weekly")).toHaveLength(1);
  });

  // docs/ENGINE.md#ownership
  it("opens the playlists titled like the recipe first, then the person's others, never auto playlists, mixes or others' playlists", () => {
    const cards: PlaylistCardResult[] = [
      { title: "Liked Music", playlistId: "LM", owned: false },
      { title: "Road songs", playlistId: "PLrenamed", owned: true },
      { title: "Deadly Hotlist", playlistId: "RDCLAK5uy_x", owned: false },
      { title: "Weekly", playlistId: "PLtitled", owned: true },
      { title: "Someone's", playlistId: "PLsaved", owned: false },
      { title: "Episodes for Later", playlistId: "SE", owned: false },
      { title: "New Episodes", playlistId: "RDPN", owned: false },
    ];
    expect(markerCandidates(cards, "Weekly")).toEqual([
      { id: "PLtitled", titled: true },
      { id: "PLrenamed", titled: false },
    ]);
  });

  // docs/ENGINE.md#ownership
  it("opens every playlist but the auto ones when the library rows do not say which are the person's", () => {
    const cards: PlaylistCardResult[] = [
      { title: "Liked Music", playlistId: "LM" },
      { title: "Road songs", playlistId: "PLrenamed", owned: false },
      { title: "Someone's", playlistId: "PLsaved" },
    ];
    expect(markerCandidates(cards, "Weekly").map((c) => c.id)).toEqual(["PLrenamed", "PLsaved"]);
  });

  // docs/ENGINE.md#ownership
  it("finds its playlist under another title, reading the others one page each", async () => {
    const opened: string[] = [];
    const cards: PlaylistCardResult[] = [
      { title: "Liked Music", playlistId: "LM", owned: false },
      { title: "Road songs", playlistId: "PLrenamed", owned: true },
      { title: "Weekly", playlistId: "PLtitled", owned: true },
    ];
    const renamed: PlaylistResult = { title: "Road songs", description: "[musicsync:weekly]", tracks: [] };
    const client = libraryClient([cards], { PLrenamed: renamed }, opened);
    const found = await readTarget(target, client, { recipeId: "weekly", ownedPlaylistId: null });
    expect(found.foundBy).toBe("marker");
    expect(found.actual.playlistId).toBe("PLrenamed");
    expect(found.actual.title).toBe("Road songs");
    expect(opened).toEqual(["PLtitled:all", "PLrenamed:1", "PLrenamed:all"]);
  });

  // docs/ENGINE.md#ownership
  it("after the person renamed its playlist and the database was lost, adopts it and titles it back: no second playlist", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 3);
    const loaded = recipe(h.project, staticPlaylist("weekly", "Weekly", songs));
    const first = await syncRecipe(loaded, h.env());
    expect(first.outcome, first.error ?? "").toBe("converged");
    const id = first.apply!.playlistId!;
    await h.person.createPlaylist("Other mix", "the person's own, no marker");
    await h.person.editPlaylist(id, { title: "Road songs" });
    const library = await h.person.getLibraryPlaylists({ limit: null });
    // The emulator's library rows say which playlists are the person's, as the service's do.
    expect(library.find((p) => p.playlistId === id)?.owned).toBe(true);
    const fresh = h.env({ stateFile: join(h.dir, "lost.db") });
    const planned = await planRecipe(loaded, fresh);
    expect(planned.plan.actions).toEqual([{ kind: "edit_playlist", playlistId: id, title: "Weekly" }]);
    const again = await syncRecipe(loaded, fresh);
    expect(again.outcome, again.error ?? "").toBe("converged");
    expect(await playlistsTitled(h, "Weekly")).toEqual([id]);
    expect(await playlistsTitled(h, "Road songs")).toEqual([]);
    expect((await playlistRows(h, id)).map((r) => r.videoId)).toEqual(songs);
    expect((await planRecipe(loaded, fresh)).plan.actions).toEqual([]);
  });
});

describe("a source read cut short without an item count", () => {
  const target: TargetSpec = {
    type: "playlist",
    playlist: { id: "PLx", title: null, description: null, privacy: null },
    allow_delete: false,
  };
  const policy = (extra: Partial<PlanPolicy> = {}): PlanPolicy => ({
    ...DEFAULT_POLICY,
    mode: "mirror",
    ...extra,
  });
  const size = (items: number, last: number | null, extra: Partial<SourceSize> = {}): SourceSize => ({
    id: "results",
    key: "results:abc",
    items,
    counted: false,
    truncated: false,
    last,
    ...extra,
  });
  const names = Array.from({ length: 60 }, (_, i) => `s${i}`);
  const planFor = (desiredNames: string[], sizes: SourceSize[], p = policy()) =>
    plan(
      {
        recipe: { id: "r", hash: "h", account: "default", target },
        items: list("results", desiredNames),
        skipped: [],
        sourceTotal: desiredNames.length,
        truncatedSources: [],
        sources: sizes,
      },
      {
        exists: true,
        playlistId: "PLx",
        title: null,
        description: null,
        privacy: null,
        rows: rows(names),
        truncated: false,
      },
      { playlist: true, rows: new Set(), tombstones: new Set() },
      p,
    );

  // docs/ENGINE.md#guards
  it("blocks removals when a source returns under half of its last complete read, and says why", () => {
    const p = planFor([...names.slice(0, 10), "new"], [size(11, 60)]);
    expect(p.guards).toEqual([
      {
        guard: "source_shrunk",
        message:
          "source read looks cut short: results returned 11 items, under 50% of its last complete read (60)",
        blocks: "removals",
      },
    ]);
    expect(p.summary.remove).toBe(0);
    // Adds still go ahead.
    expect(p.summary.add).toBe(1);
    expect(p.actions.map((a) => a.kind)).toContain("add_playlist_items");
    expect(p.lines.filter((l) => l.reason?.startsWith("removal blocked: source_shrunk"))).toHaveLength(50);
    // A suspicious read is not kept as the source's size.
    expect(p.sources).toEqual([{ ...size(11, 60), record: false }]);
    // Every rendering says why.
    expect(renderPlanText(p)).toContain(
      "! guard source_shrunk: source read looks cut short: results returned 11 items, under 50% of its last complete read (60) (removals held back)",
    );
    expect(renderPlansMarkdown([p])).toContain("**guard source_shrunk**: source read looks cut short");
    expect(JSON.parse(renderPlansJson([p])).plans[0].guards[0].guard).toBe("source_shrunk");
  });

  // docs/ENGINE.md#guards
  it("lets a small or expected change through: a drop under the floor, a counted read, ratio 0, no baseline", () => {
    // 8 → 4 is under half but only 4 items fewer (the floor is 5).
    expect(shrinkMessage([size(4, 8)], 0.5)).toBeNull();
    expect(shrinkMessage([size(30, 60)], 0.5)).toBeNull();
    expect(shrinkMessage([size(10, 60, { counted: true })], 0.5)).toBeNull();
    expect(shrinkMessage([size(10, 60)], 0)).toBeNull();
    expect(shrinkMessage([size(10, null)], 0.5)).toBeNull();
    const p = planFor(names.slice(0, 10), [size(10, 60)], policy({ min_source_ratio: 0 }));
    expect(p.summary.remove).toBe(50);
    expect(planSources([size(30, 60)], 0.5)).toEqual([{ ...size(30, 60), record: true }]);
  });

  // docs/ENGINE.md#guards
  it("keys a source's size on its options, so an edited source starts afresh", () => {
    const a = sourceKey({ id: "results", type: "search", query: "a", filter: "songs", limit: 60 } as never);
    const b = sourceKey({ id: "results", type: "search", query: "b", filter: "songs", limit: 60 } as never);
    expect(a).toMatch(/^results:/);
    expect(a).not.toBe(b);
  });

  // docs/ENGINE.md#guards
  it("one truncated search read does not empty a 60-item mirror; plans and dry runs record nothing", async () => {
    h = await startHarness();
    const yaml = `apiVersion: musicsync/v1
kind: Recipe
id: search-mirror
sources:
  - { id: results, type: search, query: "a", filter: songs, limit: 60 }
target:
  type: playlist
  playlist: { title: "Search mirror", privacy: PRIVATE }
mode: mirror
`;
    const loaded = recipe(h.project, yaml);
    const env = h.env();
    await planRecipe(loaded, env);
    await syncRecipe(loaded, env, { dryRun: true });
    expect(await env.state.sourceReads("search-mirror")).toEqual(new Map());
    const first = await syncRecipe(loaded, env);
    expect(first.outcome, first.error ?? "").toBe("converged");
    const playlistId = first.apply!.playlistId!;
    expect([...(await env.state.sourceReads("search-mirror")).values()]).toEqual([60]);
    const filled = await playlistRows(h, playlistId);
    expect(filled).toHaveLength(60);

    await h.faults({ queue: [{ kind: "truncate", endpoint: "search" }] });
    const cut = await syncRecipe(loaded, env);
    expect(cut.plan!.guards.map((g) => g.guard)).toEqual(["source_shrunk"]);
    expect(cut.plan!.guards[0]!.message).toMatch(/^source read looks cut short: results returned \d+ items/);
    expect(cut.plan!.summary.remove).toBe(0);
    const conditions = await env.state.conditions("search-mirror");
    expect(conditions.find((c) => c.type === "SourceComplete")).toMatchObject({
      status: "False",
      reason: "SourceTruncated",
    });
    expect(await playlistRows(h, playlistId)).toEqual(filled);
    // The cut read did not become the source's size: the baseline is still the complete read.
    expect([...(await env.state.sourceReads("search-mirror")).values()]).toEqual([60]);
    // A continuation answered with a feature-gate panel instead of its page fails the read (GATED):
    // the run fails, with the reason, and removes nothing.
    await h.faults({
      queue: [
        { kind: "slow", endpoint: "search", delayMs: 0, count: 1 },
        { kind: "gated", endpoint: "search" },
      ],
    });
    const gated = await syncRecipe(loaded, env).then(
      (run) => run.error ?? "",
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    expect(gated).toMatch(/search: the service answered with a feature-gate panel/);
    expect(await playlistRows(h, playlistId)).toEqual(filled);
    // Read in full again, nothing is left to do.
    expect((await planRecipe(loaded, env)).plan.actions).toEqual([]);
  });
});
