/**
 * A song as ListenBrainz describes it, from MusicBrainz data: the artist credit as one string with
 * its join phrases ("A feat. B") and each artist's MBID, the featured artist in the credit rather
 * than the title, typographic apostrophes as MusicBrainz's style guide writes them, the release's
 * name, a duration in milliseconds that is the recording's (a second or two off the video's).
 */
import { hash32, Rng } from "../../random.js";
import type { Drawn } from "../draw.js";
import { musicbrainzId, uuidOf } from "../ids.js";

export interface LbArtist {
  name: string;
  mbid: string;
  joinPhrase: string;
}

export interface LbTrack {
  mbid: string;
  title: string;
  /** The artist credit as one string. */
  creator: string;
  artists: LbArtist[];
  album: string | null;
  releaseMbid: string | null;
  durationMs: number | null;
  /** Cover Art Archive image id of the release, when it has one. */
  caaId: number | null;
  /** Ground truth: the catalogue video this track stands for; null for one the catalogue lacks. */
  videoId: string | null;
}

const FEAT_IN_TITLE = /\s*\((?:feat\.|ft\.|featuring)\s+[^)]*\)/i;

export function describeForListenBrainz(drawn: Drawn, seed: number): LbTrack {
  const r = new Rng(hash32(`lb:${seed}:${drawn.key}`));
  if (drawn.kind === "invented") {
    const s = drawn.song;
    return {
      mbid: uuidOf(`lb-invented:${seed}:${drawn.key}`),
      title: s.title,
      creator: s.artist,
      artists: [{ name: s.artist, mbid: uuidOf(`lb-invented-artist:${s.artist}`), joinPhrase: "" }],
      album: s.album,
      releaseMbid: uuidOf(`lb-invented-release:${s.album}`),
      durationMs: s.durationSeconds * 1000 + r.int(0, 999),
      caaId: null,
      videoId: null,
    };
  }
  const s = drawn.song;
  const artists: LbArtist[] = [
    { name: s.artist, mbid: musicbrainzId(seed, "artist", s.artistId), joinPhrase: "" },
  ];
  if (s.featured !== null && s.featuredId !== null) {
    artists[0]!.joinPhrase = " feat. ";
    artists.push({ name: s.featured, mbid: musicbrainzId(seed, "artist", s.featuredId), joinPhrase: "" });
  }
  const withAlbum = s.album !== null && !r.chance(0.05);
  return {
    mbid: musicbrainzId(seed, "recording", s.id),
    title: s.title.replace(FEAT_IN_TITLE, "").replace(/'/g, "\u2019"),
    creator: artists.map((a) => a.name + a.joinPhrase).join(""),
    artists,
    album: withAlbum ? s.album : null,
    releaseMbid: withAlbum && s.albumId !== null ? musicbrainzId(seed, "release", s.albumId) : null,
    // A recording's length is measured from its audio, not the upload: a second or two apart.
    durationMs: r.chance(0.04) ? null : Math.max(1, s.durationSeconds + r.int(-2, 2)) * 1000 + r.int(0, 999),
    caaId:
      withAlbum && r.chance(0.8)
        ? 10_000_000_000 + (hash32(`caa:${seed}:${s.albumId}`) % 90_000_000_000)
        : null,
    videoId: s.videoId,
  };
}

/** The artist credit as ListenBrainz writes it in JSPF's and the statistics' `artists`. */
export function creditJson(artists: readonly LbArtist[]) {
  return artists.map((a) => ({ artist_credit_name: a.name, artist_mbid: a.mbid, join_phrase: a.joinPhrase }));
}
