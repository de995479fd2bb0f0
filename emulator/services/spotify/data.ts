/**
 * What the Spotify fake serves, generated from the emulator's seed and its catalogue: public
 * playlists (one of about 500 tracks, with local files and removed tracks among them), the
 * person's liked songs, saved albums and followed artists. Spotify's own editorial and
 * algorithmic playlists are known by their ids only: they answer 404 (routes.ts).
 */

import { ISRC } from "../../catalogue/isrcs.js";
import { artistName, title } from "../../catalogue/names.js";
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
  /** As Spotify names it: an edition's "(Deluxe Edition)", "(2011 Remaster)" and the like added. */
  name: string;
  artists: { id: string; name: string }[];
  /** "1978", "1978-05" or "1978-05-17", as `precision` says. */
  releaseDate: string;
  precision: "year" | "month" | "day";
  /** Spotify calls an EP a single too; its track count tells them apart. */
  albumType: "album" | "single" | "compilation";
  totalTracks: number;
  /** The release's barcode; some albums' `external_ids` hold none. */
  upc: string | null;
  label: string;
  /** Ground truth: the catalogue album it stands for (MPRE…), or null for one the catalogue lacks. */
  browseId: string | null;
}

export interface FakeArtist {
  id: string;
  name: string;
  followers: number;
  /** Ground truth: the catalogue artist's channel (UC…), or null for one the catalogue lacks. */
  channelId: string | null;
}

export interface SpotifyData {
  seed: number;
  playlists: Map<string, FakePlaylist>;
  liked: FakeTrack[];
  /** Newest saved first, as Spotify lists them. */
  albums: FakeSavedAlbum[];
  /** In id order, as Spotify's cursor walks them. */
  artists: FakeArtist[];
  /** The albums a person saves next (a test's `albums/save`), drawn like the saved ones. */
  albumsToSave: FakeSavedAlbum[];
  /** The artists a person follows next (a test's `artists/follow`). */
  artistsToFollow: FakeArtist[];
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
/** Albums and artists kept back for a test (or a benchmark, for a larger sample) to save or follow later. */
const SPARE_ALBUMS = 150;
const SPARE_ARTISTS = 30;

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

interface CatalogueAlbum {
  browseId: string;
  title: string;
  year: number;
  type: string;
  artist: string;
  channelId: string;
  tracks: number;
}

/**
 * Spotify's words for an edition of an album, the catalogue holding the album under its plain
 * title; `later` is how many years after the album an edition comes out (0: drawn), null for one
 * released with it.
 */
const EDITIONS: readonly { note: (year: number) => string; later: number | null }[] = [
  { note: () => " (Deluxe Edition)", later: null },
  { note: () => " (Deluxe)", later: null },
  { note: () => " (Expanded Edition)", later: null },
  { note: () => " (25th Anniversary Edition)", later: 25 },
  { note: (year) => ` (${year} Remaster)`, later: 0 },
  { note: () => " (Remastered)", later: 0 },
];

function releaseDate(r: Rng, year: number): Pick<FakeSavedAlbum, "releaseDate" | "precision"> {
  const month = String(r.int(1, 12)).padStart(2, "0");
  const k = r.next();
  if (k < 0.1) return { releaseDate: String(year), precision: "year" };
  if (k < 0.2) return { releaseDate: `${year}-${month}`, precision: "month" };
  return { releaseDate: `${year}-${month}-${String(r.int(1, 28)).padStart(2, "0")}`, precision: "day" };
}

/** Shares of saved albums: editions of a catalogue album, and albums the catalogue lacks. */
const EDITION_SHARE = 0.25;
const ABSENT_ALBUM_SHARE = 0.12;

/**
 * Saved albums: the catalogue's albums (some as an edition: a deluxe or anniversary edition, a
 * remaster with its own year), its EPs now and then, and albums it lacks (invented titles, by its
 * artists or others), in a drawn order; `count` saved and `spare` more to save later.
 */
function libraryAlbums(store: Store, r: Rng, book: IdBook, count: number, spare: number) {
  const rows = store.db.$client
    .prepare(
      `SELECT al.browse_id AS browseId, al.title, al.year, al.type, ar.name AS artist, ar.channel_id AS channelId,
        (SELECT count(*) FROM songs s WHERE s.album_id = al.id) AS tracks
       FROM albums al JOIN artists ar ON ar.id = al.artist_id WHERE al.type IN ('Album', 'EP') ORDER BY al.id`,
    )
    .all() as CatalogueAlbum[];
  const taken = new Set(rows.map((a) => `${a.artist}\n${a.title}`.toLowerCase()));
  const artists = [...new Set(rows.map((a) => a.artist))];
  const order = shuffled(r, rows.length).filter((i) => rows[i]!.type === "Album" || r.chance(0.3));
  const out: FakeSavedAlbum[] = [];
  for (let i = 0, guard = 0; out.length < count + spare && guard < 10_000; guard++) {
    if (r.chance(ABSENT_ALBUM_SHARE) || i >= order.length) {
      const artist = r.chance(0.5) && artists.length > 0 ? r.pick(artists) : artistName(r);
      const name = title(r, r.int(1, 3));
      if (taken.has(`${artist}\n${name}`.toLowerCase())) continue;
      taken.add(`${artist}\n${name}`.toLowerCase());
      out.push(
        savedAlbum(r, book, { title: name, artist, year: r.int(1965, 2025), tracks: r.int(7, 16) }, null),
      );
      continue;
    }
    const a = rows[order[i++]!]!;
    out.push(savedAlbum(r, book, a, a.browseId));
  }
  return { saved: out.slice(0, count), spare: out.slice(count) };
}

function savedAlbum(
  r: Rng,
  book: IdBook,
  a: Pick<CatalogueAlbum, "title" | "artist" | "year" | "tracks"> & { type?: string },
  browseId: string | null,
): FakeSavedAlbum {
  const ep = a.type === "EP";
  const edition = !ep && r.chance(EDITION_SHARE) ? r.pick(EDITIONS) : null;
  // A remaster or an anniversary edition comes out in its own year, which Spotify gives.
  const year =
    edition === null || edition.later === null
      ? a.year
      : Math.min(a.year + (edition.later || r.int(10, 30)), 2025);
  const note = edition?.note(year) ?? "";
  // A deluxe edition holds more tracks than the album; a remaster the same.
  const extra = edition !== null && edition.later !== 0 ? r.int(2, 8) : 0;
  const tracks = Math.max(a.tracks, ep ? 4 : 7) + extra;
  return {
    id: book.of(`album:${a.title}${note}:${a.artist}`),
    name: `${a.title}${note}`,
    artists: [{ id: book.of(`artist:${a.artist}`), name: a.artist }],
    ...releaseDate(r, year),
    albumType: ep ? "single" : r.chance(0.05) ? "compilation" : "album",
    totalTracks: ep ? Math.min(tracks, 6) : tracks,
    upc: r.chance(0.85) ? String(r.int(100_000, 999_999)) + String(r.int(100_000, 999_999)) : null,
    label: `${a.artist} Records`,
    browseId,
  };
}

/**
 * Followed artists: catalogue artists, and (a small catalogue has few) artists it lacks, as
 * people follow some the other service does not have; `count` followed, `spare` more to follow.
 */
function libraryArtists(store: Store, r: Rng, book: IdBook, count: number, spare: number) {
  const rows = store.db.$client
    .prepare("SELECT name, channel_id AS channelId FROM artists WHERE kind = 'artist' ORDER BY id")
    .all() as { name: string; channelId: string }[];
  const known = new Set(rows.map((a) => a.name));
  const picked = new Map<string, string | null>();
  const fromCatalogue = Math.min(Math.round((count + spare) * 0.85), rows.length);
  for (let guard = 0; picked.size < fromCatalogue && guard < 10_000; guard++) {
    const a = r.pick(rows);
    // Two catalogue artists of one name would be one Spotify artist here: the first stands for it.
    if (!picked.has(a.name)) picked.set(a.name, a.channelId);
  }
  for (let guard = 0; picked.size < count + spare && guard < 10_000; guard++) {
    const name = artistName(r);
    if (!known.has(name) && !picked.has(name)) picked.set(name, null);
  }
  const all = [...picked].map(([name, channelId]) => ({
    id: book.of(`artist:${name}`),
    name,
    followers: r.int(100, 5_000_000),
    channelId,
  }));
  // The spare ones drawn among both kinds, so that a test following one may meet either.
  const order = shuffled(r, all.length).map((i) => all[i]!);
  return { followed: byId(order.slice(0, count)), spare: order.slice(count) };
}

/** Spotify lists followed artists by id, which is what its `after` cursor walks. */
export function byId(artists: FakeArtist[]): FakeArtist[] {
  return artists.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function library(store: Store, r: Rng, book: IdBook) {
  const albums = libraryAlbums(store, r, book, SAVED_ALBUMS, SPARE_ALBUMS);
  const artists = libraryArtists(store, r, book, FOLLOWED, SPARE_ARTISTS);
  return {
    albums: albums.saved,
    albumsToSave: albums.spare,
    artists: artists.followed,
    artistsToFollow: artists.spare,
  };
}

/** Generates everything the fake serves for this emulator's catalogue. */
export function generateSpotifyData(store: Store): SpotifyData {
  const seed = storedCatalogueKey(store.db)?.seed ?? 1;
  const make = trackMaker(store, seed);
  const { r, book } = make;
  // The library's albums and artists draw from their own stream: the tracks stay as they were.
  const lr = new Rng(hash32(`spotify-library:${seed}`));
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
    ...library(store, lr, book),
    user: {
      id: `listener${r.int(1000, 9999)}`,
      displayName: "Fake Listener",
      country: "SE",
      product: "premium",
    },
    more: (count) => make.list(count),
  };
}
