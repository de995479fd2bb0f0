/**
 * The bytes `GET /videoplayback` serves (emulator/README.md "Stream URLs and the player script"):
 * the audio formats the player response offers, each stream's length (what its `contentLength`
 * states), the byte range a request asks for, and the bytes themselves. The bytes are a
 * deterministic pattern per video and format, not decodable audio: a client can download, resume
 * and compare them, not play them. Pure.
 */
import { hash32, Rng } from "./random.js";

/** The audio formats of every playable video, as the music web client gets them. */
export const AUDIO_FORMATS = [
  { itag: 140, mime: 'audio/mp4; codecs="mp4a.40.2"', bitrate: 130000 },
  { itag: 251, mime: 'audio/webm; codecs="opus"', bitrate: 140000 },
] as const;

export type AudioFormat = (typeof AUDIO_FORMATS)[number];

export const audioFormat = (itag: number): AudioFormat | undefined =>
  AUDIO_FORMATS.find((f) => f.itag === itag);

/** A stream's length in bytes: its duration at its bitrate. */
export const streamLength = (seconds: number, bitrate: number) => Math.floor((seconds * bitrate) / 8);

/** Inclusive byte positions. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * What a request asks for of a stream `length` bytes long: googlevideo's own `range=a-b` query
 * parameter (youtubei.js's download sends it; answered 200 with those bytes), else a `Range:
 * bytes=…` header (answered 206). `null` is the whole stream; `"unsatisfiable"` starts past its end
 * (416). A header that is not one plain range is ignored, as RFC 9110 lets a server do.
 */
export function requestedRange(
  query: string | null,
  header: string | undefined,
  length: number,
): { range: ByteRange; partial: boolean } | "unsatisfiable" | null {
  if (query !== null) {
    const m = /^(\d+)-(\d*)$/.exec(query);
    if (!m) return "unsatisfiable";
    return clamp(Number(m[1]), m[2] ? Number(m[2]) : length - 1, length, false);
  }
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!m || (m[1] === "" && m[2] === "")) return null;
  // A range ending before it starts is not a range: ignored, as one that is not there.
  if (m[1] !== "" && m[2] !== "" && Number(m[2]) < Number(m[1])) return null;
  if (m[1] === "") return clamp(Math.max(0, length - Number(m[2])), length - 1, length, true);
  return clamp(Number(m[1]), m[2] ? Number(m[2]) : length - 1, length, true);
}

function clamp(start: number, end: number, length: number, partial: boolean) {
  if (start >= length || end < start) return "unsatisfiable" as const;
  return { range: { start, end: Math.min(end, length - 1) }, partial };
}

const BLOCK = 4096;

/**
 * The stream's bytes in `range`, in chunks of at most 64 KiB: a 4 KiB block drawn from the video
 * and format, each repeat XORed with its block number, so that any two positions can be told apart
 * by a client checking a resumed download.
 */
export function* streamBytes(videoId: string, itag: number, range: ByteRange): Generator<Buffer> {
  const rng = new Rng(hash32(`bytes:${videoId}:${itag}`));
  const block = Buffer.alloc(BLOCK);
  for (let i = 0; i < BLOCK; i++) block[i] = rng.int(0, 255);
  const chunk = 64 * 1024;
  for (let at = range.start; at <= range.end; at += chunk) {
    const size = Math.min(chunk, range.end - at + 1);
    const out = Buffer.alloc(size);
    for (let i = 0; i < size; i++) {
      const p = at + i;
      out[i] = block[p % BLOCK]! ^ (Math.floor(p / BLOCK) & 0xff);
    }
    yield out;
  }
}
