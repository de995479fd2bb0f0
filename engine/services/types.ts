/**
 * What the engine reads from other music services (Spotify, ListenBrainz, Last.fm): songs as the
 * service describes them, to be matched to the service's videos like a file's entries
 * (engine/match/), and the albums and artists some of them list. Each service's reader
 * (engine/services/<service>/) returns these; the sources (engine/sources/) turn them into items.
 */
import type { AlbumEntry } from "../match/album.js";
import type { ArtistEntry } from "../match/artist.js";
import type { SongEntry } from "../match/entry.js";

/** One song of another service's list, with the ids that service gives. */
export interface ServiceTrack extends Omit<SongEntry, "videoId"> {
  /** The MusicBrainz recording id, when the service gives one (ListenBrainz, sometimes Last.fm). */
  mbid: string | null;
  /**
   * The service's own, stable id of the song: `spotify:track:<id>`, `musicbrainz:recording:<mbid>`,
   * `lastfm:track:<artist>/<title>` (Last.fm has no track id; its URL path is the nearest thing).
   * Keys the match cache and matches.yaml, so a song matched once is not searched again.
   */
  serviceId: string;
}

/** An album a person saved (Spotify's saved albums), as the matcher takes it (engine/match/album.ts). */
export interface ServiceAlbum extends AlbumEntry {
  artists: string[];
}

/** An artist a person follows, as the matcher takes it (engine/match/artist.ts). */
export type ServiceArtist = ArtistEntry;

/** Rows a service listed that cannot stand for a song (a local file, a removed track), counted. */
export interface ServiceSkip {
  reason: string;
  count: number;
}

/** A whole list as read: every page, or an error. A read cut short throws; it never returns fewer. */
export interface ServiceList<T = ServiceTrack> {
  entries: T[];
  /** What the service said the list holds, when it says. */
  expected: number | null;
  skipped?: readonly ServiceSkip[];
}
