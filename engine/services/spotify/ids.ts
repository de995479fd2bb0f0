/**
 * A playlist as a person names it: its id, its open.spotify.com address (with a locale segment
 * such as `/intl-de/`, and the share link's `?si=` query), or its `spotify:playlist:` URI. Read
 * strictly, before any request: anything else is refused with the argument's name.
 */

/** Spotify ids are 22 characters of base62. */
const ID = /^[0-9A-Za-z]{22}$/;

/** A value given for an argument that cannot be what it names. */
export class SpotifyArgumentError extends Error {
  readonly argument: string;
  constructor(argument: string, message: string) {
    super(`${argument}: ${message}`);
    this.name = "SpotifyArgumentError";
    this.argument = argument;
  }
}

export function isSpotifyId(text: string): boolean {
  return ID.test(text);
}

const EXPECTED =
  "expected a Spotify playlist id (22 letters and digits), an open.spotify.com/playlist/ address or a spotify:playlist: URI";

/** The playlist id `value` names; throws SpotifyArgumentError naming `argument` otherwise. */
export function parsePlaylistRef(value: string, argument = "playlist"): string {
  const text = value.trim();
  if (ID.test(text)) return text;
  const uri = /^spotify:playlist:([^:]*)$/.exec(text);
  if (uri) return checked(uri[1]!, argument);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SpotifyArgumentError(argument, `"${shown(text)}" is not one: ${EXPECTED}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new SpotifyArgumentError(argument, `"${shown(text)}" is not one: ${EXPECTED}`);
  if (url.hostname !== "open.spotify.com")
    throw new SpotifyArgumentError(argument, `${url.hostname} is not open.spotify.com: ${EXPECTED}`);
  const parts = url.pathname.split("/").filter(Boolean);
  // A localised address puts `intl-<language>` first; an old one names the owner: /user/<name>/playlist/<id>.
  if (parts[0]?.startsWith("intl-")) parts.shift();
  if (parts[0] === "user" && parts.length === 4) parts.splice(0, 2);
  if (parts.length !== 2 || parts[0] !== "playlist")
    throw new SpotifyArgumentError(argument, `${url.pathname} is not a playlist's address: ${EXPECTED}`);
  return checked(parts[1]!, argument);
}

function checked(id: string, argument: string): string {
  if (!ID.test(id))
    throw new SpotifyArgumentError(argument, `"${shown(id)}" is not a Spotify id: ${EXPECTED}`);
  return id;
}

/** At most 80 characters of what was given, so a pasted page does not fill the message. */
function shown(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
