import type { Album } from "../types/browsing.js";
import type { AlbumCard } from "./cards.js";
import { MTRIR, parseAlbumCard } from "./cards.js";
import { likeStatusOfService } from "./menu.js";
import { get, isObject, list, mustObj, type Path, str } from "./nav.js";
import type { ParseNotes } from "./notes.js";
import { parsePlaylistItems } from "./song-row.js";
import { descriptionRuns, joinRuns, parseArtistRuns, parseSongRuns } from "./text.js";
import { THUMBS, THUMBS_CROP, thumbnailsAt } from "./thumbnails.js";

/** Album pages, 2024+ two-column layout (PROTOCOL §4.2 get_album). */

const HEADER: Path = [
  "contents",
  "twoColumnBrowseResultsRenderer",
  "tabs",
  0,
  "tabRenderer",
  "content",
  "sectionListRenderer",
  "contents",
  0,
  "musicResponsiveHeaderRenderer",
];
const SECONDARY: Path = [
  "contents",
  "twoColumnBrowseResultsRenderer",
  "secondaryContents",
  "sectionListRenderer",
  "contents",
];
const TRACKS: Path = [...SECONDARY, 0, "musicShelfRenderer", "contents"];
const TITLE_TEXT: Path = ["title", "runs", 0, "text"];
const SUBTITLE_RUNS: Path = ["subtitle", "runs"];
const SUBTITLE0_TEXT: Path = ["subtitle", "runs", 0, "text"];
const LEGACY_BADGE: Path = [
  "subtitleBadges",
  0,
  "musicInlineBadgeRenderer",
  "accessibilityData",
  "accessibilityData",
  "label",
];
const BADGE_ICON: Path = ["musicInlineBadgeRenderer", "icon", "iconType"];
const DESCRIPTION_RUNS: Path = ["description", "musicDescriptionShelfRenderer", "description", "runs"];
const STRAPLINE_RUNS: Path = ["straplineTextOne", "runs"];
const SECOND_SUBTITLE_RUNS: Path = ["secondSubtitle", "runs"];
const PLAY_NAV: Path = ["musicPlayButtonRenderer", "playNavigationEndpoint"];
const LIKE_SERVICE: Path = ["toggleButtonRenderer", "defaultServiceEndpoint"];

/**
 * Whether the header marks the album explicit: the legacy `subtitleBadges[0]` label, or the 2024
 * header's singular `subtitleBadge` list with the `MUSIC_EXPLICIT_BADGE` icon (which the reference
 * does not read yet, PROTOCOL §8).
 */
function headerExplicit(header: unknown): boolean {
  if (get(header, LEGACY_BADGE) !== undefined) return true;
  for (const badge of list(header, ["subtitleBadge"])) {
    if (str(badge, BADGE_ICON) === "MUSIC_EXPLICIT_BADGE") return true;
  }
  return false;
}

/** `"16 songs"` → 16 (digits of the text); null when it has none. */
function countOf(text: string | null): number | null {
  if (text === null) return null;
  const digits = text.replace(/[^0-9]/g, "");
  return digits === "" ? null : Number.parseInt(digits, 10);
}

const LEGACY_HEADER: Path = ["header", "musicDetailHeaderRenderer"];
const LEGACY_TRACKS: Path = [
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
  "contents",
];
const LEGACY_BUTTONS: Path = ["menu", "menuRenderer", "topLevelButtons"];
const LEGACY_PLAYLIST_ID: Path = [
  "buttonRenderer",
  "navigationEndpoint",
  "watchPlaylistEndpoint",
  "playlistId",
];
const LEGACY_WATCH_ID: Path = ["buttonRenderer", "navigationEndpoint", "watchEndpoint", "playlistId"];
const LEGACY_LIKE: Path = ["buttonRenderer", "defaultServiceEndpoint"];
const LEGACY_DESCRIPTION: Path = ["description", "runs", 0, "text"];

/** `secondSubtitle` runs: `[count, •, duration]` or `[duration]`. */
function countAndDuration(album: Album, second: readonly unknown[]): void {
  if (second.length > 1) {
    album.trackCount = countOf(str(second[0], ["text"]));
    album.duration = str(second[2], ["text"]);
  } else {
    album.duration = str(second[0], ["text"]);
  }
}

/**
 * Album pages before April 2024: `header.musicDetailHeaderRenderer` and the tracks in the single
 * column's first shelf (PROTOCOL §8 "Album page"). Artists come from the subtitle runs there.
 */
function parseLegacyAlbum(response: unknown, header: unknown, notes: ParseNotes): Album {
  const buttons = list(header, LEGACY_BUTTONS);
  const likeService = get(buttons[1], LEGACY_LIKE);
  const description = str(header, LEGACY_DESCRIPTION);
  const info = parseSongRuns(list(header, SUBTITLE_RUNS), false, 2);
  const album: Album = {
    title: str(header, TITLE_TEXT),
    type: str(header, SUBTITLE0_TEXT),
    thumbnails: thumbnailsAt(header, THUMBS_CROP),
    isExplicit: headerExplicit(header),
    description: description ?? "",
    descriptionRuns: description === null ? [] : [{ text: description }],
    ...info,
    artists: info.artists ?? null,
    duration: null,
    audioPlaylistId: str(buttons[0], LEGACY_PLAYLIST_ID) ?? str(buttons[0], LEGACY_WATCH_ID),
    likeStatus: (likeService === undefined ? null : likeStatusOfService(likeService)) ?? "INDIFFERENT",
    tracks: parsePlaylistItems(list(response, LEGACY_TRACKS), { album: true }, notes, "get_album.tracks"),
    duration_seconds: 0,
  };
  countAndDuration(album, list(header, SECOND_SUBTITLE_RUNS));
  return finishAlbum(album);
}

/** Album rows repeat neither the album nor (for one-artist albums) the artists; the total is summed. */
function finishAlbum(album: Album): Album {
  let seconds = 0;
  for (const track of album.tracks) {
    track.album = album.title;
    if (track.artists === null || track.artists.length === 0) track.artists = album.artists;
    if (typeof track.duration_seconds === "number") seconds += track.duration_seconds;
  }
  album.duration_seconds = seconds;
  return album;
}

export function parseAlbum(response: unknown, notes: ParseNotes): Album {
  if (get(response, HEADER) === undefined) {
    const legacy = get(response, LEGACY_HEADER);
    if (isObject(legacy)) return parseLegacyAlbum(response, legacy, notes);
  }
  const header = mustObj(response, HEADER);
  const descriptionRunList = get(header, DESCRIPTION_RUNS);
  const subtitleInfo = parseSongRuns(list(header, SUBTITLE_RUNS), false, 2);
  const strapline = get(header, STRAPLINE_RUNS);
  const second = list(header, SECOND_SUBTITLE_RUNS);

  let audioPlaylistId: string | null = null;
  let likeService: unknown;
  for (const button of list(header, ["buttons"])) {
    if (!isObject(button)) continue;
    if (audioPlaylistId === null && button["musicPlayButtonRenderer"] !== undefined) {
      const play = get(button, PLAY_NAV);
      audioPlaylistId =
        str(play, ["watchPlaylistEndpoint", "playlistId"]) ?? str(play, ["watchEndpoint", "playlistId"]);
    }
    if (likeService === undefined && button["toggleButtonRenderer"] !== undefined) {
      likeService = get(button, LIKE_SERVICE) ?? null;
    }
  }

  const album: Album = {
    title: str(header, TITLE_TEXT),
    type: str(header, SUBTITLE0_TEXT),
    thumbnails: thumbnailsAt(header, THUMBS),
    isExplicit: headerExplicit(header),
    // An album without a description shelf has an empty description, as in the reference.
    description: Array.isArray(descriptionRunList) ? joinRuns(descriptionRunList) : "",
    descriptionRuns: Array.isArray(descriptionRunList) ? descriptionRuns(descriptionRunList) : [],
    ...subtitleInfo,
    artists: Array.isArray(strapline) && strapline.length > 0 ? parseArtistRuns(strapline) : null,
    duration: null,
    audioPlaylistId,
    likeStatus: (likeService ? likeStatusOfService(likeService) : null) ?? "INDIFFERENT",
    tracks: [],
    duration_seconds: 0,
  };
  countAndDuration(album, second);

  album.tracks = parsePlaylistItems(list(response, TRACKS), { album: true }, notes, "get_album.tracks");

  const sections = list(response, SECONDARY);
  for (let i = 1; i < sections.length; i++) {
    const carousel = get(sections[i], ["musicCarouselShelfRenderer"]);
    if (!isObject(carousel)) continue;
    const size = str(carousel, ["itemSize"]);
    const key =
      size === "COLLECTION_STYLE_ITEM_SIZE_SMALL"
        ? "related_recommendations"
        : size === "COLLECTION_STYLE_ITEM_SIZE_MEDIUM"
          ? "other_versions"
          : null;
    if (key === null) continue;
    const cards: AlbumCard[] = [];
    for (const item of list(carousel, ["contents"])) {
      const card = get(item, [MTRIR]);
      if (card === undefined) {
        if (isObject(item)) {
          for (const name in item) {
            notes.unknownRenderer(name, `get_album.${key}`);
            break;
          }
        }
        continue;
      }
      cards.push(parseAlbumCard(card));
    }
    album[key] = cards;
  }

  return finishAlbum(album);
}
