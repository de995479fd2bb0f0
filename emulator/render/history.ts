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
    ...singleColumn({ sectionListRenderer: { contents } }),
  };
}
