/**
 * Each part of the comparison of an entry with a candidate, as one piece of evidence with a reason
 * a person can read. score.ts weighs them; the numbers here were tuned on test/engine/match.
 */
import { isReadable } from "./normalise.js";
import type { Side } from "./side.js";
import { textSimilarity } from "./similarity.js";
import { isWeakMarker, markerDifference, type VersionMarker } from "./version.js";

export interface Evidence {
  reason: string;
  /** Share in the weighted average of agreement; 0 for evidence that only scales the score. */
  weight: number;
  /** How well this part agrees, in [0, 1]. */
  value: number;
  /** Multiplies the score: below 1 for evidence against that no other part can outweigh. */
  factor: number;
}

const TITLE_WEIGHT = 0.4;
const ARTIST_WEIGHT = 0.35;
const DURATION_WEIGHT = 0.2;

function evidence(reason: string, weight: number, value: number, factor = 1): Evidence {
  return { reason, weight, value, factor };
}

const two = (n: number): string => n.toFixed(2);

/**
 * Cores against cores and each core against the other side's aliases (not alias against alias:
 * two "(From 'Frozen')" notes say nothing about the song). Pairs where only one side could be
 * transliterated are skipped; null when no pair is left.
 */
function bestTitleSimilarity(entry: Side, candidate: Side): number | null {
  const consonantsToo = entry.arabic || candidate.arabic;
  const pairs: [string, string][] = [[entry.title.core, candidate.title.core]];
  for (const alias of candidate.title.aliases) pairs.push([entry.title.core, alias]);
  for (const alias of entry.title.aliases) pairs.push([alias, candidate.title.core]);
  let best: number | null = null;
  for (const [a, b] of pairs) {
    if (isReadable(a) !== isReadable(b)) continue;
    best = Math.max(best ?? 0, textSimilarity(a, b, consonantsToo));
  }
  return best;
}

export function titleEvidence(entry: Side, candidate: Side): Evidence {
  const sim = bestTitleSimilarity(entry, candidate);
  // Kanji cannot be read without a dictionary: leave the title to the artist and the duration.
  if (sim === null) return evidence("title in another script, not compared", TITLE_WEIGHT, 0.5);
  if (sim === 1) return evidence("title equal", TITLE_WEIGHT, 1);
  if (sim >= 0.85) return evidence(`title nearly equal (${two(sim)})`, TITLE_WEIGHT, sim);
  return evidence(`title differs (${two(sim)})`, TITLE_WEIGHT, sim, sim < 0.6 ? 0.5 : 1);
}

function markerList(markers: VersionMarker[]): string {
  return markers.length > 0 ? markers.join(", ") : "none";
}

export function versionEvidence(entry: Side, candidate: Side): Evidence | null {
  const differ = markerDifference(entry.markers, candidate.markers);
  if (differ.length === 0) {
    return entry.markers.size > 0 ? evidence(`version agrees: ${[...entry.markers].join(", ")}`, 0, 1) : null;
  }
  const theirs = markerList(differ.filter((m) => candidate.markers.has(m)));
  const ours = markerList(differ.filter((m) => entry.markers.has(m)));
  const weak = differ.every(isWeakMarker);
  const factor = differ.reduce((f, m) => f * (isWeakMarker(m) ? 0.97 : 0.35), 1);
  return evidence(`version differs${weak ? " slightly" : ""}: ${theirs} vs ${ours}`, 0, 0, factor);
}

export function artistEvidence(entry: Side, candidate: Side): Evidence | null {
  const theirs = [...candidate.artists, ...candidate.maybeArtists];
  if (entry.artists.length === 0 || theirs.length === 0) return null;
  const consonantsToo = entry.arabic || candidate.arabic;
  const matched = entry.artists.filter((a) =>
    theirs.some((b) => textSimilarity(a, b, consonantsToo) >= 0.85),
  );
  if (matched.length === 0) {
    const names = candidate.artistNames.length > 0 ? candidate.artistNames.join(", ") : "none listed";
    return evidence(`artist differs: ${names}`, ARTIST_WEIGHT, 0, 0.5);
  }
  const share = matched.length / entry.artists.length;
  return evidence(
    `artists overlap ${matched.length}/${entry.artists.length}`,
    ARTIST_WEIGHT,
    0.6 + 0.4 * share,
  );
}

export function durationEvidence(entry: Side, candidate: Side): Evidence | null {
  if (entry.durationSeconds === null || candidate.durationSeconds === null) return null;
  const off = Math.round(Math.abs(entry.durationSeconds - candidate.durationSeconds));
  if (off === 0) return evidence("duration equal", DURATION_WEIGHT, 1);
  if (off <= 3) return evidence(`duration within ${off} s`, DURATION_WEIGHT, 1);
  if (off <= 10) return evidence(`duration close (${off} s off)`, DURATION_WEIGHT, 0.7);
  if (off <= 15) return evidence(`duration differs by ${off} s`, DURATION_WEIGHT, 0.3);
  return evidence(`duration differs by ${off} s`, DURATION_WEIGHT, 0, 0.5);
}

/** Equal albums confirm; different ones say little (singles, compilations, deluxe editions). */
export function albumEvidence(entry: Side, candidate: Side): Evidence | null {
  if (entry.album === null || candidate.album === null) return null;
  if (textSimilarity(entry.album, candidate.album) >= 0.9) return evidence("album equal", 0.1, 1);
  return evidence("album differs", 0.05, 0.4);
}

export function explicitEvidence(entry: Side, candidate: Side): Evidence | null {
  if (entry.explicit === null || candidate.explicit === null || entry.explicit === candidate.explicit) {
    return null;
  }
  const word = (explicit: boolean): string => (explicit ? "explicit" : "clean");
  return evidence(`explicit differs: ${word(candidate.explicit)} vs ${word(entry.explicit)}`, 0, 0, 0.95);
}
