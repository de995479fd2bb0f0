import { seedAccounts } from "./catalogue/accounts.js";
import { addCharts, addCurrentChartLayout } from "./catalogue/charts.js";
import { startGeneration } from "./catalogue/context.js";
import { fillIsrcs } from "./catalogue/isrcs.js";
import { addLookalikes } from "./catalogue/lookalikes.js";
import { addMoods } from "./catalogue/moods.js";
import { addArtists, addReleases, addUserVideos } from "./catalogue/music.js";
import { addCommunityPlaylists, addEditorialPlaylists } from "./catalogue/playlists.js";
import { addPodcasts } from "./catalogue/podcasts.js";
import { addPremiumCharts, seedPremiumLogin } from "./catalogue/premium.js";
import type { CatalogueSummary } from "./catalogue/summary.js";
import { hash32, Rng } from "./random.js";
import type { Db } from "./store/db.js";
import { CatalogueWriter, storedCatalogueKey } from "./store/seed.js";

export { SEEDED_ACCOUNTS } from "./catalogue/accounts.js";
export { CATALOGUE_EPOCH_MS, CHART_COUNTRIES } from "./catalogue/constants.js";
export type { CatalogueSummary } from "./catalogue/summary.js";

export interface CatalogueOptions {
  seed: number;
  /** Number of songs (audio tracks); videos, albums, artists and playlists scale with it. */
  size: number;
}

/** Whether the database already holds a catalogue for these options (another one is an error). */
export function hasCatalogue(db: Db, options: CatalogueOptions): boolean {
  const stored = storedCatalogueKey(db);
  if (!stored) return false;
  if (stored.seed !== options.seed || stored.size !== options.size) {
    throw new Error(
      `emulator: the database holds a catalogue for seed ${stored.seed} size ${stored.size}, not seed ${options.seed} size ${options.size}`,
    );
  }
  return true;
}

/**
 * Gives a catalogue made before songs had ISRCs its ISRCs (the ones a new catalogue of the same
 * seed has), once; nothing else in it changes.
 */
export function ensureIsrcs(db: Db, options: CatalogueOptions): void {
  const write = new CatalogueWriter(db);
  if (!write.hasIsrcs()) write.transaction(() => fillIsrcs(write, options.seed));
}

export function generateCatalogue(db: Db, options: CatalogueOptions): CatalogueSummary {
  const write = new CatalogueWriter(db);
  return write.transaction(() => {
    // The parts share the seed's generator in this order (see `Generation.r`).
    const g = startGeneration(write, options.seed, options.size);
    const artists = addArtists(g);
    const pools = addReleases(g, artists);
    addUserVideos(g, artists, pools.videoIds);
    const curatedIds = addEditorialPlaylists(g, pools);
    addCommunityPlaylists(g, pools);
    addCharts(g, artists, pools);
    addMoods(g, pools);
    addPodcasts(g, artists.length);
    // What follows was added after catalogues were in use: each part draws from a generator of
    // its own, so that everything above stays what the seed made before.
    addCurrentChartLayout(write, new Rng(hash32(`charts-2026:${options.seed}`)), pools);
    const accounts = new Rng(hash32(`accounts:${options.seed}`));
    const artistChannels = artists.map((a) => a.channelId);
    g.summary.accounts = seedAccounts(write, accounts, {
      songIds: pools.songIds,
      curatedIds,
      artistChannels,
    });
    // Premium: a login and the song charts only it sees (docs/PROTOCOL.md#explore), drawn last.
    seedPremiumLogin(write, options.seed);
    g.summary.accounts += 1;
    addPremiumCharts(write, options.seed, pools.songIds);
    // Look-alike songs (docs/ENGINE.md#sources): made after everything else, with ids above everything else's.
    addLookalikes(g, new Rng(hash32(`lookalikes:${options.seed}`)), artists);
    // Each song's ISRC from a generator of its own (catalogue/isrcs.ts), once every song is written.
    fillIsrcs(write, options.seed);
    // Drawn from nothing: it can index every song, the look-alikes too, once they are all written.
    write.fillSearchIndex();
    write.fillPlaylistArtists();
    write.recordCatalogueKey(options);
    return g.summary;
  });
}
