/**
 * `GET /videoplayback` (emulator/README.md "Stream URLs and the player script"): the stream a
 * format of the `player` response names, once a client has deciphered its URL. The URL must carry
 * `sig` and `n` as the player script's functions make them from the format's `s` and `n`; anything
 * else gets the empty 403 the stream host answers. The answer is a plan; the server writes it.
 */
import type { EmulatorState } from "../context.js";
import { PLAYER_VERSION } from "../render/pages.js";
import { audioFormat, type ByteRange, requestedRange, streamLength } from "../stream-bytes.js";
import { expectedStreamParams } from "../stream-cipher.js";

export type StreamAnswer =
  | { status: 403 | 404 | 416; headers: Record<string, string>; body: null }
  | {
      status: 200 | 206;
      headers: Record<string, string>;
      body: { videoId: string; itag: number; range: ByteRange | null };
    };

const refuse = (status: 403 | 404): StreamAnswer => ({ status, headers: {}, body: null });

export function videoplayback(
  state: EmulatorState,
  query: URLSearchParams,
  rangeHeader: string | undefined,
): StreamAnswer {
  const videoId = query.get("id") ?? "";
  const itag = Number(query.get("itag"));
  // Checked before anything is looked up: an unsigned or wrongly signed URL says nothing about
  // which videos exist. The signature goes under the name the cipher's `sp` gave (`sig`).
  const expected = expectedStreamParams(PLAYER_VERSION, videoId, itag);
  if (query.get("sig") !== expected.sig || query.get("n") !== expected.n) return refuse(403);
  const format = audioFormat(itag);
  const song = state.store.catalogue.song(videoId);
  const seconds = song
    ? song.available
      ? song.durationSeconds
      : null
    : (state.store.catalogue.episode(videoId)?.durationSeconds ?? null);
  if (!format || seconds === null) return refuse(404);
  const length = streamLength(seconds, format.bitrate);
  const headers = { "content-type": format.mime.split(";")[0]!, "accept-ranges": "bytes" };
  const asked = requestedRange(query.get("range"), rangeHeader, length);
  if (asked === "unsatisfiable") {
    return { status: 416, headers: { ...headers, "content-range": `bytes */${length}` }, body: null };
  }
  const range = asked?.range ?? (length > 0 ? { start: 0, end: length - 1 } : null);
  const size = range ? range.end - range.start + 1 : 0;
  const partial: Record<string, string> = asked?.partial
    ? { "content-range": `bytes ${range!.start}-${range!.end}/${length}` }
    : {};
  return {
    status: asked?.partial ? 206 : 200,
    headers: { ...headers, "content-length": String(size), ...partial },
    body: { videoId, itag, range },
  };
}
