import type { ChartEpisode, Episode } from "../types/podcasts.js";
import { rendererItems } from "./lists.js";
import { get, isObject, type JsonObject, mustStr, num, type Path, str } from "./nav.js";
import { type ParseNotes, QUIET_CONTINUATION } from "./notes.js";
import {
  DESCRIPTION_TEXT,
  NAV_BROWSE_ID,
  ON_TAP_VIDEO_ID,
  ON_TAP_VIDEO_TYPE,
  RUN_TEXT,
  SUB0_TEXT,
  THUMBS,
  TITLE_BROWSE_ID,
  TITLE_TEXT,
} from "./paths.js";
import { thumbnailsAt } from "./thumbnails.js";

/**
 * The podcast-episode row, `musicMultiRowListItemRenderer` (MMRIR, docs/PROTOCOL.md#podcasts): podcast pages,
 * channel pages, artist and channel carousels, the "New episodes" playlist, explore's popular
 * episodes, home. One parse serves them all.
 */

export const MMRIR = "musicMultiRowListItemRenderer";

const DURATION: Path = [
  "playbackProgress",
  "musicPlaybackProgressRenderer",
  "durationText",
  "runs",
  1,
  "text",
];
const INDEX: Path = ["onTap", "watchEndpoint", "index"];
/** Explore's episode cards name their show in a second title line. */
const PODCAST_RUN: Path = ["secondTitle", "runs", 0];

/** The fields of one episode row; `at` names the row in a ParseError (its title is required). */
export function parseEpisodeRow(row: JsonObject, at: string): Episode {
  return {
    index: num(row, INDEX),
    title: mustStr(row, TITLE_TEXT, at),
    description: str(row, DESCRIPTION_TEXT),
    duration: str(row, DURATION),
    videoId: str(row, ON_TAP_VIDEO_ID),
    browseId: str(row, TITLE_BROWSE_ID),
    videoType: str(row, ON_TAP_VIDEO_TYPE) as Episode["videoType"],
    date: str(row, SUB0_TEXT),
    thumbnails: thumbnailsAt(row, THUMBS),
  };
}

/** An episode card of explore's "Popular episodes": the row without its index, with its show. */
export function parseChartEpisode(row: JsonObject, at: string): ChartEpisode {
  const { index: _index, ...episode } = parseEpisodeRow(row, at);
  const run = get(row, PODCAST_RUN);
  return { ...episode, podcast: { id: str(run, NAV_BROWSE_ID), name: str(run, RUN_TEXT) } };
}

/**
 * An episode row that a list can use, or null: a row without a title is not an episode anyone can
 * show, so the list leaves it out and reports it (as it does any renderer it cannot read) instead of
 * failing the whole page.
 */
function readableEpisodeRow(row: unknown, at: string, notes: ParseNotes): JsonObject | null {
  if (isObject(row) && str(row, TITLE_TEXT) !== null) return row;
  notes.unknownRenderer(`${MMRIR} without a title`, at);
  return null;
}

/** One MMRIR of a mixed list (home rows, artist carousels): the episode, or null when unreadable. */
export function parseEpisodeItem(row: unknown, at: string, notes: ParseNotes): Episode | null {
  const readable = readableEpisodeRow(row, at, notes);
  return readable === null ? null : parseEpisodeRow(readable, at);
}

/**
 * Every MMRIR of a list parsed with `parse`; rows without a title and other renderers (a trailing
 * continuation item, an unknown newcomer) are skipped, and reported unless they are the list's
 * continuation.
 */
export function parseEpisodeList<T>(
  items: readonly unknown[],
  at: string,
  notes: ParseNotes,
  parse: (row: JsonObject, at: string) => T,
): T[] {
  return rendererItems(
    items,
    MMRIR,
    at,
    notes,
    (row, rowAt) => (readableEpisodeRow(row, rowAt, notes) === null ? null : parse(row, rowAt)),
    QUIET_CONTINUATION,
  );
}
