/**
 * Reading request headers as a browser's developer tools copy them (docs/PROTOCOL.md#browser-headers). Two layouts:
 *
 * - Firefox ("Copy Request Headers"): a request line, then `Name: value` lines.
 * - Chrome DevTools (selecting the Request Headers list): each name on its own line (sometimes with a
 *   trailing colon), its value on the next line; HTTP/2 pseudo headers (`:authority`, `:path`…) come
 *   first in both layouts.
 *
 * The two may even be mixed, so each line is classified on its own, with one piece of state: a name
 * line seen alone waits for its value on the next non-empty line.
 */

/** A header name as RFC 9110 allows it (a "token"). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** `Name: value` — a token, a colon, at least one blank, the value (possibly empty). */
const NAME_VALUE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]+(.*)$/;

/** Marks a pending pseudo header: its value line is read and thrown away. */
const PSEUDO = Symbol("pseudo header");

/**
 * Header name (lower-case) → value. Names are lower-cased in both layouts (ytmusicapi keeps the
 * Chrome-layout names as written, but header names are case-insensitive and the transport sends
 * lower-case ones, so one spelling avoids `Cookie` and `cookie` living side by side). A later
 * repetition of a name replaces the earlier value.
 */
export function parseHeaderLines(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  let pending: string | typeof PSEUDO | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "") continue;
    if (pending !== null) {
      if (pending !== PSEUDO) headers[pending] = line;
      pending = null;
      continue;
    }
    if (line.startsWith(":")) {
      // `:authority: music.youtube.com` on one line, or `:authority` with the value on the next.
      if (!/^:[^:\s]+:?\s+\S/.test(line)) pending = PSEUDO;
      continue;
    }
    // Matched before trimming the end, so `X-Empty: ` stays a header with an empty value.
    const pair = NAME_VALUE.exec(raw.trimStart());
    if (pair) {
      headers[pair[1]!.toLowerCase()] = pair[2]!.trim();
      continue;
    }
    const name = line.endsWith(":") ? line.slice(0, -1) : line;
    if (TOKEN.test(name)) {
      pending = name.toLowerCase();
    }
    // Anything else (the request line `POST /youtubei/v1/browse?… HTTP/2`) is not a header.
  }
  return headers;
}
