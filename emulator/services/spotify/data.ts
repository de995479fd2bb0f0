/**
 * What the Spotify fake serves, generated from the emulator's seed and its catalogue: public
 * playlists (one of about 500 tracks, with local files and removed tracks among them), the
 * person's liked songs, saved albums and followed artists. Spotify's own editorial and
 * algorithmic playlists are known by their ids only: they answer 404 (routes.ts).
 */

import { ISRC } from "../../catalogue/isrcs.js";
import { artistName } from "../../catalogue/names.js";
import { hash32, Rng } from "../../random.js";
import { storedCatalogueKey } from "../../store/seed.js";
import type { Store } from "../../store/store.js";
import { catalogueTrack, type FakeTrack, IdBook, inventedTrack, localTrack, spotifyId } from "./tracks.js";

export interface FakePlaylist {
  id: string;
  name: string;
  description: string;
  /** Null items stand for tracks since removed from Spotify, as playlists can hold. */
  items: (FakeTrack | null)[];
  /** Changed by every edit, as Spotify's `snapshot_id` is. */
  snapshot: number;
  followers: number;
}

export interface FakeSavedAlbum {
  id: string;
  name: string;
  artists: { id: string; name: string }[];
  releaseDate: string;
  totalTracks: number;
  /** The release's barcode; some albums' `external_ids` hold none. */
  upc: string | null;
  label: string;
}

export interface FakeArtist {
  id: string;
  name: string;
  followers: number;
}

export interface SpotifyData {
  seed: number;
  playlists: Map<string, FakePlaylist>;
  liked: FakeTrack[];
  albums: FakeSavedAlbum[];
  artists: FakeArtist[];
  user: { id: string; displayName: string; country: string; product: "premium" | "free" };
  /** Makes more tracks (for a playlist that grows): drawn from the same catalogue and mix. */
  more(count: number): FakeTrack[];
}

/** Spotify's own playlists start with this (Today's Top Hits, Discover Weekly, Daily Mixes…). */
export const SPOTIFY_OWNED_PREFIX = "37i9dQZ";

/** Examples of Spotify-owned playlist ids (an editorial one and an algorithmic one's shape). */
export const EDITORIAL_PLAYLIST_IDS = ["37i9dQZF1DXcBWIGoYBM5M", "37i9dQZEVXcQ9COmYvdajy"] as const;

/** Shares of a generated list: tracks the catalogue does not have, and lookalikes' versions. */
const INVENTED_SHARE = 0.07;

/** The public playlists: names and lengths; the first is the long one a weekly mirror reads. */
const PLAYLISTS: readonly { name: string; length: number; locals: number; removed: number }[] = [
  { name: "Everything I Play", length: 500, locals: 3, removed: 2 },
  { name: "Road Trip", length: 140, locals: 0, removed: 1 },
  { name: "Quiet Mornings", length: 61, locals: 1, removed: 0 },
  { name: "Gym", length: 23, locals: 0, removed: 0 },
  { name: "Not Yet", length: 0, locals: 0, removed: 0 },
];

const LIKED = 230;
const SAVED_ALBUMS = 30;
const FOLLOWED = 70;

/** Draws tracks: mostly catalogue songs (originals and lookalikes alike), some invented. */
function trackMaker(store: Store, seed: number) {
  const r = new Rng(hash32(`spotify:${seed}`));
  const book = new IdBook(new Rng(hash32(`spotify-ids:${seed}`)));
  const songs = store.catalogue.matchAnswers();
  if (songs.length === 0) throw new Error("emulator: the Spotify fake needs a catalogue");
  const known = new Set(songs.map((s) => s.isrc).filter((x): x is string => x !== null));
  const artistNames = new Set(songs.flatMap((s) => s.artists));
  const invented = (): FakeTrack => {
    for (;;) {
      const isrc = r.chance(0.5)
        ? `QZ${r.chars(3, "ABCDEFGHJKLMNPRSTUVWXYZ")}${r.int(1_000_000, 9_999_999)}`
        : null;
      const t = inventedTrack(r, book, isrc && ISRC.test(isrc) && !known.has(isrc) ? isrc : null);
      if (!t.artists.some((a) => artistNames.has(a.name))) return t;
    }
  };
  return {
    r,
    book,
    /**
     * `count` tracks, 7 % of them invented, the rest different catalogue songs in a drawn order
     * (a playlist rarely holds a song twice; one longer than the catalogue repeats some).
     */
    list(count: number): FakeTrack[] {
      const invent = Math.round(count * INVENTED_SHARE);
      const order = shuffled(r, songs.length);
      const out: FakeTrack[] = [];
      for (let i = 0; i < count - invent; i++)
        out.push(catalogueTrack(r, book, songs[order[i % order.length]!]!));
      scatter(r, out, invented, invent);
      return out;
    },
  };
}

/** 0…n−1 in an order drawn from `r` (Fisher–Yates). */
function shuffled(r: Rng, n: number): number[] {
  const a = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = r.int(0, i);
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/** Puts `count` of `extra` at places drawn from `r` in `items`. */
function scatter<T>(r: Rng, items: T[], extra: () => T, count: number): void {
  for (let i = 0; i < count; i++) items.splice(r.int(0, items.length), 0, extra());
}

function savedAlbums(store: Store, r: Rng, book: IdBook): FakeSavedAlbum[] {
  const rows = store.db.$client
    .prepare(
      `SELECT al.title, al.year, ar.name AS artist, (SELECT count(*) FROM songs s WHERE s.album_id = al.id) AS tracks
       FROM albums al JOIN artists ar ON ar.id = al.artist_id WHERE al.type = 'Album' ORDER BY al.id`,
    )
    .all() as { title: string; year: number; artist: string; tracks: number }[];
  const out: FakeSavedAlbum[] = [];
  const used = new Set<number>();
  for (let guard = 0; out.length < Math.min(SAVED_ALBUMS, rows.length) && guard < 10_000; guard++) {
    const i = r.int(0, rows.length - 1);
    if (used.has(i)) continue;
    used.add(i);
    const a = rows[i]!;
    out.push({
      id: book.of(`album:${a.title}:${a.artist}`),
      name: a.title,
      artists: [{ id: book.of(`artist:${a.artist}`), name: a.artist }],
      releaseDate: `${a.year}-${String(r.int(1, 12)).padStart(2, "0")}-${String(r.int(1, 28)).padStart(2, "0")}`,
      totalTracks: a.tracks,
      upc: r.chance(0.85) ? String(r.int(100_000, 999_999)) + String(r.int(100_000, 999_999)) : null,
      label: `${a.artist} Records`,
    });
  }
  return out;
}

/**
 * Followed artists: catalogue artists, and (a small catalogue has few) artists it lacks, as
 * people follow some the other service does not have.
 */
function followedArtists(store: Store, r: Rng, book: IdBook): FakeArtist[] {
  const names = store.db.$client
    .prepare("SELECT name FROM artists WHERE kind = 'artist' ORDER BY id")
    .pluck()
    .all() as string[];
  const known = new Set(names);
  const picked = new Set<string>();
  const fromCatalogue = Math.min(Math.round(FOLLOWED * 0.85), names.length);
  for (let guard = 0; picked.size < fromCatalogue && guard < 10_000; guard++) picked.add(r.pick(names));
  for (let guard = 0; picked.size < FOLLOWED && guard < 10_000; guard++) {
    const name = artistName(r);
    if (!known.has(name)) picked.add(name);
  }
  // Spotify lists followed artists by id, which is what its `after` cursor walks.
  return [...picked]
    .map((name) => ({ id: book.of(`artist:${name}`), name, followers: r.int(100, 5_000_000) }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Generates everything the fake serves for this emulator's catalogue. */
export function generateSpotifyData(store: Store): SpotifyData {
  const seed = storedCatalogueKey(store.db)?.seed ?? 1;
  const make = trackMaker(store, seed);
  const { r, book } = make;
  const playlists = new Map<string, FakePlaylist>();
  for (const p of PLAYLISTS) {
    const items: (FakeTrack | null)[] = make.list(p.length - p.locals - p.removed);
    scatter(r, items, () => localTrack(r), p.locals);
    scatter(r, items, () => null, p.removed);
    const id = spotifyId(r);
    playlists.set(id, {
      id,
      name: p.name,
      description: `${p.name}, as a person keeps it.`,
      items,
      snapshot: 1,
      followers: r.int(0, 5000),
    });
  }
  return {
    seed,
    playlists,
    liked: make.list(LIKED),
    albums: savedAlbums(store, r, book),
    artists: followedArtists(store, r, book),
    user: {
      id: `listener${r.int(1000, 9999)}`,
      displayName: "Fake Listener",
      country: "SE",
      product: "premium",
    },
    more: (count) => make.list(count),
  };
}
