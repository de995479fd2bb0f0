/**
 * The shrinkage guard. Search, library, album, history, radio and mood reads carry no item count,
 * so a read the service cut short (a lost continuation, a half page) looks complete; the only sign
 * left is its size against the last complete read of the same source. Pure.
 *
 * The rule a user would expect: a source that returns less than `min_source_ratio` (default half)
 * of its last complete read, and at least `SHRINK_FLOOR` items fewer, looks cut short, and the
 * plan holds back removals (adds still go ahead). A shrunk read is not recorded as complete, so the
 * guard holds while the source stays that small: as `max_removals` does, it waits for the person
 * (lower `min_source_ratio`, or 0 to accept the smaller source once). Changing the source's options
 * in the recipe starts a new baseline.
 */
import { createHash } from "node:crypto";
import { canonicalJson } from "../recipe/freeze.js";
import type { SourceSpec } from "../recipe/types.js";
import type { SourceRead } from "../sources/read.js";
import type { PlanSource, SourceSize } from "./types.js";

/** Small lists move by a few items for real: a drop of fewer items than this is never suspicious. */
export const SHRINK_FLOOR = 5;

/** Source types whose items come from the recipe or the target itself: never cut by the service. */
const UNCHECKED = new Set<SourceSpec["type"]>(["static", "self"]);

/** The state's key for a source: its id and a digest of its options. */
export function sourceKey(spec: SourceSpec): string {
  const digest = createHash("sha256").update(canonicalJson(spec)).digest("hex").slice(0, 12);
  return `${spec.id}:${digest}`;
}

/** Each checkable source's read, with its last complete size from `last` (by source key). */
export function sourceSizes(
  specs: readonly SourceSpec[],
  reads: ReadonlyMap<string, SourceRead>,
  last: ReadonlyMap<string, number>,
): SourceSize[] {
  const out: SourceSize[] = [];
  for (const spec of specs) {
    const read = reads.get(spec.id);
    if (!read || UNCHECKED.has(spec.type)) continue;
    const key = sourceKey(spec);
    out.push({
      id: spec.id,
      key,
      items: read.items.length,
      counted: read.expected !== null && !read.truncated,
      truncated: read.truncated,
      last: last.get(key) ?? null,
    });
  }
  return out;
}

/** Whether a read looks cut short against its source's last complete read. */
export function isShrunk(s: SourceSize, ratio: number): boolean {
  // A read the service counted needs no baseline: the count says whether it is whole.
  if (s.last === null || s.counted || s.truncated || ratio <= 0) return false;
  return s.items < s.last * ratio && s.last - s.items >= SHRINK_FLOOR;
}

/** The sources of a plan: a complete, unsuspicious read becomes the baseline once a run applies. */
export function planSources(sizes: readonly SourceSize[], ratio: number): PlanSource[] {
  return sizes.map((s) => ({ ...s, record: !s.truncated && !isShrunk(s, ratio) }));
}

/** The guard's message for the sources that shrank, or null when none did. */
export function shrinkMessage(sizes: readonly SourceSize[], ratio: number): string | null {
  const shrunk = sizes.filter((s) => isShrunk(s, ratio));
  if (shrunk.length === 0) return null;
  const share = `${Math.round(ratio * 100)}%`;
  const each = shrunk.map(
    (s) => `${s.id} returned ${s.items} items, under ${share} of its last complete read (${s.last})`,
  );
  return `source read looks cut short: ${each.join("; ")}`;
}
