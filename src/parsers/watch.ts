import type { WatchTrack } from "../types/watch.js";
import { likeStatusOfService, type MenuData, readMenuEntry } from "./menu.js";
import {
  formatPath,
  get,
  isObject,
  type JsonObject,
  list,
  mustList,
  mustStr,
  type Path,
  rendererName,
  str,
} from "./nav.js";
import type { ParseNotes } from "./notes.js";
import { MENU_ITEMS, NAV_PLAYLIST_ID, NAV_VIDEO_TYPE, PAGE_TYPE, TITLE_TEXT } from "./paths.js";
import { parseSongRuns } from "./text.js";
import { thumbnailsAt } from "./thumbnails.js";

/**
 * The `next` response (docs/PROTOCOL.md#watch): tabs (queue, lyrics, related, maybe comments) and the queue,
 * `playlistPanelRenderer`, whose items are tracks, song/video pairs, or other renderers to skip.
 */

const TABS: Path = [
  "contents",
  "singleColumnMusicWatchNextResultsRenderer",
  "tabbedRenderer",
  "watchNextTabbedResultsRenderer",
  "tabs",
];
const TABS_AT = formatPath(TABS);
const TAB_PAGE_TYPE: Path = ["tabRenderer", "endpoint", ...PAGE_TYPE];
const TAB_BROWSE_ID: Path = ["tabRenderer", "endpoint", "browseEndpoint", "browseId"];
const QUEUE: Path = ["tabRenderer", "content", "musicQueueRenderer", "content", "playlistPanelRenderer"];
const QUEUE_AT = `${formatPath(QUEUE)}.contents`;

const PPVR = "playlistPanelVideoRenderer";
const PPVWR = "playlistPanelVideoWrapperRenderer";
const PRIMARY: Path = ["primaryRenderer", PPVR];
const COUNTERPART: Path = ["counterpart", 0, "counterpartRenderer", PPVR];
/** Queue items that are not tracks and carry nothing for the result (the automix preview). */
const IGNORED = new Set(["automixPreviewVideoRenderer"]);

const VIDEO_ID: Path = ["videoId"];
const LENGTH: Path = ["lengthText", "runs", 0, "text"];
/** Queue items keep their thumbnails directly under `thumbnail` (no music thumbnail renderer). */
const THUMBNAILS: Path = ["thumbnail", "thumbnails"];
const BYLINE: Path = ["longBylineText", "runs"];
const LIKE_SERVICE: Path = ["toggleMenuServiceItemRenderer", "defaultServiceEndpoint"];

/** The first page of a watch playlist. */
export interface WatchPage {
  /** The queue, or null when the service sent none (a private or unavailable playlist). */
  queue: JsonObject | null;
  tracks: WatchTrack[];
  playlistId: string | null;
  lyrics: string | null;
  related: string | null;
}

/**
 * Tabs are found by what they hold and the page type of their endpoint, not by position (a Comments
 * tab may appear); tabs marked `unselectable` (a song without lyrics) give nothing.
 */
export function parseWatchPage(response: unknown, notes: ParseNotes): WatchPage {
  const tabs = mustList(response, TABS);
  const page: WatchPage = { queue: null, tracks: [], playlistId: null, lyrics: null, related: null };
  for (let i = 0; i < tabs.length; i++) {
    const tab = tabs[i];
    const queue = get(tab, QUEUE);
    if (page.queue === null && isObject(queue)) {
      page.queue = queue;
      page.tracks = parseQueueItems(list(queue, ["contents"]), `${TABS_AT}[${i}].${QUEUE_AT}`, notes);
      page.playlistId = queuePlaylistId(queue);
      continue;
    }
    if (get(tab, ["tabRenderer", "unselectable"]) !== undefined) continue;
    const type = str(tab, TAB_PAGE_TYPE);
    if (type === "MUSIC_PAGE_TYPE_TRACK_LYRICS") page.lyrics ??= str(tab, TAB_BROWSE_ID);
    else if (type === "MUSIC_PAGE_TYPE_TRACK_RELATED") page.related ??= str(tab, TAB_BROWSE_ID);
  }
  return page;
}

const CONTINUATION_AT = "continuationContents.playlistPanelContinuation.contents";

/** The tracks of a continuation page (the object at `continuationContents.playlistPanelContinuation`). */
export function parseQueueContinuation(panel: JsonObject, notes: ParseNotes): WatchTrack[] {
  return parseQueueItems(list(panel, ["contents"]), CONTINUATION_AT, notes);
}

/** The queue's playlist id: that of its first track, else the panel's own. */
export function queuePlaylistId(queue: JsonObject): string | null {
  for (const item of list(queue, ["contents"])) {
    const track = get(item, [PPVR]) ?? get(item, [PPVWR, ...PRIMARY]);
    const id = str(track, NAV_PLAYLIST_ID);
    if (id !== null) return id;
  }
  return str(queue, ["playlistId"]);
}

/** The tracks of a queue or continuation page (`contents`); unplayable ones are left out. */
export function parseQueueItems(items: readonly unknown[], at: string, notes: ParseNotes): WatchTrack[] {
  const tracks: WatchTrack[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const name = rendererName(item);
    if (name === PPVR) {
      const data = (item as JsonObject)[PPVR];
      if (isObject(data) && data["unplayableText"] === undefined) {
        tracks.push(parseWatchTrack(data, at, i, PPVR));
      }
    } else if (name === PPVWR) {
      const wrapper = (item as JsonObject)[PPVWR];
      const primary = get(wrapper, PRIMARY);
      if (!isObject(primary) || primary["unplayableText"] !== undefined) continue;
      const track = parseWatchTrack(primary, at, i, PRIMARY_AT);
      const counterpart = get(wrapper, COUNTERPART);
      if (isObject(counterpart)) track.counterpart = parseWatchTrack(counterpart, at, i, COUNTERPART_AT);
      tracks.push(track);
    } else if (name === undefined || !IGNORED.has(name)) {
      notes.unknownRenderer(name ?? typeof item, `${at}[${i}]`);
    }
  }
  return tracks;
}

/** Where a track sits inside its queue item, for a ParseError. */
const PRIMARY_AT = `${PPVWR}.primaryRenderer.${PPVR}`;
const COUNTERPART_AT = `${PPVWR}.counterpart[0].counterpartRenderer.${PPVR}`;

/**
 * One `playlistPanelVideoRenderer`, item `index` of the list at `at`, `inItem` below it; the path
 * is spelled out only for a ParseError, not for every track of a queue.
 */
export function parseWatchTrack(data: JsonObject, at: string, index: number, inItem: string): WatchTrack {
  const videoId = str(data, VIDEO_ID) ?? mustStr(data, VIDEO_ID, `${at}[${index}].${inItem}`);
  const menu = readQueueMenu(list(data, MENU_ITEMS));
  const track: WatchTrack = {
    videoId,
    title: str(data, TITLE_TEXT),
    length: str(data, LENGTH),
    thumbnail: thumbnailsAt(data, THUMBNAILS),
    likeStatus: menu.likeStatus,
    videoType: str(data, NAV_VIDEO_TYPE),
    inLibrary: menu.data.inLibrary ?? null,
    feedbackTokens: menu.data.feedbackTokens ?? null,
    pinnedToListenAgain: menu.data.pinnedToListenAgain ?? null,
    listenAgainFeedbackTokens: menu.data.listenAgainFeedbackTokens ?? null,
    artists: [],
  };
  // `Artist • Album • 2019` for songs, `Artist • 1.2M views • 3.4K likes` for videos.
  return Object.assign(track, parseSongRuns(list(data, BYLINE)));
}

/**
 * What a queue item reads from its menu, in one pass over the entries: `parseMenuData`'s fields,
 * and the rating from the first like toggle, which says what pressing it would do (inverted,
 * docs/PROTOCOL.md#menus-and-ratings).
 */
function readQueueMenu(items: readonly unknown[]): { data: MenuData; likeStatus: WatchTrack["likeStatus"] } {
  const menu: { data: MenuData; likeStatus: WatchTrack["likeStatus"] } = { data: {}, likeStatus: null };
  let rated = false;
  for (const entry of items) {
    readMenuEntry(menu.data, entry);
    if (rated) continue;
    const service = get(entry, LIKE_SERVICE);
    if (isObject(service) && service["likeEndpoint"] !== undefined) {
      menu.likeStatus = likeStatusOfService(service);
      rated = true;
    }
  }
  return menu;
}
