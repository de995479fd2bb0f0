import { ParseError } from "../errors.js";
import type {
  Microformat,
  PlayabilityStatus,
  PlaybackTracking,
  Song,
  StreamingData,
  VideoDetails,
} from "../types/song.js";
import { isObject, type JsonObject } from "./nav.js";

/**
 * `get_song` (docs/PROTOCOL.md#player): the player response cut down to the five keys the interface keeps.
 * The values are passed through as the service sent them (no copy): callers want the raw stream
 * and tracking data, and copying 50 KB of formats would only cost time.
 */
export function parseSong(response: unknown): Song {
  if (!isObject(response)) throw new ParseError("(root)", "expected the player response object");
  return {
    videoDetails: section<VideoDetails>(response, "videoDetails"),
    playabilityStatus: section<PlayabilityStatus>(response, "playabilityStatus"),
    streamingData: section<StreamingData>(response, "streamingData"),
    microformat: section<Microformat>(response, "microformat"),
    playbackTracking: section<PlaybackTracking>(response, "playbackTracking"),
  };
}

function section<T>(response: JsonObject, key: string): T | null {
  const value = response[key];
  return isObject(value) ? (value as T) : null;
}
