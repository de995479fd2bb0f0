import { isObject, type JsonObject, rendererName } from "./nav.js";
import { type ParseNotes, REPORT_ALL } from "./notes.js";

/**
 * Every `key` renderer of a list (`[{key: {...}}, …]`) parsed with `parse`, which is given the item
 * and its path for a ParseError and may return null to leave it out. Entries of another renderer
 * are skipped and reported, unless named in `quiet` (a list's continuation item).
 */
export function rendererItems<T>(
  items: readonly unknown[],
  key: string,
  at: string,
  notes: ParseNotes,
  parse: (item: JsonObject, at: string) => T | null,
  quiet: readonly string[] = REPORT_ALL,
): T[] {
  const out: T[] = [];
  for (let i = 0; i < items.length; i++) {
    const wrapper = items[i];
    const item = isObject(wrapper) ? wrapper[key] : undefined;
    if (isObject(item)) {
      const parsed = parse(item, `${at}[${i}].${key}`);
      if (parsed !== null) out.push(parsed);
      continue;
    }
    const name = rendererName(wrapper) ?? typeof wrapper;
    if (!quiet.includes(name)) notes.unknownRenderer(name, `${at}[${i}]`);
  }
  return out;
}
