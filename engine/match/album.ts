/**
 * Albums: a saved album of another service (Spotify's saved albums) matched to one of the
 * service's albums (MPRE… browseId). Pure. The title and the artists are weighed as a song's are
 * (evidence.ts); an edition ("Deluxe Edition", "2011 Remaster") is the same album, so it weighs
 * little, and picks the edition the person saved when the catalogue has both; the release type (a
 * single of the album's title song is not the album) and the year say the rest. The service's
 * search results give no track count and no barcode, so those cannot be compared; the track count
 * says whether the entry is a single, an EP or an album when the other service does not.
 */
import type { SongEntry } from "./entry.js";
import { artistEvidence, type Evidence, titleEvidence, versionEvidence } from "./evidence.js";
import { splitArtistNames } from "./normalise.js";
import type { MatchKind, SearchHit } from "./resolve.js";
import { against, decideAmong, type MatchDecision, scored, type TieRules } from "./score.js";
import { describeEntry, type Side } from "./side.js";
import { textSimilarity } from "./similarity.js";
import { markerDifference } from "./version.js";

/** An album as another service describes it. */
export interface AlbumEntry {
  title: string;
  artists: readonly string[];
  year: number | null;
  /** How many tracks the release holds, when the service says. */
  trackCount: number | null;
  /** The other service's own word for the release ("album", "single", "compilation"), when given. */
  albumType: string | null;
  /** The release's barcode, when given (kept; the service's results give none to compare with). */
  upc: string | null;
  /** The other service's id (`spotify:album:…`): the key of its cached match and of matches.yaml. */
  serviceId: string;
}

/** An album search result as the scorer weighs it. */
export interface AlbumCandidate {
  browseId: string;
  title: string;
  artists: readonly string[];
  year: number | null;
  type: ReleaseType | null;
  playlistId: string | null;
}

export type ReleaseType = "Album" | "Single" | "EP";

const ALBUM_ID = /^MPRE[A-Za-z0-9_-]{5,60}$/;

/** Whether `text` has the shape of an album's browseId (an override, a result's). */
export function isAlbumId(text: string): boolean {
  return ALBUM_ID.test(text);
}

/**
 * The words of an edition of an album rather than another album: a deluxe, expanded or anniversary
 * edition, bonus tracks. A remaster is a version marker (version.ts) and weighs the same.
 */
const EDITION =
  /\b(deluxe|expanded|anniversary|edition|bonus tracks?|reissue|legacy|super deluxe|special|collectors?)\b/;

interface AlbumSide extends Side {
  editions: string[];
}

function describeAlbum(a: { title: string; artists: readonly string[] }): AlbumSide {
  const song: SongEntry = {
    title: a.title,
    artists: a.artists,
    album: null,
    durationSeconds: null,
    isrc: null,
    explicit: null,
    videoId: null,
  };
  const side = describeEntry(song);
  const editions = side.title.aliases.filter((x) => EDITION.test(x));
  const aliases = side.title.aliases.filter((x) => !EDITION.test(x));
  return { ...side, title: { ...side.title, aliases }, editions };
}

/** Roman numerals from II, as sequels and volumes write them ("I", "V" and "X" are words and titles too). */
const ROMAN: Readonly<Record<string, number>> = {
  ii: 2,
  iii: 3,
  iv: 4,
  vi: 6,
  vii: 7,
  viii: 8,
  ix: 9,
  xi: 11,
  xii: 12,
  xiii: 13,
  xiv: 14,
  xv: 15,
  xvi: 16,
  xvii: 17,
  xviii: 18,
  xix: 19,
  xx: 20,
};

/**
 * The numbers in a title's core, in order (a remaster's year and an edition's words are not in
 * it): a sequel's, a volume's, a series' ("II", "Vol. 2", "Hits 11"). Titles of one series differ
 * by them alone, by one letter or digit, which the title's likeness weighs as nearly equal.
 */
function titleNumbers(core: string): string {
  return core
    .split(/[^a-z0-9]+/)
    .flatMap((w) => (/^[0-9]+$/.test(w) ? [String(Number(w))] : ROMAN[w] ? [String(ROMAN[w])] : []))
    .join(" ");
}

/** What the entry is: Spotify calls an EP a single; its track count tells them apart. */
export function entryReleaseType(e: Pick<AlbumEntry, "albumType" | "trackCount">): ReleaseType | null {
  const type = e.albumType?.toLowerCase() ?? null;
  if (type === "album" || type === "compilation") return "Album";
  const n = e.trackCount;
  if (type === "single") return n !== null && n > 3 ? "EP" : "Single";
  if (n === null) return null;
  return n <= 3 ? "Single" : n <= 6 ? "EP" : "Album";
}

const evidence = (reason: string, weight: number, value: number, factor = 1): Evidence => ({
  reason,
  weight,
  value,
  factor,
});

function editionEvidence(entry: AlbumSide, candidate: AlbumSide): Evidence | null {
  const ours = entry.editions.join(", ");
  const theirs = candidate.editions.join(", ");
  if (ours === theirs) return ours ? evidence(`edition agrees: ${ours}`, 0, 1) : null;
  return evidence(`edition differs slightly: ${theirs || "none"} vs ${ours || "none"}`, 0, 0, 0.97);
}

/** Another number of the same series is another album, however like the titles are. */
function numberEvidence(entry: AlbumSide, candidate: AlbumSide): Evidence | null {
  const [ours, theirs] = [titleNumbers(entry.title.core), titleNumbers(candidate.title.core)];
  if (ours === theirs) return null;
  return evidence(`number differs: ${theirs || "none"} vs ${ours || "none"}`, 0, 0, 0.5);
}

/** A single named as the album's title song is not the album; EPs are called either by services. */
function typeEvidence(entry: ReleaseType | null, candidate: ReleaseType | null): Evidence | null {
  if (entry === null || candidate === null) return null;
  const word = (t: ReleaseType) => ({ Album: "an album", Single: "a single", EP: "an EP" })[t];
  if (entry === candidate) return evidence(`type agrees: ${word(entry).replace(/^an? /, "")}`, 0.1, 1);
  if (entry === "EP" || candidate === "EP")
    return evidence(`type differs slightly: ${word(candidate)}, not ${word(entry)}`, 0.1, 0.5);
  return evidence(`type differs: ${word(candidate)}, not ${word(entry)}`, 0.1, 0, 0.6);
}

/** Release dates differ a year between countries, and a reissue carries its own year. */
function yearEvidence(entry: number | null, candidate: number | null, reissue: boolean): Evidence | null {
  if (entry === null || candidate === null) return null;
  const off = Math.abs(entry - candidate);
  if (off === 0) return evidence("year equal", 0.15, 1);
  if (off === 1) return evidence("year within 1", 0.15, 0.8);
  const reason = `year differs: ${candidate} vs ${entry}`;
  return reissue ? evidence(reason, 0.15, 0.6) : evidence(reason, 0.15, 0.2, 0.9);
}

export function scoreAlbum(entry: AlbumEntry, candidate: AlbumCandidate) {
  return scoreAlbumSides(entry, describeAlbum(entry), candidate);
}

function scoreAlbumSides(entry: AlbumEntry, side: AlbumSide, candidate: AlbumCandidate) {
  const theirs = describeAlbum(candidate);
  const reissue = side.editions.length > 0 || side.markers.has("remaster") || theirs.editions.length > 0;
  const artists = artistEvidence(side, theirs);
  const title = titleEvidence(side, theirs);
  const found = [
    // Albums' titles are a few words: one word more or less is another album ("Thunder", "Empty
    // Orbit Thunder"), where a song's title may carry words another service leaves out.
    title.value < 0.85 ? { ...title, factor: Math.min(title.factor, 0.6) } : title,
    versionEvidence(side, theirs),
    numberEvidence(side, theirs),
    editionEvidence(side, theirs),
    artists,
    typeEvidence(entryReleaseType(entry), candidate.type),
    yearEvidence(entry.year, candidate.year, reissue),
    // A title alone names many albums ("Greatest Hits").
    artists === null ? against("only the title to compare", 0.7) : null,
  ];
  return scored(
    candidate,
    found.filter((e): e is Evidence => e !== null),
  );
}

/** Two results that are one album: its editions (the same title and artist, not a live or remix one). */
function sameAlbum(a: AlbumCandidate, b: AlbumCandidate): boolean {
  const [x, y] = [describeAlbum(a), describeAlbum(b)];
  if (a.type !== b.type || textSimilarity(x.title.core, y.title.core) < 0.85) return false;
  if (titleNumbers(x.title.core) !== titleNumbers(y.title.core)) return false;
  if (markerDifference(x.markers, y.markers, true).length > 0) return false;
  return x.artists.length === 0 || y.artists.length === 0 || x.artists.some((n) => y.artists.includes(n));
}

const albumName = (a: { title: string; artists: readonly string[] }) =>
  a.artists.length > 0 ? `${a.artists.join(", ")} - ${a.title}` : a.title;

const ALBUM_TIES: TieRules<AlbumCandidate> = {
  label: (c) =>
    `${c.title} by ${c.artists.join(", ") || "no artist"} (${c.type ?? "?"}, ${c.year ?? "?"}, ${c.browseId})`,
  same: sameAlbum,
};

export function decideAlbum(
  entry: AlbumEntry,
  candidates: readonly AlbumCandidate[],
): MatchDecision<AlbumCandidate> {
  const side = describeAlbum(entry);
  return decideAmong(
    candidates.map((c) => scoreAlbumSides(entry, side, c)),
    ALBUM_TIES,
  );
}

const TYPES: readonly ReleaseType[] = ["Album", "Single", "EP"];

export function albumCandidateOf(hit: SearchHit): AlbumCandidate | null {
  if (hit.resultType !== "album" || !hit.browseId || !isAlbumId(hit.browseId) || !hit.title) return null;
  const year = /^\d{4}$/.test(hit.year ?? "") ? Number(hit.year) : null;
  return {
    browseId: hit.browseId,
    title: hit.title,
    artists: (hit.artists ?? []).map((a) => a.name ?? "").filter((n) => n !== ""),
    year,
    type: TYPES.find((t) => t === hit.type) ?? null,
    playlistId: hit.playlistId ?? null,
  };
}

/** The title's core as written and the main artist: edition notes are not words the service's title has. */
function albumQuery(entry: AlbumEntry): string {
  const side = describeAlbum(entry);
  const main = splitArtistNames(entry.artists)[0] ?? "";
  return [side.title.coreRaw, main].filter((s) => s !== "").join(" ");
}

/** One search among albums, keyed by the other service's id. */
export const ALBUMS: MatchKind<AlbumEntry, AlbumCandidate> = {
  noun: "album",
  keys: (entry) => ({ key: entry.serviceId, words: null }),
  ownId: () => null,
  searches: (entry) => [{ query: albumQuery(entry), filter: "albums" }],
  candidateOf: albumCandidateOf,
  idOf: (c) => c.browseId,
  decide: decideAlbum,
  label: albumName,
  candidateLabel: (c) => `${albumName(c)} <${c.browseId}>`,
};
