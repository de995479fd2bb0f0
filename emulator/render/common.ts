/**
 * Building blocks of the service's renderer JSON (docs/PROTOCOL.md#renderers): text runs, endpoints, thumbnails,
 * play buttons, menus and like buttons, shaped as in the captures (`responses/*`).
 */
import { type FeedbackAction, feedbackToken } from "../tokens.js";

export type Json = Record<string, unknown>;

export const DOT = { text: " • " };

export const text = (s: string): Json => ({ runs: [{ text: s }] });
export const runs = (...items: Json[]): Json => ({ runs: items });
export const run = (s: string, navigationEndpoint?: Json): Json =>
  navigationEndpoint ? { text: s, navigationEndpoint } : { text: s };

/** Joins runs with the DOT separator run. */
export function dotted(items: (Json | Json[])[]): Json[] {
  const out: Json[] = [];
  items.forEach((r, i) => {
    if (i > 0) out.push({ ...DOT });
    // A group of runs (a song's artists, "A & B") stands between two dots as one item.
    if (Array.isArray(r)) out.push(...r);
    else out.push(r);
  });
  return out;
}

export const PAGE = {
  album: "MUSIC_PAGE_TYPE_ALBUM",
  artist: "MUSIC_PAGE_TYPE_ARTIST",
  discography: "MUSIC_PAGE_TYPE_ARTIST_DISCOGRAPHY",
  channel: "MUSIC_PAGE_TYPE_USER_CHANNEL",
  playlist: "MUSIC_PAGE_TYPE_PLAYLIST",
  podcast: "MUSIC_PAGE_TYPE_PODCAST_SHOW_DETAIL_PAGE",
  episode: "MUSIC_PAGE_TYPE_NON_MUSIC_AUDIO_TRACK_PAGE",
  lyrics: "MUSIC_PAGE_TYPE_TRACK_LYRICS",
  related: "MUSIC_PAGE_TYPE_TRACK_RELATED",
  credits: "MUSIC_PAGE_TYPE_TRACK_CREDITS",
  unknown: "MUSIC_PAGE_TYPE_UNKNOWN",
} as const;

export function browse(browseId: string, pageType?: string, params?: string): Json {
  const endpoint: Json = { browseId };
  if (params) endpoint.params = params;
  if (pageType) {
    endpoint.browseEndpointContextSupportedConfigs = { browseEndpointContextMusicConfig: { pageType } };
  }
  return { browseEndpoint: endpoint };
}

export interface WatchOptions {
  playlistId?: string;
  videoType?: string;
  params?: string;
  playlistSetVideoId?: string;
  index?: number;
}

export function watch(videoId: string, o: WatchOptions = {}): Json {
  const endpoint: Json = { videoId };
  if (o.playlistId) endpoint.playlistId = o.playlistId;
  if (o.index !== undefined) endpoint.index = o.index;
  if (o.params) endpoint.params = o.params;
  if (o.playlistSetVideoId) endpoint.playlistSetVideoId = o.playlistSetVideoId;
  if (o.videoType) {
    endpoint.watchEndpointMusicSupportedConfigs = {
      watchEndpointMusicConfig: { musicVideoType: o.videoType },
    };
  }
  return { watchEndpoint: endpoint };
}

export const watchPlaylist = (playlistId: string, params?: string): Json => ({
  watchPlaylistEndpoint: params ? { playlistId, params } : { playlistId },
});

/**
 * What an album's play overlay starts: its first track inside the album's playlist (captures
 * yt_search_albums_20231226, yt_get_artist_20240705), the bare playlist for an empty album.
 */
export function albumPlay(a: {
  audioPlaylistId: string;
  firstVideoId: string | null;
  firstVideoType: string | null;
}): Json {
  return a.firstVideoId
    ? watch(a.firstVideoId, {
        playlistId: a.audioPlaylistId,
        videoType: a.firstVideoType ?? "MUSIC_VIDEO_TYPE_ATV",
      })
    : watchPlaylist(a.audioPlaylistId);
}

/** Image URLs in the shapes of the service's CDNs (never fetched by clients' parsers). */
export function imageSizes(key: string, sizes: number[], video = false): Json[] {
  if (video) {
    return [
      { url: `https://i.ytimg.com/vi/${key}/sddefault.jpg`, width: 640, height: 480 },
      { url: `https://i.ytimg.com/vi/${key}/maxresdefault.jpg`, width: 1280, height: 720 },
    ];
  }
  return sizes.map((s) => ({
    url: `https://lh3.googleusercontent.com/emu/${key}=w${s}-h${s}-l90-rj`,
    width: s,
    height: s,
  }));
}

export function musicThumbnail(thumbnails: Json[], scale = "MUSIC_THUMBNAIL_SCALE_ASPECT_FIT"): Json {
  return {
    musicThumbnailRenderer: {
      thumbnail: { thumbnails },
      thumbnailCrop: "MUSIC_THUMBNAIL_CROP_UNSPECIFIED",
      thumbnailScale: scale,
    },
  };
}

export function playButton(playNavigationEndpoint: Json, size = "MUSIC_PLAY_BUTTON_SIZE_SMALL"): Json {
  return {
    musicPlayButtonRenderer: {
      playNavigationEndpoint,
      playIcon: { iconType: "PLAY_ARROW" },
      pauseIcon: { iconType: "PAUSE" },
      iconColor: 4294967295,
      backgroundColor: 0,
      activeBackgroundColor: 0,
      loadingIndicatorColor: 14745645,
      playingIcon: { iconType: "VOLUME_UP" },
      iconLoadingColor: 0,
      activeScaleFactor: 1,
      buttonSize: size,
      rippleTarget: "MUSIC_PLAY_BUTTON_RIPPLE_TARGET_SELF",
    },
  };
}

export function overlay(playNavigationEndpoint: Json, size?: string): Json {
  return {
    musicItemThumbnailOverlayRenderer: {
      background: { verticalGradient: { gradientLayerColors: ["3422552064", "3422552064"] } },
      content: playButton(playNavigationEndpoint, size),
      contentPosition: "MUSIC_ITEM_THUMBNAIL_OVERLAY_CONTENT_POSITION_CENTERED",
      displayStyle: "MUSIC_ITEM_THUMBNAIL_OVERLAY_DISPLAY_STYLE_PERSISTENT",
    },
  };
}

export function navItem(label: string, icon: string, navigationEndpoint: Json): Json {
  return { menuNavigationItemRenderer: { text: text(label), icon: { iconType: icon }, navigationEndpoint } };
}

export function serviceItem(label: string, icon: string, serviceEndpoint: Json): Json {
  return { menuServiceItemRenderer: { text: text(label), icon: { iconType: icon }, serviceEndpoint } };
}

function queueAdd(target: Json, position: string, toast: string): Json {
  const onEmpty = target.videoId ? { watchEndpoint: { videoId: target.videoId } } : { watchEndpoint: target };
  return {
    queueAddEndpoint: {
      queueTarget: { ...target, onEmptyQueue: onEmpty },
      queueInsertPosition: position,
      commands: [
        { addToToastAction: { item: { notificationTextRenderer: { successResponseText: text(toast) } } } },
      ],
    },
  };
}

export function queueItems(target: Json, noun: string): Json[] {
  return [
    serviceItem(
      "Play next",
      "QUEUE_PLAY_NEXT",
      queueAdd(target, "INSERT_AFTER_CURRENT_VIDEO", `${noun} will play next`),
    ),
    serviceItem(
      "Add to queue",
      "ADD_TO_REMOTE_QUEUE",
      queueAdd(target, "INSERT_AT_END", `${noun} added to queue`),
    ),
  ];
}

/**
 * The library toggle of a song, album or podcast. The state is in `isToggled` (1.12.2 reads it),
 * with the icons kept as the not-saved / saved pair so older readers agree (docs/PROTOCOL.md#menus-and-ratings).
 */
/** A feedback endpoint whose token names the action, the kind and the id, with its toast. */
export function feedbackAction(a: FeedbackAction["a"], kind: string, id: string, toast: string): Json {
  return {
    feedbackEndpoint: { feedbackToken: feedbackToken({ a, kind, id }), actions: [notificationAction(toast)] },
  };
}

/** One side of a two-state menu item: its words, its icon and what pressing it does. */
export interface ToggleSide {
  text: string;
  icon: string;
  endpoint: Json;
}

/** A `toggleMenuServiceItemRenderer` (library save, Listen-again pin): off side, on side, state. */
export function toggleItem(off: ToggleSide, on: ToggleSide, isToggled: boolean): Json {
  return {
    toggleMenuServiceItemRenderer: {
      defaultText: text(off.text),
      defaultIcon: { iconType: off.icon },
      defaultServiceEndpoint: off.endpoint,
      toggledText: text(on.text),
      toggledIcon: { iconType: on.icon },
      toggledServiceEndpoint: on.endpoint,
      isToggled,
    },
  };
}

export function libraryToggle(kind: string, id: string, inLibrary: boolean, signedIn = true): Json {
  // Signed out, only the save side becomes a sign-in prompt; the remove side keeps its feedback
  // endpoint (capture yt_get_album_not_signed_in_20250611).
  const save = signedIn
    ? feedbackAction("add", kind, id, "Saved to library")
    : signInModal("Save this for later", "Make playlists and save music when you sign in");
  return toggleItem(
    { text: "Save to library", icon: "BOOKMARK_BORDER", endpoint: save },
    {
      text: "Remove from library",
      icon: "BOOKMARK",
      endpoint: feedbackAction("remove", kind, id, "Removed from library"),
    },
    signedIn && inLibrary,
  );
}

/** What signed-out users get instead of a service endpoint: a sign-in prompt (capture yt_get_album_not_signed_in_20250611). */
export function signInModal(title: string, content: string): Json {
  return {
    modalEndpoint: {
      modal: {
        modalWithTitleAndButtonRenderer: {
          title: text(title),
          content: text(content),
          button: {
            buttonRenderer: {
              style: "STYLE_BLUE_TEXT",
              text: text("Sign in"),
              navigationEndpoint: { signInEndpoint: { hack: true } },
            },
          },
        },
      },
    },
  };
}

export function notificationAction(message: string): Json {
  return { addToToastAction: { item: { notificationActionRenderer: { responseText: text(message) } } } };
}

/** Save/unsave of a collection by rating its playlist (albums, playlists, podcasts). */
export function likeToggleButton(playlistId: string, liked: boolean): Json {
  return {
    toggleButtonRenderer: {
      isToggled: liked,
      isDisabled: false,
      defaultIcon: { iconType: "LIBRARY_ADD" },
      defaultServiceEndpoint: { likeEndpoint: { status: "LIKE", target: { playlistId } } },
      toggledIcon: { iconType: "LIBRARY_SAVED" },
      toggledServiceEndpoint: { likeEndpoint: { status: "INDIFFERENT", target: { playlistId } } },
      accessibilityData: { accessibilityData: { label: "Save to library" } },
      toggledAccessibilityData: { accessibilityData: { label: "Remove from library" } },
    },
  };
}

export function likeButton(videoId: string, likeStatus: string, signedIn = true): Json {
  const button: Json = { target: { videoId }, likeStatus, likesAllowed: true };
  if (signedIn) {
    // Signed in, the button carries one like endpoint per state it can move to (captures
    // yt_get_library_upload_songs_20240712, yt_get_history_20240713).
    button.serviceEndpoints = ["LIKE", "DISLIKE", "INDIFFERENT"].map((status) => ({
      likeEndpoint: { status, target: { videoId } },
    }));
  } else {
    button.dislikeNavigationEndpoint = signInModal("Don't like this?", "Sign in to let us know");
    button.likeCommand = signInModal("Like this song?", "Sign in to save it to your Liked music");
  }
  return { likeButtonRenderer: button };
}

/** "Save to playlist": the add dialog, or a sign-in prompt when signed out. */
export function addToPlaylistItem(target: Json, signedIn = true): Json {
  return navItem(
    "Save to playlist",
    "ADD_TO_PLAYLIST",
    signedIn
      ? { addToPlaylistEndpoint: target }
      : signInModal("Save this for later", "Make playlists and save music when you sign in"),
  );
}

export function shareItem(serialized: string): Json {
  return navItem("Share", "SHARE", {
    shareEntityEndpoint: {
      serializedShareEntity: Buffer.from(serialized).toString("base64"),
      sharePanelType: "SHARE_PANEL_TYPE_UNIFIED_SHARE_PANEL",
    },
  });
}

export const explicitBadge = (): Json => ({
  musicInlineBadgeRenderer: {
    icon: { iconType: "MUSIC_EXPLICIT_BADGE" },
    accessibilityData: { accessibilityData: { label: "Explicit" } },
  },
});

/**
 * A flex column. An empty column is an empty text object (`"text": {}`), as every capture writes it
 * (ytm_2024_03_get_album, yt_get_playlist_20250604, ytm_2025_11_get_explore): no capture has
 * `{"runs": []}`, and readers that take the first run of any `runs` (the reference implementation)
 * fail on it.
 */
export function flex(r: Json[], priority = "MUSIC_RESPONSIVE_LIST_ITEM_COLUMN_DISPLAY_PRIORITY_HIGH"): Json {
  const content = r.length > 0 ? { runs: r } : {};
  return { musicResponsiveListItemFlexColumnRenderer: { text: content, displayPriority: priority } };
}

export function fixed(s: string): Json {
  return {
    musicResponsiveListItemFixedColumnRenderer: {
      text: { runs: [{ text: s }] },
      displayPriority: "MUSIC_RESPONSIVE_LIST_ITEM_COLUMN_DISPLAY_PRIORITY_HIGH",
      size: "MUSIC_RESPONSIVE_LIST_ITEM_FIXED_COLUMN_SIZE_SMALL",
    },
  };
}

/** The trailing element of a shape-C list (docs/PROTOCOL.md#continuations). */
export function continuationItem(token: string): Json {
  return {
    continuationItemRenderer: {
      trigger: "CONTINUATION_TRIGGER_ON_ITEM_PRESCAN_VISIBLE",
      continuationEndpoint: { continuationCommand: { token, request: "CONTINUATION_REQUEST_TYPE_BROWSE" } },
    },
  };
}

/** Shape A: `continuations[0].nextContinuationData`. */
export const nextContinuation = (token: string): Json[] => [
  { nextContinuationData: { continuation: token, clickTrackingParams: "CAAQ" } },
];

export function carouselHeader(title: string, more?: Json): Json {
  const t: Json = { text: title };
  const header: Json = {
    title: { runs: [t] },
    headerStyle: "MUSIC_CAROUSEL_SHELF_BASIC_HEADER_STYLE_DEFAULT",
  };
  if (more) {
    t.navigationEndpoint = more;
    header.moreContentButton = {
      buttonRenderer: { style: "STYLE_TEXT", text: { runs: [{ text: "More" }] }, navigationEndpoint: more },
    };
  }
  return { musicCarouselShelfBasicHeaderRenderer: header };
}

export function carousel(title: string, contents: Json[], more?: Json, itemSize?: string): Json {
  const shelf: Json = { header: carouselHeader(title, more), contents };
  if (itemSize) shelf.itemSize = itemSize;
  return { musicCarouselShelfRenderer: shelf };
}

export const singleColumn = (content: Json, extra: Json = {}): Json => ({
  contents: {
    singleColumnBrowseResultsRenderer: {
      tabs: [{ tabRenderer: { content, ...extra } }],
    },
  },
});

export const responseContext = (): Json => ({
  responseContext: { serviceTrackingParams: [], visitorData: "CgtFbXVsYXRvcklk" },
});

export function downloadVideoItem(videoId: string): Json {
  return {
    menuServiceItemDownloadRenderer: {
      serviceEndpoint: {
        offlineVideoEndpoint: {
          videoId,
          onAddCommand: { getDownloadActionCommand: { videoId, params: "CAI%3D" } },
        },
      },
    },
  };
}

export function downloadPlaylistItem(playlistId: string): Json {
  return {
    menuServiceItemDownloadRenderer: {
      serviceEndpoint: {
        offlinePlaylistEndpoint: {
          playlistId,
          action: "ACTION_ADD",
          offlineability: { offlineabilityRenderer: { offlineable: true } },
        },
      },
    },
  };
}

/** The menu entry that saves a collection (album, playlist, podcast) by rating its playlist. */
export function saveCollectionItem(playlistId: string, saved: boolean, noun = "", signedIn = true): Json {
  const what = noun ? `${noun} ` : "";
  if (!signedIn) {
    return {
      toggleMenuServiceItemRenderer: {
        defaultText: text(`Save ${what}to library`),
        defaultIcon: { iconType: "LIBRARY_ADD" },
        defaultServiceEndpoint: signInModal(
          "Save this for later",
          "Make playlists and save music when you sign in",
        ),
        toggledText: text(`Remove ${what}from library`),
        toggledIcon: { iconType: "LIBRARY_SAVED" },
        isToggled: false,
      },
    };
  }
  return {
    toggleMenuServiceItemRenderer: {
      defaultText: text(`Save ${what}to library`),
      defaultIcon: { iconType: "LIBRARY_ADD" },
      defaultServiceEndpoint: { likeEndpoint: { status: "LIKE", target: { playlistId } } },
      toggledText: text(`Remove ${what}from library`),
      toggledIcon: { iconType: "LIBRARY_SAVED" },
      toggledServiceEndpoint: { likeEndpoint: { status: "INDIFFERENT", target: { playlistId } } },
      isToggled: saved,
    },
  };
}

export function moreButton(endpoint: Json): Json {
  return { buttonRenderer: { style: "STYLE_TEXT", text: text("More"), navigationEndpoint: endpoint } };
}

export function toastAction(message: string): Json {
  return { addToToastAction: { item: { notificationTextRenderer: { successResponseText: text(message) } } } };
}

/** "Delete playlist" behind a confirmation dialog (owned playlists). */
export function deletePlaylistItem(playlistId: string): Json {
  return navItem("Delete playlist", "DELETE", {
    confirmDialogEndpoint: {
      content: {
        confirmDialogRenderer: {
          title: text("Delete playlist"),
          dialogMessages: [text("Are you sure you want to delete this playlist?")],
          confirmButton: {
            buttonRenderer: { text: text("Delete"), command: { deletePlaylistEndpoint: { playlistId } } },
          },
          cancelButton: { buttonRenderer: { text: text("Cancel") } },
        },
      },
    },
  });
}

/**
 * A sort menu's options as the service writes them since 2024: each option is a form item named by
 * an entity key, its command checks it (unchecking the others) and reloads the section list, and
 * `frameworkUpdates` carries the form and one boolean choice per option, the selected one marked
 * (capture yt_get_library_songs_20240701). Returns the options and the mutations to put in the page.
 */
export function sortMenuOptions(
  form: string,
  choices: readonly { title: string; reload: string }[],
  selected: number,
): { options: Json[]; mutations: Json[] } {
  const key = (name: string) => Buffer.from(name).toString("base64url");
  const formKey = key(form);
  const choiceKeys = choices.map((c) => key(`${form}-${c.title}`));
  const options = choices.map((c, i) => ({
    musicMultiSelectMenuItemRenderer: {
      title: text(c.title),
      formItemEntityKey: choiceKeys[i],
      selectedIcon: { iconType: "CHECK" },
      selectedCommand: {
        commandExecutorCommand: {
          commands: [
            ...choiceKeys.map((k, j) => ({
              musicCheckboxFormItemMutatedCommand: { formItemEntityKey: k, newCheckedState: i === j },
            })),
            {
              browseSectionListReloadEndpoint: {
                continuation: { reloadContinuationData: { continuation: c.reload } },
              },
            },
          ],
        },
      },
    },
  }));
  const mutations: Json[] = [
    {
      entityKey: formKey,
      type: "ENTITY_MUTATION_TYPE_REPLACE",
      payload: { musicForm: { id: formKey, booleanChoiceEntityKeys: choiceKeys } },
    },
    ...choices.map((c, i) => ({
      entityKey: choiceKeys[i],
      type: "ENTITY_MUTATION_TYPE_REPLACE",
      payload: {
        musicFormBooleanChoice: {
          id: choiceKeys[i],
          parentFormEntityKey: formKey,
          selected: i === selected,
          opaqueToken: c.title,
        },
      },
    })),
  ];
  return { options, mutations };
}

/**
 * The "Add to liked songs" toggle of a song's menu (captures yt_search_songs_20231226,
 * yt_get_watch_playlist_20250630): liking also saves the song to the library; signed out, the
 * toggle opens a sign-in prompt.
 */
export function likeMenuToggle(videoId: string, liked: boolean, signedIn = true): Json {
  return {
    toggleMenuServiceItemRenderer: {
      defaultText: text("Add to liked songs"),
      defaultIcon: { iconType: "FAVORITE" },
      defaultServiceEndpoint: signedIn
        ? {
            likeEndpoint: {
              status: "LIKE",
              target: { videoId },
              actions: [
                {
                  musicLibraryStatusUpdateCommand: {
                    libraryStatus: "MUSIC_LIBRARY_STATUS_IN_LIBRARY",
                    addToLibraryFeedbackToken: feedbackToken({ a: "add", kind: "song", id: videoId }),
                  },
                },
              ],
            },
          }
        : signInModal("Like this song", "Sign in to save your likes"),
      toggledText: text("Remove from liked songs"),
      toggledIcon: { iconType: "UNFAVORITE" },
      toggledServiceEndpoint: { likeEndpoint: { status: "INDIFFERENT", target: { videoId } } },
      isToggled: signedIn && liked,
    },
  };
}
