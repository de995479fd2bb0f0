/**
 * Artists: an artist a person follows on another service matched to one of the service's artists
 * (their channel, UC…). Pure. A name is all both sides give, so the name must agree closely: a
 * near name ("Adele" and "Adelle") is another artist more often than a spelling slip. Two artists
 * of the same name are left to the person: the search cannot tell them apart, and a guess would
 * subscribe to a stranger (docs/services.md#spotify-albums-and-artists).
 */
import type { Evidence } from "./evidence.js";
import { foldArtist, isReadable } from "./normalise.js";
import type { MatchKind, SearchHit } from "./resolve.js";
import { decideAmong, type MatchDecision, scored, type TieRules } from "./score.js";
import { textSimilarity } from "./similarity.js";
import { hasArabic } from "./transliterate.js";

/** An artist as another service describes it. */
export interface ArtistEntry {
  name: string;
  /** The other service's id (`spotify:artist:…`): the key of its cached match and of matches.yaml. */
  serviceId: string;
}

export interface ArtistCandidate {
  /** The artist's channel id (UC…). */
  browseId: string;
  name: string;
}

const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;

/** Whether `text` has the shape of an artist's channel id (an override, a result's). */
export function isChannelId(text: string): boolean {
  return CHANNEL_ID.test(text);
}

/**
 * From this a name is said to be nearly the entry's, but still not taken: in a long name one letter
 * more or less scores as much ("Jackson Browne" and "Jackson Brown" are two artists), and the
 * ways services write one artist's name differently fold to the same name (normalise.ts).
 */
const NEAR_NAME = 0.9;

function nameEvidence(entry: string, candidate: string): Evidence {
  const [a, b] = [foldArtist(entry), foldArtist(candidate)];
  if (isReadable(a) !== isReadable(b))
    return { reason: "name in another script, not compared", weight: 1, value: 0.5, factor: 1 };
  const sim = textSimilarity(a, b, hasArabic(entry) || hasArabic(candidate));
  if (sim === 1) return { reason: "name equal", weight: 1, value: 1, factor: 1 };
  if (sim >= NEAR_NAME)
    return {
      reason: `name nearly equal (${sim.toFixed(2)}): ${candidate}`,
      weight: 1,
      value: sim,
      factor: 0.7,
    };
  return { reason: `name differs (${sim.toFixed(2)}): ${candidate}`, weight: 1, value: sim, factor: 0.7 };
}

export function scoreArtist(entry: ArtistEntry, candidate: ArtistCandidate) {
  return scored(candidate, [nameEvidence(entry.name, candidate.name)]);
}

const ARTIST_TIES: TieRules<ArtistCandidate> = {
  label: (c) => `${c.name} (${c.browseId})`,
  // Two channels are two artists, whatever their names.
  same: (a, b) => a.browseId === b.browseId,
};

export function decideArtist(
  entry: ArtistEntry,
  candidates: readonly ArtistCandidate[],
): MatchDecision<ArtistCandidate> {
  return decideAmong(
    candidates.map((c) => scoreArtist(entry, c)),
    ARTIST_TIES,
  );
}

export function artistCandidateOf(hit: SearchHit): ArtistCandidate | null {
  const name = hit.artist ?? hit.title;
  if (hit.resultType !== "artist" || !hit.browseId || !isChannelId(hit.browseId) || !name) return null;
  return { browseId: hit.browseId, name };
}

/** One search among artists by name, keyed by the other service's id. */
export const ARTISTS: MatchKind<ArtistEntry, ArtistCandidate> = {
  noun: "artist",
  keys: (entry) => ({ key: entry.serviceId, words: null }),
  ownId: () => null,
  searches: (entry) => [{ query: entry.name, filter: "artists" }],
  candidateOf: artistCandidateOf,
  idOf: (c) => c.browseId,
  decide: decideArtist,
  label: (entry) => entry.name,
  candidateLabel: (c) => `${c.name} <${c.browseId}>`,
};
