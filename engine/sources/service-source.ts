/**
 * The other services' sources (`spotify`, `listenbrainz`, `lastfm`): the service's list read whole
 * (engine/services/), each song matched to a video as a file's entries are (engine/match/: the
 * person's correction in matches.yaml by the service's id or by "artist - title", then the match
 * cache by the service's id, then search), as items. What the service listed that cannot stand for
 * a song (a local file, a removed track) and songs nothing was found for become notes of the plan.
 */
import type { SongEntry } from "../match/entry.js";
import { resolveEntries } from "../match/resolve.js";
import type { ServiceSource } from "../recipe/types.js";
import type { ServiceList, ServiceTrack } from "../services/types.js";
import { type FileSourceDeps, overridesOf } from "./file-source.js";
import { matchedItems } from "./matched.js";
import type { SourceNote, SourceRead } from "./read.js";

/** How a run reads the other services: one list of songs per source, every page, or an error. */
export interface ServiceReaders {
  songs(spec: ServiceSource): Promise<ServiceList>;
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

function skippedNotes(spec: ServiceSource, list: ServiceList): SourceNote[] {
  return (list.skipped ?? [])
    .filter((s) => s.count > 0)
    .map((s) => ({
      source: spec.id,
      kind: "unreadable" as const,
      text: `${spec.type}: ${s.count} ${s.reason}`,
    }));
}

export async function readServiceSource(
  spec: ServiceSource,
  readers: ServiceReaders,
  deps: FileSourceDeps,
): Promise<SourceRead> {
  // Corrections first: a matches.yaml that cannot be read fails before the service is asked.
  const overrides = await overridesOf(spec);
  const list = await readers.songs(spec);
  const { resolutions } = await resolveEntries(list.entries.map(songEntry), { ...deps, overrides });
  const { items, unmatched } = matchedItems(resolutions, spec.id);
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

function readShort(list: ServiceList): boolean {
  if (list.expected === null) return false;
  const skipped = (list.skipped ?? []).reduce((n, s) => n + s.count, 0);
  return list.entries.length + skipped < list.expected;
}
