/** Builders for the matcher's tests: an entry as a file source reads it, candidates as search returns them. */
import type { CachedMatch } from "../../../engine/match/cached-match.js";
import type { MatchCandidate, SongEntry } from "../../../engine/match/entry.js";
import { entryKey } from "../../../engine/match/key.js";
import type { Resolution } from "../../../engine/match/resolve.js";
import { decide } from "../../../engine/match/score.js";

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

/** What resolveEntries makes of an entry whose search offered `candidates`. */
export function searched(e: SongEntry, candidates: MatchCandidate[]): Resolution {
  const d = decide(e, candidates);
  return {
    entry: e,
    key: entryKey(e),
    videoId: d.accepted?.candidate.videoId ?? null,
    by: "search",
    skipped: false,
    score: (d.accepted ?? d.best)?.score ?? null,
    reasons: d.accepted?.reasons ?? [d.best!.reasons[0]!],
    best: d.best,
    candidates: d.ranked,
    tied: d.tied,
  };
}

/** The match cache in memory, what it holds open to look at. */
export function memoryCache() {
  const stored = new Map<string, CachedMatch>();
  return {
    stored,
    async cachedMatches(keys: readonly string[]) {
      return new Map(keys.flatMap((k) => (stored.has(k) ? [[k, stored.get(k)!] as const] : [])));
    },
    async recordMatches(matches: readonly CachedMatch[]) {
      for (const m of matches) stored.set(m.key, m);
    },
  };
}
