/**
 * A file entry's match as the match cache keeps it: the chosen video, or none after a search that
 * found nothing good. The matcher defines it; the state stores it.
 */
export interface CachedMatch {
  key: string;
  videoId: string | null;
  score: number | null;
  reasons: readonly string[];
  matchedAt: number;
}
