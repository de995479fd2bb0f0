/**
 * Item renderers shared by every page: song rows (MRLIR), cards (MTRIR), episode rows (MMRIR).
 * The viewer's state (like status, library membership) comes in through `Marks`.
 */
import type { AlbumRow, ArtistRow, EpisodeRow, PlaylistRow, PodcastRow, SongRow } from "../store/rows.js";
import { feedbackToken } from "../tokens.js";
import {
  addToPlaylistItem,
  browse,
  DOT,
  deletePlaylistItem,
  dotted,
  downloadPlaylistItem,
  downloadVideoItem,
  explicitBadge,
  feedbackAction,
  fixed,
  flex,
  imageSizes,
  type Json,
  libraryToggle,
  likeButton,
  likeMenuToggle,
  musicThumbnail,
  navItem,
  notificationAction,
  overlay,
  PAGE,
  queueItems,
  run,
  saveCollectionItem,
  serviceItem,
  shareItem,
  text,
  toastAction,
  toggleItem,
  watch,
  watchPlaylist,
} from "./common.js";
import { abbreviate, clock, type DateStyle, episodeDate, spokenDuration } from "./format.js";

/** What the viewer's state says about an item. */
export interface Marks {
  likeStatus(videoId: string): string;
  inLibrary(kind: string, id: string): boolean;
  /** Whether a collection's playlist id is rated LIKE (saved). */
  saved(playlistId: string): boolean;
  readonly signedIn: boolean;
}

export const artistRun = (s: { artistName: string; channelId: string }) =>
  run(s.artistName, browse(s.channelId, PAGE.artist));

/**
 * A song's artists as the catalogue's rows carry them: a second (featured) artist when the song
 * has one, null or absent for the rest.
 */
export interface SongArtists {
  artistName: string;
  channelId: string;
  featuredName?: string | null;
  featuredChannelId?: string | null;
}

/** A song's artist runs: "A", or "A", " & ", "B" for a song with a featured artist. */
export function artistRuns(s: SongArtists): Json[] {
  if (!s.featuredName || !s.featuredChannelId) return [artistRun(s)];
  return [artistRun(s), run(" & "), run(s.featuredName, browse(s.featuredChannelId, PAGE.artist))];
}
export const albumRun = (s: SongRow) =>
  s.albumBrowseId ? run(s.albumTitle ?? "", browse(s.albumBrowseId, PAGE.album)) : null;

export type RowStyle = "playlist" | "album" | "library" | "search" | "search-typed";

export interface SongRowOptions {
  style: RowStyle;
  marks: Marks;
  playlistId?: string;
  setVideoId?: string;
  /** The viewer owns the playlist: a remove entry with its `playlistEditEndpoint`. */
  editable?: boolean;
  /**
   * A row of a collaborative playlist: the duration moves into a flex column before the album,
   * and the contributor's avatar is shown (capture ytm_2025_10_get_playlist_collaborative).
   */
  contributor?: { name: string; channelId: string };
  /** A history row: a REMOVE_FROM_HISTORY entry with this token. */
  historyToken?: string;
  index?: number;
}

function songMenu(s: SongRow, o: SongRowOptions): Json {
  const isSong = s.videoType === "MUSIC_VIDEO_TYPE_ATV";
  const items: Json[] = [
    navItem(
      "Start radio",
      "MIX",
      watch(s.videoId, { playlistId: `RDAMVM${s.videoId}`, params: "wAEB", videoType: s.videoType }),
    ),
    ...queueItems({ videoId: s.videoId }, isSong ? "Song" : "Video"),
  ];
  items.push(libraryToggle("song", s.videoId, o.marks.inLibrary("song", s.videoId), o.marks.signedIn));
  items.push(likeMenuToggle(s.videoId, o.marks.likeStatus(s.videoId) === "LIKE", o.marks.signedIn));
  items.push(downloadVideoItem(s.videoId));
  items.push(addToPlaylistItem({ videoId: s.videoId }, o.marks.signedIn));
  if (o.editable && o.playlistId && o.setVideoId) {
    items.push(
      serviceItem("Remove from playlist", "DELETE", {
        playlistEditEndpoint: {
          playlistId: o.playlistId,
          actions: [{ setVideoId: o.setVideoId, action: "ACTION_REMOVE_VIDEO", removedVideoId: s.videoId }],
        },
      }),
    );
  }
  if (s.albumBrowseId && o.style !== "album")
    items.push(navItem("Go to album", "ALBUM", browse(s.albumBrowseId, PAGE.album)));
  items.push(navItem("Go to artist", "ARTIST", browse(s.channelId, PAGE.artist)));
  if (isSong)
    items.push(navItem("View song credits", "PEOPLE_GROUP", browse(`MPTC${s.videoId}`, PAGE.credits)));
  items.push(shareItem(`\n\u000b${s.videoId}`));
  if (o.historyToken) {
    items.push(
      serviceItem("Remove from history", "REMOVE_FROM_HISTORY", {
        feedbackEndpoint: { feedbackToken: o.historyToken, actions: [toastAction("Removed from history")] },
      }),
    );
  }
  return {
    menuRenderer: {
      items,
      topLevelButtons: [likeButton(s.videoId, o.marks.likeStatus(s.videoId), o.marks.signedIn)],
      accessibility: { accessibilityData: { label: "Action menu" } },
    },
  };
}

/** A song or video row (MRLIR) in the column layout of the page kind. */
export function songRow(s: SongRow, o: SongRowOptions): Json {
  const we = watch(s.videoId, {
    playlistId: o.playlistId,
    videoType: s.videoType,
    playlistSetVideoId: o.setVideoId,
    index: o.index,
  });
  const isSong = s.videoType === "MUSIC_VIDEO_TYPE_ATV";
  const row: Json = {};
  if (o.style !== "album") row.thumbnail = musicThumbnail(imageSizes(s.videoId, [60, 120], !isSong));
  row.overlay = overlay(we);
  row.flexColumns = songColumns(s, o, we);
  if (o.style !== "search" && o.style !== "search-typed" && !o.contributor)
    row.fixedColumns = [fixed(clock(s.durationSeconds))];
  row.menu = songMenu(s, o);
  if (s.explicit) row.badges = [explicitBadge()];
  row.playlistItemData = o.setVideoId
    ? { playlistSetVideoId: o.setVideoId, videoId: s.videoId }
    : { videoId: s.videoId };
  if (o.style === "album") row.index = s.available ? text(String(s.trackNumber ?? "")) : undefined;
  if (!s.available) row.musicItemRendererDisplayPolicy = "MUSIC_ITEM_RENDERER_DISPLAY_POLICY_GREY_OUT";
  if (o.contributor) row.contributorsAvatars = contributorAvatar(o.contributor);
  row.flexColumnDisplayStyle = "MUSIC_RESPONSIVE_LIST_ITEM_FLEX_COLUMN_DISPLAY_STYLE_TWO_LINE_STACK";
  row.itemHeight = "MUSIC_RESPONSIVE_LIST_ITEM_HEIGHT_TALL";
  if (o.style === "playlist" || o.style === "album" || o.style === "library")
    row.multiSelectCheckbox = multiSelectCheckbox(s.videoId);
  return { musicResponsiveListItemRenderer: row };
}

/** The row's `flexColumns` in the page kind's layout; `we` is the row's watch endpoint. */
function songColumns(s: SongRow, o: SongRowOptions, we: Json): Json[] {
  const album = albumRun(s);
  // Saved episodes (`SE`) are listed as rows whose title opens the episode page.
  if (s.videoType === "MUSIC_VIDEO_TYPE_PODCAST_EPISODE") {
    return [
      flex([run(s.title, browse(`MPED${s.videoId}`, PAGE.episode))]),
      flex([
        run(s.artistName, browse(s.channelId, s.channelId.startsWith("MPSP") ? PAGE.podcast : PAGE.channel)),
      ]),
      flex(album ? [album] : []),
    ];
  }
  switch (o.style) {
    case "album": {
      // The artist column of a one-artist album is empty, an empty text object (capture
      // ytm_2024_03_get_album); only albums whose rows differ in artists name them (captures
      // yt_get_album_20240724, yt_get_album_not_signed_in_20250611): here, a song with a featured
      // artist.
      const artists = artistRuns(s);
      return [
        flex([run(s.title, we)]),
        flex(artists.length > 1 ? artists : []),
        flex([run(`${abbreviate(s.views)} plays`)]),
      ];
    }
    case "search":
    case "search-typed":
      return searchColumns(s, we, album, o.style === "search-typed");
    default:
      return listColumns(s, we, album, Boolean(o.contributor));
  }
}

/**
 * Search rows' columns. Filtered search: `Artist • Album • 3:12` (songs) or `Artist • 1.2M views •
 * 3:12` (videos), then the plays; unfiltered (`typed`) search prefixes the type: `Song • Artist •
 * Album • 3:12`, and has no plays column.
 */
function searchColumns(s: SongRow, we: Json, album: Json | null, typed: boolean): Json[] {
  const isSong = s.videoType === "MUSIC_VIDEO_TYPE_ATV";
  const second = isSong ? (album ?? run(s.albumTitle ?? "")) : run(`${abbreviate(s.views)} views`);
  if (typed) {
    return [
      flex([run(s.title, we)]),
      flex(dotted([run(isSong ? "Song" : "Video"), artistRuns(s), second, run(clock(s.durationSeconds))])),
    ];
  }
  return [
    flex([run(s.title, we)]),
    flex(dotted([artistRuns(s), second, run(clock(s.durationSeconds))])),
    flex([run(`${abbreviate(s.views)} plays`)], "MUSIC_RESPONSIVE_LIST_ITEM_COLUMN_DISPLAY_PRIORITY_MEDIUM"),
  ];
}

/** Playlist and library rows' columns: title, artist, album; a collaborative playlist adds the duration before the album. */
function listColumns(s: SongRow, we: Json, album: Json | null, collaborative: boolean): Json[] {
  const albumColumn = flex(album ? [album] : [], "MUSIC_RESPONSIVE_LIST_ITEM_COLUMN_DISPLAY_PRIORITY_MEDIUM");
  if (collaborative)
    return [
      flex([run(s.title, we)]),
      flex(artistRuns(s)),
      flex([run(clock(s.durationSeconds))]),
      albumColumn,
    ];
  return [flex([run(s.title, we)]), flex(artistRuns(s)), albumColumn];
}

/** The contributor's avatar on a collaborative playlist's row (capture ytm_2025_10_get_playlist_collaborative). */
function contributorAvatar(contributor: { name: string; channelId: string }): Json {
  return {
    avatarStackViewModel: {
      avatars: [
        {
          avatarViewModel: {
            image: { sources: imageSizes(contributor.channelId, [48]) },
            accessibilityText: contributor.name,
            avatarImageSize: "AVATAR_SIZE_XS",
          },
        },
      ],
      rendererContext: {
        commandContext: { onTap: { innertubeCommand: browse(contributor.channelId, PAGE.channel) } },
      },
    },
  };
}

/** The unchecked box that selects the row for multi-select actions (playlist, album, library rows). */
function multiSelectCheckbox(videoId: string): Json {
  return {
    checkboxRenderer: {
      onSelectionChangeCommand: { updateMultiSelectStateCommand: { multiSelectItem: videoId } },
      checkedState: "CHECKBOX_CHECKED_STATE_UNCHECKED",
    },
  };
}

export function historyToken(historyId: number): string {
  return feedbackToken({ a: "history", kind: "history", id: String(historyId) });
}

// ── cards (MTRIR) ──

function card(fields: Json): Json {
  return {
    musicTwoRowItemRenderer: { aspectRatio: "MUSIC_TWO_ROW_ITEM_THUMBNAIL_ASPECT_RATIO_SQUARE", ...fields },
  };
}

export function albumCard(
  a: AlbumRow,
  marks: Marks,
  subtitleStyle: "type-year" | "type-artist" = "type-artist",
): Json {
  const nav = browse(a.browseId, PAGE.album);
  const subtitle =
    subtitleStyle === "type-year"
      ? dotted([run(a.type), run(String(a.year))])
      : dotted([run(a.type), run(a.artistName, browse(a.channelId, PAGE.artist)), run(String(a.year))]);
  const fields: Json = {
    thumbnailRenderer: musicThumbnail(imageSizes(a.browseId, [226, 544])),
    title: { runs: [run(a.title, nav)] },
    subtitle: { runs: subtitle },
    navigationEndpoint: nav,
    menu: {
      menuRenderer: {
        items: [
          navItem("Shuffle play", "MUSIC_SHUFFLE", watchPlaylist(a.audioPlaylistId, "wAEB8gECKAE%3D")),
          navItem("Start radio", "MIX", watchPlaylist(`RDAMPL${a.audioPlaylistId}`, "wAEB")),
          ...queueItems({ playlistId: a.audioPlaylistId }, "Album"),
          saveCollectionItem(a.audioPlaylistId, marks.saved(a.audioPlaylistId), "album", marks.signedIn),
          downloadPlaylistItem(a.audioPlaylistId),
          addToPlaylistItem({ playlistId: a.audioPlaylistId }, marks.signedIn),
          navItem("Go to artist", "ARTIST", browse(a.channelId, PAGE.artist)),
          shareItem(`\u0012${a.browseId}`),
        ],
      },
    },
    // Cards play the album's playlist (2025-11 and 2026 captures; 2024 ones named the first track).
    thumbnailOverlay: overlay(watchPlaylist(a.audioPlaylistId), "MUSIC_PLAY_BUTTON_SIZE_MEDIUM"),
  };
  if (a.explicit) fields.subtitleBadges = [explicitBadge()];
  return card(fields);
}

export function playlistCard(p: PlaylistRow, count: number | null, owned: boolean): Json {
  const nav = browse(`VL${p.playlistId}`, PAGE.playlist);
  const sub: Json[] = [
    run(p.authorName, p.authorChannelId ? browse(p.authorChannelId, PAGE.channel) : undefined),
  ];
  if (count !== null) sub.push({ ...DOT }, run(`${count} songs`));
  const items: Json[] = [
    navItem("Shuffle play", "MUSIC_SHUFFLE", watchPlaylist(p.playlistId, "wAEB8gECKAE%3D")),
    navItem("Start radio", "MIX", watchPlaylist(`RDAMPL${p.playlistId}`, "wAEB")),
    ...queueItems({ playlistId: p.playlistId }, "Playlist"),
  ];
  if (!owned) items.push(saveCollectionItem(p.playlistId, false));
  items.push(downloadPlaylistItem(p.playlistId));
  items.push(
    navItem("Save to playlist", "ADD_TO_PLAYLIST", { addToPlaylistEndpoint: { playlistId: p.playlistId } }),
  );
  if (owned) {
    items.push(navItem("Edit playlist", "EDIT", { playlistEditorEndpoint: { playlistId: p.playlistId } }));
    items.push(deletePlaylistItem(p.playlistId));
  }
  items.push(shareItem(`\u0012${p.playlistId}`));
  return card({
    thumbnailRenderer: musicThumbnail(imageSizes(p.playlistId, [226, 544])),
    title: { runs: [run(p.title, nav)] },
    subtitle: { runs: sub },
    navigationEndpoint: nav,
    menu: { menuRenderer: { items } },
    thumbnailOverlay: overlay(watchPlaylist(p.playlistId), "MUSIC_PLAY_BUTTON_SIZE_MEDIUM"),
  });
}

/**
 * An artist card. With `subscribed` (a signed-in user's Listen again shelf, capture
 * yt_set_taste_profile_20240723) it carries the artist's menu: shuffle, radio, a subscribe toggle
 * whose two sides are the subscribe and unsubscribe endpoints, and share.
 */
export function artistCard(a: ArtistRow, subscribed?: boolean): Json {
  const nav = browse(a.channelId, a.kind === "artist" ? PAGE.artist : PAGE.channel);
  const fields: Json = {
    thumbnailRenderer: musicThumbnail(imageSizes(a.channelId, [226, 544])),
    title: { runs: [run(a.name, nav)] },
    subtitle: text(`${abbreviate(a.subscribers)} subscribers`),
    navigationEndpoint: nav,
    aspectRatio: "MUSIC_TWO_ROW_ITEM_THUMBNAIL_ASPECT_RATIO_CIRCLE",
  };
  if (subscribed !== undefined) {
    const mix = { shuffle: `RDAO${a.channelId.slice(2)}`, radio: `RDEM${a.channelId.slice(2)}` };
    fields.menu = {
      menuRenderer: {
        items: [
          navItem("Shuffle play", "MUSIC_SHUFFLE", watchPlaylist(mix.shuffle, "wAEB8gECGAE%3D")),
          navItem("Start radio", "MIX", watchPlaylist(mix.radio, "wAEB")),
          {
            toggleMenuServiceItemRenderer: {
              defaultText: text("Subscribe"),
              defaultIcon: { iconType: "SUBSCRIBE" },
              defaultServiceEndpoint: { subscribeEndpoint: { channelIds: [a.channelId], params: "GAA%3D" } },
              toggledText: text("Unsubscribe"),
              toggledIcon: { iconType: "SUBSCRIBE" },
              toggledServiceEndpoint: {
                unsubscribeEndpoint: { channelIds: [a.channelId], params: "GAA%3D" },
              },
              isToggled: subscribed,
            },
          },
          shareItem(a.channelId),
        ],
      },
    };
  }
  return card(fields);
}

/**
 * A video card; on artist pages it plays inside the artist's videos playlist, at its position. On
 * a user's page (`user`) the subtitle names the user's channel instead of the artist, and the menu
 * is the full one of a video (radio, queue, like, download, save, share; captures
 * yt_get_user_20250707, yt_get_user_videos_20250707).
 */
export function videoCard(
  s: SongRow,
  inPlaylist?: { playlistId: string; index: number },
  user?: { name: string; channelId: string; marks: Marks },
): Json {
  const we = watch(s.videoId, { videoType: s.videoType, ...inPlaylist });
  const owner = user ? run(user.name, browse(user.channelId, PAGE.channel)) : artistRun(s);
  const queue = queueItems({ videoId: s.videoId }, "Video");
  const items = user
    ? [
        navItem(
          "Start radio",
          "MIX",
          watch(s.videoId, { videoType: s.videoType, playlistId: `RDAMVM${s.videoId}`, params: "wAEB" }),
        ),
        ...queue,
        likeMenuToggle(s.videoId, user.marks.likeStatus(s.videoId) === "LIKE", user.marks.signedIn),
        downloadVideoItem(s.videoId),
        addToPlaylistItem({ videoId: s.videoId }, user.marks.signedIn),
        ...(user.marks.signedIn ? [pinToggle("video", s.videoId, false)] : []),
        shareItem(s.videoId),
      ]
    : [...queue, shareItem(s.videoId)];
  return card({
    thumbnailRenderer: musicThumbnail(imageSizes(s.videoId, [], true)),
    title: { runs: [run(s.title, we)] },
    subtitle: { runs: dotted([owner, run(`${abbreviate(s.views)} views`)]) },
    navigationEndpoint: we,
    menu: { menuRenderer: { items } },
    thumbnailOverlay: overlay(we, "MUSIC_PLAY_BUTTON_SIZE_MEDIUM"),
    aspectRatio: "MUSIC_TWO_ROW_ITEM_THUMBNAIL_ASPECT_RATIO_RECTANGLE_16_9",
  });
}

/**
 * A song card (home rows). Listen-again cards of a signed-in user carry the library toggle and the
 * pin toggle (`KEEP`, state in `isToggled`, docs/PROTOCOL.md#menus-and-ratings).
 */
export function songCard(s: SongRow, marks?: Marks, listenAgain = false): Json {
  const we = watch(s.videoId, { videoType: s.videoType, playlistId: `RDAMVM${s.videoId}` });
  const sub: (Json | Json[])[] = [run("Song"), artistRuns(s)];
  const album = albumRun(s);
  if (album) sub.push(album);
  const fields: Json = {
    thumbnailRenderer: musicThumbnail(imageSizes(s.videoId, [226, 544])),
    title: { runs: [run(s.title, we)] },
    subtitle: { runs: dotted(sub) },
    navigationEndpoint: we,
    thumbnailOverlay: overlay(we, "MUSIC_PLAY_BUTTON_SIZE_MEDIUM"),
  };
  if (marks?.signedIn) {
    const items: Json[] = [
      navItem("Start radio", "MIX", watch(s.videoId, { playlistId: `RDAMVM${s.videoId}`, params: "wAEB" })),
      ...queueItems({ videoId: s.videoId }, "Song"),
      libraryToggle("song", s.videoId, marks.inLibrary("song", s.videoId)),
    ];
    if (listenAgain) items.push(pinToggle("song", s.videoId, marks.inLibrary("pin", s.videoId)));
    items.push(shareItem(s.videoId));
    fields.menu = { menuRenderer: { items } };
  }
  return card(fields);
}

/**
 * "Pin to Listen again". Songs keep the pin (it orders the Listen again shelf); the service offers
 * the toggle on a signed-in user's video and podcast cards too (captures yt_get_user_videos_20250707,
 * yt_get_library_podcasts_20250626), where the emulator acknowledges it without keeping state.
 */
export function pinToggle(kind: string, id: string, pinned: boolean): Json {
  return toggleItem(
    {
      text: "Pin to Listen again",
      icon: "KEEP",
      endpoint: feedbackAction("pin", kind, id, "Pinned to Listen again"),
    },
    {
      text: "Unpin from Listen again",
      icon: "KEEP_OFF",
      endpoint: feedbackAction("unpin", kind, id, "Unpinned from Listen again"),
    },
    pinned,
  );
}

/** A podcast card; `inLibrary` cards (the signed-in library page) carry the pin toggle. */
export function podcastCard(p: PodcastRow, inLibrary = false): Json {
  const nav = browse(`MPSP${p.playlistId}`, PAGE.podcast);
  return card({
    thumbnailRenderer: musicThumbnail(imageSizes(p.playlistId, [226, 544])),
    title: { runs: [run(p.title, nav)] },
    subtitle: { runs: [run(p.channelName, browse(p.channelId, PAGE.channel))] },
    navigationEndpoint: nav,
    menu: {
      menuRenderer: {
        items: [
          saveCollectionItem(p.playlistId, false, "podcast"),
          ...queueItems({ playlistId: p.playlistId }, "Podcast"),
          downloadPlaylistItem(p.playlistId),
          navItem("Save to playlist", "ADD_TO_PLAYLIST", {
            addToPlaylistEndpoint: { playlistId: p.playlistId },
          }),
          ...(inLibrary ? [pinToggle("podcast", p.playlistId, false)] : []),
          shareItem(`\u0012${p.playlistId}`),
        ],
      },
    },
    thumbnailOverlay: overlay(watchPlaylist(p.playlistId), "MUSIC_PLAY_BUTTON_SIZE_MEDIUM"),
  });
}

/** A podcast episode row (MMRIR). */
export function episodeRow(e: EpisodeRow, index: number, dates?: DateStyle): Json {
  const nav = browse(`MPED${e.videoId}`, PAGE.episode);
  const we = watch(e.videoId, {
    playlistId: e.podcastPlaylistId,
    index,
    videoType: "MUSIC_VIDEO_TYPE_PODCAST_EPISODE",
  });
  return {
    musicMultiRowListItemRenderer: {
      thumbnail: musicThumbnail(imageSizes(e.videoId, [], true)),
      overlay: overlay(we),
      onTap: we,
      menu: {
        menuRenderer: {
          items: [
            {
              toggleMenuServiceItemRenderer: {
                defaultText: text("Save episode for later"),
                defaultIcon: { iconType: "BOOKMARK_BORDER" },
                defaultServiceEndpoint: {
                  playlistEditEndpoint: {
                    playlistId: "SE",
                    actions: [
                      {
                        addedVideoId: e.videoId,
                        action: "ACTION_ADD_VIDEO",
                        dedupeOption: "DEDUPE_OPTION_CHECK",
                      },
                    ],
                  },
                },
                toggledText: text("Remove from Episodes for later"),
                toggledIcon: { iconType: "BOOKMARK" },
                toggledServiceEndpoint: {
                  playlistEditEndpoint: {
                    playlistId: "SE",
                    actions: [{ action: "ACTION_REMOVE_VIDEO_BY_VIDEO_ID", removedVideoId: e.videoId }],
                  },
                },
                isToggled: false,
              },
            },
            markPlayedItem(e.videoId),
            ...queueItems({ videoId: e.videoId }, "Episode"),
            downloadVideoItem(e.videoId),
            navItem("Save to playlist", "ADD_TO_PLAYLIST", { addToPlaylistEndpoint: { videoId: e.videoId } }),
            navItem("Go to podcast", "BROADCAST", browse(`MPSP${e.podcastPlaylistId}`, PAGE.podcast)),
            shareItem(e.videoId),
          ],
        },
      },
      subtitle: text(episodeDate(e.publishedDay * 86_400_000, dates)),
      playbackProgress: {
        musicPlaybackProgressRenderer: {
          playbackProgressPercentage: 0,
          playbackProgressText: text(clock(e.durationSeconds)),
          durationText: { runs: [{ text: "" }, { text: episodeLength(e.durationSeconds) }] },
        },
      },
      title: { runs: [run(e.title, nav)] },
      description: text(e.description),
      displayStyle: "MUSIC_MULTI_ROW_LIST_ITEM_DISPLAY_STYLE_ONE_LINE_DESCRIPTION",
      secondTitle: { runs: [run(e.podcastTitle, browse(`MPSP${e.podcastPlaylistId}`, PAGE.podcast))] },
      secondaryBadges: [
        {
          musicInlineBadgeRenderer: {
            icon: { iconType: "RSS" },
            accessibilityData: { accessibilityData: { label: "This podcast was added via an RSS feed" } },
          },
        },
      ],
    },
  };
}

/**
 * An episode row of explore's "Popular episodes" (capture ytm_2025_11_get_explore): the podcast
 * page's row, but it plays the episode on its own (a bare watchEndpoint with the service's episode
 * `params`, no playlist), its subtitle gives the date and the length, and it has no progress bar or
 * RSS badge.
 */
export function exploreEpisodeRow(e: EpisodeRow, dates?: DateStyle): Json {
  const {
    playbackProgress: _p,
    secondaryBadges: _b,
    ...row
  } = episodeRow(e, 0, dates).musicMultiRowListItemRenderer as Json;
  const we = watch(e.videoId, { params: "8gEDmAEI", videoType: "MUSIC_VIDEO_TYPE_PODCAST_EPISODE" });
  const date = episodeDate(e.publishedDay * 86_400_000, dates);
  return {
    musicMultiRowListItemRenderer: {
      ...row,
      overlay: overlay(we),
      onTap: we,
      subtitle: {
        runs: [{ text: date }, { text: " \u2022 " }, { text: episodeLength(e.durationSeconds) }],
        accessibility: {
          accessibilityData: { label: `${date} \u2022 ${spokenDuration(e.durationSeconds)}` },
        },
      },
      displayStyle: "MUSIC_MULTI_ROW_LIST_ITEM_DISPLAY_STYLE_EXPANDED",
    },
  };
}

/** Episode lengths read `52 min`, `1 hr 5 min`. */
export function episodeLength(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return h ? `${h} hr ${m} min` : `${m} min`;
}

/** "Mark as played" on an episode (a feedback token with a toast, as in the podcast captures). */
export function markPlayedItem(videoId: string): Json {
  const endpoint = (a: "pin" | "unpin", message: string) => ({
    feedbackEndpoint: {
      feedbackToken: feedbackToken({ a, kind: "played", id: videoId }),
      actions: [notificationAction(message)],
    },
  });
  return {
    toggleMenuServiceItemRenderer: {
      defaultText: text("Mark as played"),
      defaultIcon: { iconType: "CHECK" },
      defaultServiceEndpoint: endpoint("pin", "Episode marked as played"),
      toggledText: text("Mark as unplayed"),
      toggledIcon: { iconType: "CHECK" },
      toggledServiceEndpoint: endpoint("unpin", "Episode marked as unplayed"),
      isToggled: false,
    },
  };
}
