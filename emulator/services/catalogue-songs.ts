/**
 * The catalogue's songs as the other services' fakes draw from them: every available song (the
 * audio tracks, look-alikes included) with its artists and album, read once per emulator. The
 * fakes describe these songs in their own service's way, and remember which video each stands for.
 */
import type { EmulatorState } from "../context.js";
import { storedCatalogueKey } from "../store/seed.js";

export interface CatalogueSong {
  /** The song's row id: what MusicBrainz-style ids are derived from. */
  id: number;
  videoId: string;
  title: string;
  artistId: number;
  artist: string;
  /** The second artist of an "A & B" run, or null. */
  featuredId: number | null;
  featured: string | null;
  albumId: number | null;
  album: string | null;
  durationSeconds: number;
  explicit: boolean;
  /** `version`, `cover`, `karaoke`, `same-title`, `featured`, `script`, or null for an original. */
  lookalike: string | null;
}

interface Pool {
  seed: number;
  songs: readonly CatalogueSong[];
}

const pools = new WeakMap<EmulatorState, Pool>();

const QUERY = `
  SELECT s.id, s.video_id AS videoId, s.title, s.artist_id AS artistId, a.name AS artist,
         s.featured_artist_id AS featuredId, f.name AS featured, s.album_id AS albumId,
         al.title AS album, s.duration_seconds AS durationSeconds, s.explicit, s.lookalike
  FROM songs s
  JOIN artists a ON a.id = s.artist_id
  LEFT JOIN artists f ON f.id = s.featured_artist_id
  LEFT JOIN albums al ON al.id = s.album_id
  WHERE s.video_type = 'MUSIC_VIDEO_TYPE_ATV' AND s.available = 1
  ORDER BY s.id`;

/** The songs and the seed of this emulator's catalogue (the catalogue never changes once made). */
export function catalogueSongs(state: EmulatorState): Pool {
  const known = pools.get(state);
  if (known) return known;
  const rows = state.store.sqlite.prepare(QUERY).all() as (Omit<CatalogueSong, "explicit"> & {
    explicit: number;
  })[];
  const pool: Pool = {
    seed: storedCatalogueKey(state.store.db)?.seed ?? 1,
    songs: Object.freeze(rows.map((r) => Object.freeze({ ...r, explicit: r.explicit === 1 }))),
  };
  pools.set(state, pool);
  return pool;
}
