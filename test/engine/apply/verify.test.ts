/**
 * The applier's read-backs against the emulator: a refused move or library-status edit is confirmed
 * when a read shows it done; delete_playlist (undo plans) verified by the playlist being gone; and a
 * churn sync reads its target once, its drift baseline worked out from what the run already knew.
 */
import { afterEach, describe, expect, it } from "vitest";
import { loggedRequests } from "../../../emulator/request-log.js";
import { applyPlan } from "../../../engine/apply/apply.js";
import type { EngineClient } from "../../../engine/apply/client.js";
import { libraryShows } from "../../../engine/apply/handlers/library-status.js";
import type { Plan } from "../../../engine/plan/types.js";
import { planRecipe, syncRecipe } from "../../../engine/run/runner.js";
import { makeItem } from "../../../engine/sources/item.js";
import { detectDrift } from "../../../engine/status/drift.js";
import { ServiceError } from "../../../src/index.js";
import {
  catalogueSongs,
  type Harness,
  playlistRows,
  recipe,
  startHarness,
} from "../../support/sync-harness.js";

let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

const playlistYaml = (ids: readonly string[], batch = 100) => `apiVersion: musicsync/v1
kind: Recipe
id: order
sources:
  - { id: list, type: static, videoIds: [${ids.join(", ")}] }
target:
  type: playlist
  playlist: { title: "Order", privacy: PRIVATE }
mode: mirror
policy: { batch_size: ${batch}, max_removals: 1000 }
`;

const libraryYaml = (sources: string, mode: string) => `apiVersion: musicsync/v1
kind: Recipe
id: shelf
sources:
${sources}
target: { type: library, kind: songs }
mode: ${mode}
policy: { max_removals: 1000 }
`;

type Method = "editPlaylist" | "editSongLibraryStatus";

/**
 * The write happens (the person makes the very same change first), then the engine's own request is
 * refused with HTTP 200 and a failed status: only a read-back can tell that it is done.
 */
function doneThenRefused(harness: Harness, method: Method, endpoint: string) {
  return (c: EngineClient): EngineClient =>
    new Proxy(c, {
      get(target, name, receiver) {
        const real = Reflect.get(target, name, receiver) as (...a: unknown[]) => Promise<unknown>;
        if (name !== method) return typeof real === "function" ? real.bind(target) : real;
        return async (...args: unknown[]) => {
          const person = harness.person[method] as (...a: unknown[]) => Promise<unknown>;
          await person.apply(harness.person, args);
          await harness.faults({ queue: [{ kind: "failed-status", endpoint }] });
          return real.apply(target, args);
        };
      },
    });
}

describe("a refused move", () => {
  it("is confirmed when the playlist read back shows the order the moves meant", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 8);
    await syncRecipe(recipe(h.project, playlistYaml(songs)), h.env());
    const env = h.env({ wrap: doneThenRefused(h, "editPlaylist", "browse/edit_playlist") });
    const reversed = [...songs].reverse();
    const run = await syncRecipe(recipe(h.project, playlistYaml(reversed)), env);
    expect(run.plan!.actions.map((a) => a.kind)).toEqual(["move_playlist_items"]);
    expect(run.outcome, run.error ?? "").toBe("converged");
    expect(run.apply!.outcomes[0]).toMatchObject({ kind: "move_playlist_items", status: "confirmed" });
    expect((await playlistRows(h, run.apply!.playlistId!)).map((r) => r.videoId)).toEqual(reversed);
  });

  it("is not confirmed when the read shows another order", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 6);
    await syncRecipe(recipe(h.project, playlistYaml(songs)), env);
    await h.faults({ queue: [{ kind: "failed-status", endpoint: "browse/edit_playlist" }] });
    const run = await syncRecipe(recipe(h.project, playlistYaml([...songs].reverse())), env);
    expect(run.outcome).toBe("partial");
    expect(run.apply!.outcomes[0]).toMatchObject({ kind: "move_playlist_items", status: "failed" });
  });
});

describe("a refused library-status edit", () => {
  it("adding: confirmed when the library read back holds the songs", async () => {
    h = await startHarness();
    const env = h.env({ wrap: doneThenRefused(h, "editSongLibraryStatus", "feedback") });
    const loaded = recipe(
      h.project,
      libraryYaml(
        "  - { id: played, type: history, limit: 10 }\npipeline:\n  - filter: { available: true }",
        "append",
      ),
    );
    const run = await syncRecipe(loaded, env);
    const kinds = run.plan!.actions.map((a) => a.kind);
    expect(kinds.length).toBeGreaterThan(0);
    expect(new Set(kinds)).toEqual(new Set(["edit_song_library_status"]));
    expect(run.outcome, run.error ?? "").toBe("converged");
    expect(run.apply!.outcomes.every((o) => o.status === "confirmed")).toBe(true);
    expect((await planRecipe(loaded, h.env())).plan.actions).toEqual([]);
  });

  it("adding: not confirmed when the songs are not in the library", async () => {
    h = await startHarness();
    const env = h.env();
    const loaded = recipe(
      h.project,
      libraryYaml(
        "  - { id: played, type: history, limit: 10 }\npipeline:\n  - filter: { available: true }",
        "append",
      ),
    );
    await h.faults({ queue: [{ kind: "failed-status", endpoint: "feedback", count: 20 }] });
    const run = await syncRecipe(loaded, env);
    expect(run.outcome).toBe("partial");
    expect(run.apply!.outcomes.every((o) => o.status === "failed")).toBe(true);
  });

  it("removing: confirmed when the library read back no longer holds the songs", async () => {
    h = await startHarness();
    const before = await h.person.getLibrarySongs({ limit: null });
    expect(before.length).toBeGreaterThan(3);
    const env = h.env({ wrap: doneThenRefused(h, "editSongLibraryStatus", "feedback") });
    // The library less its last two songs: a plan of removals only.
    const keep = before.length - 2;
    const loaded = recipe(
      h.project,
      libraryYaml(`  - { id: mine, type: library, kind: songs }\npipeline:\n  - limit: ${keep}`, "mirror"),
    );
    const run = await syncRecipe(loaded, env);
    expect(run.plan!.actions.map((a) => a.kind)).toEqual(["edit_song_library_status"]);
    expect(run.plan!.summary.remove).toBe(2);
    expect(run.outcome, run.error ?? "").toBe("converged");
    expect(await h.person.getLibrarySongs({ limit: null })).toHaveLength(keep);
  });

  // The library less its last two songs, plus songs played lately: adds and removals in one plan.
  const mixedYaml = (keep: number) =>
    libraryYaml(
      `  - { id: mine, type: library, kind: songs, limit: ${keep} }
  - { id: played, type: history, limit: 10 }
pipeline:
  - combine: { op: union, sources: [mine, played] }
  - filter: { available: true }`,
      "mirror",
    );

  it("removing, in a plan that also adds: a removal that happened is confirmed", async () => {
    h = await startHarness();
    const before = await h.person.getLibrarySongs({ limit: null });
    const env = h.env({ wrap: doneThenRefused(h, "editSongLibraryStatus", "feedback") });
    const run = await syncRecipe(recipe(h.project, mixedYaml(before.length - 2)), env);
    const removal = run.plan!.actions.findIndex(
      (a) => a.kind === "edit_song_library_status" && a.direction === "remove",
    );
    expect(removal).toBeGreaterThanOrEqual(0);
    expect(run.plan!.summary.add).toBeGreaterThan(0);
    expect(run.outcome, run.error ?? "").toBe("converged");
    expect(run.apply!.outcomes[removal]).toMatchObject({ status: "confirmed" });
    const now = new Set((await h.person.getLibrarySongs({ limit: null })).map((s) => s.videoId));
    for (const l of run.plan!.lines.filter((x) => x.op === "remove")) expect(now.has(l.videoId)).toBe(false);
  });

  it("removing, in a plan that also adds: a removal that did not happen is not confirmed", async () => {
    h = await startHarness();
    const before = await h.person.getLibrarySongs({ limit: null });
    const env = h.env();
    await h.faults({ queue: [{ kind: "failed-status", endpoint: "feedback", count: 50 }] });
    const run = await syncRecipe(recipe(h.project, mixedYaml(before.length - 2)), env);
    const removal = run.plan!.actions.findIndex(
      (a) => a.kind === "edit_song_library_status" && a.direction === "remove",
    );
    expect(removal).toBeGreaterThanOrEqual(0);
    expect(run.outcome).toBe("partial");
    expect(run.apply!.outcomes[removal]).toMatchObject({ status: "failed" });
    expect(await h.person.getLibrarySongs({ limit: null })).toHaveLength(before.length);
  });
});

describe("libraryShows (the read-back rule)", () => {
  const song = (videoId: string, add: string, remove: string) =>
    makeItem({ videoId, source: "target", rank: 1, feedbackTokens: { add, remove } });
  const removalsPlan = {
    lines: [{ op: "remove", key: "s1", label: "s1", videoId: "s1", source: null, rank: null, reason: null }],
  } as unknown as Plan;

  it("a removal naming its song: not done while the library still lists that song", () => {
    // The library lists the song with a token other than the one the plan sent: the old rule,
    // by tokens alone, took the removal for done.
    const rows = [song("s1", "add-new", "remove-new")];
    const tokensOnly = { kind: "edit_song_library_status" as const, feedbackTokens: ["remove-old"] };
    expect(libraryShows(rows, tokensOnly, removalsPlan)).toBe(true);
    expect(libraryShows(rows, { ...tokensOnly, videoIds: ["s1"], direction: "remove" }, removalsPlan)).toBe(
      false,
    );
    expect(libraryShows([], { ...tokensOnly, videoIds: ["s1"], direction: "remove" }, removalsPlan)).toBe(
      true,
    );
  });

  it("an add naming its songs: done only when every song is in; none in is an add not done, whatever the lines say", () => {
    const add = {
      kind: "edit_song_library_status" as const,
      feedbackTokens: ["a1", "a2"],
      videoIds: ["s1", "s2"],
      direction: "add" as const,
    };
    expect(libraryShows([], add, removalsPlan)).toBe(false);
    expect(libraryShows([song("s1", "a1", "r1")], add, removalsPlan)).toBe(false);
    expect(libraryShows([song("s1", "a1", "r1"), song("s2", "a2", "r2")], add, removalsPlan)).toBe(true);
  });
});

describe("delete_playlist (undo plans)", () => {
  async function created(harness: Harness) {
    const env = harness.env();
    const songs = catalogueSongs(harness, 3);
    const run = await syncRecipe(recipe(harness.project, playlistYaml(songs)), env);
    const pid = run.apply!.playlistId!;
    const plan: Plan = {
      ...run.plan!,
      target: { ...run.plan!.target, playlistId: pid, exists: true },
      actions: [{ kind: "delete_playlist", playlistId: pid }],
      tombstones: [],
    };
    const runId = await env.state.startRun({
      recipeId: "order",
      account: "default",
      kind: "undo",
      recipeHash: plan.recipe.hash,
      at: env.clock.now(),
    });
    const apply = () =>
      applyPlan(plan, {
        client: env.clientFor("default"),
        state: env.state,
        pacer: env.pacerFor("default"),
        clock: env.clock,
        runId,
        logger: env.logger,
      });
    return { env, pid, runId, apply };
  }

  const gone = async (harness: Harness, pid: string) =>
    harness.person.getPlaylist(pid, { limit: 0 }).then(
      () => false,
      (e: unknown) => e instanceof ServiceError && e.status === 404,
    );

  it("deletes the playlist, verifies it is gone, journals it and forgets the playlist", async () => {
    h = await startHarness();
    const { env, pid, runId, apply } = await created(h);
    expect((await env.state.ownedPlaylist("default", "order"))?.playlistId).toBe(pid);
    const result = await apply();
    expect(result).toMatchObject({ result: "converged", quarantined: [] });
    expect(result.outcomes).toEqual([
      { seq: 1, kind: "delete_playlist", status: "confirmed", requests: 1, error: null },
    ]);
    expect(await gone(h, pid)).toBe(true);
    expect(await env.state.ownedPlaylist("default", "order")).toBeNull();
    const journal = await env.state.journal(runId);
    expect(journal.map((j) => [j.kind, j.status, j.payload])).toEqual([
      ["delete_playlist", "confirmed", { kind: "delete_playlist", playlistId: pid }],
    ]);
  });

  it("a refused delete of a playlist still there fails and keeps it owned", async () => {
    h = await startHarness();
    const { env, pid, apply } = await created(h);
    await h.faults({ queue: [{ kind: "failed-status", endpoint: "playlist/delete" }] });
    const result = await apply();
    expect(result.result).toBe("partial");
    expect(result.outcomes[0]).toMatchObject({ kind: "delete_playlist", status: "failed" });
    expect(await gone(h, pid)).toBe(false);
    expect((await env.state.ownedPlaylist("default", "order"))?.playlistId).toBe(pid);
  });

  it("a delete refused because the person deleted it first is confirmed by the read", async () => {
    h = await startHarness();
    const { env, pid, apply } = await created(h);
    await h.person.deletePlaylist(pid);
    const result = await apply();
    expect(result.outcomes[0]).toMatchObject({ kind: "delete_playlist", status: "confirmed" });
    expect(await env.state.ownedPlaylist("default", "order")).toBeNull();
  });
});

describe("a churn sync", () => {
  /** Read requests (browse) the emulator answered since `seq`. */
  const reads = (harness: Harness, since: number) =>
    loggedRequests(harness.emulator.state, since).filter((r) => r.endpoint === "browse").length;
  const lastSeq = (harness: Harness) => loggedRequests(harness.emulator.state).at(-1)?.seq ?? 0;

  it("reads its target once, and its drift baseline is what a read would have saved", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 60);
    await syncRecipe(recipe(h.project, playlistYaml(songs.slice(0, 40), 10)), env);
    // Churn: every fifth song replaced by a new one, and the first ten reversed.
    const next = songs.slice(0, 40).map((id, i) => (i % 5 === 2 ? songs[40 + (i - 2) / 5]! : id));
    next.splice(0, 10, ...next.slice(0, 10).reverse());
    const loaded = recipe(h.project, playlistYaml(next, 10));

    let seq = lastSeq(h);
    await planRecipe(loaded, env);
    const oneRead = reads(h, seq);
    expect(oneRead).toBeGreaterThan(0);

    seq = lastSeq(h);
    const run = await syncRecipe(loaded, env);
    expect(run.outcome, run.error ?? "").toBe("converged");
    const kinds = new Set(run.plan!.actions.map((a) => a.kind));
    expect(kinds).toEqual(new Set(["remove_playlist_items", "add_playlist_items", "move_playlist_items"]));
    expect(reads(h, seq)).toBe(oneRead);

    const pid = run.apply!.playlistId!;
    const rows = await playlistRows(h, pid);
    expect(rows.map((r) => r.videoId)).toEqual(next);
    const snapshot = await env.state.snapshot("default", `playlist/${pid}`);
    expect(snapshot?.rows).toEqual(rows.map((r) => ({ key: r.videoId, setVideoId: r.setVideoId })));
    expect(snapshot?.fingerprint).toBe((await planRecipe(loaded, env)).plan.target.fingerprint);
    expect(snapshot?.meta).toMatchObject({ playlistId: pid, title: "Order", privacy: "PRIVATE" });

    const client = env.clientFor("default");
    expect((await detectDrift(loaded, env.state, client)).drifted).toBe(false);
    await h.person.editPlaylist(pid, { moveItem: [rows[5]!.setVideoId, rows[0]!.setVideoId] });
    const drift = await detectDrift(loaded, env.state, client);
    expect(drift.changes.map((c) => c.kind)).toEqual(["order_changed"]);
  });
});
