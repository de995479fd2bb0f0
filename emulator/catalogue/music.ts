/** Artists, their releases (albums, EPs, singles) with songs, and the videos beside the songs. */
import { ids } from "../random.js";
import { GENRES } from "../words.js";
import type { Generation } from "./context.js";
import { artistName, title } from "./names.js";

export interface ArtistRef {
  id: number;
  channelId: string;
  name: string;
}

/** The video ids later parts draw playlists and charts from. */
export interface MusicPools {
  /** Songs (MUSIC_VIDEO_TYPE_ATV), in the order made. */
  songIds: string[];
  /** Official videos and user-generated ones, in the order made. */
  videoIds: string[];
}

/** The columns added for look-alike songs (lookalikes.ts), empty for the catalogue's first songs. */
const FIRST_SONG = { featuredArtistId: null, latinTitle: null, lookalike: null, variantOf: null } as const;

/** One artist per 40 songs (at least 5), ids from 1. */
export function addArtists(g: Generation): ArtistRef[] {
  const { r } = g;
  const count = Math.max(5, Math.round(g.size / 40));
  const made: ArtistRef[] = [];
  for (let id = 1; id <= count; id++) {
    const name = artistName(r);
    const channelId = g.unique(() => ids.channel(r));
    const subscribers = Math.floor(10 ** r.int(2, 7) * (1 + r.next() * 8));
    g.write.artist({
      id,
      channelId,
      name,
      kind: "artist",
      subscribers,
      monthlyListeners: Math.floor(subscribers * (0.5 + r.next() * 3)),
      description: `${name} is a ${r.pick(GENRES).toLowerCase()} act known for "${title(r, 3)}".`,
      searchText: name.toLowerCase(),
      latinName: null,
    });
    made.push({ id, channelId, name });
  }
  g.summary.artists = count;
  return made;
}

/** Where the release loop stands: songs and albums are numbered from 1 in the order made. */
interface Progress extends MusicPools {
  songs: number;
  albums: number;
}

/**
 * Exactly `size` songs shared among the artists: each takes about its share (half to one and a
 * half times it), the last one what is left, in releases of the usual lengths.
 */
export function addReleases(g: Generation, artists: readonly ArtistRef[]): MusicPools {
  const { r, size } = g;
  const at: Progress = { songIds: [], videoIds: [], songs: 0, albums: 0 };
  const perArtist = size / artists.length;
  for (let i = 0; i < artists.length && at.songs < size; i++) {
    const last = i === artists.length - 1;
    const quota = last ? size - at.songs : Math.max(1, Math.round(perArtist * (0.5 + r.next())));
    let made = 0;
    while (made < quota && at.songs < size) {
      const k = r.next();
      const type = k < 0.6 ? "Album" : k < 0.75 ? "EP" : "Single";
      const length = type === "Album" ? r.int(8, 14) : type === "EP" ? r.int(4, 6) : r.int(1, 2);
      const tracks = Math.min(quota - made, size - at.songs, length);
      addRelease(g, at, artists[i]!, type, tracks);
      made += tracks;
    }
  }
  g.summary.songs = at.songs;
  g.summary.albums = at.albums;
  return { songIds: at.songIds, videoIds: at.videoIds };
}

/** One album row and its tracks; a one-track release's song is named after it. */
function addRelease(g: Generation, at: Progress, artist: ArtistRef, type: string, tracks: number): void {
  const { r } = g;
  const albumId = ++at.albums;
  const albumTitle = title(r, r.int(1, 3));
  const explicitAlbum = r.chance(0.12);
  g.write.album({
    id: albumId,
    browseId: g.unique(() => ids.album(r)),
    audioPlaylistId: g.unique(() => ids.audioPlaylist(r)),
    title: albumTitle,
    artistId: artist.id,
    type,
    year: r.int(1975, 2025),
    explicit: explicitAlbum,
    searchText: `${albumTitle} ${artist.name}`.toLowerCase(),
  });
  for (let t = 1; t <= tracks; t++) {
    const songTitle = tracks === 1 ? albumTitle : null;
    addTrack(g, at, artist, { albumId, trackNumber: t, title: songTitle, explicitAlbum });
  }
}

/** A song and, for about a third of them, its official video (the two name each other). */
function addTrack(
  g: Generation,
  at: Progress,
  artist: ArtistRef,
  on: { albumId: number; trackNumber: number; title: string | null; explicitAlbum: boolean },
): void {
  const { r, size } = g;
  const songId = ++at.songs;
  const videoId = g.unique(() => ids.video(r));
  const songTitle = on.title ?? title(r, r.int(1, 4));
  const explicit = on.explicitAlbum && r.chance(0.6);
  const counterpart = r.chance(0.3) ? g.unique(() => ids.video(r)) : null;
  const duration = r.int(95, 420);
  const views = Math.floor(10 ** r.int(3, 8) * (1 + r.next() * 8));
  g.write.song({
    id: songId,
    videoId,
    title: songTitle,
    artistId: artist.id,
    albumId: on.albumId,
    trackNumber: on.trackNumber,
    durationSeconds: duration,
    views,
    explicit,
    available: !r.chance(0.03),
    videoType: "MUSIC_VIDEO_TYPE_ATV",
    counterpartId: counterpart,
    lyricsSource: r.chance(0.7) ? (r.chance(0.5) ? "Source: LyricFind" : "Source: Musixmatch") : null,
    searchText: `${songTitle} ${artist.name}`.toLowerCase(),
    ...FIRST_SONG,
  });
  at.songIds.push(videoId);
  if (!counterpart) return;
  // Official videos are numbered above every song (songs stop at `size`), user videos above both.
  g.write.song({
    id: size * 2 + songId,
    videoId: counterpart,
    title: `${songTitle} (Official Video)`,
    artistId: artist.id,
    albumId: null,
    trackNumber: null,
    durationSeconds: duration + r.int(0, 30),
    views: Math.floor(views * (0.5 + r.next() * 2)),
    explicit,
    available: true,
    videoType: "MUSIC_VIDEO_TYPE_OMV",
    counterpartId: videoId,
    lyricsSource: null,
    searchText: `${songTitle} (official video) ${artist.name}`.toLowerCase(),
    ...FIRST_SONG,
  });
  at.videoIds.push(counterpart);
  g.summary.videos++;
}

/** User-generated videos (live takes, covers) without a song counterpart, one per 20 songs. */
export function addUserVideos(g: Generation, artists: readonly ArtistRef[], videoIds: string[]): void {
  const { r, size } = g;
  const count = Math.max(5, Math.round(size / 20));
  for (let u = 1; u <= count; u++) {
    const artist = r.pick(artists);
    const videoId = g.unique(() => ids.video(r));
    const t = `${title(r, 2)} (${r.pick(["Live", "Cover", "Acoustic", "Lyric Video"])})`;
    g.write.song({
      id: size * 4 + u,
      videoId,
      title: t,
      artistId: artist.id,
      albumId: null,
      trackNumber: null,
      durationSeconds: r.int(120, 600),
      views: Math.floor(10 ** r.int(2, 6) * (1 + r.next() * 8)),
      explicit: false,
      available: true,
      videoType: "MUSIC_VIDEO_TYPE_UGC",
      counterpartId: null,
      lyricsSource: null,
      searchText: `${t} ${artist.name}`.toLowerCase(),
      ...FIRST_SONG,
    });
    videoIds.push(videoId);
    g.summary.videos++;
  }
}
