import type { UploadAlbum, UploadSong } from "../types/uploads.js";
import { DETAIL_HEADER, parseDetailHeader } from "./detail-header.js";
import { get, isObject, list, mustObj, type Path, str } from "./nav.js";
import { noteSkipped, type ParseNotes } from "./notes.js";
import { LIKE_STATUS, MENU_ITEMS, QUEUE_VIDEO_ID, SC_SHELF } from "./paths.js";
import { fixedText, flexRuns, flexText, MRLIR } from "./song-row.js";
import { parseArtistRuns, parseDuration, runRef } from "./text.js";
import { thumbnailsAt } from "./thumbnails.js";

/** Uploaded tracks and albums (docs/PROTOCOL.md#uploads). */

const ENTITY_ID: Path = [
  "menuNavigationItemRenderer",
  "navigationEndpoint",
  "confirmDialogEndpoint",
  "content",
  "confirmDialogRenderer",
  "confirmButton",
  "buttonRenderer",
  "command",
  "musicDeletePrivatelyOwnedEntityCommand",
  "entityId",
];
/**
 * One uploaded track row, or null for a row without a menu (the "Shuffle all" row): the delete
 * entity id sits in the menu's last entry, the video id in its first (queue) entry.
 */
export function parseUploadRow(row: unknown): UploadSong | null {
  const menu = get(row, MENU_ITEMS);
  if (!Array.isArray(menu)) return null;
  const duration = fixedText(row);
  const albumRun = flexRuns(row, 2)?.[0];
  return {
    entityId: str(menu[menu.length - 1], ENTITY_ID),
    videoId: str(menu[0], QUEUE_VIDEO_ID),
    title: flexText(row, 0),
    duration,
    duration_seconds: parseDuration(duration),
    artists: parseArtistRuns(flexRuns(row, 1) ?? []),
    album: isObject(albumRun) ? runRef(albumRun) : null,
    likeStatus: str(row, LIKE_STATUS) as UploadSong["likeStatus"],
    thumbnails: thumbnailsAt(row),
  };
}

export function parseUploadRows(items: readonly unknown[], notes?: ParseNotes): UploadSong[] {
  const out: UploadSong[] = [];
  for (const entry of items) {
    const row = isObject(entry) ? entry[MRLIR] : undefined;
    if (row === undefined) {
      noteSkipped(notes, entry, "uploaded tracks");
      continue;
    }
    const song = parseUploadRow(row);
    if (song !== null) out.push(song);
  }
  return out;
}

/** `get_library_upload_album`: the legacy detail header the upload pages still use, and the tracks. */
export function parseUploadAlbum(response: unknown, notes?: ParseNotes): UploadAlbum {
  const header = parseDetailHeader(mustObj(response, DETAIL_HEADER));
  const album = {
    title: header.title,
    type: header.type,
    thumbnails: header.thumbnails,
    isExplicit: header.explicitBadge,
  } as UploadAlbum;
  if (header.description !== null) album.description = header.description;
  Object.assign(album, header.info);
  if (header.trackCount !== undefined) album.trackCount = header.trackCount;
  album.duration = header.duration;
  album.audioPlaylistId = header.audioPlaylistId;
  if (header.likeStatus !== undefined) album.likeStatus = header.likeStatus;
  const shelf = mustObj(response, SC_SHELF);
  album.tracks = parseUploadRows(list(shelf, ["contents"]), notes);
  album.duration_seconds = album.tracks.reduce((sum, track) => sum + (track.duration_seconds ?? 0), 0);
  return album;
}
