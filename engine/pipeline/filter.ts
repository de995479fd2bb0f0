import type { FilterStep } from "../recipe/types.js";
import type { Item } from "../sources/item.js";
import type { StepResult } from "./types.js";

type FilterOptions = FilterStep["filter"];

function lower(s: string): string {
  return s.normalize("NFKC").toLocaleLowerCase("en-US");
}

/** Why an item fails the filter, or null when it passes. */
export function filterReason(item: Item, f: FilterOptions, compiled = compileFilter(f)): string | null {
  if (f.available !== null && item.isAvailable !== f.available)
    return f.available ? "unavailable" : "available";
  if (f.explicit !== null && item.isExplicit !== f.explicit) return f.explicit ? "not explicit" : "explicit";
  if (f.videoType !== null && !f.videoType.includes(item.videoType ?? "")) {
    return `video type ${item.videoType ?? "unknown"} not wanted`;
  }
  const seconds = item.duration_seconds;
  if (f.duration && seconds !== null) {
    if (f.duration.min !== null && seconds < f.duration.min) return `shorter than ${f.duration.min} s`;
    if (f.duration.max !== null && seconds > f.duration.max) return `longer than ${f.duration.max} s`;
  }
  if (f.artists) {
    const names = item.artists.map((a) => lower(a.name));
    const ids = item.artists.map((a) => a.id);
    const matches = (wanted: string) => names.includes(lower(wanted)) || ids.includes(wanted);
    if (f.artists.include && !f.artists.include.some(matches)) return "artist not included";
    const excluded = f.artists.exclude?.find(matches);
    if (excluded) return `artist ${excluded} excluded`;
  }
  const title = item.title ?? "";
  if (compiled.include && !compiled.include.test(title)) return "title does not match";
  if (compiled.exclude?.test(title)) return "title excluded";
  return null;
}

/** Regular expressions compiled once per step (case-insensitive, Unicode). */
export function compileFilter(f: FilterOptions): { include: RegExp | null; exclude: RegExp | null } {
  return {
    include: f.title?.include ? new RegExp(f.title.include, "iu") : null,
    exclude: f.title?.exclude ? new RegExp(f.title.exclude, "iu") : null,
  };
}

export function filterItems(items: readonly Item[], f: FilterOptions): StepResult {
  const compiled = compileFilter(f);
  const result: StepResult = { items: [], skipped: [] };
  for (const item of items) {
    const reason = filterReason(item, f, compiled);
    if (reason === null) result.items.push(item);
    else result.skipped.push({ item, reason });
  }
  return result;
}
