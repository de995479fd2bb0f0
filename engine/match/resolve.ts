/**
 * From file entries to the service's videos: the file's own id, then the person's override, then
 * the cache, then search (songs first, videos only for what the songs do not give). Every result
 * says how it was found and why, so `musicsync match` and the plan can explain it.
 */
import type { CachedMatch } from "./cached-match.js";
import { isVideoId, type MatchCandidate, type SongEntry } from "./entry.js";
import { entryKey, searchQuery } from "./key.js";
import { decide, mainReason, type ScoredCandidate } from "./score.js";

/** A video id chosen by hand for an entry, or `skip`: the entry is left out. */
export type Override = string | "skip";

/** Where a resolution came from. */
export type MatchedBy = "file" | "override" | "cache" | "search";

export interface Resolution {
  entry: SongEntry;
  key: string;
  /** The chosen video; null when nothing was good enough or an override says `skip`. */
  videoId: string | null;
  by: MatchedBy;
  skipped: boolean;
  score: number | null;
  reasons: readonly string[];
  /** The best candidate seen, accepted or not (searched this run only). */
  best: ScoredCandidate | null;
  /** Every candidate weighed this run, best first (empty when no search was sent). */
  candidates: readonly ScoredCandidate[];
  /** A tie that left the entry unmatched: the equally good recordings, best first (else empty). */
  tied: readonly ScoredCandidate[];
}

/**
 * What the matcher reads of one search result: the fields a candidate is made of. Said here, in
 * the matcher's own terms, so that it needs nothing of the sources' client interface, whose search
 * results have these fields and more.
 */
export interface SearchHit {
  resultType?: string | null;
  videoId?: string | null;
  title?: string | null;
  artists?: readonly { name: string | null }[] | null;
  album?: { name: string | null } | string | null;
  duration_seconds?: number | null;
  isExplicit?: boolean | null;
}

export interface ResolveDeps {
  /** One search request (the caller paces them). */
  search(query: string, filter: "songs" | "videos"): Promise<readonly SearchHit[]>;
  cache: {
    cachedMatches(keys: readonly string[]): Promise<Map<string, CachedMatch>>;
    recordMatches(matches: readonly CachedMatch[]): Promise<void>;
  } | null;
  overrides: ReadonlyMap<string, Override>;
  now: number;
  /** A cached miss older than this is searched again: the catalogue grows. Default 7 days. */
  retryMissesAfterMs?: number;
  /**
   * A cached miss that had candidates (a score) is searched again: the cache keeps no candidates,
   * and `musicsync match` shows them (the tied ones to choose from, the best of an unsure one).
   */
  searchCachedMisses?: boolean;
  /** Told after each entry, cached or searched (a progress bar). */
  onProgress?(done: number, total: number): void;
}

export const RETRY_MISSES_AFTER_MS = 7 * 24 * 3600 * 1000;

/**
 * A search result as the scorer weighs it; results that are not a song or a video, or whose id is
 * not a video id, are dropped (an id is written into matches.yaml: a line break in one would make
 * a drafted comment a line of its own).
 */
export function candidateOf(r: SearchHit): MatchCandidate | null {
  const kind = r.resultType === "song" || r.resultType === "video" ? r.resultType : null;
  if (!kind || !r.videoId || !isVideoId(r.videoId) || !r.title) return null;
  const album = typeof r.album === "string" ? r.album : (r.album?.name ?? null);
  return {
    videoId: r.videoId,
    title: r.title,
    artists: (r.artists ?? []).map((a) => a.name ?? "").filter((n) => n !== ""),
    album,
    durationSeconds: r.duration_seconds ?? null,
    explicit: r.isExplicit ?? null,
    resultType: kind,
  };
}

function fixed(
  entry: SongEntry,
  key: string,
  by: MatchedBy,
  videoId: string | null,
  reason: string,
): Resolution {
  return {
    entry,
    key,
    videoId,
    by,
    skipped: false,
    score: null,
    reasons: [reason],
    best: null,
    candidates: [],
    tied: [],
  };
}

/**
 * An entry's keys: its own (the service's id when it has one, else its words, key.ts), then its
 * words as well for an entry with a service id, so that a correction written as "artist - title"
 * and a match found for the same words from a file still count.
 */
function keysOf(entry: SongEntry): { key: string; words: string | null } {
  const words = entryKey(entry);
  return entry.serviceId ? { key: entry.serviceId, words } : { key: words, words: null };
}

/** The answer that needs no search, if there is one. */
function known(
  entry: SongEntry,
  keys: ReturnType<typeof keysOf>,
  deps: ResolveDeps,
  cached: CachedMatch | undefined,
) {
  const { key } = keys;
  if (entry.videoId) return fixed(entry, key, "file", entry.videoId, "the file names the video");
  const override =
    deps.overrides.get(key) ?? (keys.words !== null ? deps.overrides.get(keys.words) : undefined);
  if (override === "skip")
    return { ...fixed(entry, key, "override", null, "matches.yaml says skip"), skipped: true };
  if (override) return fixed(entry, key, "override", override, "matches.yaml names the video");
  if (!cached) return null;
  const stale =
    cached.videoId === null &&
    (deps.now - cached.matchedAt > (deps.retryMissesAfterMs ?? RETRY_MISSES_AFTER_MS) ||
      (deps.searchCachedMisses === true && cached.score !== null));
  if (stale) return null;
  return { ...fixed(entry, key, "cache", cached.videoId, ""), score: cached.score, reasons: cached.reasons };
}

/** `more` added to `have`, leaving out the videos `have` already holds. */
function withNew(have: readonly MatchCandidate[], more: readonly MatchCandidate[]): MatchCandidate[] {
  const seen = new Set(have.map((c) => c.videoId));
  return [...have, ...more.filter((c) => !seen.has(c.videoId))];
}

/**
 * Searches for one entry: by its ISRC first when it has one (the service answers a recording's
 * code with that recording, docs/PROTOCOL.md#search), then by its words among songs, then among
 * videos, stopping at the first search whose results hold an accepted match. What the ISRC finds
 * is scored like any result: the service has been seen to answer a code with another recording.
 */
async function searchOne(
  entry: SongEntry,
  key: string,
  deps: ResolveDeps,
  count: () => void,
): Promise<Resolution> {
  const weigh = async (query: string, filter: "songs" | "videos") => {
    count();
    return (await deps.search(query, filter)).map(candidateOf).filter((c): c is MatchCandidate => c !== null);
  };
  const steps: (() => Promise<MatchCandidate[]>)[] = [
    ...(entry.isrc ? [() => weigh(entry.isrc!, "songs")] : []),
    () => weigh(searchQuery(entry), "songs"),
    () => weigh(searchQuery(entry), "videos"),
  ];
  let seen: MatchCandidate[] = [];
  let decision = decide(entry, seen);
  let byIsrc = entry.isrc !== null;
  for (const step of steps) {
    seen = withNew(seen, await step());
    decision = decide(entry, seen);
    if (decision.accepted) break;
    byIsrc = false;
  }
  const chosen = decision.accepted;
  const reasons = chosen
    ? byIsrc
      ? ["found by its ISRC", ...chosen.reasons]
      : chosen.reasons
    : decision.best
      ? [mainReason(decision.best)]
      : ["no search results"];
  return {
    entry,
    key,
    videoId: chosen?.candidate.videoId ?? null,
    by: "search",
    skipped: false,
    score: (chosen ?? decision.best)?.score ?? null,
    reasons,
    best: decision.best,
    candidates: decision.ranked,
    tied: decision.tied,
  };
}

/**
 * Resolves every entry; entries with the same key (or, for songs of other services, the same words)
 * are searched once. Searches go one at a time
 * (the caller's `search` paces them); each new result is cached as soon as it is known, so a run
 * stopped part way (a long file at the service's pace) does not search those entries again.
 */
export async function resolveEntries(
  entries: readonly SongEntry[],
  deps: ResolveDeps,
): Promise<{ resolutions: Resolution[]; searches: number }> {
  const keys = entries.map(keysOf);
  const asked = new Set(keys.flatMap((k) => (k.words === null ? [k.key] : [k.key, k.words])));
  const cached = deps.cache ? await deps.cache.cachedMatches([...asked]) : new Map<string, CachedMatch>();
  const byKey = new Map<string, Resolution>();
  let searches = 0;
  const resolutions: Resolution[] = [];
  for (const [i, entry] of entries.entries()) {
    const k = keys[i]!;
    const { key } = k;
    const found = known(
      entry,
      k,
      deps,
      cached.get(key) ?? (k.words !== null ? cached.get(k.words) : undefined),
    );
    let r = found ?? byKey.get(key) ?? (k.words !== null ? byKey.get(k.words) : undefined);
    if (!r) {
      r = await searchOne(entry, key, deps, () => searches++);
      byKey.set(key, r);
      if (k.words !== null) byKey.set(k.words, r);
      const fresh = { key, videoId: r.videoId, score: r.score, reasons: r.reasons, matchedAt: deps.now };
      // Under the words too: the same song from a file, or another service, need not be searched again.
      const also = k.words !== null ? [{ ...fresh, key: k.words }] : [];
      await deps.cache?.recordMatches([fresh, ...also]);
    }
    resolutions.push(found ?? { ...r, entry });
    deps.onProgress?.(i + 1, entries.length);
  }
  return { resolutions, searches };
}

/** `! unmatched "Artist - Title" (best: … score 0.62: duration differs by 41 s)`'s inside. */
export function unmatchedText(r: Resolution): string {
  const name = `"${entryLabel(r.entry)}"`;
  if (r.skipped) return `${name} (matches.yaml says skip)`;
  if (!r.best) return `${name} (${r.reasons[0] ?? "no candidates"})`;
  const b = r.best.candidate;
  const who = b.artists.length > 0 ? `${b.artists.join(", ")} - ${b.title}` : b.title;
  return `${name} (best: ${who} <${b.videoId}> score ${r.best.score.toFixed(2)}: ${mainReason(r.best)})`;
}

/** "Artist, Artist - Title", as exports and people write a song. */
export function entryLabel(entry: SongEntry): string {
  return entry.artists.length > 0 ? `${entry.artists.join(", ")} - ${entry.title}` : entry.title;
}
