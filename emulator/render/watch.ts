/**
 * `next`: the watch queue (`playlistPanelRenderer`, songs wrapped with their video counterpart) with
 * the Lyrics and Related tabs, and `playlistPanelContinuation` pages (capture
 * yt_get_watch_playlist_20250630 and its continuation).
 */
import type { SongRow } from "../store/rows.js";
import {
  browse,
  dotted,
  downloadVideoItem,
  imageSizes,
  type Json,
  libraryToggle,
  navItem,
  PAGE,
  queueItems,
  run,
  serviceItem,
  shareItem,
  text,
  toastAction,
  watch,
} from "./common.js";
import { abbreviate, clock } from "./format.js";
import { artistRuns, type Marks } from "./items.js";

export const WATCH_PAGE_SIZE = 50;

export interface QueueEntry {
  song: SongRow;
  counterpart: SongRow | null;
  setVideoId: string;
}

/** One queue row (`playlistPanelVideoRenderer`): the song, where it sits in the queue, and its menu. */
function panelVideo(
  s: SongRow,
  playlistId: string,
  index: number,
  setVideoId: string,
  selected: boolean,
  marks: Marks,
): Json {
  const renderer: Json = {
    title: text(s.title),
    longBylineText: { runs: panelByline(s) },
    thumbnail: { thumbnails: imageSizes(s.videoId, [60, 120], s.videoType !== "MUSIC_VIDEO_TYPE_ATV") },
    lengthText: text(clock(s.durationSeconds)),
    selected,
    navigationEndpoint: watch(s.videoId, {
      playlistId,
      index,
      playlistSetVideoId: setVideoId,
      videoType: s.videoType,
    }),
    videoId: s.videoId,
    shortBylineText: text(s.artistName),
    menu: { menuRenderer: { items: panelMenuItems(s, playlistId, marks) } },
    playlistSetVideoId: setVideoId,
    canReorder: true,
  };
  if (!s.available) renderer.unplayableText = text("Song is unavailable");
  return { playlistPanelVideoRenderer: renderer };
}

/** The row's long byline: `Artist • Album • Year` for album tracks, `Artist • views • likes` for videos. */
function panelByline(s: SongRow): Json[] {
  if (s.albumBrowseId) {
    return dotted([
      artistRuns(s),
      run(s.albumTitle ?? "", browse(s.albumBrowseId, PAGE.album)),
      run(String(s.year ?? "")),
    ]);
  }
  return dotted([
    artistRuns(s),
    run(`${abbreviate(s.views)} views`),
    run(`${abbreviate(Math.floor(s.views / 40))} likes`),
  ]);
}

/** The queue row's menu; signed in, it ends with the like and dislike toggles. */
function panelMenuItems(s: SongRow, playlistId: string, marks: Marks): Json[] {
  const items: Json[] = [
    navItem(
      "Start radio",
      "MIX",
      watch(s.videoId, { playlistId: `RDAMVM${s.videoId}`, params: "wAEB", videoType: s.videoType }),
    ),
    ...queueItems({ videoId: s.videoId }, s.videoType === "MUSIC_VIDEO_TYPE_ATV" ? "Song" : "Video"),
    libraryToggle("song", s.videoId, marks.inLibrary("song", s.videoId)),
    downloadVideoItem(s.videoId),
    navItem("Save to playlist", "ADD_TO_PLAYLIST", { addToPlaylistEndpoint: { videoId: s.videoId } }),
    navItem("Go to artist", "ARTIST", browse(s.channelId, PAGE.artist)),
    shareItem(s.videoId),
    serviceItem("Remove from queue", "REMOVE", {
      removeFromQueueEndpoint: { videoId: s.videoId, commands: [toastAction("Item removed from queue")] },
    }),
    // Every queue row ends with "Dismiss queue", a delete of the queue's playlist that also clears
    // the player's queue (capture yt_get_watch_playlist_20250630).
    serviceItem("Dismiss queue", "DISMISS_QUEUE", {
      deletePlaylistEndpoint: { playlistId, command: { dismissQueueCommand: {} } },
    }),
  ];
  if (marks.signedIn) {
    const like = marks.likeStatus(s.videoId);
    items.push(
      rateToggle(s.videoId, "LIKE", "FAVORITE", "UNFAVORITE", like === "LIKE"),
      rateToggle(s.videoId, "DISLIKE", "DISLIKE", "DISLIKE_SELECTED", like === "DISLIKE"),
    );
  }
  return items;
}

/**
 * A like or dislike toggle of the queue menu. Each has both icons, as the capture's "Add to liked
 * songs" toggle does (yt_get_watch_playlist_20250630); readers that draw the toggled state need the second.
 */
function rateToggle(
  videoId: string,
  status: string,
  icon: string,
  toggledIcon: string,
  toggled: boolean,
): Json {
  return {
    toggleMenuServiceItemRenderer: {
      defaultText: text(status === "LIKE" ? "Add to liked songs" : "Dislike"),
      defaultIcon: { iconType: icon },
      toggledIcon: { iconType: toggledIcon },
      defaultServiceEndpoint: {
        likeEndpoint: { status: toggled ? "INDIFFERENT" : status, target: { videoId } },
      },
      toggledText: text(status === "LIKE" ? "Remove from liked songs" : "Remove dislike"),
      toggledServiceEndpoint: { likeEndpoint: { status: "INDIFFERENT", target: { videoId } } },
      isToggled: toggled,
    },
  };
}

export function queueItemsJson(
  entries: QueueEntry[],
  playlistId: string,
  offset: number,
  selectedIndex: number,
  marks: Marks,
): Json[] {
  return entries.map((e, i) => {
    const index = offset + i;
    const primary = panelVideo(e.song, playlistId, index, e.setVideoId, index === selectedIndex, marks);
    if (!e.counterpart) return primary;
    return {
      playlistPanelVideoWrapperRenderer: {
        primaryRenderer: primary,
        counterpart: [
          {
            counterpartRenderer: panelVideo(
              e.counterpart,
              playlistId,
              index,
              e.setVideoId,
              index === selectedIndex,
              marks,
            ),
            segmentMap: { segment: [] },
          },
        ],
      },
    };
  });
}

export interface WatchView {
  playlistId: string;
  title: string;
  entries: QueueEntry[];
  token: string | null;
  /** Queues of PL/OLA playlists continue with nextContinuationData, radios with nextRadioContinuationData. */
  radio: boolean;
  current: SongRow | null;
  marks: Marks;
}

function panel(v: WatchView, offset: number): Json {
  const body: Json = {
    contents: queueItemsJson(v.entries, v.playlistId, offset, offset === 0 ? 0 : -1, v.marks),
    playlistId: v.playlistId,
    isInfinite: v.radio,
    numItemsToShow: 25,
    shuffleToggleButton: {
      toggleButtonRenderer: {
        isToggled: false,
        isDisabled: false,
        defaultIcon: { iconType: "SHUFFLE" },
        defaultText: text("Shuffle"),
        toggledIcon: { iconType: "SHUFFLE" },
      },
    },
  };
  if (offset === 0) body.title = v.title;
  if (v.token) {
    body.continuations = [
      v.radio
        ? { nextRadioContinuationData: { continuation: v.token } }
        : { nextContinuationData: { continuation: v.token } },
    ];
  }
  return body;
}

export function watchPage(v: WatchView): Json {
  const tabs: Json[] = [
    {
      tabRenderer: {
        title: "Up next",
        content: {
          musicQueueRenderer: {
            content: { playlistPanelRenderer: panel(v, 0) },
            header: {
              musicQueueHeaderRenderer: {
                title: text("Up next"),
                subtitle: text(v.title),
                buttons: [
                  { chipCloudChipRenderer: { text: text("Save"), icon: { iconType: "ADD_TO_PLAYLIST" } } },
                ],
              },
            },
            subHeaderChipCloud: {
              chipCloudRenderer: {
                chips: ["All", "Familiar", "Discover", "Popular"].map((label, i) => ({
                  chipCloudChipRenderer: { text: text(label), isSelected: i === 0, uniqueId: label },
                })),
              },
            },
          },
        },
      },
    },
  ];
  if (v.current) {
    const lyricsTab: Json = {
      title: "Lyrics",
      endpoint: browse(`MPLYt_${v.current.videoId}`, PAGE.lyrics),
    };
    if (!v.current.lyricsSource) lyricsTab.unselectable = true;
    tabs.push({ tabRenderer: lyricsTab });
    tabs.push({
      tabRenderer: { title: "Related", endpoint: browse(`MPTRt_${v.current.videoId}`, PAGE.related) },
    });
  }
  return {
    contents: {
      singleColumnMusicWatchNextResultsRenderer: {
        tabbedRenderer: { watchNextTabbedResultsRenderer: { tabs } },
      },
    },
    currentVideoEndpoint: v.current
      ? watch(v.current.videoId, { playlistId: v.playlistId, index: 0 })
      : undefined,
    playerOverlays: {
      playerOverlayRenderer: {
        actions: v.current
          ? [
              {
                likeButtonRenderer: {
                  target: { videoId: v.current.videoId },
                  likeStatus: v.marks.likeStatus(v.current.videoId),
                  likesAllowed: true,
                },
              },
            ]
          : [],
        browserMediaSession: { browserMediaSessionRenderer: {} },
      },
    },
  };
}

/** A queue continuation: the service sends the tabs again beside the next items (capture yt_get_watch_playlist_continuation_20250630). */
export function watchContinuation(v: WatchView, offset: number): Json {
  const page = watchPage({ ...v, entries: [], token: null });
  return { contents: page.contents, continuationContents: { playlistPanelContinuation: panel(v, offset) } };
}

/** The page of a queue that cannot be shown: the tab is there, the playlist panel is not. */
export function emptyWatchPage(): Json {
  return {
    contents: {
      singleColumnMusicWatchNextResultsRenderer: {
        tabbedRenderer: {
          watchNextTabbedResultsRenderer: {
            tabs: [{ tabRenderer: { title: "Up next", content: { musicQueueRenderer: {} } } }],
          },
        },
      },
    },
  };
}
