/**
 * A song as Last.fm describes it: the main artist alone (a featured one stays in the title, as
 * scrobblers send it), a version's kind after a dash ("Title - Live at …"), MusicBrainz ids given
 * for some songs and "" for the others, the track's page on last.fm as its only stable name.
 */
import { hash32, Rng } from "../../random.js";
import type { Drawn } from "../draw.js";
import { musicbrainzId } from "../ids.js";

export interface LfmTrack {
  name: string;
  artist: string;
  /** "" where Last.fm knows none, as it writes it. */
  artistMbid: string;
  mbid: string;
  album: string;
  albumMbid: string;
  /** Seconds; 0 where Last.fm does not know (it writes "0"). */
  durationSeconds: number;
  url: string;
  /** Ground truth: the catalogue video this track stands for; null for one the catalogue lacks. */
  videoId: string | null;
}

/** A name as Last.fm's URLs write it: percent-encoded, spaces as "+". */
export function lastfmPathPart(name: string): string {
  return encodeURIComponent(name).replace(/%20/g, "+");
}

export function lastfmUrl(artist: string, title: string): string {
  return `https://www.last.fm/music/${lastfmPathPart(artist)}/_/${lastfmPathPart(title)}`;
}

/** "Title (Live at X)" → "Title - Live at X": how versions come to Last.fm from most players. */
function dashedVersion(title: string): string {
  const m = /^(.*\S)\s+\(([^()]+)\)$/.exec(title);
  return m ? `${m[1]} - ${m[2]}` : title;
}

export function describeForLastfm(drawn: Drawn, seed: number): LfmTrack {
  const r = new Rng(hash32(`lastfm:${seed}:${drawn.key}`));
  if (drawn.kind === "invented") {
    const s = drawn.song;
    return {
      name: s.title,
      artist: s.artist,
      artistMbid: "",
      mbid: "",
      album: s.album,
      albumMbid: "",
      durationSeconds: s.durationSeconds,
      url: lastfmUrl(s.artist, s.title),
      videoId: null,
    };
  }
  const s = drawn.song;
  const name = s.lookalike === "version" ? dashedVersion(s.title) : s.title;
  return {
    name,
    artist: s.artist,
    artistMbid: r.chance(0.6) ? musicbrainzId(seed, "artist", s.artistId) : "",
    mbid: r.chance(0.4) ? musicbrainzId(seed, "recording", s.id) : "",
    album: s.album ?? "",
    albumMbid: s.albumId !== null && r.chance(0.5) ? musicbrainzId(seed, "release", s.albumId) : "",
    durationSeconds: r.chance(0.08) ? 0 : Math.max(1, s.durationSeconds + r.int(-1, 1)),
    url: lastfmUrl(s.artist, name),
    videoId: s.videoId,
  };
}
