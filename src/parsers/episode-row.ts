import type { ChartEpisode, Episode } from "../types/podcasts.js";
import { MMRIR } from "./cards.js";
import { get, isObject, type JsonObject, mustStr, num, type Path, rendererName, str } from "./nav.js";
import type { ParseNotes } from "./notes.js";
import { THUMBS, thumbnailsAt } from "./thumbnails.js";

/**
 * The podcast-episode row, `musicMultiRowListItemRenderer` (MMRIR, PROTOCOL §4.7): podcast pages,
 * channel pages, the "New episodes" playlist, explore's popular episodes, home.
 */

const TITLE: Path = ["title", "runs", 0, "text"];
const BROWSE_ID: Path = ["title", "runs", 0, "navigationEndpoint", "browseEndpoint", "browseId"];
const DESCRIPTION: Path = ["description", "runs", 0, "text"];
const DATE: Path = ["subtitle", "runs", 0, "text"];
const DURATION: Path = [
  "playbackProgress",
  "musicPlaybackProgressRenderer",
  "durationText",
  "runs",
  1,
  "text",
];
const VIDEO_ID: Path = ["onTap", "watchEndpoint", "videoId"];
const INDEX: Path = ["onTap", "watchEndpoint", "index"];
const VIDEO_TYPE: Path = [
  "onTap",
  "watchEndpoint",
  "watchEndpointMusicSupportedConfigs",
  "watchEndpointMusicConfig",
  "musicVideoType",
];
/** Explore's episode cards name their show in a second title line. */
const PODCAST_RUN: Path = ["secondTitle", "runs", 0];
const RUN_BROWSE_ID: Path = ["navigationEndpoint", "browseEndpoint", "browseId"];

/** The fields of one episode row; `at` names the row in a ParseError (its title is required). */
export function parseEpisodeRow(row: JsonObject, at: string): Episode {
  return {
    index: num(row, INDEX),
    title: mustStr(row, TITLE, at),
    description: str(row, DESCRIPTION),
    duration: str(row, DURATION),
    videoId: str(row, VIDEO_ID),
    browseId: str(row, BROWSE_ID),
    videoType: str(row, VIDEO_TYPE),
    date: str(row, DATE),
    thumbnails: thumbnailsAt(row, THUMBS),
  };
}

/** An episode card of explore's "Popular episodes": the row without its index, with its show. */
export function parseChartEpisode(row: JsonObject, at: string): ChartEpisode {
  const { index: _index, ...episode } = parseEpisodeRow(row, at);
  const run = get(row, PODCAST_RUN);
  return { ...episode, podcast: { id: str(run, RUN_BROWSE_ID), name: str(run, ["text"]) } };
}

/**
 * Every MMRIR of a list parsed with `parse`; other renderers (a trailing continuation item, an
 * unknown newcomer) are skipped, and reported unless they are the list's continuation.
 */
export function parseEpisodeList<T>(
  items: readonly unknown[],
  at: string,
  notes: ParseNotes,
  parse: (row: JsonObject, at: string) => T,
): T[] {
  const out: T[] = [];
  for (let i = 0; i < items.length; i++) {
    const wrapper = items[i];
    const row = isObject(wrapper) ? wrapper[MMRIR] : undefined;
    if (isObject(row)) {
      out.push(parse(row, `${at}[${i}].${MMRIR}`));
      continue;
    }
    const name = rendererName(wrapper) ?? typeof wrapper;
    if (name !== "continuationItemRenderer") notes.unknownRenderer(name, `${at}[${i}]`);
  }
  return out;
}
