/**
 * From entries to the service's things: the entry's own id, then the person's override, then the
 * cache, then search. One pipeline for every kind of thing matched; what differs between songs
 * (searched by ISRC, then among songs, then videos), albums and artists (album.ts, artist.ts) is a
 * MatchKind. Every result says how it was found and why, so `musicsync match` and the plan can
 * explain it.
 */
import type { CachedMatch } from "./cached-match.js";
import { isVideoId, type MatchCandidate, type SongEntry } from "./entry.js";
import { entryKey, searchQuery } from "./key.js";
import { decide, type MatchDecision, mainReason, type ScoredCandidate } from "./score.js";

/** An id chosen by hand for an entry (a video's, an album's, an artist's), or `skip`: the entry is left out. */
export type Override = string | "skip";

/** The search filters the matcher asks for. */
export type SearchFilter = "songs" | "videos" | "albums" | "artists";

/** One search to try for an entry; `found` is said first when its results hold the match. */
export interface SearchStep {
  query: string;
  filter: SearchFilter;
  found?: string;
}

/** An entry's keys: its own, and (for an entry keyed by a service's id) its words as well. */
export interface EntryKeys {
  key: string;
  words: string | null;
  /**
   * What tells apart two entries of the same words (a song's ISRC: two songs of one title by one
   * artist on two albums), or null. An entry with one never takes the match of other words-alike
   * entries: it is searched as itself.
   */
  identity?: string | null;
}

/**
 * What differs between the kinds of thing matched. `E` is the entry as a source describes it,
 * `C` a search result as the kind's scorer weighs it.
 */
export interface MatchKind<E, C> {
  /** "video", "album", "artist": what matches.yaml or the file names, in reasons. */
  noun: string;
  keys(entry: E): EntryKeys;
  /** The id the entry names itself (a file's video id): taken as it is. */
  ownId(entry: E): string | null;
  searches(entry: E): readonly SearchStep[];
  candidateOf(hit: SearchHit): C | null;
  idOf(candidate: C): string;
  decide(entry: E, candidates: readonly C[]): MatchDecision<C>;
  /** The entry as a person writes it ("Artist - Title"). */
  label(entry: E): string;
  /** A candidate in an unmatched note: "Artist - Title <id>". */
  candidateLabel(candidate: C): string;
}

/** Where a resolution came from. */
export type MatchedBy = "file" | "override" | "cache" | "search";

export interface Resolution<E = SongEntry, C = MatchCandidate> {
  entry: E;
  key: string;
  /**
   * The chosen video (for albums their browseId, MPRE…; for artists their channel id, UC…); null
   * when nothing was good enough or an override says `skip`.
   */
  videoId: string | null;
  by: MatchedBy;
  skipped: boolean;
  score: number | null;
  reasons: readonly string[];
  /** The best candidate seen, accepted or not (searched this run only). */
  best: ScoredCandidate<C> | null;
  /** Every candidate weighed this run, best first (empty when no search was sent). */
  candidates: readonly ScoredCandidate<C>[];
  /** A tie that left the entry unmatched: the equally good recordings, best first (else empty). */
  tied: readonly ScoredCandidate<C>[];
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
  /** Artist results: the name. */
  artist?: string | null;
  artists?: readonly { name: string | null; id?: string | null }[] | null;
  album?: { name: string | null } | string | null;
  duration_seconds?: number | null;
  isExplicit?: boolean | null;
  /** Albums (MPRE…) and artists (UC…). */
  browseId?: string | null;
  /** Albums: their playlist (OLAK5uy_…), when the result gives it. */
  playlistId?: string | null;
  /** Albums: "Album", "Single", "EP". */
  type?: string | null;
  year?: string | null;
}

export interface ResolveDeps {
  /** One search request (the caller paces them). */
  search(query: string, filter: SearchFilter): Promise<readonly SearchHit[]>;
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

function fixed<E, C>(
  entry: E,
  key: string,
  by: MatchedBy,
  videoId: string | null,
  reason: string,
): Resolution<E, C> {
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

/** The answer that needs no search, if there is one. */
function known<E, C>(
  kind: MatchKind<E, C>,
  entry: E,
  keys: EntryKeys,
  deps: ResolveDeps,
  cached: CachedMatch | undefined,
): Resolution<E, C> | null {
  const { key } = keys;
  const own = kind.ownId(entry);
  if (own) return fixed(entry, key, "file", own, `the file names the ${kind.noun}`);
  const override =
    deps.overrides.get(key) ?? (keys.words !== null ? deps.overrides.get(keys.words) : undefined);
  if (override === "skip")
    return { ...fixed<E, C>(entry, key, "override", null, "matches.yaml says skip"), skipped: true };
  if (override) return fixed(entry, key, "override", override, `matches.yaml names the ${kind.noun}`);
  if (!cached) return null;
  const stale =
    cached.videoId === null &&
    (deps.now - cached.matchedAt > (deps.retryMissesAfterMs ?? RETRY_MISSES_AFTER_MS) ||
      (deps.searchCachedMisses === true && cached.score !== null));
  if (stale) return null;
  return {
    ...fixed<E, C>(entry, key, "cache", cached.videoId, ""),
    score: cached.score,
    reasons: cached.reasons,
  };
}

/** `more` added to `have`, leaving out the ones `have` already holds. */
function withNew<C>(have: readonly C[], more: readonly C[], idOf: (c: C) => string): C[] {
  const seen = new Set(have.map(idOf));
  return [...have, ...more.filter((c) => !seen.has(idOf(c)))];
}

/**
 * Searches for one entry, the kind's searches in order, stopping at the first whose results hold
 * an accepted match; each search's results are weighed with all seen before.
 */
async function searchOne<E, C>(
  kind: MatchKind<E, C>,
  entry: E,
  key: string,
  deps: ResolveDeps,
  count: () => void,
): Promise<Resolution<E, C>> {
  let seen: C[] = [];
  let decision = kind.decide(entry, seen);
  let found: string | undefined;
  for (const step of kind.searches(entry)) {
    count();
    const hits = await deps.search(step.query, step.filter);
    const more = hits.map((h) => kind.candidateOf(h)).filter((c): c is C => c !== null);
    seen = withNew(seen, more, kind.idOf);
    decision = kind.decide(entry, seen);
    if (decision.accepted) {
      found = step.found;
      break;
    }
  }
  const chosen = decision.accepted;
  const reasons = chosen
    ? [...(found ? [found] : []), ...chosen.reasons]
    : decision.best
      ? [mainReason(decision.best)]
      : ["no search results"];
  return {
    entry,
    key,
    videoId: chosen ? kind.idOf(chosen.candidate) : null,
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
 * Resolves every entry; entries with the same key (or, for entries of other services, the same
 * words) are searched once. Searches go one at a time (the caller's `search` paces them); each new
 * result is cached as soon as it is known, so a run stopped part way (a long file at the service's
 * pace) does not search those entries again.
 */
export async function resolveWith<E, C>(
  kind: MatchKind<E, C>,
  entries: readonly E[],
  deps: ResolveDeps,
): Promise<{ resolutions: Resolution<E, C>[]; searches: number }> {
  const keys = entries.map((e) => kind.keys(e));
  const asked = new Set(keys.flatMap((k) => (k.words === null ? [k.key] : [k.key, k.words])));
  const cached = deps.cache ? await deps.cache.cachedMatches([...asked]) : new Map<string, CachedMatch>();
  const byKey = new Map<string, Resolution<E, C>>();
  // By words, with the identity of the entry searched: taken only by an entry of the same identity.
  const byWords = new Map<string, { r: Resolution<E, C>; identity: string | null }>();
  let searches = 0;
  const resolutions: Resolution<E, C>[] = [];
  for (const [i, entry] of entries.entries()) {
    const k = keys[i]!;
    const { key } = k;
    const identity = k.identity ?? null;
    // The cache by words holds no identity: only an entry without one may take it.
    const byCachedWords = k.words !== null && identity === null ? cached.get(k.words) : undefined;
    const found = known(kind, entry, k, deps, cached.get(key) ?? byCachedWords);
    const alike = k.words !== null ? byWords.get(k.words) : undefined;
    let r = found ?? byKey.get(key) ?? (alike?.identity === identity ? alike.r : undefined);
    if (!r) {
      r = await searchOne(kind, entry, key, deps, () => searches++);
      byKey.set(key, r);
      if (k.words !== null) byWords.set(k.words, { r, identity });
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

/**
 * Songs: the file's own video id, else by ISRC first when the entry has one (the service answers a
 * recording's code with that recording, docs/PROTOCOL.md#search), then by its words among songs,
 * then among videos. What the ISRC finds is scored like any result: the service has been seen to
 * answer a code with another recording. An entry with a service id is keyed by it, and by its
 * words as well, so that a correction written as "artist - title" and a match found for the same
 * words from a file still count; its ISRC keeps apart two songs of the same words.
 */
export const SONGS: MatchKind<SongEntry, MatchCandidate> = {
  noun: "video",
  keys(entry) {
    const words = entryKey(entry);
    return entry.serviceId
      ? { key: entry.serviceId, words, identity: entry.isrc }
      : { key: words, words: null };
  },
  ownId: (entry) => entry.videoId,
  searches: (entry) => [
    ...(entry.isrc ? [{ query: entry.isrc, filter: "songs" as const, found: "found by its ISRC" }] : []),
    { query: searchQuery(entry), filter: "songs" },
    { query: searchQuery(entry), filter: "videos" },
  ],
  candidateOf,
  idOf: (c) => c.videoId,
  decide,
  label: entryLabel,
  candidateLabel: (b) =>
    `${b.artists.length > 0 ? `${b.artists.join(", ")} - ${b.title}` : b.title} <${b.videoId}>`,
};

/** Resolves songs (SONGS). */
export function resolveEntries(
  entries: readonly SongEntry[],
  deps: ResolveDeps,
): Promise<{ resolutions: Resolution[]; searches: number }> {
  return resolveWith(SONGS, entries, deps);
}

/** `! unmatched "Artist - Title" (best: … score 0.62: duration differs by 41 s)`'s inside. */
export function unmatchedText<E, C>(r: Resolution<E, C>, kind: MatchKind<E, C>): string {
  const name = `"${kind.label(r.entry)}"`;
  if (r.skipped) return `${name} (matches.yaml says skip)`;
  if (!r.best) return `${name} (${r.reasons[0] ?? "no candidates"})`;
  const who = kind.candidateLabel(r.best.candidate);
  return `${name} (best: ${who} score ${r.best.score.toFixed(2)}: ${mainReason(r.best)})`;
}

/** "Artist, Artist - Title", as exports and people write a song. */
export function entryLabel(entry: SongEntry): string {
  return entry.artists.length > 0 ? `${entry.artists.join(", ")} - ${entry.title}` : entry.title;
}
