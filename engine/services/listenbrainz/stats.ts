/**
 * A user's top recordings (the statistics API's `payload.recordings`) read into the engine's
 * songs. Pure. A listen ListenBrainz could not map to MusicBrainz comes without MBIDs: it is kept,
 * by its names, and keyed by them.
 */
import { at, mbidOf, num, text } from "../json.js";
import type { ServiceTrack } from "../types.js";
import { creditNames, unmappedId } from "./jspf.js";

export function statRecording(raw: unknown): ServiceTrack | null {
  const title = text(at(raw, "track_name"));
  if (title === null) return null;
  const creator = text(at(raw, "artist_name")) ?? "";
  const mbid = mbidOf(at(raw, "recording_mbid"));
  return {
    title,
    artists: creditNames(at(raw, "artists")) ?? (creator ? [creator] : []),
    album: text(at(raw, "release_name")),
    durationSeconds: null,
    explicit: null,
    isrc: null,
    mbid,
    serviceId: mbid !== null ? `musicbrainz:recording:${mbid}` : unmappedId(creator, title),
  };
}

export interface StatsPage {
  rows: ServiceTrack[];
  /** Rows the page holds, as sent (some may lack a title). */
  sent: number;
  /** What the page says it holds, and the whole list's length. */
  count: number | null;
  total: number | null;
}

export function statsPage(body: unknown): StatsPage {
  const raw = at(body, "payload", "recordings");
  const list = Array.isArray(raw) ? raw : [];
  return {
    rows: list.map(statRecording).filter((t): t is ServiceTrack => t !== null),
    sent: list.length,
    count: num(at(body, "payload", "count")),
    total: num(at(body, "payload", "total_recording_count")),
  };
}
