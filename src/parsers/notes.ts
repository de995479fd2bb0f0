import { isObject } from "./nav.js";

/**
 * What a pure parser may say about a response without failing: a renderer it did not recognise and
 * skipped. The operation layer turns these notes into log lines; parsers never log themselves.
 */
export interface ParseNotes {
  unknownRenderer(renderer: string, where: string): void;
}

export const ignoreNotes: ParseNotes = Object.freeze({ unknownRenderer: () => {} });

/** Collects notes in memory: for tests, and for callers that want to inspect them. */
export function collectNotes(): ParseNotes & {
  readonly unknown: Array<{ renderer: string; where: string }>;
} {
  const unknown: Array<{ renderer: string; where: string }> = [];
  return { unknown, unknownRenderer: (renderer, where) => unknown.push({ renderer, where }) };
}

/** The trailing item of a list that has more pages: expected, so not worth a note. */
export const CONTINUATION_ITEM = "continuationItemRenderer";
/** For lists that may end with a continuation item: that one is expected, anything else reported. */
export const QUIET_CONTINUATION: readonly string[] = [CONTINUATION_ITEM];
/** For lists that never hold a continuation item: every skipped renderer is reported. */
export const REPORT_ALL: readonly string[] = [];

/**
 * Reports the renderer (the single key) of a list entry a parser skipped, unless it is one of
 * `quiet` (by default the list's continuation item). Entries that are not objects say nothing.
 */
export function noteSkipped(
  notes: ParseNotes | undefined,
  entry: unknown,
  where: string,
  quiet: readonly string[] = QUIET_CONTINUATION,
): void {
  if (notes === undefined || !isObject(entry)) return;
  for (const key in entry) {
    if (!quiet.includes(key)) notes.unknownRenderer(key, where);
    return;
  }
}
