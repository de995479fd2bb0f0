/**
 * docs/ENGINE.md#limits-of-the-service with the emulator's own faults: a playlist too fresh to edit
 * (409 for its first seconds), lists cut short (`truncate`), a refusal as HTTP 200 with a failed
 * status, and 409 on an intent that is already so.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { EngineClient } from "../../../engine/apply/client.js";
import { planRecipe, syncRecipe } from "../../../engine/run/runner.js";
import { ServiceError } from "../../../src/index.js";
import {
  catalogueSongs,
  converge,
  type Harness,
  mirrorOfPlaylist,
  playlistRows,
  recipe,
  startHarness,
  virtualClock,
} from "../../support/sync-harness.js";

let h: Harness | null = null;
afterEach(async () => {
  await h?.stop();
  h = null;
});

const playlistYaml = (id: string, ids: readonly string[], mode = "mirror", policy = "{ batch_size: 4 }") =>
  `apiVersion: musicsync/v1
kind: Recipe
id: ${id}
sources:
  - { id: list, type: static, videoIds: [${ids.join(", ")}] }
target:
  type: playlist
  playlist: { title: "${id}", privacy: PRIVATE }
mode: ${mode}
policy: ${policy}
`;

const likesYaml = (id: string, ids: readonly string[], rating: "LIKE" | "DISLIKE", mode: string) =>
  `apiVersion: musicsync/v1
kind: Recipe
id: ${id}
sources:
  - { id: s, type: static, videoIds: [${ids.join(", ")}] }
target: { type: likes, rating: ${rating} }
mode: ${mode}
`;

/** `count` songs of the catalogue the person has not liked. */
async function unlikedSongs(harness: Harness, count: number): Promise<string[]> {
  const liked = new Set((await harness.person.getLikedSongs({ limit: null })).tracks.map((t) => t.videoId));
  return catalogueSongs(harness, 80)
    .filter((v) => !liked.has(v))
    .slice(0, count);
}

/**
 * Queues emulator faults through its control endpoint; a kind the endpoint does not accept yet
 * (`truncate`: its list of kinds lacks it) goes into the same injector in-process.
 */
async function queueFaults(
  harness: Harness,
  queue: { kind: string; endpoint?: string; delayMs?: number; count?: number }[],
) {
  const r = await fetch(`${harness.emulator.url}/_emulator/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ queue }),
  });
  if (r.ok) return;
  harness.emulator.state.faults.enqueue(queue as Parameters<typeof harness.emulator.state.faults.enqueue>[0]);
}

describe("a freshly created playlist", () => {
  it("is waited for while it answers 409, then filled and ordered; no id is quarantined", async () => {
    const clock = virtualClock();
    h = await startHarness({ now: clock.now, recentPlaylistConflictMs: 20_000 });
    const env = h.env({ clock });
    const songs = catalogueSongs(h, 12);
    const loaded = recipe(h.project, playlistYaml("fresh", songs));
    const before = await h.writes();
    const run = await syncRecipe(loaded, env);
    expect(run.outcome, run.error ?? "").toBe("converged");
    // Each wait is followed by one more attempt of the refused request, and nothing else is sent.
    expect(await h.writes()).toBe(before + run.plan!.summary.requests + clock.slept.length);
    expect((await planRecipe(loaded, env)).plan.actions).toEqual([]);
    expect(run.apply!.quarantined).toEqual([]);
    expect(run.apply!.outcomes.every((o) => o.status === "confirmed")).toBe(true);
    // The first add after the create waited out the service's 20 s, in growing steps.
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(20_000);
    expect((await playlistRows(h, run.apply!.playlistId!)).map((r) => r.videoId)).toEqual(songs);
  });
});

describe("lists cut short (the emulator's truncate fault)", () => {
  it("a truncated source read adds but never removes", async () => {
    h = await startHarness();
    const env = h.env();
    const library = await h.person.getLibraryPlaylists({ limit: null });
    const source = library.find((p) => p.title === "Road Trip")!.playlistId!;
    const loaded = recipe(h.project, mirrorOfPlaylist(source));
    const copy = (await syncRecipe(loaded, env)).apply!.playlistId!;
    const filled = (await playlistRows(h, copy)).map((r) => r.videoId);
    // The person adds a song to the copy: a full read would remove it (mirror), a cut one must not.
    const [extra] = catalogueSongs(h, 250).slice(-1);
    await h.person.addPlaylistItems(copy, [extra!]);
    // The target read takes the first browse requests (as many as the person's own read of it);
    // the next one, the source's first page, comes back with half its rows and no continuation.
    const browses = async () =>
      (
        (await (await fetch(`${h!.emulator.url}/_emulator/stats`)).json()) as {
          requests: Record<string, number>;
        }
      ).requests.browse ?? 0;
    const b0 = await browses();
    await h.person.getPlaylist(copy, { limit: null });
    const targetReads = (await browses()) - b0;
    await queueFaults(h, [
      { kind: "slow", endpoint: "browse", delayMs: 0, count: targetReads },
      { kind: "truncate", endpoint: "browse" },
    ]);
    const before = await h.writes();
    const run = await syncRecipe(loaded, env);
    expect(run.plan!.guards.map((g) => g.guard)).toContain("source_truncated");
    expect(run.plan!.summary.remove).toBe(0);
    expect(run.plan!.lines.find((l) => l.videoId === extra)?.reason).toMatch(
      /^removal blocked: source_truncated/,
    );
    expect(await h.writes()).toBe(before + run.plan!.summary.requests);
    expect(await playlistRows(h, copy).then((r) => r.map((x) => x.videoId))).toEqual(
      expect.arrayContaining([...filled, extra]),
    );
    // With a full read again, the mirror catches up.
    const settled = await syncRecipe(loaded, env);
    expect(settled.plan!.summary.remove).toBe(1);
    expect((await planRecipe(loaded, env)).plan.actions).toEqual([]);
  });

  it("a truncated target read writes nothing at all", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 30);
    const loaded = recipe(
      h.project,
      playlistYaml("cut-target", songs.slice(0, 20), "mirror", "{ batch_size: 100 }"),
    );
    await syncRecipe(loaded, env);
    const changed = recipe(
      h.project,
      playlistYaml("cut-target", songs.slice(10, 30), "mirror", "{ batch_size: 100 }"),
    );
    await queueFaults(h, [{ kind: "truncate", endpoint: "browse" }]);
    const before = await h.writes();
    const run = await syncRecipe(changed, env);
    expect(run.plan!.guards.map((g) => g.guard)).toContain("target_truncated");
    expect(run.plan!.actions).toEqual([]);
    expect(await h.writes()).toBe(before);
  });
});

describe("ratings read cut short (docs/ENGINE.md#ratings)", () => {
  it("a DISLIKE run whose liked list came back cut short rates nothing and says partial, not no_changes", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = await unlikedSongs(h, 4);
    const dislike = recipe(h.project, likesYaml("dislikes", songs, "DISLIKE", "append"));
    // A static source and a DISLIKE target read nothing: the first browse is the liked list.
    await queueFaults(h, [{ kind: "truncate", endpoint: "browse" }]);
    const before = await h.writes();
    const cut = await syncRecipe(dislike, env);
    expect(cut.plan!.summary).toMatchObject({ rate: 0, skip: songs.length });
    expect(await h.writes()).toBe(before);
    expect(cut.outcome).toBe("partial");
    expect(cut.error).toMatch(/4 songs were not rated: the rating read came back cut short/);
    // A whole read rates them all, and only then is the target in sync.
    const whole = await syncRecipe(dislike, env);
    expect(whole.outcome, whole.error ?? "").toBe("converged");
    expect(whole.plan!.summary.rate).toBe(songs.length);
    expect((await planRecipe(dislike, env)).plan.actions).toEqual([]);
  });
});

describe("refusals verified by reading back", () => {
  it("an HTTP 200 with a failed status on a move fails the action; the next sync finishes the order", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 8);
    await syncRecipe(recipe(h.project, playlistYaml("moves", songs)), env);
    const reversed = recipe(h.project, playlistYaml("moves", [...songs].reverse()));
    await queueFaults(h, [{ kind: "failed-status", endpoint: "browse/edit_playlist" }]);
    const run = await syncRecipe(reversed, env);
    expect(run.outcome).toBe("partial");
    expect(run.apply!.outcomes[0]).toMatchObject({ kind: "move_playlist_items", status: "failed" });
    const { run: second } = await converge(h, env, reversed);
    expect((await playlistRows(h, second.plan!.target.playlistId!)).map((r) => r.videoId)).toEqual(
      [...songs].reverse(),
    );
  });

  /** The real write happens, then the answer says 409 (the service's "already so"). */
  const conflicting =
    (happen: boolean) =>
    (c: EngineClient): EngineClient =>
      new Proxy(c, {
        get(target, name, receiver) {
          if (name !== "rateSong" && name !== "subscribeArtists") return Reflect.get(target, name, receiver);
          const real = Reflect.get(target, name, receiver) as (...a: unknown[]) => Promise<unknown>;
          return async (...args: unknown[]) => {
            if (happen) await real.apply(target, args);
            throw new ServiceError("HTTP_ERROR", "conflict", { status: 409 });
          };
        },
      });

  it("a 409 on a rating or a subscription that is already so is verified and confirmed", async () => {
    h = await startHarness();
    const songs = await unlikedSongs(h, 3);
    const like = recipe(h.project, likesYaml("likes", songs, "LIKE", "sync"));
    const run = await syncRecipe(like, h.env({ wrap: conflicting(true) }));
    expect(run.outcome, run.error ?? "").toBe("converged");
    expect(run.apply!.outcomes.map((o) => o.status)).toEqual(["confirmed", "confirmed", "confirmed"]);
    expect((await planRecipe(like, h.env())).plan.actions).toEqual([]);
  });

  it("a 409 whose read-back shows nothing changed fails the action (partial), and nothing is owned", async () => {
    h = await startHarness();
    const liked = new Set((await h.person.getLikedSongs({ limit: null })).tracks.map((t) => t.videoId));
    const songs = catalogueSongs(h, 80)
      .filter((v) => !liked.has(v))
      .slice(3, 5);
    const like = recipe(
      h.project,
      `apiVersion: musicsync/v1\nkind: Recipe\nid: likes2\nsources:\n  - { id: s, type: static, videoIds: [${songs.join(", ")}] }\ntarget: { type: likes, rating: LIKE }\nmode: sync\n`,
    );
    const env = h.env({ wrap: conflicting(false) });
    const run = await syncRecipe(like, env);
    expect(run.outcome).toBe("partial");
    expect(run.apply!.outcomes.map((o) => o.status)).toEqual(["failed", "failed"]);
    expect(await env.state.ownedRows("default", "likes")).toEqual([]);
  });
});

describe("quarantine", () => {
  it("leaves a refused id out for a week, then tries it once more and quarantines it again", async () => {
    h = await startHarness();
    const clock = virtualClock();
    const env = h.env({ clock });
    const songs = catalogueSongs(h, 6);
    const bad = "qqqqqqqqqqq";
    const loaded = recipe(h.project, playlistYaml("quarantine", [...songs, bad], "sync"));
    const first = await syncRecipe(loaded, env);
    expect(first.apply!.quarantined).toEqual([bad]);
    await clock.sleep(6 * 86_400_000);
    const inWeek = await planRecipe(loaded, env);
    expect(inWeek.plan.actions).toEqual([]);
    expect(inWeek.plan.lines.find((l) => l.videoId === bad)?.reason).toMatch(/^quarantined/);
    // Eight days on, the id is planned again; refused again, it is quarantined from this refusal.
    await clock.sleep(2 * 86_400_000);
    const retried = await syncRecipe(loaded, env);
    expect(retried.plan!.actions).toEqual([
      { kind: "add_playlist_items", playlistId: first.apply!.playlistId, videoIds: [bad] },
    ]);
    expect(retried.apply!.quarantined).toEqual([bad]);
    await clock.sleep(6 * 86_400_000);
    expect((await planRecipe(loaded, env)).plan.actions).toEqual([]);
  });
});
