/**
 * Contract: the real MusicClient against the emulator. What the client reads must agree with the
 * emulator's database, and writes made through the client must read back through the client.
 *
 * Every client is wrapped by `recorded`, which notes each method called; the last test of this file
 * (tests of one file run in order) fails naming any public MusicClient method no test called.
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

/** Names of the MusicClient methods called through a recorded client. */
const called = new Set<string>();

/** The client itself, except that each method call is noted in `called` first. */
function recorded(client: MusicClient): MusicClient {
  return new Proxy(client, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof prop !== "string" || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        called.add(prop);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

type Row = Record<string, unknown>;
const q = <T>(sql: string, ...args: unknown[]) => emu.state.store.sqlite.prepare(sql).get(...args) as T;
const all = <T>(sql: string, ...args: unknown[]) => emu.state.store.sqlite.prepare(sql).all(...args) as T[];

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 500, seed: 21 });
  anon = recorded(new MusicClient({ baseUrl: emu.url, uploadUrl: emu.url, retry: false }));
  signedIn = recorded(
    new MusicClient({
      baseUrl: emu.url,
      uploadUrl: emu.url,
      auth: await headersFor(emu, 1),
      retry: false,
    }),
  );
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
    expect(emu.state.store.playlists.playlist(id)).toBeNull();
  });

  it("likes a song into the liked songs and takes the like back", async () => {
    const v = q<{ v: string }>(
      "SELECT video_id AS v FROM songs WHERE video_type = 'MUSIC_VIDEO_TYPE_ATV' AND video_id NOT IN (SELECT target_id FROM ratings WHERE account_id = 1) ORDER BY id DESC LIMIT 1",
    ).v;
    const before = (await signedIn.getLikedSongs({ limit: null })) as unknown as { tracks: Row[] };
    expect(before.tracks.map((t) => t.videoId)).not.toContain(v);
    await signedIn.rateSong(v, "LIKE");
    let liked = (await signedIn.getLikedSongs({ limit: null })) as unknown as { tracks: Row[] };
    expect(liked.tracks[0]?.videoId).toBe(v);
    await signedIn.rateSong(v, "INDIFFERENT");
    liked = (await signedIn.getLikedSongs({ limit: null })) as unknown as { tracks: Row[] };
    expect(liked.tracks.map((t) => t.videoId)).not.toContain(v);
  });

  it("a dislike reads back as the track's likeStatus and keeps the song out of the liked songs", async () => {
    const { v, b } = q<{ v: string; b: string }>(
      "SELECT s.video_id AS v, al.browse_id AS b FROM songs s JOIN albums al ON al.id = s.album_id WHERE s.video_type = 'MUSIC_VIDEO_TYPE_ATV' AND s.video_id NOT IN (SELECT target_id FROM ratings WHERE account_id = 1) ORDER BY s.id DESC LIMIT 1 OFFSET 1",
    );
    // An album page's rows carry each track's own rating (a watch queue only shows liked or not).
    const status = async () => (await signedIn.getAlbum(b)).tracks.find((t) => t.videoId === v)?.likeStatus;
    expect(await status()).toBe("INDIFFERENT");
    await signedIn.rateSong(v, "LIKE");
    expect(await status()).toBe("LIKE");
    await signedIn.rateSong(v, "DISLIKE");
    expect(await status()).toBe("DISLIKE");
    const liked = await signedIn.getLikedSongs({ limit: null });
    expect(liked.tracks.map((t) => t.videoId)).not.toContain(v);
    await signedIn.rateSong(v, "INDIFFERENT");
    expect(await status()).toBe("INDIFFERENT");
  });

  it("subscribes to an artist and finds it among the subscriptions", async () => {
    const c = q<{ c: string }>(
      "SELECT channel_id AS c FROM artists WHERE kind = 'artist' AND channel_id NOT IN (SELECT target_id FROM library_items WHERE account_id = 1 AND kind = 'subscription') ORDER BY id DESC LIMIT 1",
    ).c;
    expect((await signedIn.getArtist(c)).subscribed).toBe(false);
    const before = (await signedIn.getLibrarySubscriptions({ limit: null })) as unknown as Row[];
    expect(before.map((s) => s.browseId)).not.toContain(c);
    await signedIn.subscribeArtists([c]);
    const subs = (await signedIn.getLibrarySubscriptions({ limit: null })) as unknown as Row[];
    expect(subs.map((s) => s.browseId)).toContain(c);
    expect((await signedIn.getArtist(c)).subscribed).toBe(true);
    await signedIn.unsubscribeArtists([c]);
    const after = (await signedIn.getLibrarySubscriptions({ limit: null })) as unknown as Row[];
    expect(after.map((s) => s.browseId)).not.toContain(c);
    expect((await signedIn.getArtist(c)).subscribed).toBe(false);
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
      const client = recorded(
        new MusicClient({
          baseUrl: oauthEmu.url,
          auth: token,
          oauthCredentials: { clientId: "cid", clientSecret: "secret", tokenUrl: endpoints.tokenUrl },
          retry: false,
        }),
      );
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

describe("catalogue pages through the client", () => {
  it("getSong's videoDetails match the catalogue song", async () => {
    const s = q<{ v: string; t: string; d: number; c: string; a: string }>(
      "SELECT s.video_id AS v, s.title AS t, s.duration_seconds AS d, a.channel_id AS c, a.name AS a FROM songs s JOIN artists a ON a.id = s.artist_id WHERE s.available = 1 ORDER BY s.views DESC LIMIT 1",
    );
    const song = await anon.getSong(s.v);
    expect(song.videoDetails).toMatchObject({
      videoId: s.v,
      title: s.t,
      lengthSeconds: String(s.d),
      channelId: s.c,
      author: s.a,
    });
    expect(song.playabilityStatus?.status).toBe("OK");
    expect(song.playbackTracking?.videostatsPlaybackUrl.baseUrl).toEqual(expect.any(String));
  });

  it("getHome's rows are non-empty and their albums and playlists open", async () => {
    const rows = await signedIn.getHome({ limit: 6 });
    expect(rows.length).toBeGreaterThan(0);
    const items = rows.flatMap((r) => (Array.isArray(r.contents) ? r.contents : [])) as unknown as Row[];
    for (const r of rows) expect(r.title).toEqual(expect.any(String));
    expect(items.length).toBeGreaterThan(0);
    // Every album card opens with getAlbum and every playlist card with getPlaylist, titles agreeing.
    const albums = items.filter((i) => String(i.browseId ?? "").startsWith("MPRE"));
    const playlists = items.filter((i) => i.playlistId && !i.videoId && !i.browseId);
    expect(albums.length).toBeGreaterThan(0);
    expect(playlists.length).toBeGreaterThan(0);
    for (const album of albums) {
      expect((await anon.getAlbum(String(album.browseId))).title).toBe(album.title);
    }
    for (const playlist of playlists) {
      expect((await anon.getPlaylist(String(playlist.playlistId), { limit: 1 })).title).toBe(playlist.title);
    }
  });

  it("getCharts for ZZ has no trending list, and for US names the country", async () => {
    const global = await anon.getCharts({ country: "ZZ" });
    expect(global.trending).toBeUndefined();
    expect(global.countries.options).toContain("US");
    const artists = all<{ t: string }>(
      "SELECT target_id AS t FROM charts WHERE country = 'ZZ' AND section = 'artists' ORDER BY position",
    ).map((r) => r.t);
    expect(artists.length).toBeGreaterThan(0);
    expect(global.artists?.map((a) => a.browseId)).toEqual(artists);
    const us = await anon.getCharts({ country: "US" });
    expect(us.countries.selected?.text).toBe("United States");
    const usArtists = all<{ t: string }>(
      "SELECT target_id AS t FROM charts WHERE country = 'US' AND section = 'artists' ORDER BY position",
    ).map((r) => r.t);
    expect(us.artists?.map((a) => a.browseId)).toEqual(usArtists);
    expect(usArtists).not.toEqual(artists);
    // The video charts are the country's stored chart playlists, and each opens.
    for (const [country, charts] of [
      ["ZZ", global],
      ["US", us],
    ] as const) {
      const videos = all<{ t: string }>(
        "SELECT target_id AS t FROM charts WHERE country = ? AND section = 'videos' ORDER BY position",
        country,
      ).map((r) => r.t.replace(/^VL/, ""));
      expect(charts.videos?.map((v) => v.playlistId)).toEqual(videos);
      const first = charts.videos?.[0];
      expect((await anon.getPlaylist(String(first?.playlistId), { limit: 1 })).title).toBe(first?.title);
    }
  });

  it("getExplore's sections hold catalogue albums and the mood categories", async () => {
    const explore = await anon.getExplore();
    expect(explore.new_releases?.length).toBeGreaterThan(0);
    for (const a of explore.new_releases ?? []) {
      expect(q<{ t: string }>("SELECT title AS t FROM albums WHERE browse_id = ?", a.browseId)?.t).toBe(
        a.title,
      );
    }
    const params = new Set(all<{ p: string }>("SELECT params AS p FROM mood_categories").map((r) => r.p));
    expect(explore.moods_and_genres?.length).toBeGreaterThan(0);
    for (const m of explore.moods_and_genres ?? []) expect(params.has(m.params)).toBe(true);
    // Trending holds catalogue videos; top episodes are stored episodes.
    const trending = (explore.trending?.items ?? []) as unknown as Row[];
    expect(trending.length).toBeGreaterThan(0);
    for (const t of trending) {
      expect(q<{ t: string }>("SELECT title AS t FROM songs WHERE video_id = ?", t.videoId)?.t).toBe(t.title);
    }
    const episodes = (explore.top_episodes ?? []) as unknown as Row[];
    expect(episodes.length).toBeGreaterThan(0);
    for (const e of episodes) {
      expect(q<{ t: string }>("SELECT title AS t FROM episodes WHERE video_id = ?", e.videoId)?.t).toBe(
        e.title,
      );
    }
  });

  it("getMoodCategories lists the stored categories, and getMoodPlaylists a category's playlists", async () => {
    const categories = await anon.getMoodCategories();
    const flat = Object.values(categories).flat();
    const stored = all<{ t: string; p: string; id: number }>(
      "SELECT title AS t, params AS p, id FROM mood_categories ORDER BY id",
    );
    expect(flat.map((c) => c.params).sort()).toEqual(stored.map((c) => c.p).sort());
    const first = stored[0]!;
    const playlists = await anon.getMoodPlaylists(first.p);
    const expected = all<{ p: string }>(
      "SELECT playlist_id AS p FROM mood_playlists WHERE category_id = ? ORDER BY position",
      first.id,
    ).map((r) => r.p);
    expect(playlists.map((p) => p.playlistId)).toEqual(expected);
  });

  it("getArtist, then getArtistAlbums with no limit lists every album of the artist", async () => {
    const a = q<{ c: string; id: number; n: string; k: number }>(
      "SELECT a.channel_id AS c, a.id, a.name AS n, count(*) AS k FROM artists a JOIN albums al ON al.artist_id = a.id WHERE al.type = 'Album' GROUP BY a.id ORDER BY k DESC LIMIT 1",
    );
    const artist = await anon.getArtist(a.c);
    expect(artist.name).toBe(a.n);
    expect(artist.channelId).toBe(a.c);
    const section = artist.albums;
    expect(section?.browseId).toEqual(expect.any(String));
    const albums = await anon.getArtistAlbums(String(section?.browseId), String(section?.params), {
      limit: null,
    });
    expect(albums.length).toBe(a.k);
    const titles = all<{ t: string }>(
      "SELECT title AS t FROM albums WHERE artist_id = ? AND type = 'Album'",
      a.id,
    ).map((r) => r.t);
    expect(albums.map((x) => x.title).sort()).toEqual([...titles].sort());
  });

  it("getAlbumBrowseId maps an album's audio playlist back to its browse id", async () => {
    const a = q<{ b: string; p: string }>(
      "SELECT browse_id AS b, audio_playlist_id AS p FROM albums ORDER BY id DESC LIMIT 1",
    );
    expect(await anon.getAlbumBrowseId(a.p)).toBe(a.b);
  });

  it("getSearchSuggestions suggests completions of the typed text", async () => {
    const t = q<{ t: string }>(
      "SELECT title AS t FROM songs WHERE video_type = 'MUSIC_VIDEO_TYPE_ATV' ORDER BY views DESC LIMIT 1",
    ).t;
    const typed = t.slice(0, 3).toLowerCase();
    const suggestions = await anon.getSearchSuggestions(typed);
    expect(suggestions.length).toBeGreaterThan(0);
    for (const s of suggestions) expect(s.toLowerCase().startsWith(typed)).toBe(true);
    const detailed = await anon.getSearchSuggestions(typed, { detailedRuns: true });
    expect(detailed.map((d) => d.text)).toEqual(suggestions);
  });

  it("getSongRelated opens the related id of the watch playlist", async () => {
    const v = q<{ v: string }>(
      "SELECT video_id AS v FROM songs WHERE video_type = 'MUSIC_VIDEO_TYPE_ATV' ORDER BY views DESC LIMIT 1",
    ).v;
    const watch = await anon.getWatchPlaylist({ videoId: v });
    expect(watch.related).toEqual(expect.stringMatching(/^MPTR/));
    const related = await anon.getSongRelated(String(watch.related));
    expect(related.length).toBeGreaterThan(0);
    const cards = related.flatMap((r) => (Array.isArray(r.contents) ? r.contents : [])) as unknown as Row[];
    expect(cards.length).toBeGreaterThan(0);
    // The cards are catalogue songs, none the song itself.
    const songIds = cards.map((c) => c.videoId).filter((x) => typeof x === "string") as string[];
    expect(songIds.length).toBeGreaterThan(0);
    for (const id of songIds) {
      expect(q<{ n: number }>("SELECT count(*) AS n FROM songs WHERE video_id = ?", id).n).toBe(1);
    }
    expect(songIds).not.toContain(v);
  });

  it("getUser leads to all of a user's playlists and videos", async () => {
    const account = q<{ id: number; c: string; n: string }>(
      "SELECT id, channel_id AS c, name AS n FROM accounts WHERE id = 1",
    );
    const publicLists = all<{ p: string }>(
      "SELECT playlist_id AS p FROM playlists WHERE owner_account_id = ? AND privacy = 'PUBLIC'",
      account.id,
    ).map((r) => r.p);
    const user = await anon.getUser(account.c);
    expect(user.name).toBe(account.n);
    expect(user.playlists?.params).toEqual(expect.any(String));
    const playlists = await anon.getUserPlaylists(account.c, String(user.playlists?.params));
    expect(playlists.map((p) => p.playlistId).sort()).toEqual([...publicLists].sort());
    const videos = await anon.getUserVideos(account.c, String(user.videos?.params));
    expect(videos.map((v) => v.videoId)).toEqual(
      emu.state.store.catalogue.userVideos(account.id, 1000).map((s) => s.videoId),
    );
  });
});

describe("podcasts and channels through the client", () => {
  it("getChannel, then getChannelEpisodes holds the channel's podcast episodes", async () => {
    const c = q<{ c: string; id: number; n: string }>(
      "SELECT a.channel_id AS c, a.id, a.name AS n FROM artists a JOIN podcasts p ON p.channel_id = a.id WHERE a.kind = 'channel' LIMIT 1",
    );
    const channel = await anon.getChannel(c.c);
    expect(channel.title).toBe(c.n);
    const section = channel.episodes;
    expect(section?.params).toEqual(expect.any(String));
    const episodes = await anon.getChannelEpisodes(String(section?.browseId), String(section?.params));
    const stored = new Set(
      all<{ v: string }>(
        "SELECT e.video_id AS v FROM episodes e JOIN podcasts p ON p.id = e.podcast_id WHERE p.channel_id = ?",
        c.id,
      ).map((r) => r.v),
    );
    expect(episodes.length).toBe(Math.min(stored.size, 100));
    for (const e of episodes) expect(stored.has(String(e.videoId))).toBe(true);
  });

  it("getEpisode shows an episode's title and its show", async () => {
    const e = q<{ v: string; t: string; p: string }>(
      "SELECT e.video_id AS v, e.title AS t, p.playlist_id AS p FROM episodes e JOIN podcasts p ON p.id = e.podcast_id ORDER BY e.id DESC LIMIT 1",
    );
    const episode = await anon.getEpisode(e.v);
    expect(episode.title).toBe(e.t);
    expect(episode.playlistId).toBe(`MPSP${e.p}`);
  });

  it("getEpisodesPlaylist (new episodes) holds the saved podcast's latest episodes", async () => {
    const p = q<{ p: string; id: number }>(
      "SELECT playlist_id AS p, id FROM podcasts ORDER BY id DESC LIMIT 1",
    );
    await signedIn.ratePlaylist(p.p, "LIKE");
    const latest = all<{ v: string }>(
      "SELECT video_id AS v FROM episodes WHERE podcast_id = ? ORDER BY published_day DESC LIMIT 3",
      p.id,
    ).map((r) => r.v);
    const fresh = await signedIn.getEpisodesPlaylist("RDPN");
    const ids = fresh.episodes.map((e) => e.videoId);
    for (const v of latest) expect(ids).toContain(v);
    await signedIn.ratePlaylist(p.p, "INDIFFERENT");
    const after = await signedIn.getEpisodesPlaylist();
    for (const v of latest) expect(after.episodes.map((e) => e.videoId)).not.toContain(v);
  });

  it("saving an episode puts it among the saved episodes, removing it takes it out", async () => {
    const v = q<{ v: string }>("SELECT video_id AS v FROM episodes ORDER BY id LIMIT 1 OFFSET 3").v;
    const added = (await signedIn.addPlaylistItems("SE", [v])) as unknown as { status: string };
    expect(added.status).toBe("STATUS_SUCCEEDED");
    expect((await signedIn.getEpisode(v)).saved).toBe(true);
    const saved = await signedIn.getSavedEpisodes({ limit: null });
    const row = saved.tracks.find((t) => t.videoId === v);
    expect(row).toBeDefined();
    expect(await signedIn.removePlaylistItems("SE", [row!] as never)).toBe("STATUS_SUCCEEDED");
    const after = await signedIn.getSavedEpisodes({ limit: null });
    expect(after.tracks.map((t) => t.videoId)).not.toContain(v);
    expect((await signedIn.getEpisode(v)).saved).toBe(false);
  });
});

describe("library reads agree with the account's library", () => {
  const stored = (kind: string) =>
    all<{ t: string }>("SELECT target_id AS t FROM library_items WHERE account_id = 1 AND kind = ?", kind)
      .map((r) => r.t)
      .sort();

  it("liking an album's playlist puts it among the library albums, INDIFFERENT takes it out", async () => {
    const a = q<{ b: string; p: string }>(
      "SELECT browse_id AS b, audio_playlist_id AS p FROM albums WHERE type = 'Album' AND audio_playlist_id NOT IN (SELECT target_id FROM ratings WHERE account_id = 1) ORDER BY id LIMIT 1",
    );
    expect((await signedIn.getLibraryAlbums({ limit: null })).map((x) => x.browseId)).not.toContain(a.b);
    await signedIn.ratePlaylist(a.p, "LIKE");
    const albums = await signedIn.getLibraryAlbums({ limit: null });
    expect(albums.map((x) => x.browseId)).toContain(a.b);
    expect(albums.find((x) => x.browseId === a.b)?.playlistId).toBe(a.p);
    await signedIn.ratePlaylist(a.p, "INDIFFERENT");
    expect((await signedIn.getLibraryAlbums({ limit: null })).map((x) => x.browseId)).not.toContain(a.b);
  });

  it("getLibraryChannels lists the saved podcast channels", async () => {
    const channels = await signedIn.getLibraryChannels({ limit: null });
    expect(channels.map((c) => c.browseId).sort()).toEqual(stored("channel"));
  });

  it("getLibraryArtists lists the artists of the library's songs", async () => {
    const artists = await signedIn.getLibraryArtists({ limit: null });
    const expected = all<{ c: string }>(
      "SELECT DISTINCT a.channel_id AS c FROM library_items l JOIN songs s ON s.video_id = l.target_id JOIN artists a ON a.id = s.artist_id WHERE l.account_id = 1 AND l.kind = 'song'",
    ).map((r) => r.c);
    // Library artist pages are the artist's channel id behind an MPLA prefix.
    expect(artists.map((a) => a.browseId).sort()).toEqual(expected.map((c) => `MPLA${c}`).sort());
  });

  it("ratePlaylist LIKE puts a playlist among the library playlists, INDIFFERENT takes it out", async () => {
    const p = q<{ p: string }>(
      "SELECT playlist_id AS p FROM playlists WHERE kind = 'community' AND playlist_id NOT IN (SELECT target_id FROM library_items WHERE account_id = 1) ORDER BY id DESC LIMIT 1",
    ).p;
    const before = await signedIn.getLibraryPlaylists({ limit: null });
    expect(before.map((x) => x.playlistId)).not.toContain(p);
    await signedIn.ratePlaylist(p, "LIKE");
    const liked = await signedIn.getLibraryPlaylists({ limit: null });
    expect(liked.map((x) => x.playlistId)).toContain(p);
    await signedIn.ratePlaylist(p, "INDIFFERENT");
    const after = await signedIn.getLibraryPlaylists({ limit: null });
    expect(after.map((x) => x.playlistId)).not.toContain(p);
  });

  it("editSongLibraryStatus adds a song to the library songs and removes it with the other token", async () => {
    const v = q<{ v: string }>(
      "SELECT video_id AS v FROM songs WHERE video_type = 'MUSIC_VIDEO_TYPE_ATV' AND available = 1 AND video_id NOT IN (SELECT target_id FROM library_items WHERE account_id = 1) ORDER BY views DESC LIMIT 1",
    ).v;
    const watch = await signedIn.getWatchPlaylist({ videoId: v });
    const tokens = (watch.tracks[0] as unknown as { feedbackTokens: { add: string; remove: string } })
      .feedbackTokens;
    expect(tokens.add).toEqual(expect.any(String));
    await signedIn.editSongLibraryStatus([tokens.add]);
    const songs = await signedIn.getLibrarySongs({ limit: null });
    expect(songs.map((s) => s.videoId)).toContain(v);
    await signedIn.editSongLibraryStatus([tokens.remove]);
    const after = await signedIn.getLibrarySongs({ limit: null });
    expect(after.map((s) => s.videoId)).not.toContain(v);
  });
});

describe("history and taste profile through the client", () => {
  it("addHistoryItem(getSong(…)) records a play; removeHistoryItems with its token removes it", async () => {
    const v = q<{ v: string }>(
      "SELECT video_id AS v FROM songs WHERE available = 1 AND video_id NOT IN (SELECT video_id FROM history WHERE account_id = 1) ORDER BY id LIMIT 1",
    ).v;
    const song = await signedIn.getSong(v);
    const r = (await signedIn.addHistoryItem(song)) as unknown as { status?: number };
    expect(r.status ?? 204).toBeLessThan(300);
    const history = await signedIn.getHistory();
    const item = history.find((h) => h.videoId === v);
    expect(item).toBeDefined();
    expect(history[0]?.videoId).toBe(v);
    const token = (item as unknown as { feedbackToken: string }).feedbackToken;
    expect(token).toEqual(expect.any(String));
    await signedIn.removeHistoryItems([token]);
    const after = await signedIn.getHistory();
    expect(after.map((h) => h.videoId)).not.toContain(v);
  });

  it("setTasteProfile stores the artists chosen from getTasteProfile", async () => {
    const profile = await signedIn.getTasteProfile();
    const names = Object.keys(profile);
    expect(names.length).toBeGreaterThan(1);
    // The profile offers catalogue artists.
    for (const n of names.slice(0, 5)) {
      expect(q<{ n: number }>("SELECT count(*) AS n FROM artists WHERE name = ?", n).n).toBeGreaterThan(0);
    }
    const storedNames = () =>
      all<{ n: string }>(
        "SELECT a.name AS n FROM taste_profile t JOIN artists a ON a.id = t.artist_id WHERE t.account_id = 1",
      ).map((r) => r.n);
    const before = storedNames();
    const chosen = names.filter((n) => !before.includes(n)).slice(0, 2);
    expect(chosen.length).toBe(2);
    await signedIn.setTasteProfile(chosen, { tasteProfile: profile });
    const after = storedNames();
    expect([...after].sort()).toEqual([...before, ...chosen].sort());
  });
});

describe("playlist edits through the client read back", () => {
  let id: string;
  let pool: string[];
  const videoIds = async () => (await signedIn.getPlaylist(id, { limit: null })).tracks.map((t) => t.videoId);

  beforeAll(async () => {
    pool = all<{ v: string }>(
      "SELECT video_id AS v FROM songs WHERE video_type = 'MUSIC_VIDEO_TYPE_ATV' AND available = 1 ORDER BY id DESC LIMIT 6",
    ).map((r) => r.v);
    id = String(await signedIn.createPlaylist("Edits", "contract edits", { privacyStatus: "PRIVATE" }));
    await signedIn.addPlaylistItems(id, pool.slice(0, 3));
  });

  it("a privacy change reads back through getPlaylist", async () => {
    expect((await signedIn.getPlaylist(id)).privacy).toBe("PRIVATE");
    expect(await signedIn.editPlaylist(id, { privacyStatus: "UNLISTED" })).toBe("STATUS_SUCCEEDED");
    expect((await signedIn.getPlaylist(id)).privacy).toBe("UNLISTED");
    expect(await signedIn.editPlaylist(id, { title: "Edits renamed", description: "changed" })).toBe(
      "STATUS_SUCCEEDED",
    );
    const p = await signedIn.getPlaylist(id);
    expect(p.title).toBe("Edits renamed");
    expect(p.description).toBe("changed");
  });

  it("without duplicates a duplicate adds nothing; with it the video is added again", async () => {
    const before = await videoIds();
    const refused = (await signedIn.addPlaylistItems(id, [pool[3]!, pool[0]!])) as unknown as {
      status: string;
    };
    expect(refused.status).not.toBe("STATUS_SUCCEEDED");
    expect(await videoIds()).toEqual(before);
    const ok = (await signedIn.addPlaylistItems(id, [pool[0]!], { duplicates: true })) as unknown as {
      status: string;
    };
    expect(ok.status).toBe("STATUS_SUCCEEDED");
    expect(await videoIds()).toEqual([...before, pool[0]]);
  });

  it("moving an item before another reads back in the new order", async () => {
    const tracks = (await signedIn.getPlaylist(id, { limit: null })).tracks;
    const last = tracks.at(-1)!;
    const first = tracks[0]!;
    expect(
      await signedIn.editPlaylist(id, { moveItem: [String(last.setVideoId), String(first.setVideoId)] }),
    ).toBe("STATUS_SUCCEEDED");
    const moved = await videoIds();
    expect(moved).toEqual([last.videoId, ...tracks.slice(0, -1).map((t) => t.videoId)]);
  });

  it("after addToTop, an added video lands first", async () => {
    expect(await signedIn.editPlaylist(id, { addToTop: true })).toBe("STATUS_SUCCEEDED");
    await signedIn.addPlaylistItems(id, [pool[4]!]);
    expect((await videoIds())[0]).toBe(pool[4]);
    expect(await signedIn.editPlaylist(id, { addToTop: false })).toBe("STATUS_SUCCEEDED");
    await signedIn.addPlaylistItems(id, [pool[5]!]);
    expect((await videoIds()).at(-1)).toBe(pool[5]);
  });

  it("appending another playlist adds its items at the end, and deleting the playlist removes it", async () => {
    const source = all<{ v: string }>(
      "SELECT video_id AS v FROM songs WHERE video_type = 'MUSIC_VIDEO_TYPE_ATV' AND available = 1 ORDER BY id LIMIT 2",
    ).map((r) => r.v);
    const other = String(await signedIn.createPlaylist("Source", "", { videoIds: source }));
    expect((await signedIn.getPlaylist(other)).tracks.map((t) => t.videoId)).toEqual(source);
    const before = await videoIds();
    expect(await signedIn.editPlaylist(id, { addPlaylistId: other })).toBe("STATUS_SUCCEEDED");
    expect(await videoIds()).toEqual([...before, ...source]);
    expect(await signedIn.deletePlaylist(other)).toBe("STATUS_SUCCEEDED");
    const library = await signedIn.getLibraryPlaylists({ limit: null });
    expect(library.map((p) => p.playlistId)).not.toContain(other);
    expect(library.map((p) => p.playlistId)).toContain(id);
  });
});

describe("uploads read back by album and artist", () => {
  it("an uploaded file shows in getLibraryUploadAlbums / Artists, and their pages list it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emu-upload-"));
    try {
      const file = join(dir, "Contract Uploader - Upload Track.mp3");
      writeFileSync(file, Buffer.alloc(32_000, 5));
      expect(await signedIn.uploadSong(file)).toBe("STATUS_SUCCEEDED");
      const stored = q<{ a: string; t: string }>(
        "SELECT album_title AS a, title AS t FROM uploads WHERE account_id = 1 AND title = 'Upload Track'",
      );
      const artists = await signedIn.getLibraryUploadArtists({ limit: null });
      const artist = artists.find((a) => a.artist === "Contract Uploader");
      expect(artist).toBeDefined();
      const byArtist = await signedIn.getLibraryUploadArtist(String(artist?.browseId), { limit: null });
      expect(byArtist.map((s) => s.title)).toEqual(["Upload Track"]);
      const albums = await signedIn.getLibraryUploadAlbums({ limit: null });
      const album = albums.find((a) => a.title === stored.a);
      expect(album).toBeDefined();
      const page = await signedIn.getLibraryUploadAlbum(String(album?.browseId));
      expect(page.tracks.map((t) => t.title)).toContain("Upload Track");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("credentials in what the service sends back", () => {
  it("redact replaces the signed-in client's SAPISID and cookie, and leaves the rest", async () => {
    const headers = await headersFor(emu, 1);
    const cookie = String(headers.cookie ?? headers.Cookie);
    const sapisid = /SAPISID=([^;]+)/.exec(cookie)?.[1] ?? "";
    expect(sapisid.length).toBeGreaterThan(11);
    const echoed = { note: `your id is ${sapisid}`, whole: cookie, kept: "Daft Punk" };
    const scrubbed = signedIn.redact(echoed);
    expect(JSON.stringify(scrubbed)).not.toContain(sapisid);
    expect(scrubbed.kept).toBe("Daft Punk");
    expect(echoed.note).toContain(sapisid); // the value given is not changed in place
  });

  it("secretIndex holds the signed-in client's credentials as they stand: a piece of its SAPISID is found", async () => {
    const headers = await headersFor(emu, 1);
    const sapisid = /SAPISID=([^;]+)/.exec(String(headers.cookie ?? headers.Cookie))?.[1] ?? "";
    expect(sapisid.length).toBeGreaterThan(12);
    const index = signedIn.secretIndex();
    const text = `an answer that echoes ${sapisid.slice(1, 13)} in its middle`;
    expect(index.spans(text).map(([from, to]) => text.slice(from, to))).toContain(sapisid.slice(1, 13));
    expect(index.spans("an answer that echoes nothing of anyone's")).toEqual([]);
  });
});

describe("completeness", () => {
  it("every public MusicClient method was called by a contract test above", () => {
    const methods = Object.getOwnPropertyNames(MusicClient.prototype).filter((n) => n !== "constructor");
    expect(methods.length).toBeGreaterThan(50);
    const missing = methods.filter((m) => !called.has(m));
    expect(missing, `MusicClient methods no contract test calls: ${missing.join(", ")}`).toEqual([]);
  });
});
