/**
 * Playlists in JSPF as ListenBrainz writes them: the playlist's MusicBrainz extension (creator,
 * created_for, public, the recommender's `algorithm_metadata.source_patch`), and per track the
 * recording's URI as identifier, the artist credit as `creator`, the release as `album`, the
 * duration in milliseconds, and the track extension with artist and release URIs and the
 * additional metadata (artists with their MBIDs, the Cover Art Archive id).
 */

import type { LbPlaylist } from "./data.js";
import { creditJson, type LbTrack } from "./describe.js";

export const PLAYLIST_URI = "https://listenbrainz.org/playlist/";
export const RECORDING_URI = "https://musicbrainz.org/recording/";
const ARTIST_URI = "https://musicbrainz.org/artist/";
const RELEASE_URI = "https://musicbrainz.org/release/";
export const PLAYLIST_EXTENSION = "https://musicbrainz.org/doc/jspf#playlist";
export const TRACK_EXTENSION = "https://musicbrainz.org/doc/jspf#track";

function trackJspf(p: LbPlaylist, t: LbTrack): Record<string, unknown> {
  const identifier = `${RECORDING_URI}${t.mbid}`;
  const out: Record<string, unknown> = {
    identifier: p.identifierAsString ? identifier : [identifier],
    title: t.title,
    creator: t.creator,
  };
  // Fields MusicBrainz has no value for are left out, not written as null.
  if (t.album !== null) out.album = t.album;
  if (t.durationMs !== null) out.duration = t.durationMs;
  const extension: Record<string, unknown> = {
    added_by: p.creator,
    added_at: p.date,
    artist_identifiers: t.artists.map((a) => `${ARTIST_URI}${a.mbid}`),
    additional_metadata: {
      artists: creditJson(t.artists),
      caa_id: t.caaId,
      caa_release_mbid: t.caaId !== null ? t.releaseMbid : null,
    },
  };
  if (t.releaseMbid !== null) extension.release_identifier = `${RELEASE_URI}${t.releaseMbid}`;
  out.extension = { [TRACK_EXTENSION]: extension };
  return out;
}

/** `{playlist: …}`; `tracks` null for the listings, which send playlists without their tracks. */
export function playlistJspf(
  p: LbPlaylist,
  tracks: readonly LbTrack[] | null,
): { playlist: Record<string, unknown> } {
  const extension: Record<string, unknown> = {
    public: p.public,
    creator: p.creator,
    last_modified_at: p.lastModified,
  };
  if (p.createdFor !== null) extension.created_for = p.createdFor;
  if (p.series !== null) extension.additional_metadata = { algorithm_metadata: { source_patch: p.series } };
  const playlist: Record<string, unknown> = {
    creator: p.creator,
    title: p.title,
    identifier: `${PLAYLIST_URI}${p.mbid}`,
    date: p.date,
  };
  if (p.annotation !== null) playlist.annotation = p.annotation;
  playlist.extension = { [PLAYLIST_EXTENSION]: extension };
  playlist.track = tracks ? tracks.map((t) => trackJspf(p, t)) : [];
  return { playlist };
}
