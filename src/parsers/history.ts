import { ErrorCodes, ServiceError } from "../errors.js";
import type { HistoryItem } from "../types/library.js";
import { get, list, type Path, str } from "./nav.js";
import type { ParseNotes } from "./notes.js";
import { SC_SECTIONS, TITLE_TEXT } from "./paths.js";
import { parsePlaylistItems } from "./song-row.js";

/** `get_history` (docs/PROTOCOL.md#library): one shelf per period, all in one response (no continuations). */

const NOTIFIER_TEXT: Path = ["musicNotifierShelfRenderer", ...TITLE_TEXT];
const SHELF_CONTENTS: Path = ["musicShelfRenderer", "contents"];
const SHELF_TITLE: Path = ["musicShelfRenderer", ...TITLE_TEXT];

/**
 * Every history row with the period it was played in (`played`: the shelf title) and its removal
 * token. A section that is not a track shelf carries the service's notice instead (history paused),
 * which is raised as a NO_CONTENT service error with that notice.
 */
export function parseHistory(response: unknown, notes?: ParseNotes): HistoryItem[] {
  const out: HistoryItem[] = [];
  for (const section of list(response, SC_SECTIONS)) {
    const contents = get(section, SHELF_CONTENTS);
    if (!Array.isArray(contents)) {
      const notice = str(section, NOTIFIER_TEXT);
      throw new ServiceError(
        ErrorCodes.NO_CONTENT,
        notice === null ? "the history page has a section without tracks" : `the service says: ${notice}`,
        { operation: "get_history", status: 200 },
      );
    }
    const played = str(section, SHELF_TITLE) ?? "";
    for (const item of parsePlaylistItems(contents, {}, notes, "history")) {
      out.push(Object.assign(item, { played }) as HistoryItem);
    }
  }
  return out;
}
