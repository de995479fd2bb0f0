/**
 * `musicsync undo` of library-songs and subscriptions runs against the emulator: songs and channels
 * the run added and removed go back exactly as they were, and an item the person changed since the
 * run is left alone, with a plan line that says so.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Plan } from "../../../engine/plan/types.js";
import { syncRecipe } from "../../../engine/run/runner.js";
import { applyUndo, prepareUndo } from "../../../engine/undo/index.js";
import { type Harness, recipe, startHarness } from "../../support/sync-harness.js";

const librarySongsYaml = (keep: number) => `apiVersion: musicsync/v1
kind: Recipe
id: shelf
sources:
  - { id: mine, type: library, kind: songs, limit: ${keep} }
  - { id: played, type: history, limit: 10 }
pipeline:
  - combine: { op: union, sources: [mine, played] }
  - filter: { available: true }
target: { type: library, kind: songs }
mode: mirror
policy: { max_removals: 1000, batch_size: 2 }
`;

const subscriptionsYaml = (keep: number) => `apiVersion: musicsync/v1
kind: Recipe
id: follow
sources:
  - { id: mine, type: library, kind: subscriptions, limit: ${keep} }
  - { id: top, type: chart, country: US, section: artists, limit: 4 }
pipeline:
  - combine: { op: union, sources: [mine, top] }
target: { type: subscriptions }
mode: mirror
policy: { max_removals: 1000 }
`;

const sorted = (ids: Iterable<string>) => [...ids].sort();
const keysOf = (plan: Plan, op: string) =>
  sorted(plan.lines.filter((l) => l.op === op).map((l) => l.key ?? ""));

describe("undo of library songs and subscriptions", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ catalogueSize: 300 });
  });
  afterAll(async () => {
    await h?.stop();
  });

  const library = async () => h.person.getLibrarySongs({ limit: null });
  const librarySet = async () => sorted((await library()).map((s) => s.videoId ?? ""));
  const subscriptions = async () =>
    sorted((await h.person.getLibrarySubscriptions({ limit: null })).map((s) => s.browseId ?? ""));
  const lastRun = async (env: ReturnType<Harness["env"]>, recipeId: string) =>
    (await env.state.recentRuns({ recipeId, limit: 1 }))[0]!.id;

  it("library songs: songs added and removed go back exactly; a song the person changed since is left alone", async () => {
    const env = h.env();
    const before = await library();
    const prior = await librarySet();
    expect(prior.length).toBeGreaterThan(4);
    const run = await syncRecipe(recipe(h.project, librarySongsYaml(before.length - 3)), env);
    expect(run.outcome, run.error ?? "").toBe("converged");
    const added = keysOf(run.plan!, "add");
    const removed = keysOf(run.plan!, "remove");
    expect(added.length).toBeGreaterThan(1);
    expect(removed.length).toBeGreaterThan(1);
    expect(await librarySet()).not.toEqual(prior);
    const runId = await lastRun(env, "shelf");

    // The person puts one removed song back and takes one added song out, by hand.
    const [putBack] = removed;
    const [takenOut] = added;
    await h.person.editSongLibraryStatus([before.find((s) => s.videoId === putBack)!.feedbackTokens!.add!]);
    const now = await library();
    await h.person.editSongLibraryStatus([now.find((s) => s.videoId === takenOut)!.feedbackTokens!.remove!]);

    const planned = await prepareUndo(runId, env);
    const lineOf = (v: string) => planned.plan.lines.find((l) => l.key === v);
    for (const v of [putBack!, takenOut!])
      expect(lineOf(v)).toMatchObject({
        op: "skip",
        reason: expect.stringMatching(/since run #\d+; left alone/),
      });
    expect(keysOf(planned.plan, "add")).toEqual(removed.filter((v) => v !== putBack));
    expect(keysOf(planned.plan, "remove")).toEqual(added.filter((v) => v !== takenOut));
    for (const a of planned.plan.actions) {
      expect(a.kind).toBe("edit_song_library_status");
      if (a.kind === "edit_song_library_status") {
        expect(a.direction).toMatch(/^(add|remove)$/);
        expect(a.videoIds).toHaveLength(a.feedbackTokens.length);
      }
    }
    const undone = await applyUndo(planned, env);
    expect(undone.outcome, undone.error ?? "").toBe("converged");
    expect(undone.apply!.outcomes.every((o) => o.status === "confirmed")).toBe(true);
    expect(await librarySet()).toEqual(prior);
  });

  it("subscriptions: channels subscribed and unsubscribed go back exactly; one the person changed since is left alone", async () => {
    const env = h.env();
    const prior = await subscriptions();
    expect(prior.length).toBeGreaterThan(3);
    const run = await syncRecipe(recipe(h.project, subscriptionsYaml(prior.length - 3)), env);
    expect(run.outcome, run.error ?? "").toBe("converged");
    const added = keysOf(run.plan!, "add");
    const removed = keysOf(run.plan!, "remove");
    expect(added.length).toBeGreaterThan(1);
    expect(removed.length).toBeGreaterThan(1);
    const runId = await lastRun(env, "follow");

    // The person subscribes again to one removed channel and unsubscribes from one added channel.
    const [back] = removed;
    const [dropped] = added;
    await h.person.subscribeArtists([back!]);
    await h.person.unsubscribeArtists([dropped!]);

    const planned = await prepareUndo(runId, env);
    const lineOf = (v: string) => planned.plan.lines.find((l) => l.key === v);
    for (const v of [back!, dropped!])
      expect(lineOf(v)).toMatchObject({
        op: "skip",
        reason: expect.stringMatching(/since run #\d+; left alone/),
      });
    expect(keysOf(planned.plan, "add")).toEqual(removed.filter((v) => v !== back));
    expect(keysOf(planned.plan, "remove")).toEqual(added.filter((v) => v !== dropped));
    const undone = await applyUndo(planned, env);
    expect(undone.outcome, undone.error ?? "").toBe("converged");
    expect(await subscriptions()).toEqual(prior);
  });

  it("an untouched library-songs run is undone to the set exactly (undoing the undo redoes it)", async () => {
    const env = h.env();
    const prior = await librarySet();
    const run = await syncRecipe(recipe(h.project, librarySongsYaml(prior.length - 2)), env);
    expect(run.outcome, run.error ?? "").toBe("converged");
    const after = await librarySet();
    const undone = await applyUndo(await prepareUndo(await lastRun(env, "shelf"), env), env);
    expect(undone.outcome, undone.error ?? "").toBe("converged");
    expect(await librarySet()).toEqual(prior);
    const redo = await applyUndo(await prepareUndo(await lastRun(env, "shelf"), env), env);
    expect(redo.outcome, redo.error ?? "").toBe("converged");
    expect(await librarySet()).toEqual(after);
  });
});
