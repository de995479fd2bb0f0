/**
 * Playlist titles and descriptions as the service keeps them. The service trims a title it is given
 * (docs/PROTOCOL.md#writes: `create_playlist` / `edit_playlist`; the emulator's `checkTitle` does the same) and
 * keeps runs of spaces inside it (captured titles hold "Fuji   Tijd"). So the engine stores a title
 * trimmed and compares titles only in that form: an untrimmed "Road trip " would otherwise differ
 * from what the service reads back on every plan (an edit forever), and the search for the
 * engine's own playlist after a lost database would miss it (a second playlist).
 *
 * Descriptions: whether the service trims them is not known (the emulator keeps them as sent), so
 * the engine writes them trimmed and compares them trimmed; either way nothing is edited twice.
 * Pure functions only.
 */

/** The title as the service stores it: surrounding white space (NBSP and line breaks too) removed. */
export function serviceTitle(title: string): string {
  return title.trim();
}

/** Whether two titles are the same playlist title for the service. */
export function sameTitle(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return a === b;
  return serviceTitle(a) === serviceTitle(b);
}

/** The description as the engine writes it: trimmed, so that a trimming service changes nothing. */
export function serviceDescription(description: string): string {
  return description.trim();
}

/** Whether two descriptions are the same once trimmed; a missing one counts as empty. */
export function sameDescription(a: string | null | undefined, b: string | null | undefined): boolean {
  return serviceDescription(a ?? "") === serviceDescription(b ?? "");
}

/** C0 and C1 control characters (tab and line breaks included). */
const CONTROL = /\p{Cc}/u;
/** Controls a description may hold: line breaks and tabs are text there. */
const DESCRIPTION_CONTROL = /[^\P{Cc}\n\r\t]/u;
/** Characters that show nothing: white space (NBSP included) and invisible format marks (U+200B…). */
const INVISIBLE = /^[\p{White_Space}\p{Cf}]*$/u;

function codePoint(text: string, pattern: RegExp): string {
  const c = pattern.exec(text)?.[0] ?? "";
  return `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}

/** Why the service (or a person reading the playlist list) cannot take this title, or null. */
export function titleProblem(title: string): string | null {
  if (CONTROL.test(title)) return `holds a control character (${codePoint(title, CONTROL)})`;
  if (INVISIBLE.test(title)) {
    return title === ""
      ? "is empty"
      : "holds only white space or invisible characters (the service would trim it to nothing)";
  }
  return null;
}

/** Why a description cannot be written as is, or null. */
export function descriptionProblem(description: string): string | null {
  if (DESCRIPTION_CONTROL.test(description))
    return `holds a control character (${codePoint(description, DESCRIPTION_CONTROL)})`;
  return null;
}
