/**
 * Entries matched to the service's things as items: songs to videos (what a file's entries and
 * other services' songs both become, engine/sources/file-source.ts, service-source.ts), and a
 * Spotify library's albums and artists to the service's albums and artists. The item keeps the
 * entry's own words, so the plan shows what the person's list says, and takes the id the matcher
 * chose.
 */
import type { AlbumEntry } from "../match/album.js";
import type { ArtistEntry } from "../match/artist.js";
import type { MatchKind, Resolution } from "../match/resolve.js";
import { SONGS, unmatchedText } from "../match/resolve.js";
import { type Item, makeItem } from "./item.js";
import type { SourceNote } from "./read.js";

function songItem(r: Resolution, source: string, rank: number): Item {
  const { entry } = r;
  return makeItem({
    videoId: r.videoId,
    title: entry.title,
    artists: entry.artists.map((name) => ({ name, id: null })),
    album: entry.album ? { name: entry.album, id: null } : null,
    duration_seconds: entry.durationSeconds,
    isExplicit: entry.explicit ?? false,
    source,
    rank,
  });
}

/**
 * An album's item: its browseId, and its playlist when this run's search result gave it (a cached
 * match keeps the browseId only; the library target reads the album page for the playlist then,
 * engine/targets/albums.ts).
 */
export function albumItem(
  r: Resolution<AlbumEntry, { browseId: string; playlistId: string | null }>,
  source: string,
  rank: number,
): Item {
  const { entry } = r;
  const searched = r.candidates.find((c) => c.candidate.browseId === r.videoId);
  return makeItem({
    kind: "album",
    title: entry.title,
    artists: entry.artists.map((name) => ({ name, id: null })),
    browseId: r.videoId,
    playlistId: searched?.candidate.playlistId ?? null,
    date: entry.year === null ? null : String(entry.year),
    source,
    rank,
  });
}

export function artistItem(r: Resolution<ArtistEntry, unknown>, source: string, rank: number): Item {
  return makeItem({ kind: "artist", title: r.entry.name, browseId: r.videoId, source, rank });
}

/**
 * The items of the matched entries, ranked in the list's order, and a note for each entry nothing
 * was found for (a `skip` the person wrote is their decision, not news for every plan).
 */
export function matchedOf<E, C>(
  resolutions: readonly Resolution<E, C>[],
  source: string,
  kind: MatchKind<E, C>,
  itemOf: (r: Resolution<E, C>, source: string, rank: number) => Item,
): { items: Item[]; unmatched: SourceNote[] } {
  const items: Item[] = [];
  const unmatched: SourceNote[] = [];
  for (const r of resolutions) {
    if (r.videoId) items.push(itemOf(r, source, items.length + 1));
    else if (!r.skipped) unmatched.push({ source, kind: "unmatched", text: unmatchedText(r, kind) });
  }
  return { items, unmatched };
}

/** Songs matched to videos (matchedOf with songs' items). */
export function matchedItems(
  resolutions: readonly Resolution[],
  source: string,
): { items: Item[]; unmatched: SourceNote[] } {
  return matchedOf(resolutions, source, SONGS, songItem);
}
