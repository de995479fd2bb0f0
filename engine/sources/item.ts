/**
 * The one shape every source item is normalised to, whatever operation produced it. Field names
 * follow the client's results (`videoId`, `duration_seconds`…); absent values are `null`.
 */
import type { ItemKind } from "../recipe/fit.js";

export type { ItemKind };

export interface ItemArtist {
  name: string;
  id: string | null;
}

export interface ItemAlbum {
  name: string;
  id: string | null;
}

/** Tokens for adding a song to the library or removing it (edit_song_library_status). */
export interface ItemFeedbackTokens {
  add: string | null;
  remove: string | null;
}

export interface Item {
  kind: ItemKind;
  videoId: string | null;
  title: string | null;
  artists: readonly ItemArtist[];
  album: ItemAlbum | null;
  duration_seconds: number | null;
  videoType: string | null;
  isAvailable: boolean;
  isExplicit: boolean;
  /** Episodes: the service's date text as read ("3 days ago", "Aug 30, 2024"). */
  date: string | null;
  /** Albums, playlists and podcasts: the playlist id a rating or a read uses. */
  playlistId: string | null;
  /** Albums (MPRE…), artists and channels (UC…), episodes (MPED…). */
  browseId: string | null;
  /** A playlist row's own id, needed to remove or move that row. */
  setVideoId: string | null;
  feedbackTokens: ItemFeedbackTokens | null;
  /** The recipe source id the item came from. */
  source: string;
  /** 1-based position within that source. */
  rank: number;
}

/** An item with every optional field empty: readers and tests fill only what they know. */
export function makeItem(fields: Partial<Item> & { source: string; rank: number }): Item {
  return {
    kind: "track",
    videoId: null,
    title: null,
    artists: [],
    album: null,
    duration_seconds: null,
    videoType: null,
    isAvailable: true,
    isExplicit: false,
    date: null,
    playlistId: null,
    browseId: null,
    setVideoId: null,
    feedbackTokens: null,
    ...fields,
  };
}

/** A short human label for plan lines: `Title — Artist` or the id. */
export function itemLabel(
  item: Pick<Item, "title" | "artists" | "videoId" | "playlistId" | "browseId">,
): string {
  if (!item.title) return item.videoId ?? item.playlistId ?? item.browseId ?? "?";
  // Planning labels every item of a 5,000-row target: no intermediate arrays for the artist names.
  const list = item.artists;
  if (list.length === 0) return item.title;
  let artists = list[0]!.name;
  for (let i = 1; i < list.length; i++) artists += `, ${list[i]!.name}`;
  return artists ? `${item.title} — ${artists}` : item.title;
}
