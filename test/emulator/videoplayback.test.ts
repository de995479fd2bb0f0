/**
 * `GET /videoplayback` (emulator/README.md "Stream URLs and the player script"): a stream URL from
 * the `player` response, deciphered with the emulator's own player script by youtubei.js's player,
 * is served (whole, by `Range` header, by googlevideo's `range` parameter); a URL whose `sig` or `n`
 * is not what the script makes is refused with an empty 403.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Log, Player } from "youtubei.js";
import { type RunningEmulator, startEmulator } from "../../emulator/index.js";
import { PLAYER_VERSION } from "../../emulator/render/pages.js";
import { requestedRange } from "../../emulator/stream-bytes.js";
import { expectedStreamParams } from "../../emulator/stream-cipher.js";
import { api, call, type Json } from "./helpers.js";
import { provideEvaluator } from "./js-evaluator.js";

Log.setLevel(Log.Level.NONE);
provideEvaluator();

let emu: RunningEmulator;
let player: Player;

beforeAll(async () => {
  emu = await startEmulator({ catalogueSize: 120, seed: 11 });
  // youtubei.js downloads the script the start page names, from the emulator.
  const toEmulator = ((input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    return fetch(emu.url + url.pathname + url.search, init);
  }) as typeof fetch;
  player = await Player.create(undefined, toEmulator, undefined, PLAYER_VERSION);
});
afterAll(async () => {
  await emu?.stop();
});

const firstId = (sql: string) => (emu.state.store.sqlite.prepare(sql).get() as { v: string }).v;
/** The video id of a playable song, the `offset`-th of them. */
const playable = (offset = 0) =>
  firstId(`SELECT video_id AS v FROM songs WHERE available = 1 LIMIT 1 OFFSET ${offset}`);

interface Format {
  itag: number;
  mimeType: string;
  contentLength: string;
  signatureCipher?: string;
  url?: string;
}

/** The audio formats of a video's player response. */
async function formatsOf(videoId: string): Promise<Format[]> {
  const r = await api(emu, "player", { videoId });
  expect(r.status).toBe(200);
  return ((r.json as Json).streamingData as { adaptiveFormats: Format[] }).adaptiveFormats;
}

/** A format's URL deciphered, as a path and query on the emulator. */
async function deciphered(format: Format): Promise<URL> {
  return new URL(await player.decipher(format.url, format.signatureCipher));
}

const pathOf = (url: URL) => url.pathname + url.search;

async function bytes(path: string, headers: Record<string, string> = {}) {
  const r = await fetch(emu.url + path, { headers });
  return { status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) };
}

describe("GET /videoplayback", () => {
  it("offers each format as a signatureCipher (s, sp=sig, a url holding n), as the service does for the music web client", async () => {
    for (const f of await formatsOf(playable())) {
      expect(f.url).toBeUndefined();
      const cipher = new URLSearchParams(f.signatureCipher);
      expect(cipher.get("sp")).toBe("sig");
      expect(cipher.get("s")).toMatch(/^[\w=-]{100,}$/);
      const url = new URL(cipher.get("url")!);
      expect(url.origin + url.pathname).toBe(`${emu.url}/videoplayback`);
      expect(url.searchParams.get("n")).toMatch(/^[\w-]{16}$/);
      expect(url.searchParams.get("itag")).toBe(String(f.itag));
      expect(url.searchParams.get("clen")).toBe(f.contentLength);
    }
  });

  it("serves a deciphered URL whole, the same bytes each time, as long as its contentLength says", async () => {
    const [aac, opus] = await formatsOf(playable());
    const path = pathOf(await deciphered(aac!));
    const first = await bytes(path);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("audio/mp4");
    expect(first.headers.get("accept-ranges")).toBe("bytes");
    expect(first.body.length).toBe(Number(aac!.contentLength));
    expect((await bytes(path)).body.equals(first.body)).toBe(true);
    // Another format of the same video is another stream.
    const other = await bytes(pathOf(await deciphered(opus!)), { range: "bytes=0-4095" });
    expect(other.headers.get("content-type")).toBe("audio/webm");
    expect(other.body.equals(first.body.subarray(0, 4096))).toBe(false);
  });

  it("honours a Range header (206) and googlevideo's range parameter (200) with the bytes of the whole", async () => {
    const [aac] = await formatsOf(playable(3));
    const url = await deciphered(aac!);
    const whole = (await bytes(pathOf(url))).body;
    const length = whole.length;

    const part = await bytes(pathOf(url), { range: "bytes=5000-70000" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 5000-70000/${length}`);
    expect(part.body.equals(whole.subarray(5000, 70001))).toBe(true);

    const tail = await bytes(pathOf(url), { range: "bytes=-500" });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(whole.subarray(length - 500))).toBe(true);

    url.searchParams.set("range", `0-${length + 1000}`);
    const byParam = await bytes(pathOf(url));
    expect(byParam.status).toBe(200);
    expect(byParam.body.equals(whole)).toBe(true);

    url.searchParams.delete("range");
    const past = await bytes(pathOf(url), { range: `bytes=${length}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${length}`);
  });

  it("answers HEAD with the stream's length and no body", async () => {
    const [aac] = await formatsOf(playable());
    const r = await fetch(emu.url + pathOf(await deciphered(aac!)), { method: "HEAD" });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-length")).toBe(aac!.contentLength);
    expect((await r.arrayBuffer()).byteLength).toBe(0);
  });

  it("serves a podcast episode's stream too", async () => {
    const [aac] = await formatsOf(firstId("SELECT video_id AS v FROM episodes LIMIT 1"));
    const r = await bytes(pathOf(await deciphered(aac!)), { range: "bytes=0-99" });
    expect(r.status).toBe(206);
    expect(r.body).toHaveLength(100);
  });

  it("refuses with an empty 403 a URL not deciphered, or with a wrong sig or n", async () => {
    const [aac] = await formatsOf(playable());
    const raw = new URL(new URLSearchParams(aac!.signatureCipher).get("url")!);
    const good = await deciphered(aac!);
    const flip = (v: string) => (v[0] === "A" ? "B" : "A") + v.slice(1);
    const wrongSig = new URL(good);
    wrongSig.searchParams.set("sig", flip(good.searchParams.get("sig")!));
    const wrongN = new URL(good);
    wrongN.searchParams.set("n", flip(good.searchParams.get("n")!));
    const rawN = new URL(good);
    rawN.searchParams.set("n", raw.searchParams.get("n")!);
    for (const url of [raw, wrongSig, wrongN, rawN]) {
      const r = await bytes(pathOf(url));
      expect(r.status, pathOf(url)).toBe(403);
      expect(r.body).toHaveLength(0);
    }
    expect((await bytes(pathOf(good), { range: "bytes=0-0" })).status).toBe(206);
  });

  it("answers 404 for a correctly signed stream of a video that cannot be played", async () => {
    // The player response of an unavailable song has no streams; sign one by hand.
    const v = firstId("SELECT video_id AS v FROM songs WHERE available = 0 LIMIT 1");
    const { sig, n } = expectedStreamParams(PLAYER_VERSION, v, 140);
    expect((await call(emu, `/videoplayback?id=${v}&itag=140&n=${n}&sig=${sig}`)).status).toBe(404);
    const song = playable();
    const other = expectedStreamParams(PLAYER_VERSION, song, 18);
    expect((await call(emu, `/videoplayback?id=${song}&itag=18&n=${other.n}&sig=${other.sig}`)).status).toBe(
      404,
    );
  });
});

describe("requestedRange", () => {
  it("reads googlevideo's range parameter before a Range header, and ignores a header that is no plain range", () => {
    expect(requestedRange("10-19", "bytes=0-0", 100)).toEqual({
      range: { start: 10, end: 19 },
      partial: false,
    });
    expect(requestedRange("90-", undefined, 100)).toEqual({ range: { start: 90, end: 99 }, partial: false });
    expect(requestedRange(null, "bytes=0-0", 100)).toEqual({ range: { start: 0, end: 0 }, partial: true });
    expect(requestedRange(null, "bytes=-10", 100)).toEqual({ range: { start: 90, end: 99 }, partial: true });
    expect(requestedRange(null, "bytes=-1000", 100)).toEqual({ range: { start: 0, end: 99 }, partial: true });
    expect(requestedRange(null, "bytes=50-", 100)).toEqual({ range: { start: 50, end: 99 }, partial: true });
    for (const ignored of [undefined, "", "bytes=-", "bytes=0-1,5-6", "items=0-1", "bytes=9-3"])
      expect(requestedRange(null, ignored, 100), String(ignored)).toBeNull();
    for (const [q, h] of [
      ["x", undefined],
      ["100-", undefined],
      [null, "bytes=100-"],
      [null, "bytes=-0"],
    ] as const)
      expect(requestedRange(q, h, 100), `${q} ${h}`).toBe("unsatisfiable");
  });
});
