import type { TasteProfile } from "../types/song.js";
import { formatPath, isObject, mustList, mustStr, type Path, rendererName } from "./nav.js";
import type { ParseNotes } from "./notes.js";
import { TITLE_TEXT } from "./paths.js";

/** The taste builder page (docs/PROTOCOL.md#browsing get_tasteprofile): lists of artist items. */
const LISTS: Path = ["contents", "tastebuilderRenderer", "contents"];
const ITEMS: Path = ["tastebuilderItemListRenderer", "contents"];
const NAME: Path = TITLE_TEXT;
const SELECTION: Path = ["selectionFormValue"];
const IMPRESSION: Path = ["impressionFormValue"];

/**
 * The artists offered, keyed by displayed name. A name listed twice keeps its first place and its
 * last values, as a dictionary filled in page order would.
 */
export function parseTasteProfile(response: unknown, notes: ParseNotes): TasteProfile {
  const profile: TasteProfile = {};
  const lists = mustList(response, LISTS);
  const listsAt = formatPath(LISTS);
  for (let i = 0; i < lists.length; i++) {
    const wrapper = lists[i];
    const name = rendererName(wrapper);
    if (name !== "tastebuilderItemListRenderer") {
      notes.unknownRenderer(name ?? typeof wrapper, `${listsAt}[${i}]`);
      continue;
    }
    const itemsAt = `${listsAt}[${i}].tastebuilderItemListRenderer.contents`;
    const items = mustList(wrapper, ITEMS, `${listsAt}[${i}]`);
    for (let j = 0; j < items.length; j++) {
      const entry = items[j];
      const item = isObject(entry) ? entry.tastebuilderItemRenderer : undefined;
      if (!isObject(item)) {
        notes.unknownRenderer(rendererName(entry) ?? typeof entry, `${itemsAt}[${j}]`);
        continue;
      }
      const at = `${itemsAt}[${j}].tastebuilderItemRenderer`;
      profile[mustStr(item, NAME, at)] = {
        selectionValue: mustStr(item, SELECTION, at),
        impressionValue: mustStr(item, IMPRESSION, at),
      };
    }
  }
  return profile;
}
