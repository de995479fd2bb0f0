/**
 * Reading other services' JSON, which is `unknown` until looked at: an object's field, a string, a
 * number, never a throw on a shape the service changed (a missing field reads as absent).
 */
export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The value at `path` through objects, or undefined. */
export function at(v: unknown, ...path: string[]): unknown {
  let cur = v;
  for (const k of path) {
    if (!isObject(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

/** A non-empty string (trimmed), or null. */
export function text(v: unknown): string | null {
  return typeof v === "string" && v.trim() !== "" ? v.trim() : null;
}

/** A finite number, from a number or a numeric string (Last.fm writes numbers as strings), or null. */
export function num(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  return null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A MusicBrainz id (a UUID), lower-cased, or null for anything else ("" included). */
export function mbidOf(v: unknown): string | null {
  const t = text(v);
  return t !== null && UUID.test(t) ? t.toLowerCase() : null;
}
