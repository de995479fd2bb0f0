import { describe, expect, it } from "vitest";
import type { TargetSpec } from "../../../engine/recipe/types.js";
import type { PlaylistResult, SourceClient } from "../../../engine/sources/reader.js";
import { readTarget } from "../../../engine/targets/read.js";

type Call = [string, ...unknown[]];

function fake(handlers: Record<string, (...args: never[]) => unknown>) {
  const calls: Call[] = [];
  const client = new Proxy({} as SourceClient, {
    get(_t, name: string) {
      return async (...args: unknown[]) => {
        calls.push([name, ...args]);
        const h = handlers[name] as ((...a: unknown[]) => unknown) | undefined;
        if (!h) throw new Error(`fake client: ${name} not expected`);
        return h(...args);
      };
    },
  });
  return { client, calls };
}

const playlist = (description: string | null, trackCount = 2): PlaylistResult => ({
  title: "Mix",
  description,
  privacy: "PRIVATE",
  trackCount,
  tracks: [
    { videoId: "aaaaaaaaaaa", title: "A", setVideoId: "S1" },
    { videoId: "bbbbbbbbbbb", title: "B", setVideoId: "S2" },
  ],
});

const byTitle: TargetSpec = {
  type: "playlist",
  playlist: { id: null, title: "Mix", description: null, privacy: null },
  allow_delete: false,
};

describe("reading targets", () => {
  it("reads a playlist adopted by id with its rows and metadata", async () => {
    const { client, calls } = fake({ getPlaylist: () => playlist(null) });
    const target: TargetSpec = { ...byTitle, playlist: { ...byTitle.playlist, id: "PLx" } };
    const { actual, foundBy } = await readTarget(target, client, { recipeId: "r", ownedPlaylistId: null });
    expect(calls).toEqual([["getPlaylist", "PLx", { limit: null }]]);
    expect(foundBy).toBe("id");
    expect(actual).toMatchObject({
      exists: true,
      playlistId: "PLx",
      title: "Mix",
      privacy: "PRIVATE",
      truncated: false,
    });
    expect(actual.rows.map((r) => [r.videoId, r.setVideoId, r.rank])).toEqual([
      ["aaaaaaaaaaa", "S1", 1],
      ["bbbbbbbbbbb", "S2", 2],
    ]);
  });

  it("flags a playlist read shorter than its count", async () => {
    const { client } = fake({ getPlaylist: () => playlist(null, 500) });
    const { actual } = await readTarget(byTitle, client, { recipeId: "r", ownedPlaylistId: "PLmine" });
    expect(actual.truncated).toBe(true);
  });

  it("finds its own playlist again by marker when the state lost the id", async () => {
    const { client, calls } = fake({
      getLibraryPlaylists: () => [
        { title: "Mix", playlistId: "PLsomeoneelse" },
        { title: "Other", playlistId: "PLother" },
        { title: "Mix", playlistId: "PLours" },
      ],
      getPlaylist: (id: string) =>
        playlist(id === "PLours" ? "Daily\n\n[musicsync:r]" : "[musicsync:other-recipe]"),
    });
    const { actual, foundBy } = await readTarget(byTitle, client, { recipeId: "r", ownedPlaylistId: null });
    expect(foundBy).toBe("marker");
    expect(actual.playlistId).toBe("PLours");
    expect(calls.filter((c) => c[0] === "getPlaylist").map((c) => c[1])).toEqual(["PLsomeoneelse", "PLours"]);
  });

  it("reports a playlist to create when none carries the marker", async () => {
    const { client } = fake({
      getLibraryPlaylists: () => [{ title: "Mix", playlistId: "PL1" }],
      getPlaylist: () => playlist(null),
    });
    const { actual, foundBy } = await readTarget(byTitle, client, { recipeId: "r", ownedPlaylistId: null });
    expect(foundBy).toBe("none");
    expect(actual).toMatchObject({ exists: false, playlistId: null, rows: [] });
  });

  it("reads likes, saved episodes, subscriptions and library lists", async () => {
    const { client } = fake({
      getLikedSongs: () => playlist(null),
      getSavedEpisodes: () => ({
        trackCount: 1,
        tracks: [{ videoId: "eeeeeeeeeee", videoType: "MUSIC_VIDEO_TYPE_PODCAST_EPISODE" }],
      }),
      getLibrarySubscriptions: () => [{ browseId: "UC1", artist: "One" }],
      getLibraryPlaylists: () => [
        { title: "Liked Music", playlistId: "LM" },
        { title: "Mine", playlistId: "PL1" },
      ],
      getLibraryPodcasts: () => [
        { title: "New Episodes", browseId: "VLRDPN", podcastId: "RDPN" },
        { title: "A show", browseId: "MPSPPL9" },
      ],
    });
    const ctx = { recipeId: "r", ownedPlaylistId: null };
    expect((await readTarget({ type: "likes", rating: "LIKE" }, client, ctx)).actual).toMatchObject({
      playlistId: "LM",
      title: null,
    });
    expect((await readTarget({ type: "likes", rating: "DISLIKE" }, client, ctx)).actual.rows).toEqual([]);
    const se = (await readTarget({ type: "saved_episodes" }, client, ctx)).actual;
    expect(se.rows[0]).toMatchObject({ kind: "episode", videoId: "eeeeeeeeeee" });
    const subs = (await readTarget({ type: "subscriptions" }, client, ctx)).actual;
    expect(subs.rows[0]).toMatchObject({ kind: "artist", browseId: "UC1" });
    const pls = (await readTarget({ type: "library", kind: "playlists" }, client, ctx)).actual;
    expect(pls.rows.map((r) => r.playlistId)).toEqual(["PL1"]);
    const pods = (await readTarget({ type: "library", kind: "podcasts" }, client, ctx)).actual;
    expect(pods.rows.map((r) => r.playlistId)).toEqual(["PL9"]);
  });
});
