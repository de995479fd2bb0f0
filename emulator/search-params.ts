/**
 * The `params` of a search request, read and written as the service does: URL-encoded base64 of a
 * protobuf message (docs/PROTOCOL.md#search). Clients build it in different ways — the web client adds a
 * shelf-order list that changes with the query, youtubei.js sends only the filter flag, ytmusicapi
 * sends fixed strings — so it is decoded field by field, never compared as a string.
 *
 * Message layout, as the captures' values decode:
 * - field 2 (filters) → field 17 (music search type): one flag per category, e.g. `EgWKAQIIAQ` is
 *   {2: {17: {1: 1}}} (songs). Exactly one true flag selects that category; none, or several (the
 *   "all categories" value `EhGKAQ4IARABGAEgASgAOAFAAUICCAE` sets six), means no filter.
 * - field 8 → field 1: ignore spelling (`…QgIIAW…`).
 * - field 13 → field 3: the scope tab — 1 YT Music (`agIYAQ`, capture yt_search_uploads_20231228),
 *   3 uploads (`agIYAw`), 4 library (`agIYBA`); field 13 → field 2 is the web client's shelf order
 *   (`EA4QChADEAQQCRAF` = 14, 10, 3, 4, 9, 5), which changes nothing in the answer.
 * Other fields are skipped, as a protobuf parser keeps unknown fields without acting on them; the
 * bytes are read by protobuf.ts's reader, the one every opaque string of the emulator goes through.
 */
import { invalidArgument } from "./errors.js";
import { base64Bytes, bytesField, type Field, readFields, varintField } from "./protobuf.js";

/** The search filters, as the service names them (docs/PROTOCOL.md#search). */
export type SearchFilter =
  | "songs"
  | "videos"
  | "albums"
  | "artists"
  | "playlists"
  | "community_playlists"
  | "featured_playlists"
  | "profiles"
  | "podcasts"
  | "episodes";

export type SearchScope = "catalogue" | "library" | "uploads";

export interface SearchParams {
  filter: SearchFilter | null;
  scope: SearchScope;
  ignoreSpelling: boolean;
}

class Malformed extends Error {}

/** The fields of a message inside the params; a value the service's parser refuses is Malformed. */
function fieldsOf(bytes: Buffer): Field[] {
  const fields = readFields(bytes);
  if (!fields) throw new Malformed();
  return fields;
}

/** Category flags of field 2 → 17, by field number. */
const TYPE_FLAGS: Record<number, SearchFilter> = {
  1: "songs",
  2: "videos",
  3: "albums",
  4: "artists",
  5: "playlists",
  7: "featured_playlists",
  8: "community_playlists",
  9: "episodes",
  10: "podcasts",
  11: "profiles",
};

const SCOPES: Record<number, SearchScope> = { 1: "catalogue", 3: "uploads", 4: "library" };
const SCOPE_NUMBERS: Record<SearchScope, number> = { catalogue: 1, uploads: 3, library: 4 };

/**
 * Applies every occurrence of a known message field in order: repeated embedded messages merge and
 * the last value of a flag wins, as protobuf parsing does. A known field number with another wire
 * type counts as an unknown field.
 */
function decodeFields(fields: Field[], flags: Map<number, boolean>, out: SearchParams): void {
  for (const f of fields) {
    if (f.field === 2 && f.bytes) {
      for (const filters of fieldsOf(f.bytes)) {
        if (filters.field !== 17 || !filters.bytes) continue;
        for (const flag of fieldsOf(filters.bytes)) {
          if (flag.varint !== undefined) flags.set(flag.field, flag.varint !== 0);
        }
      }
    } else if (f.field === 8 && f.bytes) {
      for (const s of fieldsOf(f.bytes))
        if (s.field === 1 && s.varint !== undefined) out.ignoreSpelling = s.varint !== 0;
    } else if (f.field === 13 && f.bytes) {
      // An unknown scope number reads as the default tab, as an unknown enum value does.
      for (const s of fieldsOf(f.bytes))
        if (s.field === 3 && s.varint !== undefined) out.scope = SCOPES[s.varint] ?? "catalogue";
    }
  }
}

/** What a search request's `params` asks for; a malformed value is the service's 400. */
export function decodeSearchParams(params: string | null): SearchParams {
  const out: SearchParams = { filter: null, scope: "catalogue", ignoreSpelling: false };
  if (!params) return out;
  const bytes = base64Bytes(params);
  if (!bytes) throw invalidArgument();
  const flags = new Map<number, boolean>();
  try {
    decodeFields(fieldsOf(bytes), flags, out);
  } catch (e) {
    if (e instanceof Malformed) throw invalidArgument();
    throw e;
  }
  const on = [...flags].filter(([no, value]) => value && TYPE_FLAGS[no]).map(([no]) => TYPE_FLAGS[no]!);
  if (on.length === 1) out.filter = on[0]!;
  return out;
}

// ---- writing, for the chips, "Show all" links and tabs the emulator renders ----

/**
 * The category flags the web client writes: one flag, except the two playlist kinds, which also
 * clear the playlists flag (`EgeKAQQoAEAB…` = {5: 0, 8: 1}, capture yt_search_artists_20231226).
 */
function flagFields(filter: SearchFilter): Buffer[] {
  const no = Number(Object.entries(TYPE_FLAGS).find(([, f]) => f === filter)![0]);
  const clear =
    filter === "community_playlists" || filter === "featured_playlists" ? [varintField(5, 0)] : [];
  return [...clear, varintField(no, 1)];
}

/** The shelf orders the web client writes (captures yt_search_artists_20231226, yt_search_library_albums_20231228). */
const SHELF_ORDER: Record<SearchScope, number[]> = {
  catalogue: [14, 10, 3, 4, 9, 5],
  library: [5, 9, 3],
  uploads: [],
};

/**
 * The params the web client links to a category and scope, in its form: URL-safe base64 with `=`
 * written `%3D` (`EgWKAQIYAWoIEAUQCRADGAQ%3D`). A filtered catalogue link carries no scope number,
 * a scope tab no filter (`agIYBA%3D%3D`).
 */
export function encodeSearchParams(filter: SearchFilter | null, scope: SearchScope): string {
  const parts: Buffer[] = [];
  if (filter) parts.push(bytesField(2, bytesField(17, Buffer.concat(flagFields(filter)))));
  const scopeBody = filter ? SHELF_ORDER[scope].map((n) => varintField(2, n)) : [];
  if (!filter || scope !== "catalogue") scopeBody.push(varintField(3, SCOPE_NUMBERS[scope]));
  parts.push(bytesField(13, Buffer.concat(scopeBody)));
  return Buffer.concat(parts).toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=/g, "%3D");
}
