/**
 * The one protobuf reader behind every opaque string the emulator reads (search params, library
 * sort params, browse continuations), on hand-built bytes: each wire type, each way a message can
 * be malformed, and groups, which are skipped as the service's parser skips an unknown field.
 */
import { describe, expect, it } from "vitest";
import { readBrowseContinuation, readLibraryParams } from "../../emulator/library-sort.js";
import {
  bytesField,
  type Field,
  MAX_GROUP_DEPTH,
  readFields,
  readVarint,
  varintField,
} from "../../emulator/protobuf.js";
import { decodeSearchParams } from "../../emulator/search-params.js";

const bytes = (...b: number[]) => Buffer.from(b);
const read = (...b: number[]) => readFields(bytes(...b));
const b64 = (b: Buffer) => encodeURIComponent(b.toString("base64"));

// emulator protobuf reader
describe("the protobuf reader", () => {
  it("reads varints of one to ten bytes", () => {
    expect(readVarint(bytes(0x00), 0)).toEqual({ value: 0, next: 1 });
    expect(readVarint(bytes(0x96, 0x01), 0)).toEqual({ value: 150, next: 2 });
    expect(readVarint(bytes(0xac, 0x02), 0)).toEqual({ value: 300, next: 2 });
    // 2^53 − 1, the largest exact number: seven bytes of 0x7f bits and a last 0x0f.
    const max = bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f);
    expect(readVarint(max, 0)).toEqual({ value: 2 ** 53 - 1, next: 8 });
    // A negative int32 is written as ten bytes (−1 = nine 0xff and 0x01); it reads, inexactly.
    const minusOne = bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
    expect(readVarint(minusOne, 0)?.next).toBe(10);
    // Zero written long (non-canonical) is still zero.
    expect(readVarint(bytes(0x80, 0x80, 0x80, 0x00), 0)).toEqual({ value: 0, next: 4 });
  });

  it("refuses a varint of eleven bytes or one cut off", () => {
    expect(readVarint(bytes(...Array(10).fill(0xff), 0x01), 0)).toBeNull();
    expect(readVarint(bytes(0x96), 0)).toBeNull();
    expect(read(0x08, ...Array(10).fill(0x80), 0x00)).toBeNull();
    expect(read(0x08)).toBeNull();
  });

  it("reads every wire type, in order, repeated fields kept", () => {
    const fields = read(
      ...[0x08, 0x96, 0x01], // field 1, varint 150
      ...[0x11, 1, 2, 3, 4, 5, 6, 7, 8], // field 2, fixed64
      ...[0x1a, 0x03, 0x61, 0x62, 0x63], // field 3, bytes "abc"
      ...[0x25, 9, 8, 7, 6], // field 4, fixed32
      ...[0x08, 0x01], // field 1 again
    ) as Field[];
    expect(fields.map((f) => [f.field, f.wire])).toEqual([
      [1, 0],
      [2, 1],
      [3, 2],
      [4, 5],
      [1, 0],
    ]);
    expect(fields[0]?.varint).toBe(150);
    expect([...(fields[1]?.fixed ?? [])]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(fields[2]?.bytes?.toString("utf8")).toBe("abc");
    expect([...(fields[3]?.fixed ?? [])]).toEqual([9, 8, 7, 6]);
    expect(fields[4]?.varint).toBe(1);
    expect(read()).toEqual([]);
  });

  it("refuses cut-off fixed and length-delimited values", () => {
    expect(read(0x11, 1, 2, 3, 4, 5, 6, 7)).toBeNull();
    expect(read(0x25, 1, 2, 3)).toBeNull();
    expect(read(0x1a, 0x04, 0x61, 0x62, 0x63)).toBeNull();
    // A length far past the end (2^35) must not be taken as a short one.
    expect(read(0x1a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x61)).toBeNull();
  });

  it("refuses field number 0, numbers past 2^29 − 1 and wire types 6 and 7", () => {
    expect(read(0x00, 0x01)).toBeNull();
    expect(read(0x0e, 0x01)).toBeNull();
    expect(read(0x0f, 0x01)).toBeNull();
    // Tag of field 2^29 − 1, varint: (2^29 − 1) × 8 = 0xfffffff8.
    expect(read(0xf8, 0xff, 0xff, 0xff, 0x0f, 0x05)?.[0]).toMatchObject({ field: 2 ** 29 - 1, varint: 5 });
    // Field 2^29: tag 2^32.
    expect(read(0x80, 0x80, 0x80, 0x80, 0x10, 0x05)).toBeNull();
  });

  it("skips a group with everything in it, and reads on after it", () => {
    // field 1 = 1, group 3 { field 1 = 7, group 3 { } }, field 2 = "x"
    const fields = read(0x08, 0x01, 0x1b, 0x08, 0x07, 0x1b, 0x1c, 0x1c, 0x12, 0x01, 0x78) as Field[];
    expect(fields.map((f) => f.field)).toEqual([1, 2]);
    expect(fields[1]?.bytes?.toString()).toBe("x");
    // A group's contents are checked too: a cut-off value inside it is malformed.
    expect(read(0x1b, 0x12, 0x05, 0x1c)).toBeNull();
  });

  it("refuses an end tag with no group, one that closes another group, and a group left open", () => {
    expect(read(0x0c)).toBeNull();
    expect(read(0x1b, 0x24)).toBeNull();
    expect(read(0x1b, 0x08, 0x01)).toBeNull();
  });

  it("allows groups nested as deep as the parser's recursion limit, and no deeper", () => {
    const nested = (depth: number) => read(...Array(depth).fill(0x0b), ...Array(depth).fill(0x0c));
    expect(nested(MAX_GROUP_DEPTH)).toEqual([]);
    expect(nested(MAX_GROUP_DEPTH + 1)).toBeNull();
  });

  it("reads what the writers write", () => {
    const message = Buffer.concat([varintField(5, 300), bytesField(80226972, "FEmusic_liked_videos")]);
    expect(readFields(message)).toEqual([
      { field: 5, wire: 0, varint: 300 },
      { field: 80226972, wire: 2, bytes: Buffer.from("FEmusic_liked_videos") },
    ]);
  });
});

// emulator protobuf reader: one reader, so every string follows the same rules
describe("search params and library strings share the reader", () => {
  const songsFilter = bytes(0x12, 0x05, 0x8a, 0x01, 0x02, 0x08, 0x01);

  it("search params: unknown fixed32 fields and groups are skipped, over-deep groups refused", () => {
    const withUnknown = Buffer.concat([bytes(0x25, 1, 2, 3, 4, 0x1b, 0x1c), songsFilter]);
    expect(decodeSearchParams(b64(withUnknown)).filter).toBe("songs");
    const deep = Buffer.concat([
      bytes(...Array(MAX_GROUP_DEPTH + 1).fill(0x1b)),
      bytes(...Array(MAX_GROUP_DEPTH + 1).fill(0x1c)),
      songsFilter,
    ]);
    expect(() => decodeSearchParams(b64(deep))).toThrow();
  });

  it("library params: a sort with an unknown fixed field or group reads as that sort", () => {
    // ggMGKgQIARAA = {48: {5: {1: 1, 2: 0}}}, A to Z (the library's order table).
    const plain = Buffer.from("ggMGKgQIARAA", "base64");
    expect(readLibraryParams(b64(plain))).toBe("a_to_z");
    expect(readLibraryParams(b64(Buffer.concat([plain, bytes(0x0d, 1, 2, 3, 4)])))).toBe("a_to_z");
    expect(readLibraryParams(b64(Buffer.concat([bytes(0x1b, 0x1c), plain])))).toBe("a_to_z");
    expect(readLibraryParams(b64(Buffer.concat([plain, bytes(0x0c)])))).toBeNull();
  });

  it("browse continuations: the capture's sort token reads, a cut-off one does not", () => {
    const token = "4qmFsgIoEhRGRW11c2ljX2xpa2VkX3ZpZGVvcxoQZ2dNR0tnUUlBQkFCb0FZQg%3D%3D";
    expect(readBrowseContinuation(token)).toEqual({
      browseId: "FEmusic_liked_videos",
      params: "ggMGKgQIABABoAYB",
    });
    const cut = Buffer.from(decodeURIComponent(token), "base64").subarray(0, 20);
    expect(readBrowseContinuation(b64(cut))).toBeNull();
  });
});
