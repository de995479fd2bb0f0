/** Moods & genres: the categories of the moods page, each with its playlists of songs. */
import { ids } from "../random.js";
import { FOR_YOU, GENRES, MOODS } from "../words.js";
import type { Generation } from "./context.js";
import type { MusicPools } from "./music.js";
import { title } from "./names.js";
import { addPlaylist, YOUTUBE_MUSIC } from "./playlists.js";

/** The page's sections in the service's order, with their categories. */
const SECTIONS: readonly [string, readonly string[]][] = [
  ["For you", FOR_YOU],
  ["Genres", GENRES],
  ["Moods & moments", MOODS],
];

export function addMoods(g: Generation, pools: MusicPools): void {
  const { r, write } = g;
  let categoryId = 0;
  for (const [section, names] of SECTIONS) {
    for (const name of names) {
      categoryId++;
      // The browse params of a category page: the service's prefix, then an opaque tail.
      write.moodCategory({
        id: categoryId,
        section,
        title: name,
        params: "ggMPOg1uX" + r.chars(30) + "%3D%3D",
      });
      const count = r.int(6, 12);
      for (let i = 0; i < count; i++) {
        const playlistId = g.unique(() => ids.curated(r));
        addPlaylist(g, {
          playlistId,
          title: `${name} ${title(r, 1)}`,
          kind: "mood",
          author: YOUTUBE_MUSIC,
          count: r.int(15, 40),
          pool: pools.songIds,
        });
        write.moodPlaylist({ categoryId, playlistId, position: i + 1 });
      }
    }
  }
}
