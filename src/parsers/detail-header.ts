import type { LikeStatus, SongRunInfo, Thumbnail } from "../types/common.js";
import { endpointPlaylistId } from "./cards.js";
import { likeStatusOfService } from "./menu.js";
import { get, list, type Path, str } from "./nav.js";
import {
  DESCRIPTION_TEXT,
  MENU_BUTTONS,
  RUN_TEXT,
  SECOND_SUB_RUNS,
  SUB_RUNS,
  SUB0_TEXT,
  SUBTITLE_BADGE_LABEL,
  THUMBS_CROP,
  TITLE_TEXT,
} from "./paths.js";
import { digitsOf, parseSongRuns } from "./text.js";
import { thumbnailsAt } from "./thumbnails.js";

/**
 * The legacy detail header, `header.musicDetailHeaderRenderer` (docs/PROTOCOL.md#changes-over-time "Album page"): album
 * pages before April 2024, and the upload album pages, which still use it.
 */

export const DETAIL_HEADER_RENDERER = "musicDetailHeaderRenderer";
export const DETAIL_HEADER: Path = ["header", DETAIL_HEADER_RENDERER];

const BUTTON_NAV: Path = ["buttonRenderer", "navigationEndpoint"];
const LIKE_SERVICE: Path = ["buttonRenderer", "defaultServiceEndpoint"];

export interface DetailHeader {
  title: string | null;
  /** `Album`, `Single`, `EP`… */
  type: string | null;
  thumbnails: Thumbnail[] | null;
  /** The explicit badge's label is present. */
  explicitBadge: boolean;
  description: string | null;
  /** Artists and year from the subtitle runs after the type word. */
  info: SongRunInfo;
  /** Set only when the second subtitle names a count (`[count, •, duration]`). */
  trackCount?: number | null;
  duration: string | null;
  audioPlaylistId: string | null;
  /** Undefined when the header has no like button; null for an action we do not know. */
  likeStatus?: LikeStatus | null;
}

/** `secondSubtitle` runs: `[count, •, duration]` or `[duration]`. */
export function countAndDuration(second: readonly unknown[]): {
  trackCount?: number | null;
  duration: string | null;
} {
  if (second.length > 1) {
    return { trackCount: digitsOf(str(second[0], RUN_TEXT)), duration: str(second[2], RUN_TEXT) };
  }
  return { duration: str(second[0], RUN_TEXT) };
}

/** Reads a legacy detail header (the object at `DETAIL_HEADER`). */
export function parseDetailHeader(header: unknown): DetailHeader {
  const buttons = list(header, MENU_BUTTONS);
  const likeService = get(buttons[1], LIKE_SERVICE);
  const out: DetailHeader = {
    title: str(header, TITLE_TEXT),
    type: str(header, SUB0_TEXT),
    thumbnails: thumbnailsAt(header, THUMBS_CROP),
    explicitBadge: get(header, SUBTITLE_BADGE_LABEL) !== undefined,
    description: str(header, DESCRIPTION_TEXT),
    info: parseSongRuns(list(header, SUB_RUNS), false, 2),
    ...countAndDuration(list(header, SECOND_SUB_RUNS)),
    audioPlaylistId: endpointPlaylistId(get(buttons[0], BUTTON_NAV)),
  };
  if (likeService !== undefined) out.likeStatus = likeStatusOfService(likeService);
  return out;
}
