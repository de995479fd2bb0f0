/**
 * The other services' sources (`spotify`, `listenbrainz`, `lastfm`): the service's list read whole
 * (engine/services/), each song matched to a video as a file's entries are (engine/match/: the
 * person's correction in matches.yaml by the service's id or by "artist - title", then the match
 * cache by the service's id, then search), as items. A Spotify library's saved albums and followed
 * artists go through the same steps, matched to the service's albums and artists
 * (engine/match/album.ts, artist.ts). What the service listed that cannot stand for a song (a local
 * file, a removed track) and entries nothing was found for become notes of the plan.
 */
import { ALBUMS } from "../match/album.js";
import { ARTISTS } from "../match/artist.js";
import type { SongEntry } from "../match/entry.js";
import { resolveEntries, resolveWith } from "../match/resolve.js";
import type { ServiceSource, SpotifySource } from "../recipe/types.js";
import type { ServiceAlbum, ServiceArtist, ServiceList, ServiceTrack } from "../services/types.js";
import { type FileSourceDeps, overridesOf } from "./file-source.js";
import type { Item } from "./item.js";
import { albumItem, artistItem, matchedItems, matchedOf } from "./matched.js";
import type { SourceNote, SourceRead } from "./read.js";

/**
 * How a run reads the other services: one list per source, every page, or an error. Songs for
 * every source but a Spotify library's saved albums and followed artists, which have their own.
 */
export interface ServiceReaders {
  songs(spec: ServiceSource): Promise<ServiceList>;
  albums(spec: SpotifySource): Promise<ServiceList<ServiceAlbum>>;
  artists(spec: SpotifySource): Promise<ServiceList<ServiceArtist>>;
}

/** A service's song as the matcher takes it: its words, its ISRC, and its id as the key. */
export function songEntry(t: ServiceTrack): SongEntry {
  return {
    title: t.title,
    artists: t.artists,
    album: t.album,
    durationSeconds: t.durationSeconds,
    isrc: t.isrc,
    explicit: t.explicit,
    videoId: null,
    serviceId: t.serviceId,
  };
}

function skippedNotes(spec: ServiceSource, list: ServiceList<unknown>): SourceNote[] {
  return (list.skipped ?? [])
    .filter((s) => s.count > 0)
    .map((s) => ({
      source: spec.id,
      kind: "unreadable" as const,
      text: `${spec.type}: ${s.count} ${s.reason}`,
    }));
}

/** The matched entries of what the service listed, as the source's read. */
async function matched(
  spec: ServiceSource,
  readers: ServiceReaders,
  deps: Parameters<typeof resolveEntries>[1],
): Promise<{ list: ServiceList<unknown>; items: Item[]; unmatched: SourceNote[] }> {
  if (spec.type === "spotify" && spec.library === "albums") {
    const list = await readers.albums(spec);
    const { resolutions } = await resolveWith(ALBUMS, list.entries, deps);
    return { list, ...matchedOf(resolutions, spec.id, ALBUMS, albumItem) };
  }
  if (spec.type === "spotify" && spec.library === "artists") {
    const list = await readers.artists(spec);
    const { resolutions } = await resolveWith(ARTISTS, list.entries, deps);
    return { list, ...matchedOf(resolutions, spec.id, ARTISTS, artistItem) };
  }
  const list = await readers.songs(spec);
  const { resolutions } = await resolveEntries(list.entries.map(songEntry), deps);
  return { list, ...matchedItems(resolutions, spec.id) };
}

export async function readServiceSource(
  spec: ServiceSource,
  readers: ServiceReaders,
  deps: FileSourceDeps,
): Promise<SourceRead> {
  // Corrections first: a matches.yaml that cannot be read fails before the service is asked.
  const overrides = await overridesOf(spec);
  const { list, items, unmatched } = await matched(spec, readers, { ...deps, overrides });
  const notes = [...skippedNotes(spec, list), ...unmatched];
  const capped = spec.limit === null ? items : items.slice(0, spec.limit);
  // A read cut short throws (engine/services/types.ts); should one come back short all the same,
  // fewer rows than the service said it holds, removals are held back as for a half-read playlist.
  // `expected` stays null: unmatched songs make fewer items than rows without anything being lost.
  return {
    id: spec.id,
    items: capped,
    truncated: readShort(list),
    expected: null,
    ...(notes.length ? { notes } : {}),
  };
}

function readShort(list: ServiceList<unknown>): boolean {
  if (list.expected === null) return false;
  const skipped = (list.skipped ?? []).reduce((n, s) => n + s.count, 0);
  return list.entries.length + skipped < list.expected;
}
