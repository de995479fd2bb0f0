/**
 * Reading every page of a Spotify list: offset pages (`items`, `total`, `next`) and the followed
 * artists' cursor pages (`artists.cursors.after`, `next`). A list whose pages stop before its
 * `total` throws: a read cut short must never look like a list that shrank.
 */
import { ServiceReadError } from "../http.js";
import { apiUrl, getJson, type SpotifyApi, type What } from "./api.js";

export interface Page {
  items: unknown[];
  total: number | null;
  next: string | null;
}

/** A paging object's fields; throws when it is not one. */
export function pageOf(json: unknown, what: What): Page {
  const p = json as { items?: unknown; total?: unknown; next?: unknown } | null;
  if (!p || typeof p !== "object" || !Array.isArray(p.items)) {
    throw new ServiceReadError("spotify", 200, `${what}: a page without items`);
  }
  return {
    items: p.items,
    total: typeof p.total === "number" && p.total >= 0 ? p.total : null,
    next: typeof p.next === "string" && p.next !== "" ? p.next : null,
  };
}

/** Far more pages than any list holds (10,000 rows at 50 a page): a `next` that loops stops here. */
const MAX_PAGES = 2_000;

/**
 * Every item, starting from `first` (a page already read, e.g. a playlist's embedded one) or from
 * `path`. `unwrap` takes the page out of an answer (the followed artists' sit under `artists`).
 */
export async function readAll(
  api: SpotifyApi,
  what: What,
  start: { first: Page } | { path: string },
  unwrap: (json: unknown) => unknown = (j) => j,
): Promise<{ items: unknown[]; total: number | null }> {
  let page =
    "first" in start
      ? start.first
      : pageOf(unwrap(await getJson(api, apiUrl(api, start.path, what), what)), what);
  const total = page.total;
  const items: unknown[] = [...page.items];
  for (let n = 1; page.next !== null; n++) {
    if (n >= MAX_PAGES)
      throw new ServiceReadError("spotify", null, `${what}: more than ${MAX_PAGES} pages; the read stopped`);
    if (page.items.length === 0) break;
    page = pageOf(unwrap(await getJson(api, apiUrl(api, page.next, what), what)), what);
    items.push(...page.items);
  }
  if (total !== null && items.length < total) {
    throw new ServiceReadError(
      "spotify",
      null,
      `${what}: the read stopped at ${items.length} of ${total} rows; nothing was taken from it`,
    );
  }
  return { items, total };
}
