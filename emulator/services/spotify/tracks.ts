/**
 * Catalogue songs as Spotify describes them (test/fixtures/services/spotify/README.md): its title
 * conventions ("Title - Live", "Title - Remastered 2011", "Title (feat. B)"), artists as a list,
 * durations in milliseconds a second or two off, release dates, ISRCs on most tracks but not all;
 * and tracks the catalogue does not have. Pure: a generator and catalogue rows in, tracks out.
 */
import { artistName, title } from "../../catalogue/names.js";
import type { Rng } from "../../random.js";
import type { MatchAnswer } from "../../store/catalogue.js";

/** One track as the fake keeps it; `videoId` is the catalogue song it stands for (ground truth). */
export interface FakeTrack {
  /** Null for a local file (Spotify gives those no id). */
  id: string | null;
  name: string;
  artists: { id: string | null; name: string }[];
  album: FakeAlbumRef;
  durationMs: number;
  explicit: boolean;
  /** undefined: `external_ids` is empty; null: the field is there and null. */
  isrc: string | null | undefined;
  local: boolean;
  videoId: string | null;
  /** What the track is, for the benchmark's counts by kind. */
  kind: "song" | "variant" | "invented" | "local";
}

export interface FakeAlbumRef {
  id: string | null;
  name: string;
  releaseDate: string | null;
  precision: "year" | "day" | null;
  type: "album" | "single" | "compilation";
}

export const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const spotifyId = (r: Rng) => r.chars(22, BASE62);

/** Share of tracks with an ISRC among those whose song has one: about 70 % of all tracks. */
const ISRC_GIVEN = 0.76;

/** What Spotify calls a version the catalogue writes in parentheses: "Title (Live)" → "Title - Live". */
export function spotifyTitle(title: string): string {
  const remaster = /^(.*) \((\d{4}) Remaster\)$/.exec(title);
  if (remaster) return `${remaster[1]} - Remastered ${remaster[2]}`;
  const version = /^(.*) \(((?:Live|Acoustic|Demo|Radio Edit|Instrumental|Mono|Stereo)[^)]*)\)$/.exec(title);
  return version ? `${version[1]} - ${version[2]}` : title;
}

function releaseDate(r: Rng, year: number | null): Pick<FakeAlbumRef, "releaseDate" | "precision"> {
  if (year === null) return { releaseDate: null, precision: null };
  if (r.chance(0.15)) return { releaseDate: String(year), precision: "year" };
  const month = String(r.int(1, 12)).padStart(2, "0");
  const day = String(r.int(1, 28)).padStart(2, "0");
  return { releaseDate: `${year}-${month}-${day}`, precision: "day" };
}

/** Ids Spotify would give each artist and album: one per name, the same wherever it appears. */
export class IdBook {
  private readonly ids = new Map<string, string>();
  constructor(private readonly r: Rng) {}
  of(key: string): string {
    let id = this.ids.get(key);
    if (!id) {
      id = spotifyId(this.r);
      this.ids.set(key, id);
    }
    return id;
  }
}

/** A catalogue song as a Spotify track. */
export function catalogueTrack(r: Rng, book: IdBook, song: MatchAnswer): FakeTrack {
  let name = spotifyTitle(song.title);
  const [main, featured] = song.artists;
  // Spotify names a second artist in the title about as often as not, and always in the list.
  if (featured && !/\bfeat\./i.test(name) && r.chance(0.5)) name = `${name} (feat. ${featured})`;
  // A reissue's title says so where the catalogue's song does not (same recording, same video).
  if (song.original && song.lookalike === null && r.chance(0.04) && song.year !== null) {
    name = `${name} - Remastered ${Math.min(2025, song.year + r.int(5, 30))}`;
  }
  const albumName = song.albumTitle ?? song.title;
  return {
    id: book.of(`track:${song.videoId}`),
    name,
    artists: song.artists.map((a) => ({ id: book.of(`artist:${a}`), name: a })),
    album: {
      id: book.of(`album:${albumName}:${main}`),
      name: albumName,
      ...releaseDate(r, song.year),
      type: song.albumTitle === song.title ? "single" : "album",
    },
    durationMs: Math.max(1000, song.durationSeconds * 1000 + r.int(-2000, 2000)),
    explicit: song.explicit,
    isrc: song.isrc !== null && r.chance(ISRC_GIVEN) ? song.isrc : r.chance(0.5) ? null : undefined,
    local: false,
    videoId: song.videoId,
    kind:
      song.lookalike === "version" || song.lookalike === "cover" || song.lookalike === "karaoke"
        ? "variant"
        : "song",
  };
}

/**
 * A track the catalogue does not have: an invented artist and title (checked against the
 * catalogue's pairs by the caller), an ISRC no song has on some.
 */
export function inventedTrack(r: Rng, book: IdBook, isrc: string | null): FakeTrack {
  const artist = artistName(r);
  const name = title(r, r.int(2, 4));
  return {
    id: book.of(`invented:${artist}:${name}:${r.next()}`),
    name,
    artists: [{ id: book.of(`artist:${artist}`), name: artist }],
    album: {
      id: book.of(`album:${name}:${artist}`),
      name,
      ...releaseDate(r, r.int(1990, 2025)),
      type: "single",
    },
    durationMs: r.int(120, 300) * 1000 + r.int(0, 999),
    explicit: r.chance(0.1),
    isrc: isrc ?? undefined,
    local: false,
    videoId: null,
    kind: "invented",
  };
}

/** A local file a person added to a playlist: Spotify lists it with no id and `is_local`. */
export function localTrack(r: Rng): FakeTrack {
  const artist = artistName(r);
  const name = title(r, r.int(1, 3));
  return {
    id: null,
    name,
    artists: [{ id: null, name: artist }],
    album: { id: null, name: `${name} (Home Recording)`, releaseDate: null, precision: null, type: "album" },
    durationMs: r.int(90, 400) * 1000,
    explicit: false,
    isrc: undefined,
    local: true,
    videoId: null,
    kind: "local",
  };
}
