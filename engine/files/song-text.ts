/**
 * Songs written as one string: "Artist - Title" (M3U's #EXTINF, plain-text lists, file names) and
 * several artists in one field ("A, B"). Shared by every reader and writer so they agree.
 */

/** " - " as most tools write it; " – " and " — " as typed or pasted from elsewhere. */
const ARTIST_TITLE = / [-\u2013\u2014] /;

/**
 * Splits on ",": how Exportify joins several artists, and what our writers do. A single artist
 * named with a comma ("Tyler, The Creator") comes out as two; the matcher compares artists
 * loosely, so that still matches, and formats that keep a list (JSON) are not split.
 */
export function splitArtists(text: string): string[] {
  return text
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a !== "");
}

export function joinArtists(artists: readonly string[]): string {
  return artists.join(", ");
}

/** Splits on the first separator; without one (or with nothing on one side) it is all title. */
export function splitArtistTitle(text: string): { artists: string[]; title: string } {
  const m = ARTIST_TITLE.exec(text);
  if (m) {
    const artist = text.slice(0, m.index).trim();
    const title = text.slice(m.index + m[0].length).trim();
    if (artist !== "" && title !== "") return { artists: splitArtists(artist), title };
  }
  return { artists: [], title: text.trim() };
}

/** Line-based formats cannot hold a newline inside a title: it becomes a space. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ");
}

export function joinArtistTitle(entry: { artists: readonly string[]; title: string }): string {
  const title = oneLine(entry.title);
  return entry.artists.length > 0 ? `${oneLine(joinArtists(entry.artists))} - ${title}` : title;
}
