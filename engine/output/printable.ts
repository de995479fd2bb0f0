/**
 * Text a terminal may show whatever it holds (a row of the database edited by hand, a title from
 * the service): the accounts' settings and match's choices both print through it.
 */

/** Longest text shown as it is. */
const SHOWN_LENGTH = 200;

/**
 * `text` with control characters (an escape sequence, a line break that would forge a line of
 * output) written as JSON escapes, and cut short.
 */
export function printable(text: string, longest = SHOWN_LENGTH): string {
  const cut = text.length > longest ? `${text.slice(0, longest)}…` : text;
  return cut.replace(/\p{Cc}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
