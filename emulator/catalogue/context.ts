/** What every part of the generator draws with and writes to while one catalogue is made. */
import { Rng } from "../random.js";
import type { CatalogueWriter } from "../store/seed.js";
import type { CatalogueSummary } from "./summary.js";

export interface Generation {
  /** Number of songs (at least 20). */
  readonly size: number;
  /**
   * The catalogue's one generator. Every part draws from it in turn, so the order the parts run
   * in is part of what a seed makes: reordering them changes every catalogue.
   */
  readonly r: Rng;
  readonly write: CatalogueWriter;
  /** Counted as rows are written. */
  readonly summary: CatalogueSummary;
  /** An id from `make` not handed out before in this catalogue (ids of all kinds share one set). */
  unique(make: () => string): string;
}

export function startGeneration(write: CatalogueWriter, seed: number, size: number): Generation {
  const used = new Set<string>();
  return {
    size: Math.max(20, Math.floor(size)),
    r: new Rng(seed),
    write,
    summary: {
      artists: 0,
      albums: 0,
      songs: 0,
      lookalikes: 0,
      videos: 0,
      playlists: 0,
      podcasts: 0,
      episodes: 0,
      accounts: 0,
    },
    unique(make) {
      for (;;) {
        const id = make();
        if (!used.has(id)) {
          used.add(id);
          return id;
        }
      }
    },
  };
}
