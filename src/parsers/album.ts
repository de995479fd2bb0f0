import type { Album, AlbumCard } from "../types/browsing.js";
import { endpointPlaylistId, MTRIR, parseAlbumCard } from "./cards.js";
import { countAndDuration, DETAIL_HEADER, parseDetailHeader } from "./detail-header.js";
import { likeStatusOfService } from "./menu.js";
import { get, isObject, list, mustObj, type Path, str } from "./nav.js";
import { noteSkipped, type ParseNotes, REPORT_ALL } from "./notes.js";
import {
  DESCRIPTION_SHELF_RUNS,
  SC_SHELF,
  SECOND_SUB_RUNS,
  SUB_RUNS,
  SUB0_TEXT,
  SUBTITLE_BADGE_LABEL,
  TC_SEC_SECTIONS,
  TC_SECTION0,
  THUMBS,
  TITLE_TEXT,
} from "./paths.js";
import { parsePlaylistItems } from "./song-row.js";
import { descriptionRuns, joinRuns, parseArtistRuns, parseSongRuns } from "./text.js";
import { thumbnailsAt } from "./thumbnails.js";

/** Album pages, 2024+ two-column layout (docs/PROTOCOL.md#browsing get_album). */

const HEADER: Path = [...TC_SECTION0, "musicResponsiveHeaderRenderer"];
const TRACKS: Path = [...TC_SEC_SECTIONS, 0, "musicShelfRenderer", "contents"];
const LEGACY_TRACKS: Path = [...SC_SHELF, "contents"];
const BADGE_ICON: Path = ["musicInlineBadgeRenderer", "icon", "iconType"];
const STRAPLINE_RUNS: Path = ["straplineTextOne", "runs"];
const PLAY_BUTTON_NAV: Path = ["musicPlayButtonRenderer", "playNavigationEndpoint"];
const LIKE_SERVICE: Path = ["toggleButtonRenderer", "defaultServiceEndpoint"];

/**
 * Whether the header marks the album explicit: the legacy `subtitleBadges[0]` label, or the 2024
 * header's singular `subtitleBadge` list with the `MUSIC_EXPLICIT_BADGE` icon (which the reference
 * does not read yet, docs/PROTOCOL.md#changes-over-time).
 */
function headerExplicit(header: unknown, explicitBadge: boolean): boolean {
  if (explicitBadge) return true;
  for (const badge of list(header, ["subtitleBadge"])) {
    if (str(badge, BADGE_ICON) === "MUSIC_EXPLICIT_BADGE") return true;
  }
  return false;
}

/**
 * Album pages before April 2024: `header.musicDetailHeaderRenderer` and the tracks in the single
 * column's first shelf (docs/PROTOCOL.md#changes-over-time "Album page"). Artists come from the subtitle runs there.
 */
function parseLegacyAlbum(response: unknown, legacy: unknown, notes: ParseNotes): Album {
  const header = parseDetailHeader(legacy);
  const description = header.description;
  const album: Album = {
    title: header.title,
    type: header.type,
    thumbnails: header.thumbnails,
    isExplicit: headerExplicit(legacy, header.explicitBadge),
    description: description ?? "",
    descriptionRuns: description === null ? [] : [{ text: description }],
    ...header.info,
    artists: header.info.artists ?? null,
    duration: header.duration,
    audioPlaylistId: header.audioPlaylistId,
    likeStatus: header.likeStatus ?? "INDIFFERENT",
    tracks: parsePlaylistItems(list(response, LEGACY_TRACKS), { album: true }, notes, "get_album.tracks"),
    duration_seconds: 0,
  };
  if (header.trackCount !== undefined) album.trackCount = header.trackCount;
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
    const legacy = get(response, DETAIL_HEADER);
    if (isObject(legacy)) return parseLegacyAlbum(response, legacy, notes);
  }
  const header = mustObj(response, HEADER);
  const descriptionRunList = get(header, DESCRIPTION_SHELF_RUNS);
  const subtitleInfo = parseSongRuns(list(header, SUB_RUNS), false, 2);
  const strapline = get(header, STRAPLINE_RUNS);
  const second = list(header, SECOND_SUB_RUNS);

  let audioPlaylistId: string | null = null;
  let likeService: unknown;
  for (const button of list(header, ["buttons"])) {
    if (!isObject(button)) continue;
    if (audioPlaylistId === null && button["musicPlayButtonRenderer"] !== undefined) {
      const play = get(button, PLAY_BUTTON_NAV);
      audioPlaylistId = endpointPlaylistId(play);
    }
    if (likeService === undefined && button["toggleButtonRenderer"] !== undefined) {
      likeService = get(button, LIKE_SERVICE) ?? null;
    }
  }

  const album: Album = {
    title: str(header, TITLE_TEXT),
    type: str(header, SUB0_TEXT),
    thumbnails: thumbnailsAt(header, THUMBS),
    isExplicit: headerExplicit(header, get(header, SUBTITLE_BADGE_LABEL) !== undefined),
    // An album without a description shelf has an empty description, as in the reference.
    description: Array.isArray(descriptionRunList) ? joinRuns(descriptionRunList) : "",
    descriptionRuns: Array.isArray(descriptionRunList) ? descriptionRuns(descriptionRunList) : [],
    ...subtitleInfo,
    artists: Array.isArray(strapline) && strapline.length > 0 ? parseArtistRuns(strapline) : null,
    ...countAndDuration(second),
    audioPlaylistId,
    likeStatus: (likeService ? likeStatusOfService(likeService) : null) ?? "INDIFFERENT",
    tracks: [],
    duration_seconds: 0,
  };

  album.tracks = parsePlaylistItems(list(response, TRACKS), { album: true }, notes, "get_album.tracks");

  const sections = list(response, TC_SEC_SECTIONS);
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
        noteSkipped(notes, item, `get_album.${key}`, REPORT_ALL);
        continue;
      }
      cards.push(parseAlbumCard(card));
    }
    album[key] = cards;
  }

  return finishAlbum(album);
}
