/**
 * The little protobuf the service's opaque strings are made of: `params` and continuation tokens
 * are base64 of protobuf messages (the sort tokens of capture yt_get_library_songs_20240701
 * decode to a browse id and a sort spec). Only varint (0) and length-delimited (2) fields occur in
 * them; anything else makes a string unreadable, which callers answer as the service does, 400.
 */

export interface Field {
  field: number;
  /** Set for wire type 0. */
  varint?: number;
  /** Set for wire type 2. */
  bytes?: Buffer;
}

/** Reads a varint at `pos`; null when it runs past the end or beyond 2^53. */
function readVarint(buf: Buffer, pos: number): { value: number; next: number } | null {
  let value = 0;
  let scale = 1;
  for (let i = pos; i < buf.length && i < pos + 8; i++) {
    const byte = buf[i]!;
    value += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) return { value, next: i + 1 };
    scale *= 128;
  }
  return null;
}

/** The fields of one message, in order; null when the bytes are not a message of wire types 0 and 2. */
export function readFields(buf: Buffer): Field[] | null {
  const out: Field[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const tag = readVarint(buf, pos);
    if (!tag) return null;
    const field = Math.floor(tag.value / 8);
    const wire = tag.value % 8;
    const v = readVarint(buf, tag.next);
    if (!v || field === 0) return null;
    if (wire === 0) {
      out.push({ field, varint: v.value });
      pos = v.next;
    } else if (wire === 2) {
      if (v.next + v.value > buf.length) return null;
      out.push({ field, bytes: buf.subarray(v.next, v.next + v.value) });
      pos = v.next + v.value;
    } else {
      return null;
    }
  }
  return out;
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let v = value;
  while (v >= 128) {
    bytes.push((v % 128) | 0x80);
    v = Math.floor(v / 128);
  }
  bytes.push(v);
  return Buffer.from(bytes);
}

export const varintField = (field: number, value: number): Buffer =>
  Buffer.concat([varint(field * 8), varint(value)]);

export const bytesField = (field: number, value: Buffer | string): Buffer => {
  const bytes = typeof value === "string" ? Buffer.from(value, "utf8") : value;
  return Buffer.concat([varint(field * 8 + 2), varint(bytes.length), bytes]);
};

/**
 * The bytes of a base64 string as clients send it back: percent-encoded (`%3D`) or not, standard
 * or URL-safe alphabet, padded or not. Null when it is not base64 at all.
 */
export function base64Bytes(text: string): Buffer | null {
  let t: string;
  try {
    t = decodeURIComponent(text);
  } catch {
    return null;
  }
  // A `+` put into a query string unencoded arrives as a space.
  const bare = t.replace(/ /g, "+").replace(/=+$/, "");
  if (bare === "" || !/^[A-Za-z0-9+/_-]+$/.test(bare) || bare.length % 4 === 1) return null;
  return Buffer.from(bare.replace(/-/g, "+").replace(/_/g, "/"), "base64");
}

/** Standard base64 with its padding percent-encoded, as the service writes tokens and params. */
export const serviceBase64 = (bytes: Buffer): string => bytes.toString("base64").replace(/=/g, "%3D");

/** The first field numbered `field` of a message. */
export const fieldOf = (fields: readonly Field[], field: number): Field | undefined =>
  fields.find((f) => f.field === field);
