/**
 * Results of the song operations: `get_song` (the player response, docs/PROTOCOL.md#player), `get_lyrics`
 * (docs/PROTOCOL.md#browsing) and the taste profile.
 */

import type { Thumbnail } from "./common.js";

/** A JSON object the service sends whose keys are not all pinned down; known ones are typed. */
type Open = { [key: string]: unknown };

/** `videoDetails` of the player response. Large numbers come as strings, as the service sends them. */
export interface VideoDetails extends Open {
  videoId: string;
  title: string;
  /** Whole seconds, as a string. */
  lengthSeconds: string;
  channelId: string;
  author: string;
  viewCount?: string;
  thumbnail?: { thumbnails: Thumbnail[] };
  musicVideoType?: string;
  isPrivate?: boolean;
  isLiveContent?: boolean;
}

/** `playabilityStatus`: `status` is `OK` when streams can be played (else e.g. `LOGIN_REQUIRED`, `UNPLAYABLE`). */
export interface PlayabilityStatus extends Open {
  status: string;
  reason?: string;
  playableInEmbed?: boolean;
}

/** One stream. Either `url` or `signatureCipher` is present. */
export interface StreamFormat extends Open {
  itag: number;
  url?: string;
  signatureCipher?: string;
  mimeType: string;
  bitrate: number;
  contentLength?: string;
  approxDurationMs?: string;
  audioQuality?: string;
  audioSampleRate?: string;
  audioChannels?: number;
}

/** `streamingData`: stream URLs valid only for the player version the signature timestamp named. */
export interface StreamingData extends Open {
  /** Seconds, as a string. */
  expiresInSeconds: string;
  formats?: StreamFormat[];
  adaptiveFormats?: StreamFormat[];
}

/** A tracking URL of `playbackTracking`, with the header kinds the service expects on it. */
export interface TrackingUrl extends Open {
  baseUrl: string;
  headers?: Array<{ headerType: string }>;
}

/** `playbackTracking`: `videostatsPlaybackUrl.baseUrl` is what `add_history_item` requests. */
export interface PlaybackTracking extends Open {
  videostatsPlaybackUrl: TrackingUrl;
  videostatsDelayplayUrl?: TrackingUrl;
  videostatsWatchtimeUrl?: TrackingUrl;
  ptrackingUrl?: TrackingUrl;
  qoeUrl?: TrackingUrl;
  atrUrl?: TrackingUrl;
}

/** `microformat.microformatDataRenderer`: page metadata (canonical URL, description, tags…). */
export interface Microformat extends Open {
  microformatDataRenderer?: Open;
}

/**
 * `get_song`: the five top-level keys of the player response the interface keeps (docs/PROTOCOL.md#player),
 * each as the service sent it, or `null` when the response lacked it (an unplayable video has no
 * `streamingData`).
 */
export interface Song {
  videoDetails: VideoDetails | null;
  playabilityStatus: PlayabilityStatus | null;
  streamingData: StreamingData | null;
  microformat: Microformat | null;
  playbackTracking: PlaybackTracking | null;
}

/** One line of timed lyrics; times in milliseconds from the start of the track. */
export interface LyricLine {
  text: string;
  start_time: number;
  end_time: number;
  /** The line's number as the service numbers it. */
  id: number;
}

/** Lyrics as one text (lines separated by `\r\n` as the service sends them). */
export interface PlainLyrics {
  lyrics: string;
  /** Where the lyrics come from, e.g. `Source: LyricFind`; null when the page does not say. */
  source: string | null;
  hasTimestamps: false;
}

/** Lyrics line by line with their times (only the mobile client gets these). */
export interface TimedLyrics {
  lyrics: LyricLine[];
  source: string | null;
  hasTimestamps: true;
}

export type Lyrics = PlainLyrics | TimedLyrics;

/** One artist of the taste profile: the form values to send to select it. */
export interface TasteProfileArtist {
  selectionValue: string;
  impressionValue: string;
}

/** `get_tasteprofile`: the artists offered, keyed by their displayed name. */
export type TasteProfile = Record<string, TasteProfileArtist>;
