/**
 * Contract: the real MusicClient against the emulator. What the client reads must agree with the
 * emulator's database, and writes made through the client must read back through the client.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { MusicClient, setupOAuth } from "../../src/index.js";
import { headersFor } from "./helpers.js";

let emu: RunningEmulator;
let anon: MusicClient;
let signedIn: MusicClient;

type Row = Record<string, unknown>;
const q = <T>(sql: string, ...args: unknown[]) => emu.state.store.st(sql).get(...args) as T;
const all = <T>(sql: string, ...args: unknown[]) => emu.state.store.st(sql).all(...args) as T[];

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 500, seed: 21 });
  anon = new MusicClient({ baseUrl: emu.url, uploadUrl: emu.url, retry: false });
  signedIn = new MusicClient({
    baseUrl: emu.url,
    uploadUrl: emu.url,
    auth: await headersFor(emu, 1),
    retry: false,
  });
});
afterAll(async () => {
  await emu?.stop();
});

describe("reads agree with the catalogue", () => {
  it("getPlaylist follows every continuation of a long playlist", async () => {
    const p = q<{ id: string; n: number }>(
      "SELECT playlist_id AS id, (SELECT count(*) FROM playlist_items i WHERE i.playlist_id = p.playlist_id) AS n FROM playlists p WHERE kind = 'community' ORDER BY n DESC LIMIT 1",
    );
    expect(p.n).toBeGreaterThan(100);
    const playlist = (await anon.getPlaylist(p.id, { limit: null })) as unknown as {
      tracks: Row[];
      trackCount: number;
      id: string;
    };
    expect(playlist.id).toBe(p.id);
    expect(playlist.trackCount).toBe(p.n);
    const expected = all<{ v: string }>(
      "SELECT video_id AS v FROM playlist_items WHERE playlist_id = ? ORDER BY position",
      p.id,
    ).map((r) => r.v);
    expect(playlist.tracks.map((t) => t.videoId)).toEqual(expected);
  });

  it("getAlbum lists the album's tracks with their durations", async () => {
    const a = q<{ b: string; id: number; t: string }>(
      "SELECT browse_id AS b, id, title AS t FROM albums WHERE type = 'Album' LIMIT 1",
    );
    const album = (await anon.getAlbum(a.b)) as unknown as {
      title: string;
      tracks: Row[];
      duration_seconds: number;
    };
    const tracks = all<{ v: string; d: number }>(
      "SELECT video_id AS v, duration_seconds AS d FROM songs WHERE album_id = ? ORDER BY track_number",
      a.id,
    );
    expect(album.title).toBe(a.t);
    expect(album.tracks.map((t) => t.videoId)).toEqual(tracks.map((t) => t.v));
    expect(album.duration_seconds).toBe(tracks.reduce((n, t) => n + t.d, 0));
  });

  it("search finds a song by its title and its artist", async () => {
    const s = q<{ v: string; t: string; a: string }>(
      "SELECT s.video_id AS v, s.title AS t, a.name AS a FROM songs s JOIN artists a ON a.id = s.artist_id WHERE s.video_type = 'MUSIC_VIDEO_TYPE_ATV' ORDER BY s.views DESC LIMIT 1",
    );
    const byTitle = (await anon.search(s.t, { filter: "songs" })) as unknown as Row[];
    expect(byTitle.map((r) => r.videoId)).toContain(s.v);
    const byArtist = (await anon.search(s.a, { filter: "artists" })) as unknown as Row[];
    expect(byArtist.map((r) => r.artist)).toContain(s.a);
  });

  it("getWatchPlaylist leads to the song's lyrics", async () => {
    const v = q<{ v: string }>("SELECT video_id AS v FROM songs WHERE lyrics_source IS NOT NULL LIMIT 1").v;
    const watch = (await anon.getWatchPlaylist({ videoId: v })) as unknown as {
      tracks: Row[];
      lyrics: string;
    };
    expect(watch.tracks[0]?.videoId).toBe(v);
    const lyrics = (await anon.getLyrics(watch.lyrics)) as unknown as { lyrics: string; source: string };
    expect(lyrics.lyrics.length).toBeGreaterThan(20);
    expect(lyrics.source).toMatch(/^Source: /);
  });

  it("getLibrarySongs pages through the account's library", async () => {
    const expected = all<{ t: string }>(
      "SELECT target_id AS t FROM library_items WHERE account_id = 1 AND kind = 'song'",
    ).map((r) => r.t);
    const songs = (await signedIn.getLibrarySongs({ limit: null })) as unknown as Row[];
    expect(songs.map((s) => s.videoId).sort()).toEqual([...expected].sort());
  });

  it("getAccountInfo names the signed-in account", async () => {
    const info = (await signedIn.getAccountInfo()) as unknown as Row;
    expect(info.accountName).toBe("Emma Example");
    expect(info.channelHandle).toBe("@emmaexample");
  });
});

describe("writes through the client read back through the client", () => {
  it("creates a playlist, adds, reorders and removes items, then deletes it", async () => {
    const videos = all<{ v: string }>(
      "SELECT video_id AS v FROM songs WHERE video_type = 'MUSIC_VIDEO_TYPE_ATV' AND available = 1 LIMIT 3",
    ).map((r) => r.v);
    const id = (await signedIn.createPlaylist("Contract", "made by the contract test")) as unknown as string;
    const added = (await signedIn.addPlaylistItems(id, videos)) as unknown as { status: string };
    expect(added.status).toBe("STATUS_SUCCEEDED");
    let playlist = (await signedIn.getPlaylist(id)) as unknown as { tracks: Row[]; owned: boolean };
    expect(playlist.owned).toBe(true);
    expect(playlist.tracks.map((t) => t.videoId)).toEqual(videos);
    const duplicate = (await signedIn.addPlaylistItems(id, [videos[0]!])) as unknown as { status: string };
    expect(duplicate.status).not.toBe("STATUS_SUCCEEDED");
    await signedIn.removePlaylistItems(id, [playlist.tracks[1]!] as never);
    playlist = (await signedIn.getPlaylist(id)) as unknown as { tracks: Row[]; owned: boolean };
    expect(playlist.tracks.map((t) => t.videoId)).toEqual([videos[0], videos[2]]);
    expect(await signedIn.deletePlaylist(id)).toBe("STATUS_SUCCEEDED");
    expect(emu.state.store.playlist(id)).toBeNull();
  });

  it("likes a song into the liked songs and takes the like back", async () => {
    const v = q<{ v: string }>(
      "SELECT video_id AS v FROM songs WHERE video_type = 'MUSIC_VIDEO_TYPE_ATV' ORDER BY id DESC LIMIT 1",
    ).v;
    await signedIn.rateSong(v, "LIKE");
    let liked = (await signedIn.getLikedSongs({ limit: null })) as unknown as { tracks: Row[] };
    expect(liked.tracks[0]?.videoId).toBe(v);
    await signedIn.rateSong(v, "INDIFFERENT");
    liked = (await signedIn.getLikedSongs({ limit: null })) as unknown as { tracks: Row[] };
    expect(liked.tracks.map((t) => t.videoId)).not.toContain(v);
  });

  it("subscribes to an artist and finds it among the subscriptions", async () => {
    const c = q<{ c: string }>(
      "SELECT channel_id AS c FROM artists WHERE kind = 'artist' ORDER BY id DESC LIMIT 1",
    ).c;
    await signedIn.subscribeArtists([c]);
    const subs = (await signedIn.getLibrarySubscriptions({ limit: null })) as unknown as Row[];
    expect(subs.map((s) => s.browseId)).toContain(c);
    await signedIn.unsubscribeArtists([c]);
    const after = (await signedIn.getLibrarySubscriptions({ limit: null })) as unknown as Row[];
    expect(after.map((s) => s.browseId)).not.toContain(c);
  });
});

describe("uploads and podcasts through the client", () => {
  it("uploads a file, lists it among the uploads, refuses it twice, and deletes it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emu-upload-"));
    try {
      const file = join(dir, "Contract Band - Contract Song.mp3");
      writeFileSync(file, Buffer.alloc(48_000, 3));
      expect(await signedIn.uploadSong(file)).toBe("STATUS_SUCCEEDED");
      const again = (await signedIn.uploadSong(file)) as unknown as { status?: number };
      expect(again.status).toBe(409);
      const uploads = (await signedIn.getLibraryUploadSongs({ limit: null })) as unknown as Row[];
      const mine = uploads.find((u) => u.title === "Contract Song");
      expect((mine?.artists as Row[] | undefined)?.[0]?.name).toBe("Contract Band");
      expect(await signedIn.deleteUploadEntity(String(mine?.entityId))).toBe("STATUS_SUCCEEDED");
      const after = (await signedIn.getLibraryUploadSongs({ limit: null })) as unknown as Row[];
      expect(after.map((u) => u.title)).not.toContain("Contract Song");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("saves a podcast, finds it in the podcast library, and lists its episodes", async () => {
    const p = q<{ p: string; id: number; t: string }>(
      "SELECT playlist_id AS p, id, title AS t FROM podcasts LIMIT 1",
    );
    await signedIn.ratePlaylist(p.p, "LIKE");
    const library = (await signedIn.getLibraryPodcasts({ limit: null })) as unknown as Row[];
    expect(library.map((x) => x.title)).toContain(p.t);
    const podcast = (await anon.getPodcast(p.p, { limit: null })) as unknown as {
      title: string;
      episodes: Row[];
    };
    expect(podcast.title).toBe(p.t);
    expect(podcast.episodes.length).toBe(
      q<{ n: number }>("SELECT count(*) AS n FROM episodes WHERE podcast_id = ?", p.id).n,
    );
  });
});

describe("OAuth end to end", () => {
  it("setupOAuth gets a token from the emulator's device flow, and the client refreshes it", async () => {
    // Short-lived access tokens: the client must refresh before (nearly) every use.
    const oauthEmu = await startEmulator({
      catalogueSize: 100,
      seed: 2,
      oauth: { autoApproveAfterPolls: 2, accessTokenTtlSeconds: 30, autoApproveAccountId: 2 },
    });
    try {
      const sink = { write: () => true } as unknown as NodeJS.WritableStream;
      const endpoints = {
        deviceCodeUrl: `${oauthEmu.url}/o/oauth2/device/code`,
        tokenUrl: `${oauthEmu.url}/token`,
      };
      const token = await setupOAuth({
        clientId: "cid",
        clientSecret: "secret",
        ...endpoints,
        output: sink,
        intervalScaleMs: 1,
      });
      expect(token.token_type).toBe("Bearer");
      const client = new MusicClient({
        baseUrl: oauthEmu.url,
        auth: token,
        oauthCredentials: { clientId: "cid", clientSecret: "secret", tokenUrl: endpoints.tokenUrl },
        retry: false,
      });
      const first = (await client.getAccountInfo()) as unknown as Row;
      expect(first.accountName).toBe("Liam Example");
      await client.getAccountInfo();
      const stats = (await (await fetch(`${oauthEmu.url}/_emulator/stats`)).json()) as {
        requests: Record<string, number>;
      };
      // Two polls for the device code, then at least one refresh.
      expect(stats.requests["oauth/token"]).toBeGreaterThanOrEqual(3);
    } finally {
      await oauthEmu.stop();
    }
  });
});
