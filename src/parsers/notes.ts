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
