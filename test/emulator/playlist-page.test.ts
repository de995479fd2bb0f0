/**
 * A playlist page as the store now builds it (the emulator's inside): its totals come
 * from the rows themselves when the first page holds them all, from a count otherwise (a
 * continuation's page goes without them, knowing only whether rows follow); the viewer's
 * marks on its rows are read in one go before rendering. Both are checked against the database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { MusicClient } from "../../src/client.js";
import { api, headersFor, type Json } from "./helpers.js";

let emu: RunningEmulator;
let headers: Record<string, string>;
let songs: string[];

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 600, seed: 11 });
  headers = await headersFor(emu, 1);
  songs = (
    emu.state.store.sqlite
      .prepare(
        "SELECT video_id AS v FROM songs WHERE video_type = 'MUSIC_VIDEO_TYPE_ATV' ORDER BY id LIMIT 300",
      )
      .all() as { v: string }[]
  ).map((r) => r.v);
});

afterAll(async () => {
  await emu.stop();
});

async function playlistOf(count: number): Promise<string> {
  const r = await api(
    emu,
    "playlist/create",
    { title: `n${count}`, videoIds: songs.slice(0, count) },
    headers,
  );
  expect(r.status).toBe(200);
  return (r.json as Json).playlistId as string;
}

/** The totals as SQL gives them, apart from the store's code. */
function truth(playlistId: string): { count: number; seconds: number } {
  return emu.state.store.sqlite
    .prepare(
      `SELECT count(*) AS count, coalesce(sum(s.duration_seconds), 0) AS seconds FROM playlist_items pi
       JOIN songs s ON s.video_id = pi.video_id WHERE pi.playlist_id = ?`,
    )
    .get(playlistId) as { count: number; seconds: number };
}

describe("a playlist page's totals", () => {
  it("are the playlist's, whether the first page holds every row or not", async () => {
    for (const n of [0, 1, 99, 100, 101, 250]) {
      const id = await playlistOf(n);
      const expected = truth(id);
      expect(expected.count).toBe(n);
      for (const offset of [0, 100, 200]) {
        const page = emu.state.store.playlists.page(id, offset, 100);
        expect({ count: page.count, seconds: page.seconds }).toEqual(expected);
        expect(page.rows.length).toBe(Math.max(0, Math.min(100, n - offset)));
        // A continuation's page: the same rows, and whether any follow, without the totals.
        const next = emu.state.store.playlists.rowsFrom(id, offset, 100);
        expect(next.rows.map((r) => r.setVideoId)).toEqual(page.rows.map((r) => r.setVideoId));
        expect(next.more).toBe(offset + 100 < n);
      }
      const client = new MusicClient({ auth: headers, baseUrl: emu.url });
      const p = await client.getPlaylist(id, { limit: null });
      expect(p.trackCount ?? 0).toBe(n);
      expect(p.tracks.length).toBe(n);
    }
  });
});

describe("a playlist page's marks", () => {
  it("show the viewer's likes and library on every page, and nothing signed out", async () => {
    const id = await playlistOf(150);
    const liked = [songs[2]!, songs[120]!];
    const kept = [songs[4]!, songs[130]!];
    for (const v of liked) {
      expect((await api(emu, "like/like", { target: { videoId: v } }, headers)).status).toBe(200);
    }
    const me = new MusicClient({ auth: headers, baseUrl: emu.url });
    for (const v of kept) {
      const song = await me.getWatchPlaylist({ videoId: v, limit: 1 });
      const token = song.tracks[0]?.feedbackTokens?.add;
      expect(token).toBeTruthy();
      await me.editSongLibraryStatus([token!]);
    }
    const ids = (sql: string) =>
      new Set((emu.state.store.sqlite.prepare(sql).all() as { t: string }[]).map((r) => r.t));
    // The seeded account already likes and keeps some songs: the database says which.
    const likes = ids("SELECT target_id AS t FROM ratings WHERE account_id = 1 AND rating = 'LIKE'");
    const inLibrary = ids("SELECT target_id AS t FROM library_items WHERE account_id = 1 AND kind = 'song'");
    for (const v of liked) expect(likes.has(v)).toBe(true);
    const p = await me.getPlaylist(id, { limit: null });
    expect(p.tracks.length).toBe(150);
    for (const t of p.tracks) {
      expect(t.likeStatus).toBe(likes.has(t.videoId!) ? "LIKE" : "INDIFFERENT");
      expect(t.inLibrary).toBe(inLibrary.has(t.videoId!));
    }
    expect(p.tracks.filter((t) => t.inLibrary && kept.includes(t.videoId!)).length).toBe(2);
    expect(p.tracks.filter((t) => t.likeStatus === "LIKE" && liked.includes(t.videoId!)).length).toBe(2);
    const publicId = (
      (
        await api(
          emu,
          "playlist/create",
          { title: "open", privacyStatus: "PUBLIC", videoIds: liked },
          headers,
        )
      ).json as Json
    ).playlistId as string;
    const anonymous = await new MusicClient({ baseUrl: emu.url }).getPlaylist(publicId, { limit: null });
    expect(anonymous.tracks.map((t) => t.likeStatus ?? "INDIFFERENT")).toEqual([
      "INDIFFERENT",
      "INDIFFERENT",
    ]);
  });
});

describe("a playlist holding podcast episodes", () => {
  it("takes an episode as the service does, shows it as a row and counts its length", async () => {
    const episode = emu.state.store.sqlite
      .prepare("SELECT video_id AS v, duration_seconds AS d FROM episodes ORDER BY id LIMIT 1")
      .get() as { v: string; d: number };
    const id = await playlistOf(2);
    const add = await api(
      emu,
      "browse/edit_playlist",
      { playlistId: id, actions: [{ action: "ACTION_ADD_VIDEO", addedVideoId: episode.v }] },
      headers,
    );
    expect((add.json as Json).status).toBe("STATUS_SUCCEEDED");
    const p = await new MusicClient({ auth: headers, baseUrl: emu.url }).getPlaylist(id, { limit: null });
    expect(p.tracks.map((t) => t.videoId)).toEqual([songs[0], songs[1], episode.v]);
    expect(p.trackCount).toBe(3);
    // Past the first page the totals come from the database: the episode's length counts there too.
    const stats = emu.state.store.playlists.playlistStats(id);
    const page = emu.state.store.playlists.page(id, 0, 100);
    expect(stats).toEqual({ count: page.count, seconds: page.seconds });
    expect(stats).toEqual({ count: 3, seconds: truth(id).seconds + episode.d });
  });
});
