import type { AlbumRef, ArtistRef, LikeStatus, Thumbnail } from "./common.js";
import type { LibraryListOptions } from "./library.js";

/** An uploaded track row (docs/PROTOCOL.md#uploads "Upload row"). */
export interface UploadSong {
  /** `t_po_…`: what `deleteUploadEntity` takes. */
  entityId: string | null;
  videoId: string | null;
  title: string | null;
  duration: string | null;
  duration_seconds: number | null;
  artists: ArtistRef[] | null;
  album: AlbumRef | null;
  likeStatus: LikeStatus | null;
  thumbnails: Thumbnail[] | null;
}

/** `get_library_upload_album`: the legacy album header and the album's uploaded tracks. */
export interface UploadAlbum {
  title: string | null;
  type: string | null;
  thumbnails: Thumbnail[] | null;
  isExplicit: boolean;
  description?: string | null;
  artists?: ArtistRef[];
  year?: string;
  trackCount?: number | null;
  duration?: string | null;
  audioPlaylistId: string | null;
  likeStatus?: LikeStatus | null;
  tracks: UploadSong[];
  duration_seconds: number;
}

/** What the upload host answered when a step of `uploadSong` did not succeed. */
export interface UploadFailure {
  status: number;
  body: string;
}

export type UploadListOptions = LibraryListOptions;

export interface UploadArtistOptions {
  /** How many tracks at least (whole pages are kept); `null` = all. Default 25. */
  limit?: number | null;
}
