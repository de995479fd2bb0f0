import type { CombineOp } from "../recipe/types.js";
import type { Item } from "../sources/item.js";
import { itemKey, type StepResult } from "./types.js";

function keysOf(list: readonly Item[]): Set<string> {
  const out = new Set<string>();
  for (const item of list) {
    const k = itemKey(item);
    if (k !== null) out.add(k);
  }
  return out;
}

/**
 * Merges named sources into one stream. `intersect` and `difference` keep items of the first list;
 * the other lists only decide which of them stay.
 */
export function combine(
  op: CombineOp,
  lists: readonly (readonly Item[])[],
  names: readonly string[] = [],
): StepResult {
  const [first = [], ...rest] = lists;
  switch (op) {
    case "concat":
      return { items: lists.flat(), skipped: [] };
    case "interleave": {
      const items: Item[] = [];
      const longest = Math.max(0, ...lists.map((l) => l.length));
      for (let i = 0; i < longest; i++) {
        for (const list of lists) {
          const item = list[i];
          if (item) items.push(item);
        }
      }
      return { items, skipped: [] };
    }
    case "union": {
      const seen = new Set<string>();
      const result: StepResult = { items: [], skipped: [] };
      for (const item of lists.flat()) {
        const k = itemKey(item);
        if (k !== null && seen.has(k)) {
          result.skipped.push({ item, reason: "duplicate (union)" });
          continue;
        }
        if (k !== null) seen.add(k);
        result.items.push(item);
      }
      return result;
    }
    case "intersect": {
      const others = rest.map(keysOf);
      const result: StepResult = { items: [], skipped: [] };
      for (const item of first) {
        const k = itemKey(item);
        if (k !== null && others.every((set) => set.has(k))) result.items.push(item);
        else
          result.skipped.push({
            item,
            reason: `not in every source of intersect (${names.slice(1).join(", ")})`,
          });
      }
      return result;
    }
    case "difference": {
      const others = rest.map(keysOf);
      const result: StepResult = { items: [], skipped: [] };
      for (const item of first) {
        const k = itemKey(item);
        const inOther = k !== null ? others.findIndex((set) => set.has(k)) : -1;
        if (inOther === -1) result.items.push(item);
        else
          result.skipped.push({ item, reason: `also in source "${names[inOther + 1] ?? "?"}" (difference)` });
      }
      return result;
    }
  }
}
