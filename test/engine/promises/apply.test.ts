/**
 * The applier's promises (docs/ENGINE.md#apply-and-the-journal): a write is done only on a positive
 * confirmation, a create whose rows could not be read back is owned from the journal, and the
 * conditions and counts a run leaves are true.
 */
import { afterEach, describe, expect, it } from "vitest";
import { QUARANTINE_TARGET } from "../../../engine/apply/apply.js";
import type { EngineClient } from "../../../engine/apply/client.js";
import { writeConfirmed } from "../../../engine/apply/client.js";
import { InterruptedError } from "../../../engine/daemon/shutdown.js";
import { planRecipe, syncRecipe } from "../../../engine/run/runner.js";
import { makeItem } from "../../../engine/sources/item.js";
import { readRatings } from "../../../engine/targets/ratings.js";
import { AuthError, ErrorCodes, ServiceError } from "../../../src/index.js";
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

const yaml = (ids: readonly string[], mode = "mirror") => `apiVersion: musicsync/v1
kind: Recipe
id: kept
sources:
  - { id: list, type: static, videoIds: [${ids.join(", ")}] }
target:
  type: playlist
  playlist: { title: "Kept", privacy: PRIVATE }
mode: ${mode}
`;

/** The emulator's "gated" answer: HTTP 200 with only a feature-enablement panel, no status. */
const GATED = {
  responseContext: {},
  actions: [{ showEngagementPanelEndpoint: { identifier: { tag: "PAfeature_enablement" } } }],
};

describe("a write is done only on a positive confirmation", () => {
  // docs/ENGINE.md#apply-and-the-journal
  it("no write kind takes an answer without its confirmation as done", () => {
    const kinds = [
      "create_playlist",
      "edit_playlist",
      "add_playlist_items",
      "remove_playlist_items",
      "move_playlist_items",
      "rate_song",
      "rate_playlist",
      "edit_song_library_status",
      "subscribe_artists",
      "unsubscribe_artists",
    ] as const;
    for (const kind of kinds) {
      for (const answer of [
        GATED,
        {},
        { responseContext: {} },
        { status: "STATUS_FAILED" },
        null,
        undefined,
        "",
      ]) {
        expect([kind, writeConfirmed(kind, answer)]).toEqual([kind, false]);
      }
    }
    expect(writeConfirmed("remove_playlist_items", "STATUS_SUCCEEDED")).toBe(true);
    expect(
      writeConfirmed("add_playlist_items", { status: "STATUS_SUCCEEDED", playlistEditResults: [] }),
    ).toBe(true);
    const toast = { actions: [{ addToToastAction: { item: {} } }] };
    expect(writeConfirmed("rate_song", toast)).toBe(true);
    expect(
      writeConfirmed("subscribe_artists", {
        actions: [{ updateSubscribeButtonAction: { subscribed: true } }],
      }),
    ).toBe(true);
    expect(writeConfirmed("edit_song_library_status", { feedbackResponses: [{ isProcessed: true }] })).toBe(
      true,
    );
    expect(
      writeConfirmed("edit_song_library_status", {
        feedbackResponses: [{ isProcessed: true }, { isProcessed: false }],
      }),
    ).toBe(false);
  });

  // docs/ENGINE.md#apply-and-the-journal
  it("a gated remove is not converged: the rows and their ownership stay, and the next plan removes them", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 6);
    const first = await syncRecipe(recipe(h.project, yaml(songs)), env);
    const pid = first.apply!.playlistId!;
    const loaded = recipe(h.project, yaml(songs.slice(0, 3)));
    await h.faults({ queue: [{ kind: "gated", endpoint: "browse/edit_playlist" }] });
    const run = await syncRecipe(loaded, env);
    expect(run.outcome).toBe("partial");
    expect(run.apply!.outcomes).toEqual([
      expect.objectContaining({ kind: "remove_playlist_items", status: "failed" }),
    ]);
    expect(await playlistRows(h, pid)).toHaveLength(6);
    const owned = await env.state.ownedRows("default", `playlist/${pid}`);
    expect(owned.map((o) => o.itemKey).sort()).toEqual([...songs].sort());
    expect((await planRecipe(loaded, env)).plan.summary.remove).toBe(3);
    expect((await syncRecipe(loaded, env)).outcome).toBe("converged");
    expect((await playlistRows(h, pid)).map((r) => r.videoId)).toEqual(songs.slice(0, 3));
  });

  // docs/ENGINE.md#apply-and-the-journal
  it("a gated add quarantines nothing and is added by the next run", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 5);
    await syncRecipe(recipe(h.project, yaml(songs.slice(0, 2))), env);
    const loaded = recipe(h.project, yaml(songs));
    await h.faults({ queue: [{ kind: "gated", endpoint: "browse/edit_playlist" }] });
    const run = await syncRecipe(loaded, env);
    expect(run.outcome).toBe("partial");
    expect(run.apply!.quarantined).toEqual([]);
    expect(run.apply!.outcomes[0]).toMatchObject({
      kind: "add_playlist_items",
      status: "failed",
      requests: 1,
    });
    expect((await syncRecipe(loaded, env)).outcome).toBe("converged");
  });

  // docs/ENGINE.md#apply-and-the-journal
  it("a gated rating and a gated subscription are not taken as done", async () => {
    h = await startHarness();
    const liked = new Set((await h.person.getLikedSongs({ limit: null })).tracks.map((t) => t.videoId));
    const [song] = catalogueSongs(h, 80).filter((v) => !liked.has(v));
    const like = recipe(
      h.project,
      `apiVersion: musicsync/v1\nkind: Recipe\nid: likes\nsources:\n  - { id: s, type: static, videoIds: [${song}] }\ntarget: { type: likes, rating: LIKE }\nmode: sync\n`,
    );
    const env = h.env();
    await h.faults({ queue: [{ kind: "gated", endpoint: "like/like" }] });
    const run = await syncRecipe(like, env);
    expect(run.outcome).toBe("partial");
    expect(run.apply!.outcomes).toEqual([expect.objectContaining({ kind: "rate_song", status: "failed" })]);
    expect(await env.state.ownedRows("default", "likes")).toEqual([]);
    expect((await planRecipe(like, env)).plan.actions).toHaveLength(1);

    const sub = recipe(
      h.project,
      `apiVersion: musicsync/v1\nkind: Recipe\nid: subs\nsources:\n  - { id: top, type: chart, country: US, section: artists }\npipeline:\n  - limit: 3\ntarget: { type: subscriptions }\nmode: sync\n`,
    );
    await h.faults({ queue: [{ kind: "gated", endpoint: "subscription/subscribe" }] });
    const subRun = await syncRecipe(sub, env);
    expect(subRun.outcome).toBe("partial");
    expect(subRun.apply!.outcomes[0]).toMatchObject({ kind: "subscribe_artists", status: "failed" });
    expect((await syncRecipe(sub, env)).outcome).toBe("converged");
  });
});

/** Fails the first playlist read after a create (the read that learns the new rows' ids). */
function failReadAfterCreate(c: EngineClient): EngineClient {
  let created = false;
  let failed = false;
  return new Proxy(c, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as (...a: unknown[]) => Promise<unknown>;
      if (typeof value !== "function") return value;
      if (name === "createPlaylist")
        return async (...a: unknown[]) => {
          const r = await value.apply(target, a);
          created = true;
          return r;
        };
      if (name === "getPlaylist")
        return async (...a: unknown[]) => {
          if (created && !failed) {
            failed = true;
            throw new ServiceError("HTTP_ERROR", "the service failed", { status: 500 });
          }
          return value.apply(target, a);
        };
      return value.bind(target);
    },
  });
}

describe("a create whose rows could not be read back", () => {
  // docs/ENGINE.md#apply-and-the-journal
  it("is journaled unknown, and the next run owns the rows the journal says it created", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 6);
    const env = h.env({ wrap: failReadAfterCreate });
    const run = await syncRecipe(recipe(h.project, yaml(songs, "sync")), env);
    expect(run.outcome).toBe("partial");
    expect(run.apply!.outcomes[0]).toMatchObject({ kind: "create_playlist", status: "unknown" });
    const pid = run.apply!.playlistId!;
    expect((await playlistRows(h, pid)).map((r) => r.videoId)).toEqual(songs);
    // Sync mode removes only rows it owns: the created rows, owned from the journal, go.
    const fewer = recipe(h.project, yaml(songs.slice(0, 2), "sync"));
    const next = await syncRecipe(fewer, h.env());
    expect(next.outcome, next.error ?? "").toBe("converged");
    expect((await playlistRows(h, pid)).map((r) => r.videoId)).toEqual(songs.slice(0, 2));
  });
});

describe("status that is true", () => {
  // docs/ENGINE.md#status-history-and-drift
  it("a one-shot sync sets Degraded; a partial one says what did not go through", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 6);
    await syncRecipe(recipe(h.project, yaml(songs.slice(0, 4))), env);
    const degraded = async () => (await env.state.conditions("kept")).find((c) => c.type === "Degraded");
    expect(await degraded()).toMatchObject({ status: "False", reason: "Healthy" });
    await h.faults({ queue: [{ kind: "gated", endpoint: "browse/edit_playlist" }] });
    await syncRecipe(recipe(h.project, yaml(songs.slice(0, 2))), env);
    const ready = (await env.state.conditions("kept")).find((c) => c.type === "Ready");
    expect(ready).toMatchObject({
      status: "False",
      reason: "PartialApply",
      message: "0 of 1 action confirmed; 1 failed",
    });
    expect(await degraded()).toMatchObject({ status: "True", reason: "PartialApply" });
  });

  // docs/ENGINE.md#status-history-and-drift
  it("a one-shot sync refused with 401 is recorded, with AuthValid False and Degraded True", async () => {
    h = await startHarness();
    const refusing = (c: EngineClient): EngineClient =>
      new Proxy(c, {
        get(target, name, receiver) {
          const value = Reflect.get(target, name, receiver);
          if (typeof value !== "function") return value;
          if (String(name).startsWith("get"))
            return async () => {
              throw new AuthError(ErrorCodes.AUTH_EXPIRED, "the service refused the credentials (HTTP 401)");
            };
          return value.bind(target);
        },
      });
    const env = h.env({ wrap: refusing });
    await expect(syncRecipe(recipe(h.project, yaml(catalogueSongs(h, 2))), env)).rejects.toBeInstanceOf(
      AuthError,
    );
    const [run] = await env.state.runs("kept");
    expect(run).toMatchObject({ kind: "sync", result: "failed", error: expect.stringContaining("401") });
    const conditions = new Map((await env.state.conditions("kept")).map((c) => [c.type, c]));
    expect(conditions.get("AuthValid")).toMatchObject({ status: "False", reason: "Expired" });
    expect(conditions.get("Degraded")).toMatchObject({ status: "True", reason: "AuthExpired" });
  });

  // docs/ENGINE.md#status-history-and-drift
  it("an interrupted run counts its never-sent actions as not sent, not failed", async () => {
    h = await startHarness();
    const songs = catalogueSongs(h, 6);
    const first = await syncRecipe(recipe(h.project, yaml(songs.slice(0, 1))), h.env());
    expect(first.outcome).toBe("converged");
    // A stop requested before the writes: every write is refused before its request leaves.
    const stopped = (c: EngineClient): EngineClient =>
      new Proxy(c, {
        get(target, name, receiver) {
          const value = Reflect.get(target, name, receiver);
          if (typeof value !== "function") return value;
          if (["addPlaylistItems", "editPlaylist", "removePlaylistItems"].includes(String(name)))
            return async () => {
              throw new InterruptedError("SIGTERM");
            };
          return value.bind(target);
        },
      });
    const env = h.env({ wrap: stopped });
    const run = await syncRecipe(recipe(h.project, yaml([...songs].reverse())), env);
    expect(run.apply!.outcomes.every((o) => o.sent === false && o.requests === 0)).toBe(true);
    const [last] = await env.state.runs("kept", 1);
    expect(last!.counts).toMatchObject({ confirmed: 0, failed: 0, notSent: run.apply!.outcomes.length });
  });
});

/** The person's rating of a song, read as the engine reads it (the album page's like button). */
async function ratingOf(harness: Harness, videoId: string): Promise<string | undefined> {
  return (await readRatings([makeItem({ videoId, source: "test", rank: 1 })], harness.person)).get(videoId);
}

const dislikeYaml = (ids: readonly string[]) =>
  `apiVersion: musicsync/v1\nkind: Recipe\nid: dislikes\nsources:\n  - { id: s, type: static, videoIds: [${ids.join(", ")}] }\ntarget: { type: likes, rating: DISLIKE }\nmode: sync\n`;

describe("a rating is verified by reading the song's rating back", () => {
  // docs/ENGINE.md#apply-and-the-journal
  it("a gated DISLIKE is not confirmed (the liked list cannot say so), and the next run dislikes it", async () => {
    h = await startHarness();
    const liked = new Set((await h.person.getLikedSongs({ limit: null })).tracks.map((t) => t.videoId));
    const [song] = catalogueSongs(h, 80).filter((v) => !liked.has(v));
    const dislike = recipe(h.project, dislikeYaml([song!]));
    const env = h.env();
    await h.faults({ queue: [{ kind: "gated", endpoint: "like/dislike" }] });
    const run = await syncRecipe(dislike, env);
    expect(run.outcome).toBe("partial");
    expect(run.apply!.outcomes).toEqual([expect.objectContaining({ kind: "rate_song", status: "failed" })]);
    expect(await ratingOf(h, song!)).toBe("INDIFFERENT");
    expect(await env.state.ownedRows("default", "likes/DISLIKE")).toEqual([]);
    const again = await syncRecipe(dislike, env);
    expect(again.outcome, again.error ?? "").toBe("converged");
    expect(await ratingOf(h, song!)).toBe("DISLIKE");
  });

  // docs/ENGINE.md#apply-and-the-journal
  it("a gated INDIFFERENT that undoes a DISLIKE is not confirmed, and the next run undoes it", async () => {
    h = await startHarness();
    const liked = new Set((await h.person.getLikedSongs({ limit: null })).tracks.map((t) => t.videoId));
    const [a, b] = catalogueSongs(h, 80).filter((v) => !liked.has(v));
    const env = h.env();
    expect((await syncRecipe(recipe(h.project, dislikeYaml([a!, b!])), env)).outcome).toBe("converged");
    expect(await ratingOf(h, b!)).toBe("DISLIKE");
    const fewer = recipe(h.project, dislikeYaml([a!]));
    await h.faults({ queue: [{ kind: "gated", endpoint: "like/removelike" }] });
    const run = await syncRecipe(fewer, env);
    expect(run.outcome).toBe("partial");
    expect(run.apply!.outcomes).toEqual([expect.objectContaining({ kind: "rate_song", status: "failed" })]);
    expect(await ratingOf(h, b!)).toBe("DISLIKE");
    // Still remembered as the engine's dislike, so the next plan undoes it again.
    expect((await planRecipe(fewer, env)).plan.actions).toEqual([
      { kind: "rate_song", videoId: b, rating: "INDIFFERENT" },
    ]);
    expect((await syncRecipe(fewer, env)).outcome).toBe("converged");
    expect(await ratingOf(h, b!)).toBe("INDIFFERENT");
    expect(await ratingOf(h, a!)).toBe("DISLIKE");
  });
});

describe("a one-id add is quarantined only when refused twice", () => {
  const oneByOne = (ids: readonly string[]) => `${yaml(ids)}policy: { batch_size: 1 }\n`;

  // docs/ENGINE.md#apply-and-the-journal
  it("one transient failed status does not quarantine an available song: it is sent again and added", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 3);
    const first = await syncRecipe(recipe(h.project, oneByOne(songs.slice(0, 2))), env);
    const pid = first.apply!.playlistId!;
    await h.faults({ queue: [{ kind: "failed-status", endpoint: "browse/edit_playlist" }] });
    const run = await syncRecipe(recipe(h.project, oneByOne(songs)), env);
    expect(run.outcome, run.error ?? "").toBe("converged");
    expect(run.apply!.quarantined).toEqual([]);
    expect(run.apply!.outcomes).toEqual([
      expect.objectContaining({ kind: "add_playlist_items", status: "confirmed", requests: 2 }),
    ]);
    expect(await env.state.tombstones("default", QUARANTINE_TARGET)).toEqual(new Set());
    expect((await playlistRows(h, pid)).map((r) => r.videoId)).toEqual(songs);
  });

  // docs/ENGINE.md#apply-and-the-journal
  it("a refusal repeated on the re-send quarantines the id", async () => {
    h = await startHarness();
    const env = h.env();
    const songs = catalogueSongs(h, 3);
    await syncRecipe(recipe(h.project, oneByOne(songs.slice(0, 2))), env);
    await h.faults({ queue: [{ kind: "failed-status", endpoint: "browse/edit_playlist", count: 2 }] });
    const run = await syncRecipe(recipe(h.project, oneByOne(songs)), env);
    expect(run.outcome).toBe("partial");
    expect(run.apply!.quarantined).toEqual([songs[2]]);
    expect(run.apply!.outcomes).toEqual([
      expect.objectContaining({ kind: "add_playlist_items", requests: 2 }),
    ]);
    expect(await env.state.tombstones("default", QUARANTINE_TARGET)).toEqual(new Set([songs[2]]));
  });
});

describe("a refused write is verified only by a complete read", () => {
  // docs/ENGINE.md#apply-and-the-journal
  it("a refused remove read back through a list cut short is not confirmed: the rows stay owned and the next run removes them", async () => {
    h = await startHarness();
    const harness = h;
    const songs = catalogueSongs(h, 6);
    const first = await syncRecipe(recipe(h.project, yaml(songs)), h.env());
    const pid = first.apply!.playlistId!;
    // The remove is refused without reaching the service, and the read that verifies it comes back
    // cut to its first half: the rows to remove (the last three) look gone, yet all six are there.
    const refusedThenCut = (c: EngineClient): EngineClient =>
      new Proxy(c, {
        get(target, name, receiver) {
          if (name !== "removePlaylistItems") return Reflect.get(target, name, receiver);
          return async () => {
            await harness.faults({ queue: [{ kind: "truncate", endpoint: "browse" }] });
            return { status: "STATUS_FAILED" };
          };
        },
      });
    const env = h.env({ wrap: refusedThenCut });
    const loaded = recipe(h.project, yaml(songs.slice(0, 3)));
    const run = await syncRecipe(loaded, env);
    expect(run.outcome).toBe("partial");
    expect(run.apply!.outcomes).toEqual([
      expect.objectContaining({ kind: "remove_playlist_items", status: "failed" }),
    ]);
    expect(await playlistRows(h, pid)).toHaveLength(6);
    const owned = await env.state.ownedRows("default", `playlist/${pid}`);
    expect(owned.map((o) => o.itemKey).sort()).toEqual([...songs].sort());
    expect((await syncRecipe(loaded, h.env())).outcome).toBe("converged");
    expect((await playlistRows(h, pid)).map((r) => r.videoId)).toEqual(songs.slice(0, 3));
  });
});
