/**
 * Spotify's ids as people paste them: a bare id, an open.spotify.com link (with a language part such
 * as `/intl-de/` and the `?si=` share token), or a `spotify:playlist:` URI (also the older
 * `spotify:user:<name>:playlist:` form). Pure, so a recipe's playlist is checked when it loads.
 */

/** Spotify's ids are 22 characters of base 62. */
const ID = /^[0-9A-Za-z]{22}$/;

const URI = /^spotify:(?:user:[^:\s]+:)?(playlist|track|album|artist):([0-9A-Za-z]{22})$/;

/** The kind and id of a Spotify object named by `text`, or null when it names none. */
export function spotifyObject(text: string): { kind: string; id: string } | null {
  const t = text.trim();
  const uri = URI.exec(t);
  if (uri) return { kind: uri[1]!, id: uri[2]! };
  let url: URL;
  try {
    url = new URL(t);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.hostname !== "open.spotify.com" && url.hostname !== "play.spotify.com") return null;
  const parts = url.pathname.split("/").filter((p) => p !== "");
  // `/intl-de/playlist/<id>`, `/embed/playlist/<id>`, `/user/<name>/playlist/<id>`.
  const at = parts.findIndex((p) => p === "playlist" || p === "track" || p === "album" || p === "artist");
  const id = at >= 0 ? parts[at + 1] : undefined;
  if (!id || !ID.test(id) || at + 2 !== parts.length) return null;
  return { kind: parts[at]!, id };
}

/** A playlist's id from an id, a link or a URI; null when `text` names no playlist. */
export function spotifyPlaylistId(text: string): string | null {
  const t = text.trim();
  if (ID.test(t)) return t;
  const found = spotifyObject(t);
  return found?.kind === "playlist" ? found.id : null;
}

/**
 * Spotify's own editorial and algorithmic playlists (Discover Weekly, the Daily Mixes, Top 50…)
 * have ids that start so; apps registered since November 2024 cannot read them.
 */
export function looksEditorial(playlistId: string): boolean {
  return playlistId.startsWith("37i9dQZ");
}
