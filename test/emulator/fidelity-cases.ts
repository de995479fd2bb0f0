/**
 * The fidelity cases: for each operation with a real capture, the request that asks the emulator
 * for the same kind of page, with the emulator state those pages need. Used by fidelity.test.ts
 * (renderer paths, youtubei.js) and read-paths.test.ts (the paths the client's parsers read).
 */
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { api, at, call, findAll, headersFor, type Json, PLAYLIST_ROWS, type Reply } from "./helpers.js";

export interface Ids {
  song: string;
  songWithLyrics: string;
  album: string;
  albumPlaylist: string;
  albumTitle: string;
  artist: string;
  twoColumnArtist: string;
  chart: string;
  community: string;
  /** The exact title of a public playlist, searched for to get a playlist top result. */
  communityTitle: string;
  owned: string;
  podcast: string;
  episode: string;
  podcastChannel: string;
  userChannel: string;
  mood: string;
  uploadAlbum: string;
  uploadArtist: string;
  historyToken: string;
  ownedFirst: string;
  collaborative: string;
}

export interface FidelityCase {
  capture: string;
  /** Minimum share of the capture's renderer paths the emulator must produce. */
  paths: number;
  /** Minimum share of the capture's youtubei.js node types. */
  nodes: number;
  run: (ids: Ids, auth: Record<string, string>) => Promise<Reply>;
}

export const P = {
  songs: "EgWKAQIIAWoMEA4QChADEAQQCRAF",
  videos: "EgWKAQIQAWoMEA4QChADEAQQCRAF",
  albums: "EgWKAQIYAWoMEA4QChADEAQQCRAF",
  artists: "EgWKAQIgAWoMEA4QChADEAQQCRAF",
  playlists: "Eg-KAQwIABAAGAAgACgBMABqChAEEAMQCRAFEAo%3D",
  community: "EgeKAQQoAEABagwQDhAKEAMQBBAJEAU%3D",
  featured: "EgeKAQQoADgBagwQDhAKEAMQBBAJEAU%3D",
  profiles: "EgWKAQJYAWoMEA4QChADEAQQCRAF",
  podcasts: "EgWKAQJQAWoMEA4QChADEAQQCRAF",
  libraryAlbums: "EgWKAQIYAWoKEAUQCRADEAoYBA%3D%3D",
  libraryArtists: "EgWKAQIgAWoKEAUQCRADEAoYBA%3D%3D",
  uploads: "agIYAw%3D%3D",
};

let emu: RunningEmulator;
const browse = (body: Json, h: Record<string, string> = {}) => api(emu, "browse", body, h);
const search = (query: string, params?: string, h: Record<string, string> = {}) =>
  api(emu, "search", params ? { query, params } : { query }, h);

export const CASES: FidelityCase[] = [
  {
    capture: "rp_music_search_suggestion_empty",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => api(emu, "music/get_search_suggestions", { input: "" }, h),
  },
  {
    capture: "yt_search_songs_20231226",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => search("the", P.songs, h),
  },
  {
    capture: "yt_search_videos_20240612",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => search("the", P.videos, h),
  },
  {
    capture: "yt_search_albums_20231226",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => search("the", P.albums, h),
  },
  {
    capture: "yt_search_artists_20231226",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => search("the", P.artists, h),
  },
  {
    capture: "yt_search_playlists_20231228",
    paths: 0.8,
    nodes: 0.86,
    // Signed out, as the capture's sign-in modals show.
    run: () => search("a", P.playlists),
  },
  {
    capture: "yt_search_community_playlists_20231226",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => search("a", P.community, h),
  },
  {
    capture: "yt_search_featured_playlists_20231226",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => search("hits", P.featured, h),
  },
  {
    capture: "yt_search_podcasts_20231226",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => search("podcast", P.podcasts, h),
  },
  {
    capture: "yt_search_profiles_20231226",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => search("example", P.profiles, h),
  },
  {
    capture: "yt_search_basic_top_result_20231228",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => search("the", undefined, h),
  },
  {
    capture: "yt_search_basic_no_results_20240721",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => search("qqqzzzxxx", undefined, h),
  },
  {
    capture: "yt_search_library_albums_20231228",
    paths: 0.95,
    nodes: 0.95,
    run: (i, h) => search(i.albumTitle, P.libraryAlbums, h),
  },
  {
    capture: "yt_search_uploads_20231228",
    paths: 0.95,
    nodes: 0.94,
    run: (_i, h) => search("song", P.uploads, h),
  },
  {
    capture: "yt_get_artist_20240705",
    paths: 0.95,
    nodes: 0.95,
    run: (i, h) => browse({ browseId: i.artist }, h),
  },
  {
    capture: "yt_get_album_20240724",
    paths: 0.95,
    nodes: 0.95,
    run: (i, h) => browse({ browseId: i.album }, h),
  },
  {
    capture: "yt_get_album_not_signed_in_20250611",
    paths: 0.95,
    nodes: 0.95,
    run: (i) => browse({ browseId: i.album }),
  },
  {
    capture: "yt_get_playlist_20250604",
    paths: 0.87,
    nodes: 0.93,
    run: (i, h) => browse({ browseId: `VL${i.community}` }, h),
  },
  {
    capture: "yt_get_playlist_continuation_20250604",
    paths: 0.82,
    nodes: 0.87,
    run: (i, h) => playlistContinuation(`VL${i.community}`, h),
  },
  {
    capture: "yt_get_playlist_20240624",
    paths: 0.88,
    nodes: 0.95,
    run: (i, h) => browse({ browseId: `VL${i.owned}` }, h),
  },
  {
    capture: "yt_get_watch_playlist_20250630",
    paths: 0.88,
    nodes: 0.94,
    run: (i, h) => api(emu, "next", { videoId: i.song, playlistId: `RDAMVM${i.song}` }, h),
  },
  {
    capture: "yt_get_song_tracking_url_20240728",
    paths: 0.95,
    nodes: 0.95,
    run: (i, h) => api(emu, "player", { video_id: i.song }, h),
  },
  {
    capture: "yt_get_lyrics_20231219",
    paths: 0.95,
    nodes: 0.95,
    run: (i, h) => browse({ browseId: `MPLYt_${i.songWithLyrics}` }, h),
  },
  {
    capture: "yt_get_mood_categories_20240723",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => browse({ browseId: "FEmusic_moods_and_genres" }, h),
  },
  {
    capture: "yt_get_mood_playlists_20240723",
    paths: 0.95,
    nodes: 0.95,
    run: (i, h) => browse({ browseId: "FEmusic_moods_and_genres_category", params: i.mood }, h),
  },
  {
    capture: "ytm_2026_07_get_charts_us_albums_no_genres",
    paths: 0.78,
    nodes: 0.89,
    // Signed out, as the capture was (logged_in 0): its menus open sign-in modals beside the ranks.
    run: () => browse({ browseId: "FEmusic_charts", formData: { selectedValues: ["US"] } }),
  },
  {
    capture: "ytm_2025_11_get_explore",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => browse({ browseId: "FEmusic_explore" }, h),
  },
  {
    capture: "yt_get_podcast_20240830",
    paths: 0.95,
    nodes: 0.95,
    run: (i, h) => browse({ browseId: `MPSP${i.podcast}` }, h),
  },
  {
    capture: "yt_get_episode_20240830",
    paths: 0.95,
    nodes: 0.94,
    run: (i, h) => browse({ browseId: `MPED${i.episode}` }, h),
  },
  {
    capture: "yt_get_channel_20240830",
    paths: 0.95,
    nodes: 0.95,
    run: (i, h) => browse({ browseId: i.podcastChannel }, h),
  },
  {
    capture: "yt_get_user_20250707",
    paths: 0.95,
    nodes: 0.9,
    run: (i, h) => browse({ browseId: i.userChannel }, h),
  },
  {
    capture: "yt_get_user_videos_20250707",
    paths: 0.95,
    nodes: 0.95,
    run: async (i, h) => browse({ browseId: i.userChannel, params: await userMoreParams(i, "Videos") }, h),
  },
  {
    capture: "yt_get_history_20240713",
    paths: 0.79,
    nodes: 0.85,
    run: (_i, h) => browse({ browseId: "FEmusic_history" }, h),
  },
  {
    capture: "yt_get_library_songs_20240701",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => browse({ browseId: "FEmusic_liked_videos" }, h),
  },
  {
    capture: "yt_get_library_playlists",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => browse({ browseId: "FEmusic_liked_playlists" }, h),
  },
  {
    capture: "yt_get_library_albums_20240701",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => browse({ browseId: "FEmusic_liked_albums" }, h),
  },
  {
    capture: "yt_get_library_artists",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => browse({ browseId: "FEmusic_library_corpus_track_artists" }, h),
  },
  {
    capture: "yt_get_library_artist_subscriptions_20240701",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => browse({ browseId: "FEmusic_library_corpus_artists" }, h),
  },
  {
    capture: "yt_get_library_upload_songs_20240712",
    paths: 0.92,
    nodes: 0.95,
    run: (_i, h) => browse({ browseId: "FEmusic_library_privately_owned_tracks" }, h),
  },
  {
    capture: "yt_get_taste_profile_20240722",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => browse({ browseId: "FEmusic_tastebuilder" }, h),
  },
  {
    capture: "yt_rate_song_like_20240710",
    paths: 0.95,
    nodes: 0.95,
    run: (i, h) => api(emu, "like/like", { target: { videoId: i.song } }, h),
  },
  {
    capture: "yt_add_playlist_items_20240626",
    paths: 0.81,
    nodes: 0.95,
    run: (i, h) =>
      api(
        emu,
        "browse/edit_playlist",
        {
          playlistId: i.owned,
          actions: [
            {
              action: "ACTION_ADD_VIDEO",
              addedVideoId: i.songWithLyrics,
              dedupeOption: "DEDUPE_OPTION_SKIP",
            },
          ],
        },
        h,
      ),
  },
  {
    capture: "yt_search_songs_continuation_20231226",
    paths: 0.91,
    nodes: 0.94,
    // "er": its second page of songs holds explicit ones, whose rows carry the badge the parser reads.
    run: (_i, h) => searchContinuation("er", P.songs, h),
  },
  {
    capture: "yt_get_watch_playlist_continuation_20250630",
    paths: 0.95,
    nodes: 0.94,
    run: (i, h) => watchContinuation(i.song, h),
  },
  {
    capture: "yt_get_new_episodes_20240830",
    paths: 0.95,
    nodes: 0.85,
    run: (_i, h) => browse({ browseId: "VLRDPN" }, h),
  },
  {
    capture: "yt_browse_artist_albums",
    paths: 0.93,
    nodes: 0.89,
    run: (i, h) => browse({ browseId: i.artist, params: "ggMIegYIARoCAQI%3D" }, h),
  },
  {
    capture: "yt_get_library_podcasts_20250626",
    paths: 0.95,
    nodes: 0.93,
    run: (_i, h) => browse({ browseId: "FEmusic_library_non_music_audio_list" }, h),
  },
  {
    capture: "yt_get_library_channels_20250626",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => browse({ browseId: "FEmusic_library_non_music_audio_channels_list" }, h),
  },
  {
    capture: "yt_get_library_upload_albums_20240712",
    paths: 0.95,
    nodes: 0.95,
    run: (_i, h) => browse({ browseId: "FEmusic_library_privately_owned_releases" }, h),
  },
  {
    capture: "yt_get_library_upload_artists_20240712",
    paths: 0.87,
    nodes: 0.88,
    run: (_i, h) => browse({ browseId: "FEmusic_library_privately_owned_artists" }, h),
  },
  {
    capture: "yt_get_library_upload_album_20240712",
    paths: 0.63,
    nodes: 0.94,
    run: (i, h) => browse({ browseId: i.uploadAlbum }, h),
  },
  {
    capture: "yt_get_library_upload_artist_20240712",
    paths: 0.89,
    nodes: 0.9,
    run: (i, h) => browse({ browseId: i.uploadArtist }, h),
  },
  {
    capture: "yt_rate_playlist_like_20240710",
    paths: 0.95,
    nodes: 0.95,
    run: (i, h) => api(emu, "like/like", { target: { playlistId: i.community } }, h),
  },
  {
    capture: "yt_subscribe_artist_20250704",
    paths: 0.95,
    nodes: 0.95,
    run: (i, h) => api(emu, "subscription/subscribe", { channelIds: [i.artist] }, h),
  },
  {
    capture: "yt_remove_history_items_20240704",
    paths: 0.95,
    nodes: 0.95,
    run: (i, h) => api(emu, "feedback", { feedbackTokens: [i.historyToken] }, h),
  },
  {
    capture: "yt_edit_playlist_title_20240626",
    paths: 0.95,
    nodes: 0.95,
    run: (i, h) =>
      api(
        emu,
        "browse/edit_playlist",
        { playlistId: i.owned, actions: [{ action: "ACTION_SET_PLAYLIST_NAME", playlistName: "Renamed" }] },
        h,
      ),
  },
  {
    capture: "yt_add_playlist_items_failure_20240626",
    paths: 0.95,
    nodes: 0.95,
    run: (i, h) =>
      api(
        emu,
        "browse/edit_playlist",
        { playlistId: i.owned, actions: [{ action: "ACTION_ADD_VIDEO", addedVideoId: i.ownedFirst }] },
        h,
      ),
  },
  {
    capture: "yt_set_taste_profile_20240723",
    paths: 0.94,
    nodes: 0.91,
    run: (_i, h) => browse({ browseId: "FEmusic_home" }, h),
  },
  {
    capture: "ytm_2026_05_get_artist1",
    paths: 0.92,
    nodes: 0.82,
    run: (i) => browse({ browseId: i.artist }),
  },
  {
    capture: "ytm_2026_07_get_artist_two_column",
    paths: 0.95,
    nodes: 0.95,
    run: (i, h) => browse({ browseId: i.twoColumnArtist }, h),
  },
  {
    capture: "ytm_2024_03_get_album",
    paths: 0.91,
    nodes: 0.95,
    run: (i, h) => browse({ browseId: i.album }, h),
  },
  {
    capture: "ytm_2025_01_get_playlist_chart",
    paths: 0.89,
    nodes: 0.95,
    run: (i) => browse({ browseId: `VL${i.chart}` }),
  },
  {
    capture: "ytm_2025_10_get_playlist_collaborative",
    paths: 0.9,
    nodes: 0.95,
    run: (i) => browse({ browseId: `VL${i.collaborative}` }),
  },
  {
    capture: "yt_search_basic_with_podcast_community_playlists_20250605",
    paths: 0.82,
    nodes: 0.95,
    // The capture's top result is a playlist: searching for one's exact title gives that.
    run: (i, h) => search(i.communityTitle, undefined, h),
  },
  {
    capture: "yt_get_library_playlists_continuation_mock",
    paths: 0.53,
    nodes: 0.79,
    run: (_i, h) => libraryContinuation("FEmusic_liked_playlists", h),
  },
];

async function searchContinuation(query: string, params: string, h: Record<string, string>): Promise<Reply> {
  const first = await search(query, params, h);
  const token = at(
    first.json,
    "contents",
    "tabbedSearchResultsRenderer",
    "tabs",
    0,
    "tabRenderer",
    "content",
    "sectionListRenderer",
    "contents",
    0,
    "musicShelfRenderer",
    "continuations",
    0,
    "nextContinuationData",
    "continuation",
  );
  return api(emu, "search", { query, params }, h, { query: `&ctoken=${token}&continuation=${token}` });
}

async function watchContinuation(videoId: string, h: Record<string, string>): Promise<Reply> {
  const first = await api(emu, "next", { videoId, playlistId: `RDAMVM${videoId}` }, h);
  const token = at(
    findFirst(first.json, "playlistPanelRenderer"),
    "continuations",
    0,
    "nextRadioContinuationData",
    "continuation",
  );
  return api(emu, "next", { videoId, playlistId: `RDAMVM${videoId}` }, h, {
    query: `&ctoken=${token}&continuation=${token}`,
  });
}

async function libraryContinuation(browseId: string, h: Record<string, string>): Promise<Reply> {
  // Enough saved playlists for a second page.
  for (let n = 0; n < 30; n++) await api(emu, "playlist/create", { title: `filler ${n}` }, h);
  const first = await browse({ browseId }, h);
  const token = findAll(first.json, "nextContinuationData").map((d) => (d as Json).continuation)[0];
  return api(emu, "browse", {}, h, { query: `&ctoken=${token}&continuation=${token}` });
}

/** The params of a carousel's "More" link on a user's page, as the client takes them. */
async function userMoreParams(i: Ids, title: string): Promise<string> {
  const page = await browse({ browseId: i.userChannel });
  const header = findAll(page.json, "musicCarouselShelfBasicHeaderRenderer").find(
    (x) => at(x, "title", "runs", 0, "text") === title,
  );
  return String(at(header, "title", "runs", 0, "navigationEndpoint", "browseEndpoint", "params"));
}

function findFirst(value: unknown, key: string): unknown {
  return findAll(value, key)[0];
}

async function playlistContinuation(browseId: string, h: Record<string, string>): Promise<Reply> {
  const first = await browse({ browseId }, h);
  const token = at(
    at(first.json, ...PLAYLIST_ROWS),
    -1,
    "continuationItemRenderer",
    "continuationEndpoint",
    "continuationCommand",
    "token",
  );
  return browse({ continuation: token as string }, h);
}

/**
 * Starts the emulator the cases run against (600 songs, seed 1) and gives account 1 the library
 * state the captures show; returns it with the ids the cases ask for.
 */
export async function startFidelityEmulator(): Promise<{ emu: RunningEmulator; ids: Ids }> {
  emu = await startEmulator({ catalogueSize: 600, seed: 1 });
  const q = <T>(sql: string) => emu.state.store.sqlite.prepare(sql).get() as T;
  const auth = await headersFor(emu, 1);
  // Library state the captures show: a saved album, an upload.
  const album = q<{ b: string; p: string; t: string }>(
    "SELECT browse_id AS b, audio_playlist_id AS p, title AS t FROM albums WHERE type = 'Album' AND explicit = 1 LIMIT 1",
  );
  await api(emu, "like/like", { target: { playlistId: album.p } }, auth);
  const start = await call(emu, "/upload/usermusic/http?authuser=0", {
    body: "filename=Emu Artist - Emu Song.mp3",
    headers: { ...auth, "x-goog-upload-command": "start", "x-goog-upload-header-content-length": "1000" },
  });
  const u = new URL(String(start.headers["x-goog-upload-url"]));
  await call(emu, u.pathname + u.search, {
    body: Buffer.alloc(1000),
    headers: { ...auth, "x-goog-upload-command": "upload, finalize" },
  });
  const ids: Ids = {
    song: q<{ v: string }>(
      "SELECT video_id AS v FROM songs WHERE counterpart_id IS NOT NULL AND video_type = 'MUSIC_VIDEO_TYPE_ATV' LIMIT 1",
    ).v,
    songWithLyrics: q<{ v: string }>(
      "SELECT video_id AS v FROM songs WHERE lyrics_source IS NOT NULL LIMIT 1",
    ).v,
    album: album.b,
    albumPlaylist: album.p,
    albumTitle: album.t,
    artist: q<{ c: string }>(
      "SELECT a.channel_id AS c FROM artists a WHERE kind = 'artist' AND EXISTS (SELECT 1 FROM songs s WHERE s.artist_id = a.id AND s.video_type = 'MUSIC_VIDEO_TYPE_OMV') LIMIT 1",
    ).c,
    chart: q<{ p: string }>("SELECT target_id AS p FROM charts WHERE country = 'US' AND section = 'videos'")
      .p,
    twoColumnArtist: q<{ c: string }>(
      "SELECT channel_id AS c FROM artists WHERE kind = 'artist' AND id % 5 = 0 LIMIT 1",
    ).c,
    community: q<{ p: string }>(
      "SELECT playlist_id AS p FROM playlists WHERE kind = 'community' AND (SELECT count(*) FROM playlist_items i WHERE i.playlist_id = playlists.playlist_id) > 100 LIMIT 1",
    ).p,
    communityTitle: "",
    owned: q<{ p: string }>(
      "SELECT playlist_id AS p FROM playlists WHERE owner_account_id = 1 ORDER BY id LIMIT 1",
    ).p,
    podcast: q<{ p: string }>("SELECT playlist_id AS p FROM podcasts LIMIT 1").p,
    episode: q<{ v: string }>("SELECT video_id AS v FROM episodes LIMIT 1").v,
    podcastChannel: q<{ c: string }>("SELECT channel_id AS c FROM artists WHERE kind = 'channel' LIMIT 1").c,
    userChannel: q<{ c: string }>("SELECT channel_id AS c FROM accounts WHERE id = 1").c,
    mood: q<{ p: string }>("SELECT params AS p FROM mood_categories LIMIT 1").p,
    uploadAlbum: "",
    uploadArtist: "",
    historyToken: "",
    ownedFirst: "",
    collaborative: "",
  };
  // The capture's top result is a playlist named like the query, which also found songs (some
  // explicit) and videos: another account's public playlist called "the" gives that.
  await api(emu, "playlist/create", { title: "the", privacyStatus: "PUBLIC" }, await headersFor(emu, 2));
  ids.communityTitle = "the";
  // A public playlist another account joined through its invite link.
  const shared = await api(
    emu,
    "playlist/create",
    {
      title: "Shared",
      description: "Songs we share",
      privacyStatus: "PUBLIC",
      videoIds: [ids.song, ids.songWithLyrics],
    },
    auth,
  );
  ids.collaborative = String(at(shared.json, "playlistId"));
  const invite = await api(
    emu,
    "browse/edit_playlist",
    { playlistId: ids.collaborative, actions: [{ action: "ACTION_CREATE_COLLABORATION_INVITE_LINK" }] },
    auth,
  );
  const jct = new URL(String(at(invite.json, "collaborationInviteLink"))).searchParams.get("jct");
  await api(
    emu,
    "browse/edit_playlist",
    {
      playlistId: ids.collaborative,
      actions: [{ action: "ACTION_JOIN_COLLABORATION", joinCollaborationToken: jct }],
    },
    await headersFor(emu, 2),
  );
  const uploads = await api(emu, "browse", { browseId: "FEmusic_library_privately_owned_tracks" }, auth);
  ids.uploadArtist = String(
    findAll(uploads.json, "browseId").find((b) => String(b).includes("artist_detail")),
  );
  ids.uploadAlbum = String(
    findAll(uploads.json, "browseId").find((b) => String(b).includes("release_detail")),
  );
  const history = await api(emu, "browse", { browseId: "FEmusic_history" }, auth);
  ids.historyToken = String(findAll(history.json, "feedbackToken").find((t) => typeof t === "string"));
  ids.ownedFirst = q<{ v: string }>(
    `SELECT video_id AS v FROM playlist_items WHERE playlist_id = '${ids.owned}' ORDER BY position LIMIT 1`,
  ).v;
  // A saved podcast and a subscribed podcast channel, for the podcast library pages.
  const podcast = q<{ p: string; c: string }>(
    "SELECT p.playlist_id AS p, a.channel_id AS c FROM podcasts p JOIN artists a ON a.id = p.channel_id LIMIT 1",
  );
  await api(emu, "like/like", { target: { playlistId: podcast.p } }, auth);
  await api(emu, "subscription/subscribe", { channelIds: [podcast.c] }, auth);
  return { emu, ids };
}
