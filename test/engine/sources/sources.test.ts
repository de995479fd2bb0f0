import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { SourceSpec } from "../../../engine/recipe/types.js";
import { fromSearchResult, fromTrack, parseDuration } from "../../../engine/sources/normalise.js";
import {
  chartPlaylist,
  readOrder,
  readSource,
  readSources,
  SourceError,
} from "../../../engine/sources/read.js";
import type { PlaylistResult, SourceClient } from "../../../engine/sources/reader.js";
import { rows } from "../support/fixtures.js";

const fixtures = new URL("../../../../shared/fixtures/expected/", import.meta.url);
const haveFixtures = existsSync(fixtures);
if (!haveFixtures)
  console.warn(`shared fixtures not found at ${fixtures.pathname}: fixture-based source tests are skipped`);

function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(name, fixtures), "utf8")) as T;
}

type Call = [string, ...unknown[]];

/** An in-memory SourceClient: answers from the given handlers, records every call. */
function fakeClient(handlers: Partial<Record<keyof SourceClient, (...args: never[]) => unknown>>) {
  const calls: Call[] = [];
  const client = new Proxy({} as SourceClient, {
    get(_t, name: string) {
      return async (...args: unknown[]) => {
        calls.push([name, ...args]);
        const h = handlers[name as keyof SourceClient] as ((...a: unknown[]) => unknown) | undefined;
        if (!h) throw new Error(`fake client: ${name} not expected`);
        return h(...args);
      };
    },
  });
  return { client, calls };
}

const ctx = { reads: new Map(), self: null };
const base = { limit: null } as const;

describe("normalising results", () => {
  it("reads durations the service writes", () => {
    expect(parseDuration("3:45")).toBe(225);
    expect(parseDuration("1:02:03")).toBe(3723);
    expect(parseDuration("1 hr 25 mins")).toBe(5100);
    expect(parseDuration("47 mins")).toBe(2820);
    expect(parseDuration("30 sec")).toBe(30);
    expect(parseDuration("soon")).toBeNull();
    expect(parseDuration(null)).toBeNull();
  });

  it("marks rows without a videoId unavailable and keeps album names given as text", () => {
    const item = fromTrack({ title: "Hidden", album: "Some Album" }, "s", 1);
    expect(item).toMatchObject({
      videoId: null,
      isAvailable: false,
      album: { name: "Some Album", id: null },
    });
  });

  it("maps search results by resultType and drops the ones it cannot use", () => {
    expect(
      fromSearchResult({ resultType: "album", title: "A", browseId: "MPREb_1", playlistId: "OLAK1" }, "s", 1),
    ).toMatchObject({
      kind: "album",
      playlistId: "OLAK1",
      browseId: "MPREb_1",
    });
    expect(fromSearchResult({ resultType: "artist", artist: "X", browseId: "UC1" }, "s", 1)).toMatchObject({
      kind: "artist",
      title: "X",
    });
    expect(
      fromSearchResult({ resultType: "podcast", title: "P", browseId: "MPSPPL1" }, "s", 1),
    ).toMatchObject({
      kind: "podcast",
      playlistId: "PL1",
    });
    expect(fromSearchResult({ resultType: "profile" }, "s", 1)).toBeNull();
  });
});

describe.skipIf(!haveFixtures)("readers against captured results", () => {
  it("playlist: every track normalised, in order, with rank and source", async () => {
    const result = fixture<PlaylistResult>("yt_get_playlist_20240624.json");
    const { client, calls } = fakeClient({ getPlaylist: () => result });
    const read = await readSource({ ...base, id: "mine", type: "playlist", playlistId: "PLCZ" }, client, ctx);
    expect(calls).toEqual([["getPlaylist", "PLCZ", { limit: null }]]);
    expect(read.truncated).toBe(false);
    expect(read.items).toHaveLength(result.tracks.length);
    expect(read.items[0]).toEqual({
      kind: "track",
      videoId: "kfSQkZuIx84",
      title: "Drive My Car (Remastered 2009)",
      artists: [{ name: "The Beatles", id: "UC2XdaAVUannpujzv32jcouQ" }],
      album: { name: "Rubber Soul", id: "MPREb_NPpc9jtWHdJ" },
      duration_seconds: 149,
      videoType: "MUSIC_VIDEO_TYPE_ATV",
      isAvailable: true,
      isExplicit: false,
      date: null,
      playlistId: null,
      browseId: null,
      setVideoId: "56B44F6D10557CC6",
      feedbackTokens: null,
      source: "mine",
      rank: 1,
    });
    expect(read.items.map((i) => i.rank)).toEqual([1, 2, 3, 4, 5]);
  });

  it("playlist: flags a read with fewer tracks than announced, unless a limit explains it", async () => {
    const result = fixture<PlaylistResult>("yt_get_playlist_20240624.json");
    const short = { ...result, trackCount: 500 };
    const { client } = fakeClient({ getPlaylist: () => short });
    const spec: SourceSpec = { ...base, id: "p", type: "playlist", playlistId: "PL1" };
    expect((await readSource(spec, client, ctx)).truncated).toBe(true);
    expect((await readSource({ ...spec, limit: 5 }, client, ctx)).truncated).toBe(false);
    expect((await readSource({ ...spec, limit: 3 }, client, ctx)).items).toHaveLength(3);
  });

  it("chart: picks chart playlists by title and reads artists with their chart rank", async () => {
    const charts = fixture<Parameters<typeof chartPlaylist>[0]>(
      "ytm_2026_07_get_charts_us_albums_no_genres.json",
    );
    expect(chartPlaylist(charts, "trending")).toBe(charts.videos![0]!.playlistId);
    expect(chartPlaylist(charts, "videos")).toBe(charts.videos![1]!.playlistId);
    const playlist = fixture<PlaylistResult>("ytm_2025_01_get_playlist_chart.json");
    const { client, calls } = fakeClient({ getCharts: () => charts, getPlaylist: () => playlist });
    const read = await readSource(
      { ...base, id: "c", type: "chart", country: "US", section: "videos" },
      client,
      ctx,
    );
    expect(calls.map((c) => c[0])).toEqual(["getCharts", "getPlaylist"]);
    expect(calls[0]).toEqual(["getCharts", { country: "US" }]);
    expect(calls[1]![1]).toBe(charts.videos![1]!.playlistId);
    expect(read.items[0]!.videoType).toBe("MUSIC_VIDEO_TYPE_OMV");
    const artists = await readSource(
      { ...base, id: "a", type: "chart", country: "US", section: "artists" },
      client,
      ctx,
    );
    expect(artists.items[0]).toMatchObject({
      kind: "artist",
      title: "YoungBoy Never Broke Again",
      browseId: "UCR28YDxjDE3ogQROaNdnRbQ",
      rank: 1,
    });
    await expect(
      readSource({ ...base, id: "s", type: "chart", country: "US", section: "songs" }, client, ctx),
    ).rejects.toThrow(
      'source "s": the US charts have no songs chart (only signed-in premium accounts get one); ' +
        "they hold videos, trending, artists",
    );
    // A page holding none of the sections (no carousel, no artists) says so too.
    const bare = fakeClient({ getCharts: () => ({ countries: charts.countries }) }).client;
    await expect(
      readSource({ ...base, id: "v", type: "chart", country: "ZZ", section: "videos" }, bare, ctx),
    ).rejects.toThrow(
      'source "v": the ZZ charts have no videos chart; they hold none of the sections a chart source reads',
    );
  });

  it("radio: reads the watch playlist as a radio and its `length` as a duration", async () => {
    const watch = fixture<{ tracks: [] }>("yt_get_watch_playlist_20250630.json");
    const { client, calls } = fakeClient({ getWatchPlaylist: () => watch });
    const read = await readSource(
      { id: "r", type: "radio", videoId: "lYBUbBu4W08", playlistId: null, from: null, limit: 25 },
      client,
      ctx,
    );
    expect(calls).toEqual([["getWatchPlaylist", { videoId: "lYBUbBu4W08", radio: true, limit: 25 }]]);
    expect(read.items).toHaveLength(25);
    expect(read.items[0]).toMatchObject({
      title: "Never Gonna Give You Up",
      duration_seconds: 214,
      album: { name: "Whenever You Need Somebody" },
    });
  });

  it("album: fills empty track artists from the album and does not call region gaps truncation", async () => {
    const album = fixture<{ tracks: { artists: unknown[] }[] }>("yt_get_album_20240724.json");
    const withGap = { ...album, tracks: album.tracks.map((t, i) => (i === 0 ? { ...t, artists: [] } : t)) };
    const { client } = fakeClient({ getAlbum: () => withGap });
    const read = await readSource(
      { ...base, id: "al", type: "album", browseId: "MPREb_x", audioPlaylistId: null },
      client,
      ctx,
    );
    expect(read.truncated).toBe(false);
    expect(read.items[0]!.artists[0]!.name).toBe("¥$");
    expect(read.items[0]!.album).toEqual({ name: "VULTURES 1", id: null });
  });

  it("album by audio playlist id: resolves the browse id first, and says when there is none", async () => {
    const album = fixture<object>("yt_get_album_20240724.json");
    const { client, calls } = fakeClient({ getAlbumBrowseId: () => "MPREb_1", getAlbum: () => album });
    await readSource(
      { ...base, id: "al", type: "album", browseId: null, audioPlaylistId: "OLAK5" },
      client,
      ctx,
    );
    expect(calls.map((c) => c.slice(0, 2))).toEqual([
      ["getAlbumBrowseId", "OLAK5"],
      ["getAlbum", "MPREb_1"],
    ]);
    const none = fakeClient({ getAlbumBrowseId: () => null });
    await expect(
      readSource(
        { ...base, id: "al", type: "album", browseId: null, audioPlaylistId: "OLAK5" },
        none.client,
        ctx,
      ),
    ).rejects.toBeInstanceOf(SourceError);
  });

  it("artist: songs through the full playlist, albums through the albums page", async () => {
    const artist = fixture<{ songs: { browseId: string }; albums: { browseId: string; params: string } }>(
      "yt_get_artist_20240705.json",
    );
    const albums = fixture<[]>("yt_browse_artist_albums.json");
    const playlist = fixture<PlaylistResult>("yt_get_playlist_20240624.json");
    const { client, calls } = fakeClient({
      getArtist: () => artist,
      getPlaylist: () => playlist,
      getArtistAlbums: () => albums,
    });
    await readSource({ ...base, id: "s", type: "artist", channelId: "UC1", section: "songs" }, client, ctx);
    expect(calls[1]).toEqual(["getPlaylist", artist.songs.browseId.slice(2), { limit: null }]);
    const read = await readSource(
      { ...base, id: "a", type: "artist", channelId: "UC1", section: "albums" },
      client,
      ctx,
    );
    expect(calls[3]).toEqual([
      "getArtistAlbums",
      artist.albums.browseId,
      artist.albums.params,
      { limit: null },
    ]);
    expect(read.items[0]).toMatchObject({
      kind: "album",
      title: "KID A MNESIA",
      browseId: "MPREb_E7NpKw54NIT",
    });
    expect(read.items[0]!.playlistId).toMatch(/^OLAK5uy_/);
    const singles = await readSource(
      { ...base, id: "x", type: "artist", channelId: "UC1", section: "singles" },
      client,
      ctx,
    );
    expect(singles.items).toEqual([]);
  });

  it("mood: finds the category by title and reads the first, all or a named playlist", async () => {
    const categories = fixture<object>("yt_get_mood_categories_20240723.json");
    const playlists = fixture<{ title: string; playlistId: string }[]>("yt_get_mood_playlists_20240723.json");
    const playlist = fixture<PlaylistResult>("yt_get_playlist_20240624.json");
    const { client, calls } = fakeClient({
      getMoodCategories: () => categories,
      getMoodPlaylists: () => playlists,
      getPlaylist: () => playlist,
    });
    const read = await readSource(
      { ...base, id: "m", type: "mood", category: "african", playlist: playlists[1]!.title },
      client,
      ctx,
    );
    expect(calls[1]![0]).toBe("getMoodPlaylists");
    expect(calls[2]).toEqual(["getPlaylist", playlists[1]!.playlistId, { limit: null }]);
    expect(read.items).toHaveLength(5);
    const before = calls.length;
    const all = await readSource(
      { ...base, id: "m", type: "mood", category: "African", playlist: "all" },
      client,
      ctx,
    );
    expect(calls.slice(before).filter((c) => c[0] === "getPlaylist")).toHaveLength(playlists.length);
    expect(all.items.map((i) => i.rank)).toEqual(
      Array.from({ length: playlists.length * 5 }, (_, i) => i + 1),
    );
    const first = await readSource(
      { ...base, id: "m", type: "mood", category: "African", playlist: "first" },
      client,
      ctx,
    );
    expect(calls.at(-1)).toEqual(["getPlaylist", playlists[0]!.playlistId, { limit: null }]);
    expect(first.items).toHaveLength(5);
    await expect(
      readSource({ ...base, id: "m", type: "mood", category: "Polka", playlist: "first" }, client, ctx),
    ).rejects.toThrow(/no mood or genre "Polka" \(known: 1960s, /);
  });

  it("podcast and new episodes: episodes with their dates and durations", async () => {
    const podcast = fixture<object>("yt_get_podcast_20240830.json");
    const fresh = fixture<object>("yt_get_new_episodes_20240830.json");
    const { client, calls } = fakeClient({ getPodcast: () => podcast, getEpisodesPlaylist: () => fresh });
    const read = await readSource({ ...base, id: "p", type: "podcast", playlistId: "PL1" }, client, ctx);
    expect(read.items[0]).toMatchObject({
      kind: "episode",
      videoId: "H65miGsCFps",
      date: "1 day ago",
      duration_seconds: 3600,
      browseId: "MPEDH65miGsCFps",
      artists: [{ name: "Rustacean Station", id: "UCzYLos4qc2oC4r0Efd-tSuw" }],
    });
    const eps = await readSource({ ...base, id: "n", type: "new_episodes" }, client, ctx);
    expect(calls.at(-1)).toEqual(["getEpisodesPlaylist", "RDPN"]);
    expect(eps.items).toHaveLength(5);
    expect(eps.truncated).toBe(false);
  });

  it("library, history and search read through their operations", async () => {
    const { client, calls } = fakeClient({
      getLibrarySongs: () => fixture("yt_get_library_songs_20240701.json"),
      getLibraryAlbums: () => fixture("yt_get_library_albums_20240701.json"),
      getLibrarySubscriptions: () => fixture("yt_get_library_artist_subscriptions_20240701.json"),
      getLibraryPlaylists: () => fixture("yt_get_library_playlists.json"),
      getHistory: () => fixture("yt_get_history_20240713.json"),
      search: () => fixture("yt_search_songs_20231226.json"),
    });
    const songs = await readSource({ ...base, id: "l", type: "library", kind: "songs" }, client, ctx);
    expect(songs.items[0]).toMatchObject({ kind: "track", videoId: "0Toq8VrbLTQ", isExplicit: true });
    const albums = await readSource({ ...base, id: "l", type: "library", kind: "albums" }, client, ctx);
    expect(albums.items[0]).toMatchObject({ kind: "album", browseId: "MPREb_E7NpKw54NIT" });
    const subs = await readSource({ ...base, id: "l", type: "library", kind: "subscriptions" }, client, ctx);
    expect(subs.items[0]).toMatchObject({
      kind: "artist",
      title: "Calibre",
      browseId: "UC48r7vjqthkREf6NdoNEzww",
    });
    const pls = await readSource({ ...base, id: "l", type: "library", kind: "playlists" }, client, ctx);
    expect(pls.items[0]).toMatchObject({ kind: "playlist", playlistId: "LM" });
    const history = await readSource({ id: "h", type: "history", limit: 10 }, client, ctx);
    expect(history.items).toHaveLength(10);
    const found = await readSource(
      { id: "q", type: "search", query: "beatles", filter: "songs", limit: 5 },
      client,
      ctx,
    );
    expect(calls.at(-1)).toEqual(["search", "beatles", { filter: "songs", limit: 5 }]);
    expect(found.items).toHaveLength(5);
    expect(found.items[0]).toMatchObject({ videoId: "fOjuqmZzul4", duration_seconds: 249 });
  });
});

describe("readers that need no fixture", () => {
  it("static sources list their ids; self gives the target's rows", async () => {
    const { client, calls } = fakeClient({});
    const s = await readSource(
      { ...base, id: "s", type: "static", videoIds: ["dQw4w9WgXcQ", "lYBUbBu4W08"] },
      client,
      ctx,
    );
    expect(s.items.map((i) => [i.videoId, i.rank])).toEqual([
      ["dQw4w9WgXcQ", 1],
      ["lYBUbBu4W08", 2],
    ]);
    const own = rows(["a", "b"]);
    const self = await readSource({ ...base, id: "me", type: "self" }, client, {
      reads: new Map(),
      self: own,
    });
    expect(self.items.map((i) => [i.setVideoId, i.source])).toEqual([
      [own[0]!.setVideoId, "me"],
      [own[1]!.setVideoId, "me"],
    ]);
    expect(calls).toEqual([]);
    await expect(readSource({ ...base, id: "me", type: "self" }, client, ctx)).rejects.toThrow(
      "the target's rows were not read",
    );
  });

  it("reads a radio after the source it starts from, seeded with its first song", async () => {
    const sources: SourceSpec[] = [
      { id: "radio", type: "radio", videoId: null, playlistId: null, from: "songs", limit: 10 },
      { id: "songs", type: "static", videoIds: ["dQw4w9WgXcQ"], limit: null },
    ];
    expect(readOrder(sources).map((s) => s.id)).toEqual(["songs", "radio"]);
    const { client, calls } = fakeClient({
      getWatchPlaylist: () => ({ tracks: [{ videoId: "x", title: "X" }] }),
    });
    const reads = await readSources({ sources }, client);
    expect(calls).toEqual([["getWatchPlaylist", { videoId: "dQw4w9WgXcQ", radio: true, limit: 10 }]]);
    expect(reads.get("radio")!.items.map((i) => i.videoId)).toEqual(["x"]);
  });

  it("reports a liked-songs read shorter than its count as truncated", async () => {
    const { client } = fakeClient({ getLikedSongs: () => ({ trackCount: 10, tracks: [{ videoId: "a" }] }) });
    const read = await readSource({ ...base, id: "l", type: "liked" }, client, ctx);
    expect(read).toMatchObject({ truncated: true, expected: 10 });
  });
});
