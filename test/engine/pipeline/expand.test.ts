/**
 * `expand: artists | albums`: "follow the artists of this playlist" and "save these
 * albums" against the emulator, the step's skip reasons, and the validate warning for a recipe
 * whose items cannot go into its target.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineClient } from "../../../engine/apply/client.js";
import { expand } from "../../../engine/pipeline/expand.js";
import type { Plan } from "../../../engine/plan/types.js";
import { formatIssue } from "../../../engine/recipe/errors.js";
import { loadRecipeText } from "../../../engine/recipe/load.js";
import { planRecipe } from "../../../engine/run/runner.js";
import { makeItem } from "../../../engine/sources/item.js";
import { catalogueSongs, converge, type Harness, recipe, startHarness } from "../../support/sync-harness.js";

const yaml = (id: string, body: string) => `apiVersion: musicsync/v1\nkind: Recipe\nid: ${id}\n${body}`;

function unique(ids: readonly (string | null | undefined)[]): string[] {
  return [...new Set(ids.filter((i): i is string => !!i))];
}

const adds = (plan: Plan) => plan.lines.filter((l) => l.op === "add").map((l) => l.key);
const skips = (plan: Plan) => plan.lines.filter((l) => l.op === "skip").map((l) => l.reason);

describe("the expand step", () => {
  const track = (rank: number, artists: [string, string | null][], album: string | null) =>
    makeItem({
      source: "pl",
      rank,
      videoId: `v${rank}`.padEnd(11, "x"),
      title: `Song ${rank}`,
      artists: artists.map(([name, id]) => ({ name, id })),
      album: album ? { name: `Album ${album}`, id: album } : null,
    });
  const items = [
    track(1, [["A", "UCa"]], "MPREa"),
    track(
      2,
      [
        ["B", "UCb"],
        ["A", "UCa"],
      ],
      "MPREb",
    ),
    track(3, [["A", "UCa"]], "MPREa"),
    track(4, [["Someone", null]], null),
    track(5, [["C", "UCc"]], "MPREc"),
  ];

  it("artists: each once, in order of first appearance; tracks naming none new are skipped", () => {
    const r = expand(items, "artists");
    expect(r.items.map((i) => [i.kind, i.browseId, i.title, i.source, i.rank])).toEqual([
      ["artist", "UCa", "A", "pl", 1],
      ["artist", "UCb", "B", "pl", 2],
      ["artist", "UCc", "C", "pl", 5],
    ]);
    expect(r.skipped.map((s) => [s.item.rank, s.reason])).toEqual([
      [3, "artist already listed (#1 of pl)"],
      [4, "no artist id"],
    ]);
  });

  it("albums: each once, known by its page; tracks without an album id are skipped", () => {
    const r = expand(items, "albums");
    expect(r.items.map((i) => [i.kind, i.browseId, i.playlistId, i.title, i.rank])).toEqual([
      ["album", "MPREa", null, "Album MPREa", 1],
      ["album", "MPREb", null, "Album MPREb", 2],
      ["album", "MPREc", null, "Album MPREc", 5],
    ]);
    expect(r.skipped.map((s) => [s.item.rank, s.reason])).toEqual([
      [3, "album already listed (#1 of pl)"],
      [4, "no album id"],
    ]);
  });

  it("artists and albums pass through; episodes name neither", () => {
    const artist = makeItem({ kind: "artist", browseId: "UCa", title: "A", source: "s", rank: 1 });
    const episode = makeItem({ kind: "episode", videoId: "e".repeat(11), source: "s", rank: 2 });
    const r = expand([artist, episode, items[0]!], "artists");
    expect(r.items).toEqual([artist]);
    expect(r.skipped.map((s) => s.reason)).toEqual([
      "a episode names no artists",
      "artist already listed (#1 of s)",
    ]);
  });
});

describe("expand against the emulator", () => {
  let h: Harness;
  let env: ReturnType<Harness["env"]>;
  /** The person's playlist of catalogue songs (with albums), and its rows as the service lists them. */
  let playlistId: string;
  let tracks: Awaited<ReturnType<Harness["person"]["getPlaylist"]>>["tracks"];

  beforeAll(async () => {
    h = await startHarness({ catalogueSize: 300 });
    env = h.env();
    playlistId = (await h.person.createPlaylist("To follow", "", {
      videoIds: catalogueSongs(h, 40),
    })) as string;
    tracks = (await h.person.getPlaylist(playlistId, { limit: null })).tracks;
  });
  afterAll(async () => {
    await h?.stop();
  });

  /** A recipe expanding the person's playlist (and any further sources) into a target. */
  const expanding = (id: string, step: string, target: string, moreSources = "") =>
    recipe(
      h.project,
      yaml(
        id,
        `sources:\n  - { id: pl, type: playlist, playlistId: ${playlistId} }\n${moreSources}pipeline:\n  - expand: ${step}\ntarget: ${target}\n`,
      ),
    );

  it("follows the artists of a playlist: each subscribed once, in order of first appearance", async () => {
    const artists = unique(tracks.flatMap((t) => (t.artists ?? []).map((a) => a.id)));
    // The playlist names some artists more than once, so deduplication is exercised.
    expect(artists.length).toBeLessThan(tracks.flatMap((t) => t.artists ?? []).length);
    const before = new Set((await h.person.getLibrarySubscriptions({ limit: null })).map((s) => s.browseId));
    const fresh = artists.filter((a) => !before.has(a));
    expect(fresh.length).toBeGreaterThan(0);

    const follow = expanding("follow", "artists", "{ type: subscriptions }");
    const { run, writes } = await converge(h, env, follow);
    const plan = run.plan!;
    expect(adds(plan)).toEqual(fresh);
    expect(plan.actions.flatMap((a) => (a.kind === "subscribe_artists" ? a.channelIds : []))).toEqual(fresh);
    expect(writes).toBe(fresh.length);
    const after = (await h.person.getLibrarySubscriptions({ limit: null })).map((s) => s.browseId);
    for (const a of artists) expect(after).toContain(a);

    const again = await converge(h, env, follow, ["no_changes"]);
    expect(again.writes).toBe(0);
    expect(adds(again.run.plan!)).toEqual([]);
  });

  it("saves the albums of a playlist to the library; a re-run reads no album page and writes nothing", async () => {
    const albumOf = (t: (typeof tracks)[number]) => (typeof t.album === "object" ? t.album?.id : null);
    const pages = unique(tracks.map(albumOf));
    expect(pages.length).toBeLessThan(tracks.length);
    const playlists = [];
    for (const page of pages) playlists.push((await h.person.getAlbum(page)).audioPlaylistId!);
    const before = new Set((await h.person.getLibraryAlbums({ limit: null })).map((a) => a.playlistId));
    const fresh = playlists.filter((p) => !before.has(p));
    expect(fresh.length).toBeGreaterThan(0);

    const save = expanding("save-albums", "albums", "{ type: library, kind: albums }");
    const { run, writes } = await converge(h, env, save);
    expect(adds(run.plan!)).toEqual(fresh);
    expect(writes).toBe(fresh.length);
    const after = (await h.person.getLibraryAlbums({ limit: null })).map((a) => a.playlistId);
    for (const p of playlists) expect(after).toContain(p);

    let albumReads = 0;
    const counting = (c: EngineClient): EngineClient =>
      new Proxy(c, {
        get(target, name, receiver) {
          const value = Reflect.get(target, name, receiver);
          if (typeof value !== "function") return value;
          if (name === "getAlbum") albumReads++;
          return value.bind(target);
        },
      });
    const again = await converge(h, h.env({ wrap: counting }), save, ["no_changes"]);
    expect(again.writes).toBe(0);
    expect(albumReads).toBe(0);
  });

  it("tracks without an artist id or an album id are skipped with the reason", async () => {
    // A static source names only video ids: its rows carry no artist and no album.
    const [bare] = catalogueSongs(h, 41).slice(40);
    const bareSource = `  - { id: bare, type: static, videoIds: [${bare}] }\n`;
    const follow = expanding("bare-artists", "artists", "{ type: subscriptions }", bareSource);
    const artists = (await planRecipe(follow, env)).plan;
    expect(skips(artists)).toContain("no artist id");
    const save = expanding("bare-albums", "albums", "{ type: library, kind: albums }", bareSource);
    const albums = (await planRecipe(save, env)).plan;
    expect(skips(albums)).toContain("no album id");
  });
});

describe("validate: items that cannot go into the target", () => {
  const follow = (pipeline: string) =>
    yaml(
      "follow",
      `sources:\n  - { id: pl, type: playlist, playlistId: PLx }\n${pipeline}target: { type: subscriptions }\n`,
    );

  it("warns (with file:line:col) about tracks into subscriptions, and the recipe still loads", () => {
    const r = loadRecipeText("follow.yaml", follow(""));
    expect(r.issues).toEqual([]);
    expect(r.recipes).toHaveLength(1);
    expect(r.warnings.map(formatIssue)).toEqual([
      'follow.yaml:5:5 warning: sources[0]: source "pl" gives tracks, which cannot go in subscriptions (add the pipeline step "expand: artists")',
    ]);
  });

  it("says nothing once the recipe expands to artists, and names a wrong expand", () => {
    expect(loadRecipeText("f.yaml", follow("pipeline:\n  - expand: artists\n")).warnings).toEqual([]);
    const wrong = loadRecipeText("f.yaml", follow("pipeline:\n  - expand: albums\n")).warnings;
    expect(wrong.map((w) => [w.severity, w.message])).toEqual([
      [
        "warning",
        'sources[0]: source "pl" gives tracks, expanded to albums, which cannot go in subscriptions',
      ],
    ]);
  });

  it("tracks into library albums suggest expand: albums; a chart of artists into subscriptions fits", () => {
    const albums = loadRecipeText(
      "a.yaml",
      yaml(
        "a",
        "sources:\n  - { id: pl, type: playlist, playlistId: PLx }\ntarget: { type: library, kind: albums }\n",
      ),
    );
    expect(albums.warnings[0]?.message).toMatch(
      /cannot go in library albums \(add the pipeline step "expand: albums"\)/,
    );
    const chart = loadRecipeText(
      "c.yaml",
      yaml(
        "c",
        "sources:\n  - { id: top, type: chart, section: artists }\ntarget: { type: subscriptions }\n",
      ),
    );
    expect(chart.warnings).toEqual([]);
  });
});
