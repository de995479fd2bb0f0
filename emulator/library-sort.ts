/**
 * The library's sort and filter strings. A sort choice reaches the service two ways: as `params`
 * of a library browse (what ytmusicapi and our client send: `ggMGKgQIARAA` …, the order
 * table), or as the reload continuation of the sort menu, a self-contained token wrapping the
 * browse id and those params (capture yt_get_library_songs_20240701:
 * `4qmFsgIoEhRGRW11c2ljX2xpa2VkX3ZpZGVvcxoQZ2dNR0tnUUlBQkFCb0FZQg%3D%3D` = browse continuation
 * {2: "FEmusic_liked_videos", 3: "ggMGKgQIABABoAYB"}). Both are decoded, not compared with a table.
 */
import { base64Bytes, bytesField, fieldOf, readFields, serviceBase64, varintField } from "./protobuf.js";

export type LibraryOrder = "recently_added" | "a_to_z" | "z_to_a";

/**
 * The sort menu, in the captures' order. `type` and `descending` are the sort spec inside the
 * params (field 48 → 5 → {1: type, 2: order}): type 0 is the time saved, 1 the name (the menu's
 * form keys name them `SortSpec_Type_ADDED_TIMESTAMP` and `SortSpec_Type_ENTITY_NAME`).
 */
export const LIBRARY_SORTS: readonly {
  order: LibraryOrder;
  title: string;
  type: number;
  descending: boolean;
}[] = [
  { order: "recently_added", title: "Recently saved", type: 0, descending: true },
  { order: "a_to_z", title: "A to Z", type: 1, descending: false },
  { order: "z_to_a", title: "Z to A", type: 1, descending: true },
];

/** The browse continuation's own field (the `4qmFsg` every browse continuation starts with). */
const BROWSE_CONTINUATION = 80226972;
/** The library options message inside `params`; field 5 of it is the sort spec, field 1 a filter. */
const LIBRARY_OPTIONS = 48;
/** A flag the menu's tokens append to the params (`oAYB`); the plain params lack it. */
const MENU_FLAG = 100;

/** The params of a sort choice as the menu's tokens carry them (`ggMGKgQIABABoAYB`). */
export function sortParams(order: LibraryOrder): string {
  const sort = LIBRARY_SORTS.find((s) => s.order === order)!;
  const spec = Buffer.concat([varintField(1, sort.type), varintField(2, sort.descending ? 1 : 0)]);
  const options = bytesField(LIBRARY_OPTIONS, bytesField(5, spec));
  return serviceBase64(Buffer.concat([options, varintField(MENU_FLAG, 1)]));
}

function sortOf(spec: Buffer): LibraryOrder | null {
  const fields = readFields(spec);
  if (!fields) return null;
  const type = fieldOf(fields, 1)?.varint ?? 0;
  const descending = (fieldOf(fields, 2)?.varint ?? 0) === 1;
  return LIBRARY_SORTS.find((s) => s.type === type && s.descending === descending)?.order ?? null;
}

/**
 * The order that library-browse `params` ask for: recently saved when absent or when they only
 * pick a sub-filter (the Subscriptions and Channels chips send `ggMCCAU%3D`, `ggMCCAQ%3D`:
 * field 48 → {1: 5} and {1: 4}); null when they are not library options at all.
 */
export function readLibraryParams(params: string | null): LibraryOrder | null {
  if (params === null || params === "") return "recently_added";
  const bytes = base64Bytes(params);
  const top = bytes && readFields(bytes);
  const options = top && fieldOf(top, LIBRARY_OPTIONS)?.bytes;
  const fields = options && readFields(options);
  if (!fields) return null;
  const spec = fieldOf(fields, 5)?.bytes;
  if (spec) return sortOf(spec);
  return fieldOf(fields, 1)?.varint !== undefined ? "recently_added" : null;
}

/** The sort menu's reload token for a list: a browse continuation holding its id and the params. */
export function sortReloadToken(browseId: string, order: LibraryOrder): string {
  const inner = Buffer.concat([bytesField(2, browseId), bytesField(3, sortParams(order))]);
  return serviceBase64(bytesField(BROWSE_CONTINUATION, inner));
}

/** The browse id and params a self-contained browse continuation wraps; null for any other token. */
export function readBrowseContinuation(token: string): { browseId: string; params: string | null } | null {
  const bytes = base64Bytes(token);
  const top = bytes && readFields(bytes);
  const wrapped = top && fieldOf(top, BROWSE_CONTINUATION)?.bytes;
  const fields = wrapped && readFields(wrapped);
  const browseId = fields && fieldOf(fields, 2)?.bytes?.toString("utf8");
  if (!fields || !browseId) return null;
  return { browseId, params: fieldOf(fields, 3)?.bytes?.toString("utf8") ?? null };
}
