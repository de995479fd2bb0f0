/**
 * Which search result, if any, is the recording an entry names: every candidate scored in [0, 1]
 * with reasons, and a decision that refuses when the best is weak or has an equal rival. Pure.
 *
 * The score is the weighted average of the parts that could be compared (title, artists, duration,
 * album), times a factor for each piece of evidence against that must not be outweighed (another
 * version, another artist, a duration far off). Parts that cannot be compared drop out of the
 * average rather than count against, so an entry with only a title and an artist can still match.
 */
import type { MatchCandidate, SongEntry } from "./entry.js";
import {
  albumEvidence,
  artistEvidence,
  durationEvidence,
  type Evidence,
  explicitEvidence,
  titleEvidence,
  versionEvidence,
} from "./evidence.js";
import { describeCandidate, describeEntry, type Side } from "./side.js";
import { textSimilarity } from "./similarity.js";
import { markerDifference } from "./version.js";

export const ACCEPT_SCORE = 0.75;
/** Closer than this to the best, a different recording makes the choice a guess. */
const AMBIGUITY_MARGIN = 0.05;

export interface ScoredCandidate<C = MatchCandidate> {
  candidate: C;
  score: number;
  /** The main reason first (against when the score is below ACCEPT_SCORE, else for), then the rest. */
  reasons: string[];
}

export interface MatchDecision<C = MatchCandidate> {
  /** The best one when its score >= ACCEPT_SCORE and no different recording comes as close. */
  accepted: ScoredCandidate<C> | null;
  /** The best one, accepted or not. */
  best: ScoredCandidate<C> | null;
  /** All, best first; equal scores keep the search's order. */
  ranked: ScoredCandidate<C>[];
  /**
   * When different recordings score as well as the best (within the margin), so that none is
   * taken: the best and each of them, best first, one per recording, each with its own reasons (a
   * person chooses among them). Empty otherwise.
   */
  tied: ScoredCandidate<C>[];
}

function gather(entry: Side, candidate: Side, isVideo: boolean): Evidence[] {
  const artists = artistEvidence(entry, candidate);
  const duration = durationEvidence(entry, candidate);
  const found = [titleEvidence(entry, candidate), versionEvidence(entry, candidate), artists, duration];
  found.push(albumEvidence(entry, candidate), explicitEvidence(entry, candidate));
  // A title alone names a song, not a recording: "Angel" is a dozen of them.
  if (artists === null && duration === null) found.push(against("only the title to compare", 0.7));
  if (isVideo) found.push(against("a video, not a song", 0.97));
  return found.filter((e): e is Evidence => e !== null);
}

export function against(reason: string, factor: number): Evidence {
  return { reason, weight: 0, value: 0, factor };
}

export function combine(evidence: readonly Evidence[]): number {
  let weights = 0;
  let sum = 0;
  let factor = 1;
  for (const e of evidence) {
    weights += e.weight;
    sum += e.weight * e.value;
    factor *= e.factor;
  }
  const score = weights > 0 ? (sum / weights) * factor : 0;
  return Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000;
}

const isAgainst = (e: Evidence): boolean => e.factor < 1 || e.value < 0.6;
const pull = (e: Evidence): number =>
  isAgainst(e) ? e.weight * (1 - e.value) + (1 - e.factor) : e.weight * e.value;

/** The reasons with the strongest one of the side the score falls on moved to the front. */
export function orderReasons(evidence: readonly Evidence[], accepted: boolean): string[] {
  let main = -1;
  evidence.forEach((e, i) => {
    if (isAgainst(e) !== accepted && (main < 0 || pull(e) > pull(evidence[main]!))) main = i;
  });
  const reasons = evidence.map((e) => e.reason);
  if (main > 0) reasons.unshift(...reasons.splice(main, 1));
  return reasons;
}

/** A candidate scored from its evidence, the reasons in the order a person reads them. */
export function scored<C>(candidate: C, evidence: readonly Evidence[]): ScoredCandidate<C> {
  const score = combine(evidence);
  return { candidate, score, reasons: orderReasons(evidence, score >= ACCEPT_SCORE) };
}

function scoreSides(entry: Side, candidate: MatchCandidate): ScoredCandidate {
  return scored(candidate, gather(entry, describeCandidate(candidate), candidate.resultType === "video"));
}

export function scoreCandidate(entry: SongEntry, candidate: MatchCandidate): ScoredCandidate {
  return scoreSides(describeEntry(entry), candidate);
}

/** Two candidates that are one recording (a song and its video, an original and its remaster). */
function sameRecording(a: Side, b: Side): boolean {
  if (textSimilarity(a.title.core, b.title.core) < 0.85) return false;
  if (markerDifference(a.markers, b.markers, true).length > 0) return false;
  const artistsMeet =
    a.artists.length === 0 || b.artists.length === 0 || a.artists.some((x) => b.artists.includes(x));
  const durationsMeet =
    a.durationSeconds === null ||
    b.durationSeconds === null ||
    Math.abs(a.durationSeconds - b.durationSeconds) <= 3;
  return artistsMeet && durationsMeet;
}

function label(c: MatchCandidate): string {
  return `${c.title} by ${c.artists.join(", ") || "no artist"} (${c.videoId})`;
}

/** How a kind of candidate reads in a tie, and which two of them are one thing to choose. */
export interface TieRules<C> {
  label(c: C): string;
  /** One recording (a song and its video), one album (two editions): not a choice between them. */
  same(a: C, b: C): boolean;
}

const SONG_TIES: TieRules<MatchCandidate> = {
  label,
  same: (a, b) => sameRecording(describeCandidate(a), describeCandidate(b)),
};

/**
 * The best and every different thing scoring within the margin of it, one per thing (a song and
 * its own video are one choice, the first of them kept). `ranked` is best first.
 */
function tiedWith<C>(
  best: ScoredCandidate<C>,
  ranked: readonly ScoredCandidate<C>[],
  rules: TieRules<C>,
): ScoredCandidate<C>[] {
  const tied = [best];
  for (const other of ranked) {
    if (other === best) continue;
    if (best.score - other.score >= AMBIGUITY_MARGIN) break;
    if (tied.some((t) => rules.same(t.candidate, other.candidate))) continue;
    tied.push(other);
  }
  return tied;
}

const COUNT_WORDS = ["no", "one", "two", "three", "four", "five"];

/** "two", as a sentence says a small count. */
export function countWord(n: number): string {
  return COUNT_WORDS[n] ?? String(n);
}

/** "two candidates equally good: A and B", as many as tie. */
function tieReason<C>(tied: readonly ScoredCandidate<C>[], rules: TieRules<C>): string {
  const labels = tied.map((t) => rules.label(t.candidate));
  const names = `${labels.slice(0, -1).join(", ")} and ${labels[labels.length - 1]}`;
  return `${countWord(tied.length)} candidates equally good: ${names}`;
}

/**
 * The decision over candidates already scored, whatever they are (songs, albums, artists): the
 * best when it scores ACCEPT_SCORE and no different one comes within the margin of it.
 */
export function decideAmong<C>(
  scoredOnes: readonly ScoredCandidate<C>[],
  rules: TieRules<C>,
): MatchDecision<C> {
  const ranked = [...scoredOnes].sort((a, b) => b.score - a.score);
  const best = ranked[0];
  if (!best) return { accepted: null, best: null, ranked, tied: [] };
  if (best.score < ACCEPT_SCORE) return { accepted: null, best, ranked, tied: [] };
  const tied = tiedWith(best, ranked, rules);
  if (tied.length === 1) return { accepted: best, best, ranked, tied: [] };
  const doubted = { ...best, reasons: [tieReason(tied, rules), ...best.reasons] };
  return { accepted: null, best: doubted, ranked: [doubted, ...ranked.slice(1)], tied };
}

export function decide(entry: SongEntry, candidates: readonly MatchCandidate[]): MatchDecision {
  const side = describeEntry(entry);
  return decideAmong(
    candidates.map((c) => scoreSides(side, c)),
    SONG_TIES,
  );
}

/** One line for the plan: `duration differs by 41 s`, the main reason against (or for). */
export function mainReason(candidate: { reasons: readonly string[] }): string {
  return candidate.reasons[0] ?? "nothing to compare";
}
