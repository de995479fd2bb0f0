/** `FEmusic_history`: one `musicShelfRenderer` per period, rows with a REMOVE_FROM_HISTORY token. */
import type { SongRow } from "../store/rows.js";
import { type Json, singleColumn, text } from "./common.js";
import { historyPeriod } from "./format.js";
import { type Marks, songRow } from "./items.js";

export function historyPage(
  items: { song: SongRow; playedAt: number; token: string }[],
  marks: Marks,
  now: number,
): Json {
  const shelves: { title: string; rows: Json[] }[] = [];
  for (const item of items) {
    const title = historyPeriod(item.playedAt, now);
    let shelf = shelves[shelves.length - 1];
    if (!shelf || shelf.title !== title) {
      shelf = { title, rows: [] };
      shelves.push(shelf);
    }
    shelf.rows.push(songRow(item.song, { style: "library", marks, historyToken: item.token }));
  }
  const contents: Json[] = shelves.map((s) => ({
    musicShelfRenderer: {
      title: text(s.title),
      contents: s.rows,
      shelfDivider: { musicShelfDividerRenderer: { hidden: true } },
    },
  }));
  return {
    header: { musicHeaderRenderer: { title: text("History") } },
    ...singleColumn({ sectionListRenderer: { contents, header: historyChips() } }),
  };
}

/**
 * The "Music" / "Podcasts" filter chips above the history (capture yt_get_history_20240713). The
 * emulator's history holds songs only, so a chip leads back to the same unfiltered list.
 */
function historyChips(): Json {
  const chip = (label: string, params: string) => ({
    chipCloudChipRenderer: {
      text: text(label),
      navigationEndpoint: { browseEndpoint: { browseId: "FEmusic_history", params } },
      isSelected: false,
      targetId: label,
      onDeselectedCommand: { browseEndpoint: { browseId: "FEmusic_history" } },
      selectionBehavior: "CHIP_SELECTION_BEHAVIOR_TOGGLE_ON_TAP",
      uniqueId: label,
    },
  });
  return {
    chipCloudRenderer: {
      chips: [chip("Music", "oggECgIIAQ%3D%3D"), chip("Podcasts", "oggECgIoAQ%3D%3D")],
      selectionBehavior: "CHIP_CLOUD_SELECTION_BEHAVIOR_SINGLE_SELECT",
    },
  };
}
