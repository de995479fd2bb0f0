import type { ArtistRef } from "../types/common.js";
import type { PlaylistTrack } from "../types/library.js";
import type { Playlist, PlaylistCollaborators, PrivacyStatus, RelatedPlaylist } from "../types/playlists.js";
import type { Episode } from "../types/podcasts.js";
import { MTRIR, parsePlaylistCard } from "./cards.js";
import { classicToken, itemToken } from "./continuation-tokens.js";
import { MMRIR, parseEpisodeList, parseEpisodeRow } from "./episode-row.js";
import { get, isObject, type JsonObject, list, mustObj, type Path, str } from "./nav.js";
import { ignoreNotes, type ParseNotes } from "./notes.js";
import {
  DESCRIPTION_SHELF_RUNS,
  RUN_TEXT,
  SECOND_SUB_RUNS,
  SUB_RUNS,
  TC_SEC_SECTION_LIST,
  TC_SEC_SECTION0,
  TC_SECTION0,
  TITLE_RUNS,
} from "./paths.js";
import { parsePlaylistEntry } from "./song-row.js";
import { digitsOf, joinRuns, parseSongRuns } from "./text.js";
import { thumbnailsAt } from "./thumbnails.js";

/**
 * `get_playlist` pages (docs/PROTOCOL.md#playlists): the 2024+ two-column layout, its header (owned or not,
 * collaborative or not), the track shelf with either continuation family, and the header-less
 * audio playlists (`OLAK5uy_…`).
 */

const PLAYLIST_SHELF = "musicPlaylistShelfRenderer";
/** Episode playlists ("New Episodes", "Episodes for Later") list MMRIR rows in a plain shelf. */
const EPISODE_SHELF = "musicShelfRenderer";

const EDITABLE = "musicEditablePlaylistDetailHeaderRenderer";
const RESPONSIVE = "musicResponsiveHeaderRenderer";
const RESPONSIVE_HEADER: Path = [...TC_SECTION0, RESPONSIVE];
const EDITABLE_HEADER: Path = [...TC_SECTION0, EDITABLE, "header", RESPONSIVE];
const PLAYLIST_SHELF_PATH: Path = [...TC_SEC_SECTION0, PLAYLIST_SHELF];
const FACEPILE: Path = ["facepile", "avatarStackViewModel"];
const FACEPILE_COMMAND: Path = ["rendererContext", "commandContext", "onTap", "innertubeCommand"];
const COLLABORATE_TAG = "PAplaylist_collaborate";

/** What the first response of a playlist says, before any continuation is followed. */
export interface PlaylistPage {
  /** The playlist without `tracks`, `related` and `duration_seconds` (added by the operation). */
  header: Omit<Playlist, "tracks" | "related" | "duration_seconds" | "suggestions" | "episodes">;
  rows: PlaylistRow[];
  /**
   * Next rows: a shape C/C' token (`{continuation}` body), or a legacy shape A token (ctoken query)
   * whose answer sits under `continuationContents.<type>`.
   */
  trackContinuation:
    | { shape: "items"; token: string }
    | { shape: "classic"; token: string; type: string }
    | null;
  /** The section list's token that leads to suggestions (owned) or related playlists. */
  sectionToken: string | null;
  collaborative: boolean;
}

/**
 * The second subtitle of a playlist header, `[views •] count [• duration]`: views only when there
 * are more than three runs. Views and the count are read as integers from their digits (as the
 * reference does, `36M views` → 36).
 */
export function playlistCounts(second: readonly unknown[]): {
  views: number | null;
  duration: string | null;
  trackCount: number | null;
} {
  const hasViews = second.length > 3;
  const countAt = hasViews ? 2 : 0;
  return {
    views: hasViews ? digitsOf(str(second[0], RUN_TEXT)) : null,
    duration: second.length > 2 ? str(second[countAt + 2], RUN_TEXT) : null,
    trackCount: digitsOf(str(second[countAt], RUN_TEXT)),
  };
}

/** Whether a playlist id names an album's audio playlist, whose page may come without a header. */
export function isAudioPlaylistId(id: string): boolean {
  return id.startsWith("OLA") || id.startsWith("VLOLA");
}

/** The playlist shown by the header's play button, wherever the button sits among the others. */
function playButtonPlaylistId(header: unknown): string | null {
  for (const button of list(header, ["buttons"])) {
    const endpoint = get(button, ["musicPlayButtonRenderer", "playNavigationEndpoint"]);
    if (endpoint === undefined) continue;
    return (
      str(endpoint, ["watchEndpoint", "playlistId"]) ?? str(endpoint, ["watchPlaylistEndpoint", "playlistId"])
    );
  }
  return null;
}

/** A row of a playlist: a track (MRLIR) or, in episode playlists, an episode (MMRIR). */
export type PlaylistRow = { episode: false; track: PlaylistTrack } | { episode: true; track: Episode };

/**
 * The rows of one page, in order. Tracks go through the generic playlist-item parse, episode rows
 * through the episode-row parse; a trailing continuation item is skipped, anything else reported.
 */
export function parsePlaylistRows(
  contents: readonly unknown[],
  collaborative: boolean,
  notes: ParseNotes = ignoreNotes,
): PlaylistRow[] {
  const out: PlaylistRow[] = [];
  const options = { collaborative };
  for (let i = 0; i < contents.length; i++) {
    const entry = contents[i];
    if (isObject(entry) && entry[MMRIR] !== undefined) {
      for (const episode of parseEpisodeList([entry], `playlist episodes[${i}]`, notes, parseEpisodeRow)) {
        out.push({ episode: true, track: episode });
      }
      continue;
    }
    const track = parsePlaylistEntry(entry, options, notes, "playlist tracks");
    if (track !== null) out.push({ episode: false, track });
  }
  return out;
}

/** The track shelf of a page: the playlist shelf, or the plain shelf of episode playlists. */
function shelfOf(response: unknown): { shelf: JsonObject | undefined; type: string } {
  const section = get(response, TC_SEC_SECTION0);
  const playlistShelf = get(section, [PLAYLIST_SHELF]);
  if (isObject(playlistShelf)) return { shelf: playlistShelf, type: "musicPlaylistShelfContinuation" };
  const episodeShelf = get(section, [EPISODE_SHELF]);
  if (isObject(episodeShelf)) return { shelf: episodeShelf, type: "musicShelfContinuation" };
  return { shelf: undefined, type: "musicPlaylistShelfContinuation" };
}

function rowsOf(response: unknown, collaborative: boolean, notes?: ParseNotes) {
  const { shelf, type } = shelfOf(response);
  const contents = list(shelf, ["contents"]);
  const rows = parsePlaylistRows(contents, collaborative, notes);
  const items = itemToken(contents);
  const legacy = items === null ? classicToken(shelf) : null;
  const trackContinuation: PlaylistPage["trackContinuation"] =
    items !== null
      ? { shape: "items", token: items }
      : legacy !== null
        ? { shape: "classic", token: legacy, type }
        : null;
  return { shelf, rows, trackContinuation };
}

/** Header fields of the 2024 layout. */
function headerMeta(header: JsonObject, owned: boolean) {
  const title = joinRuns(list(header, TITLE_RUNS));
  const descriptionRuns = get(header, DESCRIPTION_SHELF_RUNS);
  const meta: {
    description: string | null;
    views: number | null;
    duration: string | null;
    trackCount: number | null;
    title: string;
    thumbnails: Playlist["thumbnails"];
    author?: ArtistRef;
    collaborators?: PlaylistCollaborators;
  } = {
    description: Array.isArray(descriptionRuns) ? joinRuns(descriptionRuns) : null,
    ...playlistCounts(list(header, SECOND_SUB_RUNS)),
    title,
    thumbnails: thumbnailsAt(header) ?? [],
  };
  const facepile = get(header, FACEPILE);
  let collaborative = false;
  if (isObject(facepile)) {
    const command = get(facepile, FACEPILE_COMMAND);
    if (str(command, ["showEngagementPanelEndpoint", "identifier", "tag"]) === COLLABORATE_TAG) {
      collaborative = true;
      const avatars: Array<{ url: string }> = [];
      for (const avatar of list(facepile, ["avatars"])) {
        const source = get(avatar, ["avatarViewModel", "image", "sources", 0]);
        if (isObject(source)) avatars.push(source as { url: string });
      }
      meta.collaborators = {
        text: str(facepile, ["rendererContext", "accessibilityContext", "label"]),
        avatars,
      };
    } else {
      meta.author = {
        name: str(facepile, ["text", "content"]) ?? "",
        id: str(command, ["browseEndpoint", "browseId"]),
      };
    }
  }
  // `Playlist • 2024` (not owned) or `Playlist • Private • 2024` (owned): the year and the like follow.
  const info = parseSongRuns(list(header, SUB_RUNS), false, owned ? 4 : 2);
  return { meta, info, collaborative };
}

/** Parses the first response of `get_playlist`. `requestedId` is the id asked for (with or without `VL`). */
export function parsePlaylistPage(response: unknown, requestedId: string, notes?: ParseNotes): PlaylistPage {
  const h0 = get(response, TC_SECTION0);
  const sectionToken = classicToken(get(response, TC_SEC_SECTION_LIST));

  if (h0 === undefined && isAudioPlaylistId(requestedId)) {
    // Some album audio playlists come without a header (2024-12): what the page knows is the shelf.
    const shelfObject = mustObj(response, PLAYLIST_SHELF_PATH);
    const { rows, trackContinuation } = rowsOf(response, false, notes);
    const first = rows.find((row) => !row.episode)?.track as PlaylistTrack | undefined;
    const album = first?.album;
    return {
      header: {
        owned: false,
        id: str(shelfObject, ["targetId"]),
        privacy: "PUBLIC",
        description: null,
        views: null,
        duration: null,
        trackCount: rows.length,
        title: typeof album === "string" ? album : (album?.name ?? ""),
        thumbnails: first?.thumbnails ?? [],
      },
      rows,
      trackContinuation,
      sectionToken,
      collaborative: false,
    };
  }

  const editable = get(h0, [EDITABLE]);
  const owned = isObject(editable);
  const header = owned ? mustObj(response, EDITABLE_HEADER) : mustObj(response, RESPONSIVE_HEADER);
  const { meta, info, collaborative } = headerMeta(header, owned);
  const privacy = owned
    ? ((str(editable, ["editHeader", "musicPlaylistEditHeaderRenderer", "privacy"]) ??
        "PRIVATE") as PrivacyStatus)
    : "PUBLIC";
  const id = owned ? str(editable, ["playlistId"]) : playButtonPlaylistId(header);
  const { rows, trackContinuation } = rowsOf(response, collaborative, notes);
  return {
    // Subtitle facts go over the header's, as in the reference (in practice only `year`).
    header: { owned, id, privacy, ...meta, ...info } as PlaylistPage["header"],
    rows,
    trackContinuation,
    sectionToken,
    collaborative,
  };
}

/** Related playlists: the carousel of the related-section continuation (`related=true`). */
export function parseRelatedPlaylists(carousel: unknown, notes?: ParseNotes): RelatedPlaylist[] {
  const out: RelatedPlaylist[] = [];
  for (const entry of list(carousel, ["contents"])) {
    const card = isObject(entry) ? entry[MTRIR] : undefined;
    if (card === undefined) {
      if (isObject(entry)) for (const key in entry) notes?.unknownRenderer(key, "related playlists");
      continue;
    }
    const parsed = parsePlaylistCard(card);
    const related: RelatedPlaylist = {
      title: parsed.title ?? "",
      playlistId: parsed.playlistId ?? "",
      thumbnails: parsed.thumbnails ?? [],
    };
    if (parsed.description !== undefined) related.description = parsed.description;
    if (parsed.count !== undefined) related.count = parsed.count;
    if (parsed.author !== undefined) related.author = parsed.author;
    out.push(related);
  }
  return out;
}

/** Total seconds of the tracks that show a duration. */
export function totalSeconds(tracks: readonly PlaylistTrack[]): number {
  let total = 0;
  for (const track of tracks) total += track.duration_seconds ?? 0;
  return total;
}
