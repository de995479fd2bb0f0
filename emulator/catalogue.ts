/**
 * The deterministic catalogue: one seed and one size always give the same artists, albums, songs,
 * videos, playlists, podcasts, charts and moods, and the same seeded accounts. Rows are written with
 * prepared statements inside one transaction (100,000 songs in a few seconds).
 */
import type Database from "better-sqlite3";
import { addPremiumCharts, insertChartPlaylistRow, seedPremiumLogin } from "./catalogue-premium.js";
import { hash32, ids, Rng, type Rng as RngType } from "./random.js";
import { SEARCH_VIDEOS_FROM } from "./store/store.js";
import { ADJECTIVES, FIRST_NAMES, FOR_YOU, GENRES, LAST_NAMES, MOODS, NOUNS } from "./words.js";

export interface CatalogueOptions {
  seed: number;
  /** Number of songs (audio tracks); videos, albums, artists and playlists scale with it. */
  size: number;
}

export interface CatalogueSummary {
  artists: number;
  albums: number;
  songs: number;
  videos: number;
  playlists: number;
  podcasts: number;
  episodes: number;
  accounts: number;
}

/** Generated data carries dates around this moment, never the wall clock. */
export const CATALOGUE_EPOCH_MS = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

export const CHART_COUNTRIES = ["ZZ", "US", "GB", "DE", "IN"] as const;

function title(r: RngType, words: number): string {
  const parts: string[] = [];
  for (let i = 0; i < words; i++) {
    const w = i % 2 === 0 && i < words - 1 ? r.pick(ADJECTIVES) : r.pick(NOUNS);
    parts.push(w[0]!.toUpperCase() + w.slice(1));
  }
  return parts.join(" ");
}

function artistName(r: RngType): string {
  const k = r.int(0, 3);
  if (k === 0) return `The ${title(r, 2)}s`;
  if (k === 1) return `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`;
  if (k === 2) return title(r, 2);
  return `${r.pick(FIRST_NAMES)} & The ${title(r, 1)}s`;
}

/** Whether the database already holds a catalogue for these options. */
export function hasCatalogue(sqlite: Database.Database, options: CatalogueOptions): boolean {
  const row = sqlite.prepare("SELECT value FROM meta WHERE key = 'catalogue'").get() as
    | { value: string }
    | undefined;
  if (!row) return false;
  const stored = JSON.parse(row.value) as CatalogueOptions;
  if (stored.seed !== options.seed || stored.size !== options.size) {
    throw new Error(
      `emulator: the database holds a catalogue for seed ${stored.seed} size ${stored.size}, not seed ${options.seed} size ${options.size}`,
    );
  }
  return true;
}

export function generateCatalogue(sqlite: Database.Database, options: CatalogueOptions): CatalogueSummary {
  const size = Math.max(20, Math.floor(options.size));
  const r = new Rng(options.seed);
  const summary: CatalogueSummary = {
    artists: 0,
    albums: 0,
    songs: 0,
    videos: 0,
    playlists: 0,
    podcasts: 0,
    episodes: 0,
    accounts: 0,
  };
  const insArtist = sqlite.prepare(
    "INSERT INTO artists (id, channel_id, name, kind, subscribers, monthly_listeners, description, search_text) VALUES (?,?,?,?,?,?,?,?)",
  );
  const insAlbum = sqlite.prepare(
    "INSERT INTO albums (id, browse_id, audio_playlist_id, title, artist_id, type, year, explicit, search_text) VALUES (?,?,?,?,?,?,?,?,?)",
  );
  const insSong = sqlite.prepare(
    "INSERT INTO songs (id, video_id, title, artist_id, album_id, track_number, duration_seconds, views, explicit, available, video_type, counterpart_id, lyrics_source, search_text) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
  );
  const insPlaylist = sqlite.prepare(
    "INSERT INTO playlists (playlist_id, title, description, owner_account_id, author_name, author_channel_id, privacy, kind, add_to_top, views, created_at, search_text) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
  );
  const insItem = sqlite.prepare(
    "INSERT INTO playlist_items (playlist_id, video_id, set_video_id, position) VALUES (?,?,?,?)",
  );
  const insPodcast = sqlite.prepare(
    "INSERT INTO podcasts (id, playlist_id, title, description, channel_id, search_text) VALUES (?,?,?,?,?,?)",
  );
  const insEpisode = sqlite.prepare(
    "INSERT INTO episodes (video_id, podcast_id, title, description, published_day, duration_seconds, search_text) VALUES (?,?,?,?,?,?,?)",
  );
  const insChart = sqlite.prepare(
    "INSERT INTO charts (country, section, position, target_id, trend) VALUES (?,?,?,?,?)",
  );
  const insMood = sqlite.prepare("INSERT INTO mood_categories (id, section, title, params) VALUES (?,?,?,?)");
  const insMoodPlaylist = sqlite.prepare(
    "INSERT INTO mood_playlists (category_id, playlist_id, position) VALUES (?,?,?)",
  );

  const run = sqlite.transaction(() => {
    const usedIds = new Set<string>();
    const unique = (make: () => string): string => {
      for (;;) {
        const id = make();
        if (!usedIds.has(id)) {
          usedIds.add(id);
          return id;
        }
      }
    };
    // ── artists, releases, songs and videos ──
    const artistCount = Math.max(5, Math.round(size / 40));
    const artistRows: { id: number; channelId: string; name: string }[] = [];
    for (let a = 1; a <= artistCount; a++) {
      const name = artistName(r);
      const channelId = unique(() => ids.channel(r));
      const subscribers = Math.floor(10 ** r.int(2, 7) * (1 + r.next() * 8));
      insArtist.run(
        a,
        channelId,
        name,
        "artist",
        subscribers,
        Math.floor(subscribers * (0.5 + r.next() * 3)),
        `${name} is a ${r.pick(GENRES).toLowerCase()} act known for "${title(r, 3)}".`,
        name.toLowerCase(),
      );
      artistRows.push({ id: a, channelId, name });
    }
    summary.artists = artistCount;

    const songIds: string[] = [];
    const videoIds: string[] = [];
    let songId = 0;
    let albumId = 0;
    const perArtist = size / artistCount;
    for (let i = 0; i < artistCount && songId < size; i++) {
      const artist = artistRows[i]!;
      const quota =
        i === artistCount - 1 ? size - songId : Math.max(1, Math.round(perArtist * (0.5 + r.next())));
      let made = 0;
      while (made < quota && songId < size) {
        const k = r.next();
        const type = k < 0.6 ? "Album" : k < 0.75 ? "EP" : "Single";
        const tracks = Math.min(
          quota - made,
          size - songId,
          type === "Album" ? r.int(8, 14) : type === "EP" ? r.int(4, 6) : r.int(1, 2),
        );
        albumId++;
        const albumTitle = title(r, r.int(1, 3));
        const explicitAlbum = r.chance(0.12);
        insAlbum.run(
          albumId,
          unique(() => ids.album(r)),
          unique(() => ids.audioPlaylist(r)),
          albumTitle,
          artist.id,
          type,
          r.int(1975, 2025),
          explicitAlbum ? 1 : 0,
          `${albumTitle} ${artist.name}`.toLowerCase(),
        );
        for (let t = 1; t <= tracks; t++) {
          songId++;
          made++;
          const videoId = unique(() => ids.video(r));
          const songTitle = tracks === 1 ? albumTitle : title(r, r.int(1, 4));
          const explicit = explicitAlbum && r.chance(0.6);
          const hasVideo = r.chance(0.3);
          const videoCounterpart = hasVideo ? unique(() => ids.video(r)) : null;
          const duration = r.int(95, 420);
          const views = Math.floor(10 ** r.int(3, 8) * (1 + r.next() * 8));
          insSong.run(
            songId,
            videoId,
            songTitle,
            artist.id,
            albumId,
            t,
            duration,
            views,
            explicit ? 1 : 0,
            r.chance(0.03) ? 0 : 1,
            "MUSIC_VIDEO_TYPE_ATV",
            videoCounterpart,
            r.chance(0.7) ? (r.chance(0.5) ? "Source: LyricFind" : "Source: Musixmatch") : null,
            `${songTitle} ${artist.name}`.toLowerCase(),
          );
          songIds.push(videoId);
          if (videoCounterpart) {
            insSong.run(
              size * 2 + songId,
              videoCounterpart,
              `${songTitle} (Official Video)`,
              artist.id,
              null,
              null,
              duration + r.int(0, 30),
              Math.floor(views * (0.5 + r.next() * 2)),
              explicit ? 1 : 0,
              1,
              "MUSIC_VIDEO_TYPE_OMV",
              videoId,
              null,
              `${songTitle} (official video) ${artist.name}`.toLowerCase(),
            );
            videoIds.push(videoCounterpart);
            summary.videos++;
          }
        }
      }
    }
    summary.songs = songId;
    summary.albums = albumId;
    // A few user-generated videos (live takes, covers) without a song counterpart.
    const ugc = Math.max(5, Math.round(size / 20));
    for (let u = 1; u <= ugc; u++) {
      const artist = r.pick(artistRows);
      const videoId = unique(() => ids.video(r));
      const t = `${title(r, 2)} (${r.pick(["Live", "Cover", "Acoustic", "Lyric Video"])})`;
      insSong.run(
        size * 4 + u,
        videoId,
        t,
        artist.id,
        null,
        null,
        r.int(120, 600),
        Math.floor(10 ** r.int(2, 6) * (1 + r.next() * 8)),
        0,
        1,
        "MUSIC_VIDEO_TYPE_UGC",
        null,
        null,
        `${t} ${artist.name}`.toLowerCase(),
      );
      videoIds.push(videoId);
      summary.videos++;
    }

    // ── catalogue playlists ──
    const addPlaylist = (
      playlistId: string,
      t: string,
      kind: string,
      author: { name: string; channelId: string | null },
      count: number,
      pool: readonly string[],
    ) => {
      insPlaylist.run(
        playlistId,
        t,
        `${t}: ${title(r, 3).toLowerCase()} and more.`,
        null,
        author.name,
        author.channelId,
        "PUBLIC",
        kind,
        0,
        Math.floor(10 ** r.int(2, 7) * (1 + r.next() * 8)),
        CATALOGUE_EPOCH_MS - r.int(1, 2000) * DAY,
        `${t} ${author.name}`.toLowerCase(),
      );
      const start = r.int(0, pool.length - 1);
      const step = r.int(1, 97);
      for (let i = 0; i < count; i++) {
        insItem.run(playlistId, pool[(start + i * step) % pool.length]!, ids.setVideo(r), i + 1);
      }
      summary.playlists++;
    };
    const ytm = { name: "YouTube Music", channelId: null };
    const editorial = Math.max(8, Math.round(size / 250));
    const curatedIds: string[] = [];
    for (let p = 0; p < editorial; p++) {
      const id = unique(() => ids.curated(r));
      curatedIds.push(id);
      addPlaylist(id, `${title(r, 2)} Hits`, "editorial", ytm, r.int(20, 80), songIds);
    }
    const community = Math.max(8, Math.round(size / 250));
    for (let p = 0; p < community; p++) {
      const owner = `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}`;
      // Every fourth one is long enough to need continuations (pages of 100 rows).
      const count = p % 4 === 0 ? r.int(150, 260) : r.int(10, 90);
      addPlaylist(
        unique(() => ids.playlist(r)),
        title(r, r.int(2, 3)),
        "community",
        { name: owner, channelId: unique(() => ids.channel(r)) },
        count,
        r.chance(0.2) ? videoIds : songIds,
      );
    }

    // ── charts: global has videos and artists; US adds genres; others videos and artists ──
    for (const country of CHART_COUNTRIES) {
      const name = country === "ZZ" ? "Global" : (COUNTRY_TITLES[country] ?? country);
      const chartId = unique(() => "PL" + r.chars(32));
      addPlaylist(chartId, `Top 100 Music Videos ${name}`, "chart", ytm, 100, videoIds);
      insChart.run(country, "videos", 1, chartId, null);
      if (country === "US") {
        GENRES.slice(0, 8).forEach((g, i) => {
          const gid = unique(() => "PL" + r.chars(32));
          addPlaylist(gid, `${g} Top 50`, "chart", ytm, 50, songIds);
          insChart.run(country, "genres", i + 1, gid, null);
        });
      }
      const artistChart = Math.min(40, artistCount);
      const start = r.int(0, artistCount - 1);
      for (let i = 0; i < artistChart; i++) {
        const artist = artistRows[(start + i * 7) % artistCount]!;
        insChart.run(country, "artists", i + 1, artist.channelId, r.pick(["up", "down", "neutral"]));
      }
    }

    // ── moods and genres ──
    let moodId = 0;
    const sections: [string, readonly string[]][] = [
      ["For you", FOR_YOU],
      ["Genres", GENRES],
      ["Moods & moments", MOODS],
    ];
    for (const [section, names] of sections) {
      for (const n of names) {
        moodId++;
        insMood.run(moodId, section, n, "ggMPOg1uX" + r.chars(30) + "%3D%3D");
        const count = r.int(6, 12);
        for (let i = 0; i < count; i++) {
          const id = unique(() => ids.curated(r));
          addPlaylist(id, `${n} ${title(r, 1)}`, "mood", ytm, r.int(15, 40), songIds);
          insMoodPlaylist.run(moodId, id, i + 1);
        }
      }
    }

    // ── podcasts: channels with shows and episodes ──
    const channelCount = Math.max(2, Math.round(size / 2000));
    let podcastId = 0;
    for (let c = 1; c <= channelCount; c++) {
      const cid = artistCount + c;
      const channelName = `${title(r, 2)} Media`;
      insArtist.run(
        cid,
        unique(() => ids.channel(r)),
        channelName,
        "channel",
        Math.floor(10 ** r.int(3, 6)),
        0,
        `${channelName} makes shows about ${r.pick(NOUNS)}s.`,
        channelName.toLowerCase(),
      );
      const shows = r.int(1, 3);
      for (let s = 0; s < shows; s++) {
        podcastId++;
        const showTitle = `The ${title(r, 2)} Podcast`;
        insPodcast.run(
          podcastId,
          unique(() => ids.podcastPlaylist(r)),
          showTitle,
          `Conversations about ${r.pick(NOUNS)}s and ${r.pick(NOUNS)}s.`,
          cid,
          `${showTitle} ${channelName}`.toLowerCase(),
        );
        const count = r.int(5, 30);
        for (let e = 0; e < count; e++) {
          const et = `Episode ${count - e}: ${title(r, 3)}`;
          insEpisode.run(
            unique(() => ids.video(r)),
            podcastId,
            et,
            `In this episode we talk about the ${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}.`,
            Math.floor(CATALOGUE_EPOCH_MS / DAY) - e * 7 - r.int(0, 6),
            r.int(900, 5400),
            `${et} ${showTitle}`.toLowerCase(),
          );
          summary.episodes++;
        }
      }
    }
    summary.podcasts = podcastId;
    summary.artists += channelCount;

    // The search index in order of popularity, songs then videos (migration 0004 says why).
    sqlite.exec(
      `INSERT INTO songs_by_views (rowid, search_text, song_id)
       SELECT (CASE WHEN video_type = 'MUSIC_VIDEO_TYPE_ATV' THEN 0 ELSE ${SEARCH_VIDEOS_FROM} END)
         + row_number() OVER (PARTITION BY video_type = 'MUSIC_VIDEO_TYPE_ATV' ORDER BY views DESC, id),
         search_text, id
       FROM songs`,
    );
    const albumPlaylists = (
      sqlite
        .prepare("SELECT audio_playlist_id AS p FROM albums WHERE type = 'Album' ORDER BY id LIMIT 3")
        .all() as {
        p: string;
      }[]
    ).map((r) => r.p);
    const podcastPlaylists = (
      sqlite.prepare("SELECT playlist_id AS p FROM podcasts ORDER BY id LIMIT 2").all() as { p: string }[]
    ).map((r) => r.p);
    addCurrentChartLayout(sqlite, new Rng(hash32(`charts-2026:${options.seed}`)), {
      songIds,
      videoIds,
      insPlaylist,
      insItem,
      insChart,
    });
    summary.accounts = seedAccounts(sqlite, new Rng(hash32(`accounts:${options.seed}`)), {
      songIds,
      curatedIds,
      albumPlaylists,
      podcastPlaylists,
      artistChannels: artistRows.map((a) => a.channelId),
    });
    // Premium: a login and the song charts only it sees (issue 11 item 11), drawn last.
    seedPremiumLogin(sqlite, options.seed);
    summary.accounts += 1;
    const countries = CHART_COUNTRIES.map((code) => ({
      code,
      name: code === "ZZ" ? "Global" : (COUNTRY_TITLES[code] ?? code),
    }));
    addPremiumCharts(sqlite, options.seed, countries, songIds, {
      createdAt: CATALOGUE_EPOCH_MS,
      insPlaylist,
      insItem,
      insChart,
    });
    sqlite
      .prepare("INSERT INTO meta (key, value) VALUES ('catalogue', ?)")
      .run(JSON.stringify({ seed: options.seed, size: options.size }));
  });
  run();
  return summary;
}

/** The seeded logins, their brand accounts, and a starting library for the first login. */
export const SEEDED_ACCOUNTS = [
  { id: 1, email: "emma@example.com", name: "Emma Example", handle: "@emmaexample", authUser: 0 },
  { id: 2, email: "liam@example.com", name: "Liam Example", handle: "@liamexample", authUser: 1 },
  { id: 3, email: "noor@example.com", name: "Noor Example", handle: null, authUser: 0 },
] as const;

function seedAccounts(
  sqlite: Database.Database,
  r: RngType,
  pools: {
    songIds: string[];
    curatedIds: string[];
    artistChannels: string[];
    albumPlaylists: string[];
    podcastPlaylists: string[];
  },
): number {
  const ins = sqlite.prepare(
    "INSERT INTO accounts (id, email, name, handle, channel_id, sapisid, parent_id, page_id, auth_user) VALUES (?,?,?,?,?,?,?,?,?)",
  );
  for (const a of SEEDED_ACCOUNTS) {
    ins.run(a.id, a.email, a.name, a.handle, ids.channel(r), ids.sapisid(r), null, null, a.authUser);
  }
  // A brand account under the first login.
  ins.run(4, "emma@example.com", "Emma's Label", "@emmaslabel", ids.channel(r), "", 1, ids.pageId(r), 0);

  const lib = sqlite.prepare(
    "INSERT OR IGNORE INTO library_items (account_id, kind, target_id, added_at) VALUES (?,?,?,?)",
  );
  const rate = sqlite.prepare(
    "INSERT OR IGNORE INTO ratings (account_id, kind, target_id, rating, updated_at) VALUES (?,?,?,?,?)",
  );
  const hist = sqlite.prepare("INSERT INTO history (account_id, video_id, played_at) VALUES (?,?,?)");
  const pl = sqlite.prepare(
    "INSERT INTO playlists (playlist_id, title, description, owner_account_id, author_name, author_channel_id, privacy, kind, add_to_top, views, created_at, search_text) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
  );
  const item = sqlite.prepare(
    "INSERT INTO playlist_items (playlist_id, video_id, set_video_id, position) VALUES (?,?,?,?)",
  );
  const songs = pools.songIds;
  let t = CATALOGUE_EPOCH_MS;
  /** Seeded library entries are a minute apart, in the order they are made. */
  const tick = () => {
    t += 60_000;
    return t;
  };
  for (let i = 0; i < Math.min(60, songs.length); i++) {
    lib.run(1, "song", songs[(i * 13) % songs.length]!, tick());
  }
  for (let i = 0; i < Math.min(30, songs.length); i++) {
    rate.run(1, "song", songs[(i * 17 + 5) % songs.length]!, "LIKE", tick());
  }
  for (let i = 0; i < Math.min(5, pools.artistChannels.length); i++) {
    lib.run(1, "subscription", pools.artistChannels[(i * 3) % pools.artistChannels.length]!, tick());
  }
  for (let i = 0; i < Math.min(20, songs.length); i++) {
    hist.run(1, songs[(i * 7 + 3) % songs.length]!, CATALOGUE_EPOCH_MS - i * 3_600_000 * 9);
  }
  const owned = [
    { title: "Road Trip", privacy: "PRIVATE", count: 120 },
    { title: "Morning Coffee", privacy: "PUBLIC", count: 25 },
  ];
  for (const p of owned) {
    const id = "PL" + r.chars(32);
    pl.run(id, p.title, "", 1, "Emma Example", null, p.privacy, "user", 0, 0, tick(), p.title.toLowerCase());
    for (let i = 0; i < p.count; i++) {
      item.run(id, songs[(i * 31 + p.count) % songs.length]!, ids.setVideo(r), i + 1);
    }
  }
  if (pools.curatedIds[0]) lib.run(1, "playlist", pools.curatedIds[0], tick());
  // Saved albums are albums whose playlist the account rated LIKE.
  for (const p of pools.albumPlaylists) rate.run(1, "playlist", p, "LIKE", tick());
  // Saved podcasts (a saved podcast is a liked podcast playlist), so that the "New Episodes" auto
  // playlist (RDPN) has the latest episodes of each.
  for (const p of pools.podcastPlaylists) rate.run(1, "playlist", p, "LIKE", tick());
  return SEEDED_ACCOUNTS.length + 1;
}

/**
 * The charts layout a signed-in account sees since 2026 (capture
 * ytm_2026_07_get_charts_us_albums_no_genres): an "Albums" carousel of top albums, "Video charts"
 * with Trending 20, the daily and the Top 100 music videos, then top artists — and no genre
 * carousel, nor a songs chart, in any country. Drawn from its own generator so that the rest of the
 * catalogue stays what the seed made before this layout was added.
 */
function addCurrentChartLayout(
  sqlite: Database.Database,
  r: RngType,
  o: {
    songIds: readonly string[];
    videoIds: readonly string[];
    insPlaylist: Database.Statement;
    insItem: Database.Statement;
    insChart: Database.Statement;
  },
): void {
  const albums = (
    sqlite.prepare("SELECT browse_id AS b FROM albums ORDER BY id").all() as { b: string }[]
  ).map((x) => x.b);
  const add = (id: string, title: string, count: number, pool: readonly string[]) => {
    insertChartPlaylistRow(o.insPlaylist, id, title, CATALOGUE_EPOCH_MS);
    const start = r.int(0, pool.length - 1);
    const step = r.int(1, 97);
    for (let i = 0; i < count; i++)
      o.insItem.run(id, pool[(start + i * step) % pool.length]!, ids.setVideo(r), i + 1);
  };
  sqlite.exec("DELETE FROM charts WHERE section = 'genres'");
  // The Top 100 music videos, made with the catalogue, comes last of the video charts.
  sqlite.exec("UPDATE charts SET position = 3 WHERE section = 'videos'");
  for (const country of CHART_COUNTRIES) {
    const name = country === "ZZ" ? "Global" : (COUNTRY_TITLES[country] ?? country);
    const trending = ids.audioPlaylist(r);
    add(trending, `Trending 20 ${name}`, 20, [...o.songIds, ...o.videoIds]);
    o.insChart.run(country, "videos", 1, trending, null);
    const daily = ids.playlist(r);
    add(daily, `Daily Top Music Videos - ${name}`, 100, o.videoIds);
    o.insChart.run(country, "videos", 2, daily, null);
    if (albums.length === 0) continue;
    const start = r.int(0, albums.length - 1);
    for (let i = 0; i < Math.min(10, albums.length); i++) {
      o.insChart.run(country, "albums", i + 1, albums[(start + i * 11) % albums.length]!, null);
    }
  }
}

const COUNTRY_TITLES: Readonly<Record<string, string>> = {
  US: "United States",
  GB: "United Kingdom",
  DE: "Germany",
  IN: "India",
};
