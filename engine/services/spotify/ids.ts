/**
 * Spotify's ids as people paste them: a bare id, an open.spotify.com link (with a language part such
 * as `/intl-de/`, the `?si=` share token, or an old `/user/<name>/` part), or a `spotify:playlist:`
 * URI (also the older `spotify:user:<name>:playlist:` form). Pure, so a recipe's playlist is
 * checked when it loads, and a reader refuses a bad one, naming the argument, before any request.
 */

/** Spotify's ids are 22 characters of base 62. */
const ID = /^[0-9A-Za-z]{22}$/;

const URI = /^spotify:(?:user:[^:\s]+:)?(playlist|track|album|artist):([0-9A-Za-z]{22})$/;

const KINDS = new Set(["playlist", "track", "album", "artist"]);

export function isSpotifyId(text: string): boolean {
  return ID.test(text);
}

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
  const at = parts.findIndex((p) => KINDS.has(p));
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

/** A value given for an argument that cannot be what it names. */
export class SpotifyArgumentError extends Error {
  readonly argument: string;
  constructor(argument: string, message: string) {
    super(`${argument}: ${message}`);
    this.name = "SpotifyArgumentError";
    this.argument = argument;
  }
}

const EXPECTED =
  "expected a Spotify playlist id (22 letters and digits), an open.spotify.com/playlist/ address or a spotify:playlist: URI";

/** The playlist id `value` names; throws SpotifyArgumentError naming `argument` otherwise. */
export function parsePlaylistRef(value: string, argument = "playlist"): string {
  const id = spotifyPlaylistId(value);
  if (id !== null) return id;
  throw new SpotifyArgumentError(argument, `"${shown(value.trim())}" is not one: ${EXPECTED}`);
}

/** At most 80 characters of what was given, so a pasted page does not fill the message. */
function shown(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
