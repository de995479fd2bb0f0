/**
 * The little protobuf the service's opaque strings are made of: `params` and continuation tokens
 * are base64 of protobuf messages (the sort tokens of capture yt_get_library_songs_20240701 decode
 * to a browse id and a sort spec; the search params of the captures to filter flags, docs/PROTOCOL.md#search).
 * One reader for all of them, so that every string is read by the same rules as the service's
 * protobuf parser reads it: a value it would parse is read, one it would refuse is `null`, which
 * callers answer as the service does, 400.
 *
 * Every wire type is read: varint (0, up to ten bytes), fixed64 (1), length-delimited (2) and
 * fixed32 (5). Groups (3 … 4) are skipped, not refused: a protobuf parser keeps a group it does not
 * know as an unknown field and parses on, and no field of the service's strings is a group, so a
 * group is always unknown to it. Its end tag must match its start, as the parser checks; an end tag
 * with no open group, wire types 6 and 7, field number 0 and a cut-off value are malformed.
 */

export interface Field {
  field: number;
  wire: 0 | 1 | 2 | 5;
  /** Set for wire type 0; exact below 2^53, which covers every flag, enum and count in the strings. */
  varint?: number;
  /** Set for wire type 2. */
  bytes?: Buffer;
  /** Set for wire types 1 and 5: the eight or four bytes, little-endian, as sent. */
  fixed?: Buffer;
}

/** The largest field number protobuf allows (2^29 − 1). */
const MAX_FIELD_NUMBER = 2 ** 29 - 1;
/** The longest varint: ten bytes carry 64 bits; an eleventh is refused, as the parser refuses it. */
const MAX_VARINT_BYTES = 10;
/** Nesting of groups the parser allows (its default recursion limit); deeper is malformed. */
export const MAX_GROUP_DEPTH = 100;

/** Reads a varint at `pos`; null when it runs past the end or past ten bytes. */
export function readVarint(buf: Uint8Array, pos: number): { value: number; next: number } | null {
  let value = 0;
  let scale = 1;
  for (let i = pos; i < buf.length && i < pos + MAX_VARINT_BYTES; i++) {
    const byte = buf[i]!;
    value += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) return { value, next: i + 1 };
    scale *= 128;
  }
  return null;
}

/** A field's value at `pos` by wire type: the field (null for a group tag) and where the next starts. */
type Step = { field: Field | null; next: number; open?: number; close?: number };

function readValue(buf: Buffer, pos: number, field: number, wire: number): Step | null {
  if (wire === 0) {
    const v = readVarint(buf, pos);
    return v && { field: { field, wire, varint: v.value }, next: v.next };
  }
  if (wire === 1 || wire === 5) {
    const end = pos + (wire === 1 ? 8 : 4);
    return end > buf.length ? null : { field: { field, wire, fixed: buf.subarray(pos, end) }, next: end };
  }
  if (wire === 2) {
    const n = readVarint(buf, pos);
    if (!n || n.value > buf.length - n.next) return null;
    return { field: { field, wire, bytes: buf.subarray(n.next, n.next + n.value) }, next: n.next + n.value };
  }
  if (wire === 3) return { field: null, next: pos, open: field };
  if (wire === 4) return { field: null, next: pos, close: field };
  return null;
}

/** The fields of one message, in order, groups left out; null when the service's parser would refuse the bytes. */
export function readFields(buf: Buffer): Field[] | null {
  const out: Field[] = [];
  const groups: number[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const tag = readVarint(buf, pos);
    if (!tag) return null;
    const field = Math.floor(tag.value / 8);
    if (field < 1 || field > MAX_FIELD_NUMBER) return null;
    const step = readValue(buf, tag.next, field, tag.value % 8);
    if (!step) return null;
    if (step.open !== undefined) {
      if (groups.push(step.open) > MAX_GROUP_DEPTH) return null;
    } else if (step.close !== undefined) {
      if (groups.pop() !== step.close) return null;
    } else if (groups.length === 0) {
      out.push(step.field!);
    }
    pos = step.next;
  }
  return groups.length === 0 ? out : null;
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
