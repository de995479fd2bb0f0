/**
 * Bad input must not take the emulator down: gzip bombs, oversized bodies to every endpoint that
 * reads one, and oversized URLs get the service's error format, and the emulator goes on serving.
 * The big bodies are streamed from one small repeated buffer; nothing here holds more than a few MB.
 */
import { Readable } from "node:stream";
import { constants, crc32, deflateRawSync } from "node:zlib";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { api, call, type Json } from "./helpers.js";

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 100, seed: 3 });
});
afterAll(async () => {
  await emu?.stop();
});

const MIB = 1024 * 1024;
const ZEROS = Buffer.alloc(MIB);

/**
 * A valid gzip stream of `mib` MiB of zeros, about 1 KB per MiB: one MiB deflated with a full
 * flush is a self-contained block, so the same block repeated inflates to the sum. Yields the
 * header, the block `mib` times, the final empty block and the trailer (CRC and size).
 */
function* gzipBomb(mib: number): Generator<Buffer> {
  const block = deflateRawSync(ZEROS, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  yield Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
  let crc = 0;
  for (let i = 0; i < mib; i++) {
    crc = crc32(ZEROS, crc);
    yield block;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((mib * MIB) % 2 ** 32, 4);
  yield Buffer.concat([Buffer.from([0x03, 0x00]), trailer]);
}

/** `mib` MiB of a JSON-looking filler, streamed. */
function* filler(mib: number): Generator<Buffer> {
  const chunk = Buffer.alloc(MIB, "a");
  yield Buffer.from('{"x":"');
  for (let i = 0; i < mib; i++) yield chunk;
  yield Buffer.from('"}');
}

async function post(path: string, body: Iterable<Buffer>, contentType = "application/json") {
  const r = await request(emu.url + path, {
    method: "POST",
    body: Readable.from(body),
    headers: { "content-type": contentType },
  });
  const text = await r.body.text();
  return { status: r.statusCode, json: JSON.parse(text) as Json };
}

/** The service's error format (emulator/README.md "Errors use the service's format"). */
function expectServiceError(json: Json, code: number): void {
  const error = json.error as Json;
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe("string");
  expect(typeof error.status).toBe("string");
  expect((error.errors as Json[])[0]).toMatchObject({ domain: "global", message: error.message });
}

async function stillServes(): Promise<void> {
  const health = await call(emu, "/_emulator/health");
  expect(health.status).toBe(200);
  const page = await api(emu, "browse", { browseId: "FEmusic_explore" });
  expect(page.status).toBe(200);
}

describe("bodies that inflate beyond the limit", () => {
  // docs/PROTOCOL.md#the-emulators-side
  it("answers 413 to a gzip body that inflates past the limit, however small it is", async () => {
    // 64 MiB of zeros in 66 KB: the old emulator inflated it whole and answered a JSON error.
    const r = await post("/youtubei/v1/browse", gzipBomb(64));
    expect(r.status).toBe(413);
    expectServiceError(r.json, 413);
    await stillServes();
  });

  // docs/PROTOCOL.md#the-emulators-side
  it("survives a 3 MB gzip body that inflates to 3 GB and answers 413", async () => {
    const r = await post("/youtubei/v1/browse", gzipBomb(3 * 1024));
    expect(r.status).toBe(413);
    expectServiceError(r.json, 413);
    const again = await post("/youtubei/v1/search", gzipBomb(1024));
    expect(again.status).toBe(413);
    await stillServes();
  });

  // docs/PROTOCOL.md#the-emulators-side
  it("still takes a gzipped request of an ordinary size", async () => {
    const r = await api(emu, "browse", { browseId: "FEmusic_explore" }, {}, { gzip: true });
    expect(r.status).toBe(200);
  });
});

describe("oversized bodies and URLs", () => {
  // docs/PROTOCOL.md#the-emulators-side
  it("answers 50 MB bodies to the control, OAuth, token, API and upload endpoints with the service's 413", async () => {
    for (const [path, type] of [
      ["/_emulator/faults", "application/json"],
      ["/_emulator/config", "application/json"],
      ["/o/oauth2/device/code", "application/x-www-form-urlencoded"],
      ["/token", "application/x-www-form-urlencoded"],
      ["/o/oauth2/token", "application/json"],
      ["/youtubei/v1/browse", "application/json"],
    ] as const) {
      const r = await post(path, filler(50), type);
      expect(r.status, path).toBe(413);
      expectServiceError(r.json, 413);
    }
    await stillServes();
  });

  // docs/PROTOCOL.md#the-emulators-side
  it("answers a 60 KB URL with 431 in the service's error format, and serves a 20 KB one", async () => {
    const long = await request(`${emu.url}/youtubei/v1/browse?alt=json&x=${"a".repeat(60_000)}`, {
      method: "POST",
      body: JSON.stringify({ browseId: "FEmusic_explore" }),
      headers: { "content-type": "application/json" },
    });
    const text = await long.body.text();
    expect(long.statusCode).toBe(431);
    expect(long.headers["content-type"]).toContain("application/json");
    expectServiceError(JSON.parse(text) as Json, 431);
    const fine = await api(
      emu,
      "browse",
      { browseId: "FEmusic_explore" },
      {},
      { query: `&x=${"a".repeat(20_000)}` },
    );
    expect(fine.status).toBe(200);
    await stillServes();
  });
});
