import { ArgumentError } from "../errors.js";
import { classicToken } from "../parsers/continuation-tokens.js";
import type { JsonObject } from "../parsers/nav.js";
import { get, isObject } from "../parsers/nav.js";
import { parseSearchContinuation, parseSearchResponse, parseSearchSuggestions } from "../parsers/search.js";
import type { OperationContext } from "../transport/operation-context.js";
import {
  SEARCH_FILTERS,
  SEARCH_SCOPES,
  type SearchFilter,
  type SearchOptions,
  type SearchResult,
  type SearchScope,
  type SearchSuggestion,
} from "../types/search.js";
import { parseFor } from "./context.js";
import { ctokenParams } from "./continuations.js";

const OPERATION = "search";

/** Two-letter filter codes inside the filtered `params` (docs/PROTOCOL.md#search composition rule). */
const FILTER_CODES: Record<SearchFilter, string> = {
  songs: "II",
  videos: "IQ",
  albums: "IY",
  artists: "Ig",
  playlists: "Io",
  community_playlists: "",
  featured_playlists: "",
  profiles: "JY",
  podcasts: "JQ",
  episodes: "JI",
};

/**
 * The `params` of a search request (docs/PROTOCOL.md#search table), or null for a plain search. The strings
 * are sent exactly so, literal `%3D` included.
 */
export function searchParams(
  filter: SearchFilter | null,
  scope: SearchScope | null,
  ignoreSpelling: boolean,
): string | null {
  if (scope === "uploads") return "agIYAw%3D%3D";
  if (scope === "library") {
    if (filter === null) return "agIYBA%3D%3D";
    return `EgWKAQ${FILTER_CODES[filter]}AWoKEAUQCRADEAoYBA%3D%3D`;
  }
  if (filter === null) return ignoreSpelling ? "EhGKAQ4IARABGAEgASgAOAFAAUICCAE%3D" : null;
  if (filter === "playlists") {
    return ignoreSpelling
      ? "Eg-KAQwIABAAGAAgACgBMABCAggBagoQBBADEAkQBRAK"
      : "Eg-KAQwIABAAGAAgACgBMABqChAEEAMQCRAFEAo%3D";
  }
  if (filter === "community_playlists" || filter === "featured_playlists") {
    const kind = filter === "featured_playlists" ? "Dg" : "EA";
    return `EgeKAQQoA${kind}${ignoreSpelling ? "BQgIIAWoMEA4QChADEAQQCRAF" : "BagwQDhAKEAMQBBAJEAU%3D"}`;
  }
  const suffix = ignoreSpelling ? "AUICCAFqDBAOEAoQAxAEEAkQBQ%3D%3D" : "AWoMEA4QChADEAQQCRAF";
  return `EgWKAQ${FILTER_CODES[filter]}${suffix}`;
}

/** Checks the limit argument shared by list operations: a non-negative integer, or null for all. */
export function checkLimit(operation: string, limit: unknown, argument = "limit"): number | null {
  if (limit === null) return null;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 0) {
    throw new ArgumentError(argument, "must be a non-negative integer or null (all)", { operation });
  }
  return limit;
}

interface CheckedSearch {
  filter: SearchFilter | null;
  scope: SearchScope | null;
  limit: number | null;
  ignoreSpelling: boolean;
}

function checkSearch(query: unknown, options: SearchOptions): CheckedSearch {
  if (typeof query !== "string") {
    throw new ArgumentError("query", "must be a string", { operation: OPERATION });
  }
  const filter = options.filter ?? null;
  const scope = options.scope ?? null;
  if (filter !== null && !(SEARCH_FILTERS as readonly string[]).includes(filter)) {
    throw new ArgumentError("filter", `must be one of ${SEARCH_FILTERS.join(", ")}`, {
      operation: OPERATION,
    });
  }
  if (scope !== null && !(SEARCH_SCOPES as readonly string[]).includes(scope)) {
    throw new ArgumentError("scope", `must be one of ${SEARCH_SCOPES.join(", ")}`, { operation: OPERATION });
  }
  if (scope === "uploads" && filter !== null) {
    throw new ArgumentError("filter", "no filter can be combined with scope `uploads`", {
      operation: OPERATION,
    });
  }
  if (scope === "library" && (filter === "community_playlists" || filter === "featured_playlists")) {
    throw new ArgumentError("filter", `\`${filter}\` cannot be combined with scope \`library\``, {
      operation: OPERATION,
    });
  }
  const limit = checkLimit(OPERATION, options.limit === undefined ? 20 : options.limit);
  const ignoreSpelling = options.ignoreSpelling ?? false;
  if (typeof ignoreSpelling !== "boolean") {
    throw new ArgumentError("ignoreSpelling", "must be a boolean", { operation: OPERATION });
  }
  return { filter, scope, limit, ignoreSpelling };
}

/**
 * `search`: one request, then — with a filter or the uploads scope — the continuations of each
 * result shelf until `limit` results in all (top result and earlier shelves included, docs/PROTOCOL.md#reading-to-a-limit).
 */
export async function search(
  ctx: OperationContext,
  query: string,
  options: SearchOptions = {},
): Promise<SearchResult[]> {
  const checked = checkSearch(query, options);
  if (checked.scope !== null) ctx.requireAuth(OPERATION);
  const body: JsonObject = { query };
  const params = searchParams(checked.filter, checked.scope, checked.ignoreSpelling);
  if (params !== null) body["params"] = params;

  const response = await ctx.send({ operation: OPERATION, endpoint: "search", body });
  const notes = ctx.notes(OPERATION);
  const plan = { filter: checked.filter, scope: checked.scope, language: ctx.language };
  const page = parseFor(OPERATION, () => parseSearchResponse(response, plan, notes));
  const results = page.results;

  let inserted = 0;
  for (const shelf of page.shelves) {
    const at = shelf.collectedAfter + inserted;
    const more: SearchResult[] = [];
    let container: unknown = shelf.shelf;
    let token = classicToken(container);
    // The remaining limit counts everything collected so far, this shelf and earlier ones included.
    while (token !== null && (checked.limit === null || more.length < checked.limit - at)) {
      const next = await ctx.send({
        operation: OPERATION,
        endpoint: "search",
        body,
        additionalParams: ctokenParams(token),
      });
      container = get(next, ["continuationContents", "musicShelfContinuation"]);
      if (!isObject(container)) break;
      const pageContainer = container;
      const items = parseFor(OPERATION, () =>
        parseSearchContinuation(pageContainer, shelf.type, shelf.category, notes),
      );
      if (items.length === 0) break;
      for (const item of items) more.push(item);
      token = classicToken(container);
    }
    if (more.length > 0) {
      results.splice(at, 0, ...more);
      inserted += more.length;
    }
  }
  return results;
}

/** `get_search_suggestions`: the completions the service offers for a partial query. */
export async function getSearchSuggestions(
  ctx: OperationContext,
  query: string,
  options: { detailedRuns?: boolean } = {},
): Promise<string[] | SearchSuggestion[]> {
  const operation = "get_search_suggestions";
  if (typeof query !== "string") throw new ArgumentError("query", "must be a string", { operation });
  const detailed = options.detailedRuns ?? false;
  if (typeof detailed !== "boolean")
    throw new ArgumentError("detailedRuns", "must be a boolean", { operation });
  const response = await ctx.send({
    operation,
    endpoint: "music/get_search_suggestions",
    body: { input: query },
  });
  const notes = ctx.notes(operation);
  return parseFor(operation, () => parseSearchSuggestions(response, detailed, notes));
}
