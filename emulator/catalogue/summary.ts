/**
 * What a generated catalogue holds, as `startEmulator` reports it. Apart from the generator's
 * context, whose declarations reach the database types the public ones must not name.
 */
export interface CatalogueSummary {
  artists: number;
  albums: number;
  /** The songs of the catalogue's size (look-alikes are counted apart). */
  songs: number;
  /** Songs added to make matching by search hard (versions, covers, karaoke…, lookalikes.ts). */
  lookalikes: number;
  videos: number;
  playlists: number;
  podcasts: number;
  episodes: number;
  accounts: number;
}
