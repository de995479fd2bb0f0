/** Client results → the engine's one item shape. Pure; absent fields become null. */
import { type Item, type ItemArtist, makeItem } from "./item.js";
import type {
  AlbumCardResult,
  ArtistRowResult,
  EpisodeResult,
  PlaylistCardResult,
  PodcastCardResult,
  RunRef,
  SearchResultItem,
  TrackResult,
} from "./reader.js";

export const EPISODE_VIDEO_TYPE = "MUSIC_VIDEO_TYPE_PODCAST_EPISODE";

/** "3:45" or "1:02:03" → seconds; "1 hr 25 mins", "45 min", "30 sec" (episodes) → seconds. */
export function parseDuration(text: string | null | undefined): number | null {
  if (!text) return null;
  const t = text.trim();
  if (/^\d+(:\d{1,2}){1,2}$/.test(t)) return t.split(":").reduce((acc, part) => acc * 60 + Number(part), 0);
  let total = 0;
  let matched = false;
  for (const m of t.matchAll(/(\d+)\s*(hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)\b/gi)) {
    matched = true;
    const unit = m[2]!.toLowerCase();
    const n = Number(m[1]);
    total += unit.startsWith("h") ? n * 3600 : unit.startsWith("m") ? n * 60 : n;
  }
  return matched ? total : null;
}

function artists(list: readonly RunRef[] | null | undefined): ItemArtist[] {
  return (list ?? []).map((a) => ({ name: a.name ?? "", id: a.id ?? null }));
}

export function fromTrack(t: TrackResult, source: string, rank: number): Item {
  const album =
    typeof t.album === "string"
      ? { name: t.album, id: null }
      : t.album
        ? { name: t.album.name ?? "", id: t.album.id ?? null }
        : null;
  const tokens = t.feedbackTokens;
  return makeItem({
    kind: t.videoType === EPISODE_VIDEO_TYPE ? "episode" : "track",
    videoId: t.videoId ?? null,
    title: t.title ?? null,
    artists: artists(t.artists),
    album,
    duration_seconds: t.duration_seconds ?? parseDuration(t.duration ?? t.length),
    videoType: t.videoType ?? null,
    // Rows without a videoId cannot be played or added: the service greys them out.
    isAvailable: (t.isAvailable ?? true) && !!t.videoId,
    isExplicit: t.isExplicit ?? false,
    setVideoId: t.setVideoId ?? null,
    feedbackTokens: tokens ? { add: tokens.add ?? null, remove: tokens.remove ?? null } : null,
    source,
    rank,
  });
}

export function fromEpisode(e: EpisodeResult, source: string, rank: number, podcast?: RunRef | null): Item {
  const by = e.podcast ?? podcast ?? null;
  return makeItem({
    kind: "episode",
    videoId: e.videoId ?? null,
    title: e.title ?? null,
    artists: by ? [{ name: by.name ?? "", id: by.id ?? null }] : [],
    duration_seconds: parseDuration(e.duration),
    videoType: e.videoType ?? EPISODE_VIDEO_TYPE,
    isAvailable: !!e.videoId,
    date: e.date ?? null,
    browseId: e.browseId ?? null,
    source,
    rank,
  });
}

export function fromAlbumCard(a: AlbumCardResult, source: string, rank: number): Item {
  return makeItem({
    kind: "album",
    title: a.title ?? null,
    artists: artists(a.artists),
    isExplicit: a.isExplicit ?? false,
    playlistId: a.audioPlaylistId ?? a.playlistId ?? null,
    browseId: a.browseId ?? null,
    date: a.year ?? null,
    source,
    rank,
  });
}

export function fromPlaylistCard(p: PlaylistCardResult, source: string, rank: number): Item {
  return makeItem({
    kind: "playlist",
    title: p.title ?? null,
    playlistId: p.playlistId ?? (p.browseId ? p.browseId.replace(/^VL/, "") : null),
    browseId: p.browseId ?? null,
    source,
    rank,
  });
}

/**
 * Library artists are listed under `MPLA` + the channel id (their library page), subscriptions and
 * charts under the channel id itself: one artist, one key, and the key subscribe_artists takes.
 */
function channelOf(browseId: string | null | undefined): string | null {
  if (!browseId) return null;
  return /^MPLAUC/.test(browseId) ? browseId.slice(4) : browseId;
}

export function fromArtistRow(a: ArtistRowResult, source: string, rank: number): Item {
  const parsedRank = a.rank ? Number.parseInt(a.rank, 10) : Number.NaN;
  return makeItem({
    kind: "artist",
    title: a.artist ?? a.title ?? null,
    browseId: channelOf(a.browseId),
    source,
    rank: Number.isFinite(parsedRank) ? parsedRank : rank,
  });
}

export function fromPodcastCard(p: PodcastCardResult, source: string, rank: number): Item {
  return makeItem({
    kind: "podcast",
    title: p.title ?? null,
    artists: p.channel ? [{ name: p.channel.name ?? "", id: p.channel.id ?? null }] : [],
    playlistId: p.podcastId ?? (p.browseId ? p.browseId.replace(/^MPSP/, "") : null),
    browseId: p.browseId ?? null,
    source,
    rank,
  });
}

export function fromSearchResult(r: SearchResultItem, source: string, rank: number): Item | null {
  switch (r.resultType) {
    case "song":
    case "video":
      return fromTrack(r, source, rank);
    case "episode":
      return fromEpisode(r, source, rank);
    case "album":
      return fromAlbumCard({ ...r, artists: r.artists ?? null }, source, rank);
    case "artist":
      return fromArtistRow(r, source, rank);
    case "playlist":
      return fromPlaylistCard(r, source, rank);
    case "podcast":
      return fromPodcastCard(r, source, rank);
    default:
      return null;
  }
}
