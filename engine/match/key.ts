/**
 * An entry's key for the match cache and the overrides file, and the text to search for it. Pure.
 */
import type { SongEntry } from "./entry.js";
import { splitArtistNames } from "./normalise.js";
import { describeEntry } from "./side.js";
import { isWeakMarker } from "./version.js";

/**
 * "artist & artist - title (marker, …)": the artists split and folded, sorted so that their order
 * and the way they were joined ("A feat. B", "A & B", a "(feat. B)" in the title) do not matter;
 * the core title folded (case, accents, punctuation, Cyrillic and kana written in Latin letters);
 * then the version markers, sorted. A remaster marker stays in the key although the matcher weighs
 * it lightly: an entry that asks for the remaster may get it where the plain one asks for the
 * plain release, so the two must not share a cached answer. The duration and album are left out: an
 * exporter rounding a length differently must not make a new key, and one song on two albums is
 * still one song to look for. An entry without artists keys on its title alone.
 */
export function entryKey(entry: SongEntry): string {
  const side = describeEntry(entry);
  const artists = [...side.artists].sort();
  const markers = [...side.markers].sort();
  const title = side.title.core + (markers.length > 0 ? ` (${markers.join(", ")})` : "");
  return artists.length > 0 ? `${artists.join(" & ")} - ${title}` : title;
}

/**
 * The core title as written (its own script and case, which the service searches best) and the main
 * artist. Featured artists, notes the service does not write the same way ("- Remastered 2011",
 * "(Official Video)", a bracketed alias) stay out; markers that make another recording ("live",
 * "remix", "karaoke"…) stay in, or the search would offer only the plain release.
 */
export function searchQuery(entry: SongEntry): string {
  const side = describeEntry(entry);
  const markers = [...side.markers].filter((m) => !isWeakMarker(m));
  const mainArtist = splitArtistNames(entry.artists)[0] ?? "";
  return [side.title.coreRaw, ...markers, mainArtist].filter((s) => s !== "").join(" ");
}
