import type { UploadAlbum, UploadSong } from "../types/uploads.js";
import { LIKE_STATUS, likeStatusOfService, MENU_ITEMS } from "./menu.js";
import { get, isObject, list, mustObj, type Path, str } from "./nav.js";
import type { ParseNotes } from "./notes.js";
import { fixedText, flexRuns, flexText, MRLIR } from "./song-row.js";
import { NAV_BROWSE_ID, parseArtistRuns, parseDuration, parseSongRuns, runText } from "./text.js";
import { THUMBS_CROP, thumbnailsAt } from "./thumbnails.js";

/** Uploaded tracks and albums (PROTOCOL §4.8). */

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
const QUEUE_VIDEO_ID: Path = [
  "menuServiceItemRenderer",
  "serviceEndpoint",
  "queueAddEndpoint",
  "queueTarget",
  "videoId",
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
    album: isObject(albumRun) ? { name: runText(albumRun), id: str(albumRun, NAV_BROWSE_ID) } : null,
    likeStatus: str(row, LIKE_STATUS) as UploadSong["likeStatus"],
    thumbnails: thumbnailsAt(row),
  };
}

export function parseUploadRows(items: readonly unknown[], notes?: ParseNotes): UploadSong[] {
  const out: UploadSong[] = [];
  for (const entry of items) {
    const row = isObject(entry) ? entry[MRLIR] : undefined;
    if (row === undefined) {
      if (notes !== undefined && isObject(entry)) {
        for (const key in entry) {
          if (key !== "continuationItemRenderer") notes.unknownRenderer(key, "uploaded tracks");
          break;
        }
      }
      continue;
    }
    const song = parseUploadRow(row);
    if (song !== null) out.push(song);
  }
  return out;
}

const LEGACY_HEADER: Path = ["header", "musicDetailHeaderRenderer"];
const SHELF: Path = [
  "contents",
  "singleColumnBrowseResultsRenderer",
  "tabs",
  0,
  "tabRenderer",
  "content",
  "sectionListRenderer",
  "contents",
  0,
  "musicShelfRenderer",
];
const TOP_BUTTONS: Path = ["menu", "menuRenderer", "topLevelButtons"];
const SUBTITLE_BADGE: Path = [
  "subtitleBadges",
  0,
  "musicInlineBadgeRenderer",
  "accessibilityData",
  "accessibilityData",
  "label",
];

/** Digits of a count text (`"12 songs"` → 12), null when it has none. */
function countOf(text: string | null): number | null {
  if (text === null) return null;
  const digits = text.replace(/\D/g, "");
  return digits === "" ? null : Number.parseInt(digits, 10);
}

/** `get_library_upload_album`: the legacy detail header the upload pages still use, and the tracks. */
export function parseUploadAlbum(response: unknown, notes?: ParseNotes): UploadAlbum {
  const header = mustObj(response, LEGACY_HEADER);
  const subtitle = list(header, ["subtitle", "runs"]);
  const album = {
    title: str(header, ["title", "runs", 0, "text"]),
    type: str(subtitle[0], ["text"]),
    thumbnails: thumbnailsAt(header, THUMBS_CROP),
    isExplicit: get(header, SUBTITLE_BADGE) !== undefined,
  } as UploadAlbum;
  const description = str(header, ["description", "runs", 0, "text"]);
  if (description !== null) album.description = description;
  Object.assign(album, parseSongRuns(subtitle, false, 2));
  const second = list(header, ["secondSubtitle", "runs"]);
  if (second.length > 1) {
    album.trackCount = countOf(str(second[0], ["text"]));
    album.duration = str(second[2], ["text"]);
  } else {
    album.duration = str(second[0], ["text"]);
  }
  const buttons = list(header, TOP_BUTTONS);
  album.audioPlaylistId =
    str(buttons[0], ["buttonRenderer", "navigationEndpoint", "watchPlaylistEndpoint", "playlistId"]) ??
    str(buttons[0], ["buttonRenderer", "navigationEndpoint", "watchEndpoint", "playlistId"]);
  const service = get(buttons[1], ["buttonRenderer", "defaultServiceEndpoint"]);
  if (service !== undefined) album.likeStatus = likeStatusOfService(service);
  const shelf = mustObj(response, SHELF);
  album.tracks = parseUploadRows(list(shelf, ["contents"]), notes);
  album.duration_seconds = album.tracks.reduce((sum, track) => sum + (track.duration_seconds ?? 0), 0);
  return album;
}
