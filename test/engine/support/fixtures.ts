/** Small builders of items for engine tests. */
import { type Item, makeItem } from "../../../engine/sources/item.js";

let counter = 0;

/** An 11-character video id made from a short name, so tests can read which is which. */
export function vid(name: string): string {
  return name.padEnd(11, "_").slice(0, 11);
}

export function track(name: string, fields: Partial<Item> = {}): Item {
  counter += 1;
  return makeItem({
    videoId: vid(name),
    title: name,
    artists: [{ name: "Artist", id: null }],
    duration_seconds: 200,
    source: "src",
    rank: counter,
    ...fields,
  });
}

/** Items of one source with ranks 1…n. */
export function list(source: string, names: readonly string[], fields: Partial<Item> = {}): Item[] {
  return names.map((n, i) => track(n, { source, rank: i + 1, ...fields }));
}

/** Playlist rows: items with setVideoIds `S<name>`. */
export function rows(names: readonly string[], fields: Partial<Item> = {}): Item[] {
  return names.map((n, i) =>
    track(n, { source: "target", rank: i + 1, setVideoId: `S${i}-${n}`, ...fields }),
  );
}

export function names(items: readonly Item[]): string[] {
  return items.map((i) => i.title ?? "?");
}
