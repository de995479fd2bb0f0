/**
 * The display words the real captures in ../shared/fixtures show, read from the places where the
 * parsers compare them (docs/PROTOCOL.md#display-words): carousel titles, the type words of search results, and
 * the dates of episode rows and history shelves. Tests take their expected words from here, so
 * that the wire-constant tables (shared/wire/) are checked against the service, never against
 * themselves.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const RESPONSES = fileURLToPath(new URL("../../../shared/fixtures/responses/", import.meta.url));

export const capturesPresent = existsSync(RESPONSES);

type Json = unknown;

/** Every object under `key` anywhere in `value`. */
function findAll(value: Json, key: string, out: Json[] = []): Json[] {
  if (Array.isArray(value)) for (const v of value) findAll(v, key, out);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === key) out.push(v);
      findAll(v, key, out);
    }
  }
  return out;
}

/** `value[path[0]][path[1]]…` as a string, or undefined. */
function textAt(value: Json, ...path: (string | number)[]): string | undefined {
  let v: Json = value;
  for (const p of path) v = v && typeof v === "object" ? (v as Record<string | number, Json>)[p] : undefined;
  return typeof v === "string" ? v : undefined;
}

let pages: Map<string, Json> | undefined;

/** Each capture by name (the file name without `.json`); empty when the captures are absent. */
export function capturePages(): ReadonlyMap<string, Json> {
  if (pages) return pages;
  pages = new Map();
  if (!capturesPresent) return pages;
  for (const file of readdirSync(RESPONSES)
    .filter((f) => f.endsWith(".json"))
    .sort()) {
    pages.set(file.slice(0, -5), JSON.parse(readFileSync(`${RESPONSES}${file}`, "utf8")));
  }
  return pages;
}

/** Where words were seen: the word → the captures that show it in that place. */
export type Sightings = ReadonlyMap<string, readonly string[]>;

function collect(select: (name: string, page: Json) => (string | undefined)[]): Sightings {
  const seen = new Map<string, string[]>();
  for (const [name, page] of capturePages()) {
    for (const word of select(name, page)) {
      if (word === undefined) continue;
      const list = seen.get(word) ?? [];
      if (!list.includes(name)) list.push(name);
      seen.set(word, list);
    }
  }
  return seen;
}

/** Titles of carousels (artist, user and channel categories among them). */
export function carouselTitles(): Sightings {
  return collect((_, page) =>
    findAll(page, "musicCarouselShelfBasicHeaderRenderer").map((h) => textAt(h, "title", "runs", 0, "text")),
  );
}

/** The first word of a search result's subtitle: the top-result card's and each row's type word. */
export function searchTypeWords(): Sightings {
  return collect((name, page) => {
    if (!/^(yt_search|np_music)/.test(name)) return [];
    const cards = findAll(page, "musicCardShelfRenderer").map((c) =>
      textAt(c, "subtitle", "runs", 0, "text"),
    );
    const rows = findAll(page, "musicResponsiveListItemRenderer").map((r) =>
      textAt(r, "flexColumns", 1, "musicResponsiveListItemFlexColumnRenderer", "text", "runs", 0, "text"),
    );
    return [...cards, ...rows];
  });
}

/** Dates of episode rows and headers (`subtitle.runs[0]`, docs/PROTOCOL.md#podcasts). */
export function episodeDates(): Sightings {
  return collect((_, page) =>
    [
      ...findAll(page, "musicMultiRowListItemRenderer"),
      ...findAll(page, "musicResponsiveHeaderRenderer"),
    ].map((r) => textAt(r, "subtitle", "runs", 0, "text")),
  );
}

/** Titles of the history page's shelves, one per period (`Today`, `Yesterday`, docs/PROTOCOL.md#library). */
export function historyShelfTitles(): Sightings {
  return collect((name, page) =>
    name.startsWith("yt_get_history")
      ? findAll(page, "musicShelfRenderer").map((s) => textAt(s, "title", "runs", 0, "text"))
      : [],
  );
}
