/**
 * `expand: artists | albums`: turns the stream's items into what a subscriptions or library-albums
 * target holds. "Follow the artists of this playlist" is a playlist of tracks expanded to the
 * artists credited on them; "save these albums" is the same tracks expanded to their albums.
 *
 * Each artist or album comes out once, at its first appearance, carrying the source and rank of
 * the item that named it first, so the plan still says where it came from. An item that names
 * nothing new is skipped with the reason (no id to follow, or already named by an earlier item):
 * every source item stays accounted for.
 *
 * An album named by a track carries the album page's browse id only; saving it needs the album's
 * playlist id, which targets/albums.ts looks up after the pipeline (this step reads nothing).
 */
import type { ExpandKind } from "../recipe/types.js";
import { type Item, makeItem } from "../sources/item.js";
import type { SkippedItem, StepResult } from "./types.js";

/** What an item expands to: the items it names, or why it names none. */
type Expansion = { items: Item[] } | { reason: string };

function artistsOf(item: Item): Expansion {
  if (item.kind === "artist") return item.browseId ? { items: [item] } : { reason: "no artist id" };
  if (item.kind !== "track" && item.kind !== "album") return { reason: `a ${item.kind} names no artists` };
  const credited = item.artists.filter((a) => a.id !== null);
  if (credited.length === 0) return { reason: "no artist id" };
  return {
    items: credited.map((a) =>
      makeItem({ kind: "artist", title: a.name, browseId: a.id, source: item.source, rank: item.rank }),
    ),
  };
}

function albumOf(item: Item): Expansion {
  if (item.kind === "album") return expandedKey(item) ? { items: [item] } : { reason: "no album id" };
  if (item.kind !== "track") return { reason: `a ${item.kind} is on no album` };
  const album = item.album;
  if (!album?.id) return { reason: "no album id" };
  return {
    items: [
      makeItem({
        kind: "album",
        title: album.name,
        // The track's artists: the album's own are not on the row, and a label needs someone.
        artists: item.artists,
        browseId: album.id,
        isExplicit: item.isExplicit,
        source: item.source,
        rank: item.rank,
      }),
    ],
  };
}

/** An artist is its channel; an album is its page, or its playlist when no page is known. */
function expandedKey(item: Item): string | null {
  return item.browseId ?? item.playlistId;
}

export function expand(items: readonly Item[], kind: ExpandKind): StepResult {
  const of = kind === "artists" ? artistsOf : albumOf;
  const first = new Map<string, Item>();
  const result: StepResult = { items: [], skipped: [] };
  for (const item of items) {
    const expansion = of(item);
    if ("reason" in expansion) {
      result.skipped.push({ item, reason: expansion.reason });
      continue;
    }
    const fresh = expansion.items.filter((named) => {
      const key = expandedKey(named);
      if (key === null || first.has(key)) return false;
      first.set(key, named);
      return true;
    });
    if (fresh.length > 0) result.items.push(...fresh);
    else result.skipped.push(alreadyNamed(item, expansion.items, first, kind));
  }
  return result;
}

/** An item whose artists (or album) all came earlier: which earlier item named the first of them. */
function alreadyNamed(
  item: Item,
  named: readonly Item[],
  first: ReadonlyMap<string, Item>,
  kind: ExpandKind,
): SkippedItem {
  const key = named.map(expandedKey).find((k) => k !== null);
  const earlier = key ? first.get(key) : undefined;
  const what = kind === "artists" ? (named.length > 1 ? "artists" : "artist") : "album";
  const where = earlier ? ` (#${earlier.rank} of ${earlier.source})` : "";
  return { item, reason: `${what} already listed${where}` };
}
