/**
 * ISRCs of the catalogue's songs (docs/PROTOCOL.md#search): the code other services give for a
 * recording (Spotify's `external_ids.isrc`), which the service's search answers with that song
 * alone. Each is drawn from a generator of its own per song (the seed and the song's id), never
 * from the catalogue's shared one: catalogues made before ISRCs existed keep every other value,
 * and one made before can be given its ISRCs afterwards, the same ones a new one gets.
 */
import { hash32, Rng } from "../random.js";
import type { CatalogueWriter, IsrcSource } from "../store/seed.js";

/** Country codes that ISRCs often start with; QM and QZ are the ones handed out to self-releases. */
const COUNTRIES = ["US", "GB", "SE", "DE", "FR", "NL", "JP", "CA", "AU", "QM", "QZ"] as const;
const REGISTRANT_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** Share of songs (MUSIC_VIDEO_TYPE_ATV) without an ISRC: the service does not know every one. */
export const SONGS_WITHOUT_ISRC = 0.08;
/** Share of official videos that do not carry their song's ISRC. */
export const VIDEOS_WITHOUT_ISRC = 0.3;

/** An ISRC written without dashes: country, registrant, year of reference, designation. */
export const ISRC = /^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$/;

/** Country and registrant: one per artist, as a label registers all of an artist's recordings. */
function prefix(seed: number, artistId: number, known: Map<number, string>): string {
  let p = known.get(artistId);
  if (p === undefined) {
    const r = new Rng(hash32(`isrc-registrant:${seed}:${artistId}`));
    p = r.pick(COUNTRIES) + r.chars(3, REGISTRANT_ALPHABET);
    known.set(artistId, p);
  }
  return p;
}

/** What the songs drawn so far hold: the codes handed out and the artists' prefixes. */
export interface IsrcsDrawn {
  taken: Set<string>;
  prefixes: Map<number, string>;
}

/**
 * The song's ISRC, or null for a song without one. `drawn.taken` holds the codes handed out so
 * far: a drawn designation already in it is drawn again (from the song's own generator, so the
 * result still depends on nothing but the seed, the song and the songs before it).
 */
export function isrcFor(seed: number, song: IsrcSource, drawn: IsrcsDrawn): string | null {
  const { taken } = drawn;
  const r = new Rng(hash32(`isrc:${seed}:${song.id}`));
  if (r.chance(SONGS_WITHOUT_ISRC)) return null;
  const year = String((song.year ?? 2000 + r.int(0, 25)) % 100).padStart(2, "0");
  const head = prefix(seed, song.artistId, drawn.prefixes) + year;
  for (let i = 0; i < 1000; i++) {
    const code = head + String(r.int(0, 99_999)).padStart(5, "0");
    if (!taken.has(code)) {
      taken.add(code);
      return code;
    }
  }
  throw new Error(`emulator: no free ISRC for song ${song.id}`);
}

/** Whether an official video carries its song's ISRC (most do; some are registered apart). */
export function videoSharesIsrc(seed: number, videoSongId: number): boolean {
  return !new Rng(hash32(`isrc-video:${seed}:${videoSongId}`)).chance(VIDEOS_WITHOUT_ISRC);
}

/**
 * Gives the songs their ISRCs, songs in id order, then the official videos their song's, and
 * records it done: a catalogue made before ISRCs existed gets them on its next start, the same ones.
 */
export function fillIsrcs(write: CatalogueWriter, seed: number): void {
  const codes = new Map<number, string>();
  const drawn: IsrcsDrawn = { taken: new Set(), prefixes: new Map() };
  for (const song of write.isrcSources()) {
    const isrc = isrcFor(seed, song, drawn);
    if (isrc) codes.set(song.id, isrc);
  }
  write.setIsrcs(codes);
  const shared = new Map<number, string>();
  for (const v of write.videosOfIsrcSongs()) if (videoSharesIsrc(seed, v.id)) shared.set(v.id, v.isrc);
  write.setIsrcs(shared);
  write.markIsrcs();
}
