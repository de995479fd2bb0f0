/**
 * Songs matched to videos as items: what a file's entries and other services' songs both become
 * (engine/sources/file-source.ts, service-source.ts). The item keeps the song's own words, so the
 * plan shows what the person's list says, and takes the video's id the matcher chose.
 */
import type { Resolution } from "../match/resolve.js";
import { unmatchedText } from "../match/resolve.js";
import { type Item, makeItem } from "./item.js";
import type { SourceNote } from "./read.js";

function matchedItem(r: Resolution, source: string, rank: number): Item {
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
 * The items of the matched songs, ranked in the list's order, and a note for each song nothing was
 * found for (a `skip` the person wrote is their decision, not news for every plan).
 */
export function matchedItems(
  resolutions: readonly Resolution[],
  source: string,
): { items: Item[]; unmatched: SourceNote[] } {
  const items: Item[] = [];
  const unmatched: SourceNote[] = [];
  for (const r of resolutions) {
    if (r.videoId) items.push(matchedItem(r, source, items.length + 1));
    else if (!r.skipped) unmatched.push({ source, kind: "unmatched", text: unmatchedText(r) });
  }
  return { items, unmatched };
}
