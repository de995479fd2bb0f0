/** Builders for the matcher's tests: an entry as a file source reads it, candidates as search returns them. */
import type { MatchCandidate, SongEntry } from "../../../engine/match/entry.js";

export function entry(
  title: string,
  artists: string[],
  durationSeconds: number | null = null,
  more: Partial<SongEntry> = {},
): SongEntry {
  return { title, artists, album: null, durationSeconds, isrc: null, explicit: null, videoId: null, ...more };
}

let next = 0;

export function song(
  title: string,
  artists: string[],
  durationSeconds: number | null,
  more: Partial<MatchCandidate> = {},
): MatchCandidate {
  next += 1;
  return {
    videoId: `song${next}`,
    title,
    artists,
    album: null,
    durationSeconds,
    explicit: null,
    resultType: "song",
    ...more,
  };
}

export function video(title: string, artists: string[], durationSeconds: number | null): MatchCandidate {
  return song(title, artists, durationSeconds, { resultType: "video" });
}
