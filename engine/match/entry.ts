/**
 * A song as another service or a local collection describes it: what a file source reads and what
 * the matcher looks for. Only the title is sure to be there; everything else helps when present.
 */
export interface SongEntry {
  title: string;
  /** As written, one name per artist ("A & B" split into two where the file lists them so). */
  artists: readonly string[];
  album: string | null;
  durationSeconds: number | null;
  isrc: string | null;
  /** Only when the file says (an exporter's explicit flag); null when unknown. */
  explicit: boolean | null;
  /** When the file names the service's own id (our own exports do): no search is needed. */
  videoId: string | null;
  /**
   * Another service's own id of the song (`spotify:track:…`, engine/services/types.ts): the key of
   * its cached match and of its line in matches.yaml, so it is searched once whatever its words.
   */
  serviceId?: string | null;
}

/** A search result the matcher weighs: a song (`resultType` "song") or a video. */
export interface MatchCandidate {
  videoId: string;
  title: string;
  artists: readonly string[];
  album: string | null;
  durationSeconds: number | null;
  explicit: boolean | null;
  resultType: "song" | "video";
}

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

/** Whether `text` has the shape of the service's video ids (a file's own id, an override, a result's). */
export function isVideoId(text: string): boolean {
  return VIDEO_ID.test(text);
}
