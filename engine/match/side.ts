/**
 * What the matcher reads of an entry or a candidate: its title taken apart, its artists split and
 * folded (the featured ones included), its version markers, album, duration and explicit flag.
 */
import type { MatchCandidate, SongEntry } from "./entry.js";
import { foldArtists, splitArtistNames } from "./normalise.js";
import { type ParsedTitle, parseTitle } from "./title.js";
import { hasArabic } from "./transliterate.js";
import { markersIn, type VersionMarker } from "./version.js";

export interface Side {
  title: ParsedTitle;
  /** Split and folded; the artists a title features are added. */
  artists: string[];
  /** The artists as written, split (for reasons a person reads). */
  artistNames: string[];
  /** Folded names that may be the artist without being listed as one (a video's "Artist - "). */
  maybeArtists: string[];
  markers: ReadonlySet<VersionMarker>;
  /** The album's core title, folded; null when unknown. */
  album: string | null;
  durationSeconds: number | null;
  explicit: boolean | null;
  /** Whether any text was written in Arabic script (compared by consonants too). */
  arabic: boolean;
}

type Described = Pick<SongEntry, "title" | "artists" | "album" | "durationSeconds" | "explicit">;

function describe(song: Described, isVideo: boolean): Side {
  const title = parseTitle(song.title, isVideo);
  const artistNames = splitArtistNames([...song.artists, ...title.featured]);
  const artists = foldArtists(artistNames);
  // "Karaoke Hits Band" and "Lullaby Renditions of …" say what the title may not.
  const markers = new Set(title.markers);
  for (const name of artists) for (const m of markersIn(name, "title")) markers.add(m);
  const album = song.album ? parseTitle(song.album, false).core || null : null;
  return {
    title,
    artists,
    artistNames,
    maybeArtists: foldArtists(title.named),
    markers,
    album,
    durationSeconds: song.durationSeconds,
    explicit: song.explicit,
    arabic: hasArabic([song.title, ...song.artists].join(" ")),
  };
}

export function describeEntry(entry: SongEntry): Side {
  return describe(entry, false);
}

export function describeCandidate(candidate: MatchCandidate): Side {
  return describe(candidate, candidate.resultType === "video");
}
